"""Exact odds (never simulated): the attack roll's hit and critical chances by enumerating
every ordered face tuple of its few dice, the damage roll by convolving d6 distributions."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

from rules_core.systems.wm.attack import judge, plan
from rules_core.systems.wm.models import AttackRequest

D6 = range(1, 7)


@lru_cache(maxsize=256)
def sum_ways(dice: int) -> dict[int, int]:
    """How many of the 6**dice face tuples give each total (0 dice: always 0)."""
    ways: dict[int, int] = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, w in ways.items():
            for face in D6:
                nxt[total + face] = nxt.get(total + face, 0) + w
        ways = nxt
    return ways


@lru_cache(maxsize=256)
def sum_distribution(dice: int) -> dict[int, Fraction]:
    """Distribution of the sum of `dice` d6 (0 dice: always 0)."""
    n = 6**dice
    return {total: Fraction(w, n) for total, w in sum_ways(dice).items()}


@lru_cache(maxsize=1024)
def hit_ways(dice: int, bonus: int, defense: int) -> tuple[int, int]:
    """(hits, criticals) among the 6**dice face tuples of `dice`d6 + bonus against DEF, by
    full enumeration of the sorted tuples, each counted as often as its orderings (`judge`
    ignores order)."""
    hits = crits = 0
    for faces in combinations_with_replacement(D6, dice):
        orderings = factorial(dice)
        for face in set(faces):
            orderings //= factorial(faces.count(face))
        hit, crit = judge(list(faces), sum(faces) + bonus, defense)
        hits += hit * orderings
        crits += crit * orderings
    return hits, crits


def hit_chances(dice: int, bonus: int, defense: int) -> tuple[Fraction, Fraction]:
    """(P(hit), P(critical)) of `dice`d6 + bonus against DEF."""
    hits, crits = hit_ways(dice, bonus, defense)
    n = 6**dice
    return Fraction(hits, n), Fraction(crits, n)


def damage_distribution(dice: int, bonus: int, arm: int) -> dict[int, Fraction]:
    """Damage points of a damage roll: max(0, roll - ARM)."""
    out: dict[int, Fraction] = {}
    for total, p in sum_distribution(dice).items():
        dmg = max(0, total + bonus - arm)
        out[dmg] = out.get(dmg, Fraction(0)) + p
    return out


@dataclass(frozen=True)
class AttackOdds:
    distribution: dict[int, Fraction]  # damage points -> probability (0 includes misses)
    p_hit: Fraction
    p_critical: Fraction
    p_damage: Fraction


def attack_odds(req: AttackRequest) -> AttackOdds:
    p = plan(req)
    if p.rolls_attack:
        assert p.defense is not None
        hits, crits = hit_ways(p.hit_dice, p.hit_bonus, p.defense)
        tuples = 6**p.hit_dice
    else:  # automatic hit, or blast damage
        hits, crits, tuples = 1, 0, 1
    # Integer weights over every (attack faces, damage faces) tuple, made Fractions once.
    damage_tuples = 6**p.damage_dice
    weights: dict[int, int] = {0: (tuples - hits) * damage_tuples}
    for total, w in sum_ways(p.damage_dice).items():
        dmg = max(0, total + p.damage_bonus - p.arm)
        weights[dmg] = weights.get(dmg, 0) + hits * w
    denominator = tuples * damage_tuples
    dist = {k: Fraction(w, denominator) for k, w in sorted(weights.items()) if w}
    return AttackOdds(
        distribution=dist,
        p_hit=Fraction(hits, tuples),
        p_critical=Fraction(crits, tuples),
        p_damage=1 - dist.get(0, Fraction(0)),
    )


def check_pass_chance(value: int) -> Fraction:
    """P(2d6 <= value): skill and command checks (L2030-2043, L5379-5387)."""
    return sum((p for t, p in sum_distribution(2).items() if t <= value), Fraction(0))
