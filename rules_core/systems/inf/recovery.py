"""Bringing a model back: Doctor, MediKit, AutoMediKit and Regeneration (digest §3.9, §5.5,
§5.7). Each is one Normal roll; the roll, its target and what a success or a failure does to
the patient are decided here, with the exact chance of each.

Rules applied (lines of ../shared/seeds/003_27b81155ce3a4b9f.txt):
- L2441-2451 Doctor: a short skill in base contact; the Doctor's WIP roll brings an Unconscious
  patient back to normal with 1 wound recovered; a failure kills the patient. No limit on
  attempts while the rolls succeed.
- L3617-3625 MediKit: only for Unconscious models; a roll on the PATIENT's PH with MOD -3; a
  failure kills the patient, a success recovers 1 wound and the model is conscious again (its
  Order returns to the pool).
- L3508-3516 AutoMediKit: 1 Order; the model's own PH roll (no MOD), usable while Unconscious
  (L1378-1379); a success recovers 1 wound, a failure kills it.
- L2675-2688 Regeneration: a short skill; a PH roll recovers 1 wound, leaving Unconscious if
  needed; a failure while Unconscious kills, a failure while merely wounded does nothing. A
  Dead model never regenerates (L2682-2684: W1 and two failed ARM rolls is Dead).
- L1302-1303 Coordinated Doctor / MediKit: one passed and one failed roll cancel each other,
  leaving the patient as it was (two passes recover, two failures kill).
- L1390-1393: Dead (more wounds than W) is final: nothing brings a Dead model back.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, Field

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.steps import Modifier, Step
from rules_core.systems.inf.rolls import evaluate

Method = Literal["doctor", "medikit", "automedikit", "regeneration"]
METHODS: tuple[Method, ...] = ("doctor", "medikit", "automedikit", "regeneration")
MEDIKIT_MOD = -3  # L3619-3620
Result = Literal["recovered", "dead", "unchanged"]


class Patient(BaseModel):
    """The model being healed: its W (or STR), wounds so far and PH."""

    w: int = Field(ge=1, le=9)
    wounds: int = Field(ge=0, le=10)
    ph: int | None = Field(default=None, ge=0, le=30)

    @property
    def state(self) -> Literal["ok", "unconscious", "dead"]:
        if self.wounds > self.w:
            return "dead"
        return "unconscious" if self.wounds == self.w else "ok"


class HealRequest(BaseModel):
    method: Method
    patient: Patient
    wip: int | None = Field(default=None, ge=0, le=30)  # the Doctor's WIP
    mod: int = Field(default=0, ge=-30, le=30)
    # Coordinated Doctor / MediKit (L1302-1303): two rolls on the same patient.
    coordinated: bool = False


class HealOutcome(BaseModel):
    result: Result
    passed: int
    failed: int
    target: int
    wounds_after: int
    state_after: Literal["ok", "unconscious", "dead"]


def roll_target(req: HealRequest) -> tuple[int, list[Modifier], str]:
    """The roll's target, its MODs and the attribute's name, after checking the patient may
    be treated this way."""
    p = req.patient
    if p.state == "dead":
        raise UserError("inf.heal_dead")
    # the Doctor, a MediKit and the AutoMediKit bring a model out of Unconscious, nothing else
    # (L3510-3515 for the AutoMediKit: on a conscious model a failure would kill it)
    if req.method in ("doctor", "medikit", "automedikit") and p.state != "unconscious":
        raise UserError("inf.heal_needs_unconscious", method=req.method)
    if req.method == "regeneration" and p.wounds == 0:
        raise UserError("inf.heal_not_wounded")
    if req.coordinated and req.method not in ("doctor", "medikit"):
        raise UserError("inf.heal_coordinated")
    if req.method == "doctor":
        if req.wip is None:
            raise UserError("inf.heal_needs_wip")
        attr, name = req.wip, "wip"
        mods = [Modifier(name="mod", value=req.mod)] if req.mod else []
    else:
        if p.ph is None:
            raise UserError("inf.heal_needs_ph")
        attr, name = p.ph, "ph"
        mods = [Modifier(name="medikit", value=MEDIKIT_MOD)] if req.method == "medikit" else []
        if req.mod:
            mods.append(Modifier(name="mod", value=req.mod))
    return attr + sum(m.value for m in mods), mods, name


def result_of(req: HealRequest, passed: int, failed: int) -> Result:
    """What the rolls do (L1302-1303 for two coordinated rolls that disagree)."""
    if passed and failed:
        return "unchanged"
    if passed:
        return "recovered"
    if req.method == "regeneration" and req.patient.state != "unconscious":
        return "unchanged"  # L2678-2679: only an Unconscious regenerator dies of a failure
    return "dead"


def wounds_after(req: HealRequest, result: Result) -> int:
    p = req.patient
    if result == "recovered":
        return p.wounds - 1
    if result == "dead":
        return p.w + 1
    return p.wounds


def resolve_heal(req: HealRequest, source: DiceSource) -> tuple[list[Step], HealOutcome]:
    target, mods, attr_name = roll_target(req)
    rolls = 2 if req.coordinated else 1
    dice = [evaluate(source.roll(20), target) for _ in range(rolls)] if target > 0 else []
    passed = sum(d.success for d in dice)
    failed = rolls - passed
    result = result_of(req, passed, failed)
    after = wounds_after(req, result)
    attr = req.wip if attr_name == "wip" else req.patient.ph
    step = Step(
        name=f"heal_{req.method}",
        dice=[d.face for d in dice],
        modifiers=mods,
        target=target,
        total=passed,
        outcome="auto_fail" if target <= 0 else result,
        detail={
            "attr": attr,
            "attr_name": attr_name,
            "marks": [("C" if d.critical else "S") if d.success else "F" for d in dice],
        },
    )
    state = Patient(w=req.patient.w, wounds=min(after, 10), ph=req.patient.ph).state
    out = HealOutcome(
        result=result,
        passed=passed,
        failed=failed,
        target=target,
        wounds_after=after,
        state_after=state,
    )
    return [step], out


def p_success(target: int) -> Fraction:
    """One Normal roll's chance (L362-398: <= target, above 20 always, 0 or less never)."""
    return Fraction(max(0, min(target, 20)), 20)


def heal_odds(req: HealRequest) -> dict[Result, Fraction]:
    """The exact chance of each result."""
    target, _, _ = roll_target(req)
    p = p_success(target)
    if not req.coordinated:
        cases = {(1, 0): p, (0, 1): 1 - p}
    else:
        cases = {(2, 0): p * p, (1, 1): 2 * p * (1 - p), (0, 2): (1 - p) * (1 - p)}
    out: dict[Result, Fraction] = {}
    for (passed, failed), chance in cases.items():
        r = result_of(req, passed, failed)
        out[r] = out.get(r, Fraction(0)) + chance
    return {r: c for r, c in out.items() if c}
