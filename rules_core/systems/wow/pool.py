"""d10 pools (rule 105): every roll is N dice, 1-3 fail, 4-9 succeed, the 0/10 face is a
success AND a critical. Rerolls (105.3) happen all at once right after the roll; a rerolled
die is never rerolled again, and unused rerolls are lost. Crit status is judged on the final
roll (105.3b, L150)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from rules_core.dice import DiceSource
from rules_core.errors import UserError

SIDES = 10
SUCCESS_FROM = 4  # 105.1b (L120): 4-9 or the crit face succeed
CRIT_FACE = 10  # the 0 face of a d10; 105.1 (L116)
MAX_POOL = 40  # a generous cap: printed powers are single digits, buffs add a few dice

P_FAIL = Fraction(3, 10)
P_HIT = Fraction(6, 10)  # success that is not a crit
P_CRIT = Fraction(1, 10)


def is_success(face: int) -> bool:
    return face >= SUCCESS_FROM


@dataclass(frozen=True)
class PoolRoll:
    """One pool: the first faces, which of them were rerolled, and the final faces."""

    first: list[int]
    rerolled: list[int]  # indexes into `first` that were rerolled
    final: list[int]

    @property
    def successes(self) -> int:
        return sum(is_success(f) for f in self.final)

    @property
    def crit(self) -> bool:
        return CRIT_FACE in self.final


def check_pool(size: int, what: str) -> None:
    if not 0 <= size <= MAX_POOL:
        raise UserError("wow.pool_size", what=what, limit=MAX_POOL)


def roll_pool(size: int, rerolls: int, source: DiceSource) -> PoolRoll:
    """Roll `size` d10 and reroll up to `rerolls` failed dice at once (the player's best use of
    a reroll allowance: a failure is the only die worth rerolling)."""
    first = [source.roll(SIDES) for _ in range(size)]
    failed = [i for i, face in enumerate(first) if not is_success(face)][: max(0, rerolls)]
    final = list(first)
    for i in failed:
        final[i] = source.roll(SIDES)
    return PoolRoll(first, failed, final)


@cache
def pool_distribution(size: int, rerolls: int) -> dict[tuple[int, bool], Fraction]:
    """Exact joint distribution of (successes, any crit) for a pool with a reroll budget.

    The first roll splits into fails/plain successes/crits (multinomial); min(fails, budget)
    failed dice are rolled again, their outcome another multinomial.
    """
    out: dict[tuple[int, bool], Fraction] = {}
    for crits in range(size + 1):
        for hits in range(size - crits + 1):
            fails = size - crits - hits
            p_first = multinomial(size, fails, hits, crits)
            again = min(fails, max(0, rerolls))
            for crits2 in range(again + 1):
                for hits2 in range(again - crits2 + 1):
                    fails2 = again - crits2 - hits2
                    p = p_first * multinomial(again, fails2, hits2, crits2)
                    key = (hits + crits + hits2 + crits2, crits + crits2 > 0)
                    out[key] = out.get(key, Fraction(0)) + p
    return out


def multinomial(n: int, fails: int, hits: int, crits: int) -> Fraction:
    ways = comb(n, fails) * comb(n - fails, hits)
    return ways * P_FAIL**fails * P_HIT**hits * P_CRIT**crits


def successes_distribution(size: int, rerolls: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (successes, _), p in pool_distribution(size, rerolls).items():
        out[successes] = out.get(successes, Fraction(0)) + p
    return out
