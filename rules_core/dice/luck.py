"""How lucky a player's dice have been: their rolls' results against the exact distribution
of those same rolls.

Each roll is an expression the bot rolled and the value it gave (the total, or the successes
for a success-counting expression). The sum of the values is placed in the exact distribution
of the sum (the rolls' distributions convolved): the luck percentile is the chance that the same
rolls give less, plus half the chance they give exactly as much (a mid-percentile, so 50 means
"as expected" even for a single d6). Pure; the cost is bounded by `max_outcomes`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from rules_core.dice.api import odds
from rules_core.dice.distribution import Distribution
from rules_core.errors import UserError

MAX_OUTCOMES = 2_500  # the convolved sum's support; older rolls beyond it are left out
MAX_ROLL_OUTCOMES = 2_000  # one roll's distribution: wider ones (d1000*d1000) are left out


@dataclass(frozen=True)
class Luck:
    rolls: int  # the rolls counted
    skipped: int  # rolls left out (no finite distribution, too wide, or past the bound)
    observed: int  # the sum of their values
    expected: Fraction  # the sum's mean
    percentile: Fraction  # 0..1: P(sum < observed) + P(sum = observed) / 2


def roll_distribution(expression: str) -> Distribution[int] | None:
    """The exact distribution of a stored roll's value, or None when it has none we can use."""
    try:
        dist = odds(expression)
    except UserError:
        return None
    if dist.truncated or len(dist) > MAX_ROLL_OUTCOMES:
        return None
    return dist


def luck(rolls: Iterable[tuple[str, int]], max_outcomes: int = MAX_OUTCOMES) -> Luck | None:
    """`rolls`: (expression, value) pairs, newest first. None when no roll can be counted.
    Rolls of the same expression are summed at once (`repeat`, a polynomial power), then the
    groups convolved: a player's few usual expressions cost little however many rolls."""
    groups: dict[str, list[int]] = {}
    skipped = 0
    dists: dict[str, Distribution[int]] = {}
    for expression, value in rolls:
        if expression not in dists:
            dist = roll_distribution(expression)
            if dist is None:
                skipped += 1
                continue
            dists[expression] = dist
        if value not in dists[expression]:
            skipped += 1
            continue
        groups.setdefault(expression, []).append(value)
    total: Distribution[int] | None = None
    observed = counted = 0
    for expression, values in groups.items():
        dist = dists[expression]
        n = len(values)
        while n and (len(dist) - 1) * n + 1 + (len(total) if total else 0) > max_outcomes:
            n -= 1  # keep the newest rolls that fit
        skipped += len(values) - n
        if not n:
            continue
        part = dist.repeat(n)
        total = part if total is None else total + part
        observed += sum(values[:n])
        counted += n
    if total is None:
        return None
    below = total.chance(lambda v: v < observed)
    return Luck(
        rolls=counted,
        skipped=skipped,
        observed=observed,
        expected=total.expected(lambda v: v),
        percentile=below + total.probability(observed) / 2,
    )
