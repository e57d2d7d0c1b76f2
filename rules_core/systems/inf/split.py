"""A Burst split between several targets (digest §2.5): each target faces only the dice aimed at
it, in its own Face to Face roll (or Normal rolls when it does not oppose); the active model
collects the hits of every target that beat it, and counts its wounds over the whole order.

Rules applied (lines of ../shared/seeds/003_27b81155ce3a4b9f.txt):
- L856-859: the shots of a Burst may be divided among every enemy in LoF and in range; the
  whole Burst comes from one point. The active model need not use every shot (L861-863).
- L454-469 (example 2 against 1), L707-718, L872-885: each target's reaction is compared only
  with the dice aimed at it: one Face to Face roll per target, each settled as one-against-one
  (rolls.ftf_dice); a target that does not react is shot with Normal rolls (L470-478).
- L464-466: the active model's ARM rolls come after every Face to Face roll of the order.
- L1368-1373: wounds are counted at the end of the order, over every hit, so the active model
  hit back by two targets saves against both before its state is decided; one Guts roll after
  all its saves (L1366-1367).
- Close combat is not split here: a CC attack is against one model (L1107-1140).

Dice: each target in order, the active model's dice aimed at it then its reaction's; then each
target's saves in order; then the active model's saves against each target that hit it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field, model_validator

from rules_core.dice import DiceSource
from rules_core.dice.distribution import Distribution
from rules_core.errors import UserError
from rules_core.steps import Step
from rules_core.systems.inf.attack import (
    Tally,
    death_limit,
    guts_due,
    hit_program,
    run_program,
    tie_values,
)
from rules_core.systems.inf.models import AttackRequest, InfSettings, Side, State
from rules_core.systems.inf.odds import (
    START,
    SideOdds,
    TState,
    _odds,
    _result,
    attack_odds,
    run_ops,
)
from rules_core.systems.inf.rolls import ftf_dice, ftf_distribution, roll_dice, roll_step

MAX_PARTS = 6


class SplitPart(BaseModel):
    """The shots aimed at one target. `target` carries its reaction (attr, mod, burst; `dam`
    None for a Dodge) and the profile it saves with; `opposed` False: it does not react."""

    name: str = Field(default="", max_length=40)
    shots: int = Field(ge=1, le=6)
    target: Side
    opposed: bool = True
    mod: int = Field(default=0, ge=-30, le=30)  # extra MOD of the active model against it


class SplitRequest(BaseModel):
    """`active` carries the shooter's roll (attr, mod), weapon (dam, ammo, burst: the most
    shots it may fire) and the profile it saves with."""

    active: Side
    parts: list[SplitPart] = Field(min_length=1, max_length=MAX_PARTS)

    @model_validator(mode="after")
    def _within_burst(self) -> SplitRequest:
        shots = sum(p.shots for p in self.parts)
        if shots > self.active.burst:  # L856-863: up to the weapon's Burst
            raise UserError("inf.split_too_many", shots=shots, burst=self.active.burst)
        return self

    def request(self, part: SplitPart) -> AttackRequest:
        """The one-against-one attack of `part`: the shots aimed at it against its reaction."""
        active = self.active.model_copy(
            update={"burst": part.shots, "mod": self.active.mod + part.mod}
        )
        return AttackRequest(active=active, target=part.target, opposed=part.opposed)


class SplitTarget(BaseModel):
    name: str
    hits: int
    criticals: int
    hits_back: int
    wounds: int
    state: State
    guts_roll: bool
    disabled: bool
    immobilized: bool


class SplitOutcome(BaseModel):
    targets: list[SplitTarget]
    active_hits_taken: int
    active_wounds: int
    active_state: State
    active_guts_roll: bool
    active_disabled: bool
    active_immobilized: bool


def _wounds(side: Side) -> bool:
    return side.dam is not None or side.ammo == "ADH"


def resolve_split(
    req: SplitRequest, source: DiceSource, settings: InfSettings
) -> tuple[list[Step], SplitOutcome]:
    steps: list[Step] = []
    rolled = []
    for part in req.parts:
        one = req.request(part)
        a, t = one.active, one.target
        a_target, t_target = one.targets()
        a_dice = roll_dice(a_target, a.burst, source)
        t_dice = roll_dice(t_target, t.burst, source) if one.opposed else []
        if one.opposed:
            ties = tie_values(one, settings, (a_target, t_target))
            a_hits, t_hits = ftf_dice(a_dice, a_target, t_dice, t_target, ties)
        else:
            a_hits, t_hits = [d for d in a_dice if d.success], []
        crits = sum(d.critical for d in a_hits)
        active_step = roll_step("active", a.attr, a.roll_mods(t), a_dice, len(a_hits), crits)
        active_step.detail["vs"] = part.name
        steps.append(active_step)
        if one.opposed:
            back = roll_step(
                "reactive",
                t.attr,
                t.roll_mods(a),
                t_dice,
                len(t_hits),
                sum(d.critical for d in t_hits),
            )
            back.detail["vs"] = part.name
            steps.append(back)
        rolled.append((part, a_hits, t_hits))
    em_active = req.active.ammo in ("EM", "PLASMA")
    targets = []
    for part, a_hits, t_hits in rolled:
        t = part.target
        tally = Tally(prior=t.wounds, w=t.w, limit=death_limit(t, settings))
        tally.em_hit = em_active
        if _wounds(req.active):
            for die in a_hits:
                ops = hit_program(
                    req.active.ammo, req.active.dam or 0, die.critical, t, settings, 0
                )
                run_program(ops, tally, source, part.name or "target")
        steps += tally.steps
        targets.append(
            SplitTarget(
                name=part.name,
                hits=len(a_hits),
                criticals=sum(d.critical for d in a_hits),
                hits_back=len(t_hits),
                wounds=tally.wounds,
                state=tally.state(),
                guts_roll=guts_due(tally, t, False, bool(a_hits) and _wounds(req.active)),
                disabled=tally.disabled,
                immobilized=tally.immobilized,
            )
        )
    a = req.active
    mine = Tally(prior=a.wounds, w=a.w, limit=death_limit(a, settings))
    taken = 0
    for part, _, t_hits in rolled:
        shooter = part.target
        if not t_hits or not _wounds(shooter):
            continue
        taken += len(t_hits)
        mine.em_hit = mine.em_hit or shooter.ammo in ("EM", "PLASMA")
        for die in t_hits:
            ops = hit_program(shooter.ammo, shooter.dam or 0, die.critical, a, settings, 0)
            run_program(ops, mine, source, "active")
    steps += mine.steps
    out = SplitOutcome(
        targets=targets,
        active_hits_taken=taken,
        active_wounds=mine.wounds,
        active_state=mine.state(),
        active_guts_roll=guts_due(mine, a, False, taken > 0),
        active_disabled=mine.disabled,
        active_immobilized=mine.immobilized,
    )
    return steps, out


@dataclass
class SplitOdds:
    targets: list[tuple[str, SideOdds]]
    active: SideOdds


# The active model's tally with whether it was hit and whether by E/M (for its Guts roll).
ActiveState = tuple[TState, bool, bool]


def split_odds(req: SplitRequest, settings: InfSettings) -> SplitOdds:
    """Each target's exact odds (its own Face to Face, independent of the others) and the
    active model's, over the hits of every target together."""
    targets = [(p.name, attack_odds(req.request(p), settings).target) for p in req.parts]
    a = req.active
    limit = death_limit(a, settings)
    dist: Distribution[ActiveState] = Distribution.constant((START, False, False))
    for part in req.parts:
        one = req.request(part)
        if not one.opposed or not _wounds(part.target):
            continue
        a_target, t_target = one.targets()
        ties = tie_values(one, settings, (a_target, t_target))
        ftf = ftf_distribution(a_target, one.active.burst, t_target, part.target.burst, ties)
        shooter = part.target
        em = shooter.ammo in ("EM", "PLASMA")
        crit_ops = hit_program(shooter.ammo, shooter.dam or 0, True, a, settings, 0)
        ops = hit_program(shooter.ammo, shooter.dam or 0, False, a, settings, 0)

        def after(
            s: ActiveState,
            ftf: Distribution[tuple[str, int, int]] = ftf,
            em: bool = em,
            crit_ops: list = crit_ops,  # type: ignore[type-arg]
            ops: list = ops,  # type: ignore[type-arg]
        ) -> Distribution[ActiveState]:
            def case(k: tuple[str, int, int]) -> Distribution[ActiveState] | ActiveState:
                who, crits, normals = k
                if who != "reactive":
                    return s
                tally = Distribution.constant(s[0])
                for _ in range(crits):
                    tally = run_ops(tally, crit_ops, a.wounds, limit, em)
                for _ in range(normals):
                    tally = run_ops(tally, ops, a.wounds, limit, em)
                return tally.map(lambda t: (t, True, s[2] or em))

            return ftf.map(case)

        dist = dist.map(after)
    results = dist.map(lambda s: _result(s[0], a, s[2], False, s[1], limit))
    return SplitOdds(targets=targets, active=_odds(results))
