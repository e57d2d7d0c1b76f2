"""Comparing attack profiles (`/<game> compare`): for each profile, from the game's exact odds,
the expected damage, the expected models removed and the damage per 100 points.

All exact (Fractions over the one distribution type), pure, no I/O. `compute` is what the worker
pool runs: one job per profile, each the game's own odds (`Job`), so the bot side only builds
the requests from what the players typed and the units stored.

Models removed, per game:
- Age of Sigmar: the game's own slain distribution (damage allocated model by model with
  carry-over, core rules 22.2 / L579), when the target's Wounds are known.
- WARMACHINE: one attack damages one model; it is removed (disabled) when the damage reaches
  its damage boxes left, and a model without boxes is disabled by one damage point (digest
  "Damage", L3635-3643, L3759-3762), so removed = P(damage >= boxes left) for one model.
- Infinity: damage is the target's wounds taken; removed is the chance the target ends Dead
  (an Unconscious trooper stays on the table), as the game's own odds compute it.
- Confrontation: damage is the wounds one blow or shot inflicts (melee_odds / shoot_odds: the
  test, the parry, the wound table); the fighter dies when its last wound is gone (@5779), so
  removed = P(wounds >= its wounds left), when they are known.
- WoW: damage is hits minus blocks (602.1); a character is destroyed at 0 Health or less
  (403.2), so removed = P(damage >= its Health left), when it is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules_core.dice.distribution import Distribution
from rules_core.systems.aos import models as aos_models
from rules_core.systems.aos import odds as aos_odds
from rules_core.systems.c5 import attack as c5_attack
from rules_core.systems.c5 import models as c5_models
from rules_core.systems.c5 import odds as c5_odds
from rules_core.systems.inf import models as inf_models
from rules_core.systems.inf import odds as inf_odds
from rules_core.systems.wm import models as wm_models
from rules_core.systems.wm import odds as wm_odds
from rules_core.systems.wow import attack as wow_attack

MAX_PROFILES = 4


@dataclass(frozen=True)
class AosJob:
    request: aos_models.AttackRequest
    settings: aos_models.Settings


@dataclass(frozen=True)
class WmJob:
    request: wm_models.AttackRequest
    boxes: int  # the target model's damage boxes left (1: a trooper without boxes)


@dataclass(frozen=True)
class InfJob:
    request: inf_models.AttackRequest
    settings: inf_models.InfSettings


@dataclass(frozen=True)
class C5Job:
    request: c5_attack.MeleeRequest | c5_attack.ShootRequest
    settings: c5_models.C5Settings
    left: int | None  # the target fighter's wounds left (None: unknown)


@dataclass(frozen=True)
class WowJob:
    request: wow_attack.AttackRequest
    left: int | None  # the target character's Health left (None: unknown)


Job = AosJob | WmJob | InfJob | C5Job | WowJob


@dataclass(frozen=True)
class Odds:
    """One profile's exact distributions: damage dealt and models removed (None: unknown)."""

    damage: Distribution
    removed: Distribution | None


@dataclass(frozen=True)
class Row:
    """One profile's line of the comparison."""

    damage: Fraction  # expected damage
    removed: Fraction | None  # expected models removed
    points: int | None
    per_100: Fraction | None  # expected damage per 100 points


def removed_by_one_attack(damage: Distribution, boxes: int) -> Distribution:
    """1 when one attack's damage reaches what the model has left (WARMACHINE's damage boxes,
    Confrontation's wounds, WoW's Health); a model with nothing left counts as one."""
    need = max(1, boxes)
    return damage.map(lambda points: 1 if points >= need else 0)


def next_model_left(wounds_left: int, per_model: int) -> int:
    """What the model that takes the next attack has left: damage goes model by model, so it
    is the one already hurt (`Unit.models_left`)."""
    if wounds_left <= 0 or per_model <= 0:
        return 0
    return (wounds_left - 1) % per_model + 1


def odds(job: Job) -> Odds:
    if isinstance(job, AosJob):
        damage = aos_odds.attack_odds(job.request, job.settings)
        return Odds(damage, aos_odds.slain_odds(job.request, damage))
    if isinstance(job, InfJob):
        target = inf_odds.attack_odds(job.request, job.settings).target
        return Odds(target.wounds, Distribution.bernoulli(target.p_dead))
    if isinstance(job, C5Job):
        if isinstance(job.request, c5_attack.MeleeRequest):
            damage = c5_odds.melee_odds(job.request, job.settings).wounds
        else:
            damage = c5_odds.shoot_odds(job.request, job.settings).wounds
        return Odds(damage, _removed(damage, job.left))
    if isinstance(job, WowJob):
        damage = wow_attack.attack_odds(job.request)
        return Odds(damage, _removed(damage, job.left))
    damage = wm_odds.attack_odds(job.request).distribution
    return Odds(damage, removed_by_one_attack(damage, job.boxes))


def _removed(damage: Distribution, left: int | None) -> Distribution | None:
    return None if left is None else removed_by_one_attack(damage, left)


def compute(jobs: list[Job]) -> list[Odds]:
    """Every profile's odds: the worker pool's one call per comparison."""
    return [odds(job) for job in jobs]


def row(result: Odds, points: int | None) -> Row:
    damage = result.damage.expected(lambda v: v)
    removed = result.removed.expected(lambda v: v) if result.removed is not None else None
    per_100 = damage * 100 / points if points else None
    return Row(damage=damage, removed=removed, points=points, per_100=per_100)


def best(rows: list[Row]) -> int:
    """The profile that deals the most damage per 100 points when every one has points, else
    the most damage (the first of equals)."""
    if rows and all(r.per_100 is not None for r in rows):
        return max(range(len(rows)), key=lambda i: rows[i].per_100 or 0)
    return max(range(len(rows)), key=lambda i: rows[i].damage)
