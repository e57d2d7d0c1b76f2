"""Exact odds (never simulated), as expressions over the one distribution type: the attack
roll judged on every multiset of its few dice (`pool`), the damage roll a sum of d6 against
ARM, the attack a mixture of the two."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rules_core.dice.distribution import Distribution
from rules_core.systems.wm.attack import judge, plan
from rules_core.systems.wm.models import AttackRequest

D6 = Distribution.die(6)
MISS, HIT, CRITICAL = 0, 1, 2


@lru_cache(maxsize=1024)
def attack_roll(dice: int, bonus: int, defense: int) -> Distribution:
    """MISS, HIT or CRITICAL of `dice`d6 + bonus against DEF (`judge` on every roll)."""

    def outcome(faces: tuple[int, ...]) -> int:
        hit, crit = judge(faces, sum(faces) + bonus, defense)
        return CRITICAL if crit else HIT if hit else MISS

    return D6.pool(dice).map(outcome)


def hit_chances(dice: int, bonus: int, defense: int) -> tuple[Fraction, Fraction]:
    """(P(hit), P(critical)) of `dice`d6 + bonus against DEF."""
    roll = attack_roll(dice, bonus, defense)
    return 1 - roll.probability(MISS), roll.probability(CRITICAL)


def damage_distribution(dice: int, bonus: int, arm: int) -> Distribution:
    """Damage points of a damage roll: max(0, roll - ARM)."""
    shift = bonus - arm
    return (dice @ D6).map(lambda total: max(0, total + shift))


@dataclass(frozen=True)
class AttackOdds:
    distribution: Distribution  # damage points (0 includes misses)
    p_hit: Fraction
    p_critical: Fraction
    p_damage: Fraction


def attack_odds(req: AttackRequest) -> AttackOdds:
    p = plan(req)
    damage = damage_distribution(p.damage_dice, p.damage_bonus, p.arm)
    if p.rolls_attack:
        assert p.defense is not None
        roll = attack_roll(p.hit_dice, p.hit_bonus, p.defense)
        dist = roll.map(lambda outcome: damage if outcome != MISS else 0)
        p_hit, p_critical = roll.chance(lambda outcome: outcome != MISS), roll.probability(CRITICAL)
    elif p.auto_miss:
        zero = D6.map(lambda _face: 0)
        dist, p_hit, p_critical = zero, Fraction(0), Fraction(0)
    else:  # automatic hit, or blast damage
        dist, p_hit, p_critical = damage, Fraction(1), Fraction(0)
    return AttackOdds(
        distribution=dist, p_hit=p_hit, p_critical=p_critical, p_damage=1 - dist.probability(0)
    )


def check_pass_chance(value: int) -> Fraction:
    """P(2d6 <= value): skill and command checks (L2030-2043, L5379-5387)."""
    return (2 @ D6).chance(lambda total: total <= value)
