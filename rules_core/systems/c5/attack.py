"""Melee and shooting, each its test(s) and its wound roll in one chain (digest §3.1, §3.2).

Melee [BG, C3 skeleton, medium confidence]: one pass of arms: the attack test d6 + ATT (no
difficulty unless one is declared with diff=; the C5 natural-1 rule applies, @4060), an
optional defence test d6 + DIF that parries when it reaches the attack's result (the
`parry_tie` setting), then the wound roll. Wound penalties (@10224) apply to the final results
of ATT and DIF tests and to the attacker's melee wound roll.

Shooting [BG range bands 7/10/13, medium confidence, the `range_*` settings]: d6 + TIR vs the
band's difficulty + modifiers; Tiro in Assalto / di Reazione use a fixed 7, or 4 when printed,
with no other modifier (@105867, @108535); Mira adds the printed TIR to the weapon's STR, -1 at
medium and -2 at long range (@89109); +2 difficulty per altitude level (@20741).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.steps import Modifier, Step
from rules_core.systems.c5 import tables
from rules_core.systems.c5.checks import resolve_test
from rules_core.systems.c5.models import (
    C5Settings,
    TestRequest,
    WoundOutcome,
    WoundRequest,
)
from rules_core.systems.c5.wound import resolve_wound

Range = Literal["short", "medium", "long"]
Fire = Literal["normal", "assault", "reaction"]
MIRA_MALUS = {"short": 0, "medium": 1, "long": 2}  # @89109


class MeleeRequest(BaseModel):
    attack: TestRequest
    defence: TestRequest | None  # None: no defence die spent on this attack
    wound: WoundRequest


class ShootRequest(BaseModel):
    test: TestRequest
    wound: WoundRequest
    range: Range = "short"
    fire: Fire = "normal"
    printed: bool = False  # the free fire ability is printed on the card: difficulty 4
    diff_mod: int = 0
    altitude: int = Field(default=0, ge=0, le=2)  # levels of separation, 0-2 (@20741)
    mira: bool = False
    mira_printed: bool = False  # Mira printed on a Character's card: no range malus (@89109)
    aim_printed: int | None = None  # printed TIR for Mira (defaults to the test's value)
    zone: bool = False  # zone artillery: a natural 1 simply fails (@40747)
    penalty: int = 0  # the shooter's wound penalty (positive), already in `test.mod`


class AttackOutcome(BaseModel):
    hit: bool
    parried: bool
    total: int
    success: bool
    natural_one: bool
    auto_failed: bool = False  # failed by the natural-1 rule itself, whatever the difficulty
    defence_total: int | None = None
    location: int | None = None
    column: int | None = None
    wounds: int = 0
    stunned: bool = False
    exceptional: bool = False
    result: str = "none"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def column_label(self) -> str | None:
        """The wound table's column as the book heads it and the reply says it: `12/13`."""
        return None if self.column is None else tables.BAND_LABELS[self.column]


def _merge(out: AttackOutcome, wound: WoundOutcome) -> AttackOutcome:
    return out.model_copy(
        update={
            "location": wound.location,
            "column": wound.column,
            "wounds": wound.wounds,
            "stunned": wound.stunned,
            "exceptional": wound.exceptional,
            "result": wound.result,
        }
    )


def parries(defence_total: int, defence_failed: bool, attack_total: int, parry_tie: str) -> bool:
    if defence_failed:
        return False
    if parry_tie == "defender":
        return defence_total >= attack_total
    return defence_total > attack_total


