"""Luck: the sum of a player's rolls placed in the exact distribution of that sum, checked
against brute-force enumeration of every way the same dice could have fallen."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.dice.luck import luck

FACES = {"1d4": range(1, 5), "1d6": range(1, 7), "1d6+1": range(2, 8), "1d3*2": (2, 4, 6)}


def brute(rolls: list[tuple[str, int]]) -> Fraction:
    observed = sum(v for _, v in rolls)
    below = same = count = 0
    for outcome in itertools.product(*(FACES[e] for e, _ in rolls)):
        count += 1
        below += sum(outcome) < observed
        same += sum(outcome) == observed
    return Fraction(below, count) + Fraction(same, 2 * count)


@settings(max_examples=60)
@given(
    st.lists(
        st.sampled_from(sorted(FACES)).flatmap(
            lambda e: st.tuples(st.just(e), st.sampled_from(list(FACES[e])))
        ),
        min_size=1,
        max_size=5,
    )
)
def test_percentile_matches_enumeration(rolls: list[tuple[str, int]]) -> None:
    found = luck(rolls)
    assert found is not None and found.rolls == len(rolls) and found.skipped == 0
    assert found.percentile == brute(rolls)
    assert found.expected == sum(Fraction(sum(FACES[e]), len(FACES[e])) for e, _ in rolls)


def test_as_expected_is_the_middle_and_extremes_are_near_the_ends() -> None:
    assert luck([("1d6", 3), ("1d6", 4)]).percentile == Fraction(1, 2)  # type: ignore[union-attr]
    best = luck([("2d6", 12)] * 5)
    assert best is not None and best.percentile > Fraction(999, 1000)
    assert luck([("5d6>=4", 0)]).percentile == Fraction(1, 64)  # type: ignore[union-attr]


def test_rolls_without_a_usable_distribution_are_left_out_not_guessed() -> None:
    found = luck([("1d6", 3), ("d1000*d1000", 5), ("1d6", 9)])  # 9: not a 1d6 result
    assert found is not None and (found.rolls, found.skipped) == (1, 2)
    assert luck([("d1000*d1000", 5)]) is None


def test_the_bound_keeps_the_newest_rolls() -> None:
    found = luck([("1d20", 20)] * 10 + [("1d20", 1)] * 10, max_outcomes=20 * 10)
    assert found is not None and found.rolls < 20 and found.skipped == 20 - found.rolls
    assert found.observed == 20 * found.rolls  # the newest (first) ones were kept
