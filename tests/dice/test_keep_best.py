"""The keep-highest kernel (issue 26: packed polynomials over the rank of the k-th best die)
against brute-force enumeration of every roll, with uneven weights and negative scores."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.dice import Distribution, odds
from rules_core.dice.distribution import keep_best


def brute(outcomes: list[tuple[int, int]], n: int, k: int) -> dict[int, Fraction]:
    total = sum(w for _, w in outcomes)
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for roll in itertools.product(range(len(outcomes)), repeat=n):
        weight = Fraction(1)
        for r in roll:
            weight *= Fraction(outcomes[r][1], total)
        best = sorted(roll)[:k]  # rank 0 is the best
        out[sum(outcomes[r][0] for r in best)] += weight
    return {v: p for v, p in out.items() if p}


@settings(max_examples=80, deadline=None)
@given(
    outcomes=st.lists(st.tuples(st.integers(-2, 5), st.integers(1, 4)), min_size=1, max_size=5),
    n=st.integers(2, 5),
    data=st.data(),
)
def test_keep_best_matches_enumeration(
    outcomes: list[tuple[int, int]], n: int, data: st.DataObject
) -> None:
    k = data.draw(st.integers(1, n - 1))
    weights = keep_best(outcomes, n, k)
    mass = sum(weights.values())
    assert {v: Fraction(x, mass) for v, x in weights.items()} == brute(outcomes, n, k)


@settings(max_examples=60, deadline=None)
@given(sides=st.integers(2, 7), n=st.integers(2, 5), highest=st.booleans(), data=st.data())
def test_a_plain_keep_by_text_matches_enumeration(
    sides: int, n: int, highest: bool, data: st.DataObject
) -> None:
    """`odds("NdXkhK")` / `klK` (the fast path that builds no die first) against every roll."""
    k = data.draw(st.integers(1, n - 1))
    faces = range(1, sides + 1)
    out: defaultdict[int, int] = defaultdict(int)
    for roll in itertools.product(faces, repeat=n):
        out[sum(sorted(roll, reverse=highest)[:k])] += 1
    expected = {v: Fraction(c, sides**n) for v, c in out.items()}
    dist = odds(f"{n}d{sides}{'kh' if highest else 'kl'}{k}")
    assert {v: dist.probability(v) for v in dist.outcomes()} == expected
    assert dist == Distribution.die(sides)._keep(n, k, highest, None)
