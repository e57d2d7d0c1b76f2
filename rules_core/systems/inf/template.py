"""Template weapons and automatic hits: Flamethrowers, Chain Rifles, Nanopulsers, Mines (digest
§3.3). There is no attack roll: every model under the template is hit and makes the saves the
ammunition demands, unless it dodges.

Rules applied (lines of ../shared/seeds/003_27b81155ce3a4b9f.txt):
- L947-950, L3203-3207, L3356-3359: a direct template needs no BS roll; every model the
  template touches makes its ARM roll (or the saves of the weapon's ammunition, digest §3.7).
- L925-931: every model whose base the template touches is affected; a model in partial cover
  gets its +3 when its base touches the cover.
- L951-955, L3358-3359: a model that answers with a shot is hit all the same (its own shot is a
  Normal roll, made apart: there is no Face to Face against a template).
- L955-956, L2010-2014, L3360-3361, L3413: a model that Dodges makes a PH roll at -6; a success
  avoids the template even inside it. Other MODs (a TAG's -6, L2008-2009) are added by the
  player (`dodge_mod`).
- L960-965: two direct templates on the same model (two Chain Rifles) are two hits, and one
  Dodge roll at -6 avoids both.
- L943-946: with an area template, a critical on the attack roll gives its target a wound with
  no ARM roll (then the rest of its ammunition's saves); every other model saves normally.
- L1352-1367: a model that survives a hit makes one Guts roll (as for any ranged hit).

Dice: first the Dodge rolls of the models that dodge, in their order, then each model's saves
in order (the order changes no number).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pydantic import BaseModel, Field

from rules_core.dice import DiceSource
from rules_core.dice.distribution import Distribution
from rules_core.errors import UserError
from rules_core.steps import Modifier, Step
from rules_core.systems.inf.attack import Tally, death_limit, guts_due, hit_program, run_program
from rules_core.systems.inf.models import InfSettings, Side, State
from rules_core.systems.inf.odds import (
    SideOdds,
    SideResult,
    TState,
    _odds,
    _result,
    _untouched,
    side_tally,
)
from rules_core.systems.inf.recovery import p_success
from rules_core.systems.inf.rolls import Die, evaluate

DODGE_MOD = -6  # L955-956, L2010-2014
MAX_TARGETS = 8


class TemplateTarget(BaseModel):
    """One model under the template: the profile it saves with (`Side`'s ARM, BTS, W, wounds,
    PH, cover...), whether it dodges, and how many templates touch it."""

    name: str = Field(default="", max_length=40)
    profile: Side
    dodge: bool = False
    dodge_mod: int = Field(default=0, ge=-30, le=30)
    hits: int = Field(default=1, ge=1, le=2)  # two direct templates: L960-965
    critical: bool = False  # an area template's target hit by a critical (L943-946)

    def dodge_target(self) -> int:
        if self.profile.ph is None:
            raise UserError("inf.dodge_needs_ph", unit=self.name or "?")
        return self.profile.ph + DODGE_MOD + self.dodge_mod


class TemplateRequest(BaseModel):
    dam: int = Field(ge=0, le=30)
    ammo: str = "N"
    targets: list[TemplateTarget] = Field(min_length=1, max_length=MAX_TARGETS)

    def shooter(self) -> Side:
        return Side(attr=0, dam=self.dam, ammo=self.ammo)


class TargetOutcome(BaseModel):
    name: str
    dodged: bool
    hits: int
    wounds: int
    state: State
    guts_roll: bool
    disabled: bool
    immobilized: bool


def resolve_template(
    req: TemplateRequest, source: DiceSource, settings: InfSettings
) -> tuple[list[Step], list[TargetOutcome]]:
    steps: list[Step] = []
    dodged: list[bool] = []
    for t in req.targets:
        if not t.dodge:
            dodged.append(False)
            continue
        target = t.dodge_target()
        die = evaluate(source.roll(20), target) if target > 0 else None
        ok = die is not None and die.success
        dodged.append(ok)
        steps.append(
            Step(
                name="dodge",
                dice=[die.face] if die is not None else [],
                modifiers=[
                    Modifier(name="template", value=DODGE_MOD),
                    *([Modifier(name="mod", value=t.dodge_mod)] if t.dodge_mod else []),
                ],
                target=target,
                total=int(ok),
                outcome="auto_fail" if die is None else ("dodged" if ok else "hit"),
                detail={"attr": t.profile.ph, "side": t.name, "marks": _marks(die)},
            )
        )
    outcomes = []
    em = req.ammo in ("EM", "PLASMA")
    for t, escaped in zip(req.targets, dodged, strict=True):
        p = t.profile
        tally = Tally(prior=p.wounds, w=p.w, limit=death_limit(p, settings))
        tally.em_hit = em
        if not escaped:
            for i in range(t.hits):
                ops = hit_program(req.ammo, req.dam, t.critical and i == 0, p, settings, 0, True)
                run_program(ops, tally, source, t.name)
        steps += tally.steps
        outcomes.append(
            TargetOutcome(
                name=t.name,
                dodged=escaped,
                hits=0 if escaped else t.hits,
                wounds=tally.wounds,
                state=tally.state(),
                guts_roll=guts_due(tally, p, False, not escaped),
                disabled=tally.disabled,
                immobilized=tally.immobilized,
            )
        )
    return steps, outcomes


def _marks(die: Die | None) -> list[str]:
    if die is None:
        return []
    return [("C" if die.critical else "S") if die.success else "F"]


@dataclass
class TargetOdds:
    name: str
    p_dodge: Fraction
    odds: SideOdds


def template_odds(req: TemplateRequest, settings: InfSettings) -> list[TargetOdds]:
    """Each model's exact odds: it dodges with P(PH-6 roll), else it takes its hits."""
    shooter = req.shooter()
    em = req.ammo in ("EM", "PLASMA")
    out = []
    for t in req.targets:
        p = t.profile
        limit = death_limit(p, settings)
        p_dodge = p_success(t.dodge_target()) if t.dodge else Fraction(0)
        crits = 1 if t.critical else 0
        tally = side_tally(shooter, p, crits, t.hits - crits, settings, 0, True)

        def result(s: TState, p: Side = p, lim: int = limit) -> SideResult:
            return _result(s, p, em, False, True, lim)

        hit = tally.map(result)
        untouched = _untouched(p, limit)
        results: Distribution[SideResult] = Distribution.mixture(
            [(p_dodge, untouched), (1 - p_dodge, hit)]
        )
        out.append(TargetOdds(name=t.name, p_dodge=p_dodge, odds=_odds(results)))
    return out