def resolve_melee(
    req: MeleeRequest, source: DiceSource, settings: C5Settings
) -> tuple[list[Step], AttackOutcome]:
    open_ended = settings.open_ended == "yes"
    steps: list[Step] = []
    a_step, a = resolve_test(req.attack, source, open_ended=open_ended, name="attack")
    steps.append(a_step)
    out = AttackOutcome(
        hit=False,
        parried=False,
        total=a.total,
        success=a.success,
        natural_one=a.natural_one,
        auto_failed=a.failed,
    )
    if not a.success:
        return steps, out
    if req.defence is not None:
        d_step, d = resolve_test(req.defence, source, open_ended=open_ended, name="defence")
        blocked = parries(d.total, d.failed, a.total, settings.parry_tie)
        d_step.target = a.total
        d_step.outcome = "parried" if blocked else ("fail_natural_one" if d.failed else "fail")
        steps.append(d_step)
        out = out.model_copy(update={"defence_total": d.total, "parried": blocked})
        if blocked:
            return steps, out
    w_step, w = resolve_wound(
        req.wound,
        source,
        minus_three=settings.minus_three,
        melee_penalty=settings.melee_penalty,
        sacred_on_nothing=settings.sacred_on_nothing == "yes",
    )
    steps.append(w_step)
    return steps, _merge(out.model_copy(update={"hit": True}), w)


def shoot_difficulty(req: ShootRequest, settings: C5Settings) -> tuple[int, list[Modifier]]:
    if req.fire != "normal":  # fixed difficulty, no other modifier (@105867, @108535)
        free, printed = tables.FIXED_FIRE[req.fire]
        value = printed if req.printed else free
        return value, [Modifier(name=f"fire_{req.fire}", value=value)]
    base = {
        "short": settings.range_short,
        "medium": settings.range_medium,
        "long": settings.range_long,
    }[req.range]
    mods = [Modifier(name=f"range_{req.range}", value=base)]
    if req.altitude:
        mods.append(Modifier(name="altitude", value=tables.ALTITUDE_STEP * req.altitude))
    if req.diff_mod:
        mods.append(Modifier(name="diff_mod", value=req.diff_mod))
    return sum(m.value for m in mods), mods


def shooting_wound(req: ShootRequest) -> WoundRequest:
    """Mira (@89109): STR + printed TIR, -1 at medium and -2 at long range (a Character with Mira
    printed on the card ignores that malus); never with assault or reaction fire."""
    if not req.mira and not req.mira_printed:
        return req.wound
    if req.fire != "normal":
        raise UserError("c5.mira_free_fire")
    printed = req.aim_printed if req.aim_printed is not None else req.test.value
    bonus = printed - (0 if req.mira_printed else MIRA_MALUS[req.range])
    return req.wound.model_copy(update={"str_": req.wound.str_ + bonus})


def shoot_test_request(req: ShootRequest, settings: C5Settings) -> TestRequest:
    diff, _ = shoot_difficulty(req, settings)
    update: dict[str, object] = {"diff": diff, "plain_one": req.zone}
    if req.fire != "normal":
        # Free fire: no modifier changes its difficulty (@106657, @109072), but the shooter's
        # wound penalty still falls on the result (@10224); a typed aim_mod does not apply.
        update["mod"] = -req.penalty
    return req.test.model_copy(update=update)


def resolve_shoot(
    req: ShootRequest, source: DiceSource, settings: C5Settings
) -> tuple[list[Step], AttackOutcome]:
    test = shoot_test_request(req, settings)
    wound_req = shooting_wound(req)  # refuse Mira with free fire before rolling anything
    _, diff_mods = shoot_difficulty(req, settings)
    t_step, t = resolve_test(test, source, open_ended=settings.open_ended == "yes", name="shoot")
    t_step.detail = {**t_step.detail, **{m.name: m.value for m in diff_mods}}
    steps = [t_step]
    out = AttackOutcome(
        hit=t.success,
        parried=False,
        total=t.total,
        success=t.success,
        natural_one=t.natural_one,
        auto_failed=t.failed,
    )
    if not t.success:
        return steps, out
    w_step, w = resolve_wound(
        wound_req,
        source,
        minus_three=settings.minus_three,
        sacred_on_nothing=settings.sacred_on_nothing == "yes",
    )
    if req.mira or req.mira_printed:  # show the weapon's STR and the Mira bonus apart
        w_step.modifiers[0] = Modifier(name="str", value=req.wound.str_)
        w_step.modifiers.insert(1, Modifier(name="mira", value=wound_req.str_ - req.wound.str_))
    steps.append(w_step)
    return steps, _merge(out, w)
