"""d10 pools (rule 105): every roll is N dice, 1-3 fail, 4-9 succeed, the 0/10 face is a
success AND a critical. Rerolls (105.3) happen all at once right after the roll; a rerolled
die is never rerolled again, and unused rerolls are lost. Crit status is judged on the final
roll (105.3b, L150)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

from rules_core.dice import DiceSource
from rules_core.dice.distribution import Distribution
from rules_core.errors import UserError

SIDES = 10
SUCCESS_FROM = 4  # 105.1b (L120): 4-9 or the crit face succeed
CRIT_FACE = 10  # the 0 face of a d10; 105.1 (L116)
MAX_POOL = 40  # a generous cap: printed powers are single digits, buffs add a few dice


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


def forced_picks(first: list[int], forced: int, crits_first: bool) -> list[int]:
    """The successes an effect forces to be rerolled (105.3): plain successes before crits
    (the roller keeps its crits), or crits first (the `forced_reroll` setting)."""
    plain = [i for i, face in enumerate(first) if is_success(face) and face != CRIT_FACE]
    crits = [i for i, face in enumerate(first) if face == CRIT_FACE]
    order = crits + plain if crits_first else plain + crits
    return order[: max(0, forced)]


def roll_pool(
    size: int, rerolls: int, source: DiceSource, forced: int = 0, crits_first: bool = False
) -> PoolRoll:
    """Roll `size` d10 and reroll up to `rerolls` failed dice (the player's best use of a
    reroll allowance: a failure is the only die worth rerolling) together with `forced`
    successes an effect makes them reroll: all at once, none twice (105.3)."""
    first = [source.roll(SIDES) for _ in range(size)]
    failed = [i for i, face in enumerate(first) if not is_success(face)][: max(0, rerolls)]
    again = sorted(failed + forced_picks(first, forced, crits_first))
    final = list(first)
    for i in again:
        final[i] = source.roll(SIDES)
    return PoolRoll(first, again, final)


@cache
def forced_pool_distribution(
    size: int, rerolls: int, forced: int, crits_first: bool
) -> Distribution[tuple[int, bool]]:
    """`pool_distribution` with `forced` successes rerolled too (105.3), all dice rerolled at
    once: kept successes and crits after the forced picks, plus the rerolled dice's outcome.
    Weights out of 10**(2 * size): every die may be rolled twice at most."""
    if forced <= 0:
        return pool_distribution(size, rerolls)
    budget = min(size, max(0, rerolls))
    second = _rerolled(size)
    out: dict[tuple[int, bool], int] = {}
    for crits in range(size + 1):
        for hits in range(size - crits + 1):
            w1 = multinomial_ways(size, hits, crits)
            fails = size - crits - hits
            taken = min(hits + crits, forced)
            from_crits = min(crits, taken) if crits_first else max(0, taken - hits)
            from_plain = taken - from_crits
            kept = (hits - from_plain) + (crits - from_crits)
            kept_crit = crits - from_crits > 0
            for (s2, c2), w2 in second[min(fails, budget) + taken].items():
                key = (kept + s2, kept_crit or c2)
                out[key] = out.get(key, 0) + w1 * w2
    return Distribution(out, total=FACES_TOTAL ** (2 * size))


def _rerolled(most: int) -> list[dict[tuple[int, bool], int]]:
    """For 0..`most` dice rolled again: the ways of each (successes, any crit), padded to
    `most` dice so every weight shares one base (faces: 3 fail, 6 plain, 1 crit)."""
    second: list[dict[tuple[int, bool], int]] = []
    for again in range(most + 1):
        pad = FACES_TOTAL ** (most - again)
        ways: dict[tuple[int, bool], int] = {}
        for crits in range(again + 1):
            for hits in range(again - crits + 1):
                key = (hits + crits, crits > 0)
                ways[key] = ways.get(key, 0) + multinomial_ways(again, hits, crits) * pad
        second.append(ways)
    return second


@cache
def pool_distribution(size: int, rerolls: int) -> Distribution[tuple[int, bool]]:
    """Exact joint distribution of (successes, any crit) for a pool with a reroll budget.

    The first roll splits into fails/plain successes/crits (multinomial); min(fails, budget)
    failed dice are rolled again, their outcome another multinomial. Counted in integer ways
    out of 10**(size + budget) (faces: 3 fail, 6 plain, 1 crit): the distribution's own
    integer weights, with no arithmetic on fractions in the loops.
    """
    budget = min(size, max(0, rerolls))
    second = _rerolled(budget)
    out: dict[tuple[int, bool], int] = {}
    for crits in range(size + 1):
        for hits in range(size - crits + 1):
            w1 = multinomial_ways(size, hits, crits)
            fails = size - crits - hits
            for (s2, c2), w2 in second[min(fails, budget)].items():
                key = (hits + crits + s2, crits > 0 or c2)
                out[key] = out.get(key, 0) + w1 * w2
    return Distribution(out, total=FACES_TOTAL ** (size + budget))


FACES_TOTAL = 10
WAYS_FAIL, WAYS_HIT, WAYS_CRIT = 3, 6, 1  # d10 faces 1-3 fail, 4-9 succeed, the 10 crits


def multinomial_ways(n: int, hits: int, crits: int) -> int:
    """Face sequences of n d10 with exactly `hits` plain successes and `crits` crits."""
    fails = n - hits - crits
    return int(comb(n, fails) * comb(n - fails, hits) * WAYS_FAIL**fails * WAYS_HIT**hits)


def successes_distribution(
    size: int, rerolls: int, forced: int = 0, crits_first: bool = False
) -> Distribution:
    return forced_pool_distribution(size, rerolls, forced, crits_first).map(successes_of)


def successes_of(outcome: tuple[int, bool]) -> int:
    return outcome[0]
