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
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules_core.dice.distribution import Distribution
from rules_core.systems.aos import models as aos_models
from rules_core.systems.aos import odds as aos_odds
from rules_core.systems.inf import models as inf_models
from rules_core.systems.inf import odds as inf_odds
from rules_core.systems.wm import models as wm_models
from rules_core.systems.wm import odds as wm_odds

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


Job = AosJob | WmJob | InfJob


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
    """WARMACHINE: 1 when one attack's damage disables a model with `boxes` boxes left."""
    need = max(1, boxes)
    return damage.map(lambda points: 1 if points >= need else 0)


def odds(job: Job) -> Odds:
    if isinstance(job, AosJob):
        damage = aos_odds.attack_odds(job.request, job.settings)
        return Odds(damage, aos_odds.slain_odds(job.request, damage))
    if isinstance(job, InfJob):
        target = inf_odds.attack_odds(job.request, job.settings).target
        return Odds(target.wounds, Distribution.bernoulli(target.p_dead))
    damage = wm_odds.attack_odds(job.request).distribution
    return Odds(damage, removed_by_one_attack(damage, job.boxes))


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
