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
def sum_distribution(dice: int) -> dict[int, Fraction]:
    """Distribution of the sum of `dice` d6 (0 dice: always 0)."""
    ways: dict[int, int] = {0: 1}  # number of face tuples giving each total
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, w in ways.items():
            for face in D6:
                nxt[total + face] = nxt.get(total + face, 0) + w
        ways = nxt
    n = 6**dice
    return {total: Fraction(w, n) for total, w in ways.items()}


@lru_cache(maxsize=1024)
def hit_chances(dice: int, bonus: int, defense: int) -> tuple[Fraction, Fraction]:
    """(P(hit), P(critical)) of `dice`d6 + bonus against DEF, by full enumeration of the
    sorted face tuples, each counted as often as its orderings (`judge` ignores order)."""
    hits = crits = 0
    for faces in combinations_with_replacement(D6, dice):
        orderings = factorial(dice)
        for face in set(faces):
            orderings //= factorial(faces.count(face))
        hit, crit = judge(list(faces), sum(faces) + bonus, defense)
        hits += hit * orderings
        crits += crit * orderings
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
        p_hit, p_crit = hit_chances(p.hit_dice, p.hit_bonus, p.defense)
    else:  # automatic hit, or blast damage
        p_hit, p_crit = Fraction(1), Fraction(0)
    dist: dict[int, Fraction] = {0: 1 - p_hit}
    for dmg, q in damage_distribution(p.damage_dice, p.damage_bonus, p.arm).items():
        dist[dmg] = dist.get(dmg, Fraction(0)) + p_hit * q
    dist = {k: v for k, v in sorted(dist.items()) if v > 0}
    return AttackOdds(
        distribution=dist, p_hit=p_hit, p_critical=p_crit, p_damage=1 - dist.get(0, Fraction(0))
    )


def check_pass_chance(value: int) -> Fraction:
    """P(2d6 <= value): skill and command checks (L2030-2043, L5379-5387)."""
    return sum((p for t, p in sum_distribution(2).items() if t <= value), Fraction(0))
