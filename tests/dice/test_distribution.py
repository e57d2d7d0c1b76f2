"""The one exact distribution type (rules_core/dice/distribution.py): every operation against
a brute-force enumeration with Fractions, algebra laws, and exactness (complete results sum to
exactly 1)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.dice.distribution import Distribution

Ref = dict[int, Fraction]  # the brute-force side: outcome -> exact probability


def ref(d: Distribution) -> Ref:
    """The reference form of a distribution, built from its weights (not its own methods)."""
    return {v: Fraction(x, d.total) for v, x in d.weights.items()}


def rolls(*refs: Ref) -> Iterable[tuple[tuple[int, ...], Fraction]]:
    """Every joint outcome of independent distributions, with its probability."""
    for combo in itertools.product(*(list(r.items()) for r in refs)):
        yield tuple(v for v, _ in combo), math.prod((p for _, p in combo), start=Fraction(1))


def tally(pairs: Iterable[tuple[int, Fraction]]) -> Ref:
    out: Ref = {}
    for v, p in pairs:
        out[v] = out.get(v, Fraction(0)) + p
    return {v: p for v, p in sorted(out.items()) if p}


def exact(d: Distribution) -> Ref:
    """What the type says, as Fractions; a complete result sums to exactly 1."""
    fracs = d.as_fractions()
    assert sum(fracs.values(), Fraction(0)) + d.missing == 1
    return fracs


weights_st = st.dictionaries(st.integers(-4, 4), st.integers(1, 6), min_size=1, max_size=4)
dists = weights_st.map(Distribution)
small_n = st.integers(0, 3)


# --- construction and exactness --------------------------------------------------------------


def test_constructors() -> None:
    d6 = Distribution.die(6)
    assert exact(d6) == {v: Fraction(1, 6) for v in range(1, 7)}
    assert exact(Distribution.constant(3)) == {3: 1}
    assert exact(Distribution.uniform([1, 1, 2])) == {1: Fraction(2, 3), 2: Fraction(1, 3)}
    assert exact(Distribution.bernoulli(Fraction(2, 7))) == {0: Fraction(5, 7), 1: Fraction(2, 7)}
    probs = {1: Fraction(1, 3), 5: Fraction(1, 6)}
    half = Distribution.from_probabilities(probs)
    assert half.as_fractions() == probs and half.missing == Fraction(1, 2)
    assert Distribution({1: 2, 2: 0}).outcomes() == [1]  # zero weights are dropped


@pytest.mark.parametrize(
    "make",
    [
        lambda: Distribution({1: -1}),
        lambda: Distribution({1: 2}, total=1),
        lambda: Distribution({}),
        lambda: Distribution.from_probabilities({1: Fraction(2, 3), 2: Fraction(2, 3)}),
        lambda: Distribution.bernoulli(Fraction(3, 2)),
        lambda: Distribution.die(0),
    ],
)
def test_bad_distributions_are_refused(make: Callable[[], object]) -> None:
    with pytest.raises(ValueError):
        make()


@settings(deadline=None)
@given(dists)
def test_immutable(d: Distribution) -> None:
    before = dict(d.weights)
    _ = (d + d, d.map(lambda v: -v), d.reroll(lambda v: v < 0), d.highest(2), d.pool(2))
    assert dict(d.weights) == before
    with pytest.raises(TypeError):
        d.weights[99] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        d.probabilities[99] = 0.5  # type: ignore[index]


def test_equality_ignores_the_scale_of_the_weights() -> None:
    a, b = Distribution({1: 1, 2: 3}), Distribution({1: 2, 2: 6})
    assert a == b and hash(a) == hash(b) and a != Distribution({1: 1, 2: 2})
    assert a.reduced().total == 4 and b.reduced().weights == a.weights
    assert Distribution({1: 1}, total=2) != Distribution({1: 1})  # half missing


# --- arithmetic and comparisons -----------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(dists, dists)
def test_binary_operators_match_enumeration(a: Distribution, b: Distribution) -> None:
    ra, rb = ref(a), ref(b)
    joint = list(rolls(ra, rb))
    assert exact(a + b) == tally((x + y, p) for (x, y), p in joint)
    assert exact(a - b) == tally((x - y, p) for (x, y), p in joint)
    assert exact(a * b) == tally((x * y, p) for (x, y), p in joint)
    assert exact(a < b) == tally((int(x < y), p) for (x, y), p in joint)
    assert exact(a >= b) == tally((int(x >= y), p) for (x, y), p in joint)
    assert exact(a.eq(b)) == tally((int(x == y), p) for (x, y), p in joint)
    assert exact(a.combine(b, max)) == tally((max(x, y), p) for (x, y), p in joint)
    if 0 in rb:
        with pytest.raises(ZeroDivisionError):
            a // b
    else:
        assert exact(a // b) == tally((x // y, p) for (x, y), p in joint)


@settings(deadline=None)
@given(dists, st.integers(-3, 3))
def test_operators_with_numbers(a: Distribution, k: int) -> None:
    ra = ref(a)
    assert exact(a + k) == exact(k + a) == tally((v + k, p) for v, p in ra.items())
    assert exact(a - k) == tally((v - k, p) for v, p in ra.items())
    assert exact(k - a) == tally((k - v, p) for v, p in ra.items())
    assert exact(a * k) == exact(k * a) == tally((v * k, p) for v, p in ra.items())
    assert exact(-a) == tally((-v, p) for v, p in ra.items())
    assert exact(a <= k) == tally((int(v <= k), p) for v, p in ra.items())
    assert exact(a > k) == tally((int(v > k), p) for v, p in ra.items())


@settings(max_examples=60, deadline=None)
@given(dists, dists, dists)
def test_algebra_laws(a: Distribution, b: Distribution, c: Distribution) -> None:
    assert a + b == b + a and a * b == b * a
    assert (a + b) + c == a + (b + c)
    assert a + 0 == a and a * 1 == a and a - a == (a + (-a))
    assert a.map(lambda v: v) == a
    assert a.map(lambda v: v + 1).map(lambda v: v * 2) == a.map(lambda v: (v + 1) * 2)
    # comparisons are complementary 0/1 distributions
    lt, ge = a < b, a >= b
    assert lt.probability(1) + ge.probability(1) == 1


# --- map, mixtures, many dice ----------------------------------------------------------------


@settings(deadline=None)
@given(dists, dists, dists)
def test_map_to_distributions_is_the_mixture(
    a: Distribution, b: Distribution, c: Distribution
) -> None:
    ra, rb, rc = ref(a), ref(b), ref(c)
    mixed = a.map(lambda v: b if v >= 0 else c)
    expected: Ref = {}
    for v, p in ra.items():
        for w, q in (rb if v >= 0 else rc).items():
            expected[w] = expected.get(w, Fraction(0)) + p * q
    assert exact(mixed) == tally(expected.items())
    assert mixed == (a >= 0).if_else(b, c)
    parts: list[tuple[Fraction, Distribution | int]] = [
        (Fraction(1, 3), b),
        (Fraction(1, 2), c),
        (Fraction(1, 6), 7),
    ]
    expected = {7: Fraction(1, 6)}
    for r, share in ((rb, Fraction(1, 3)), (rc, Fraction(1, 2))):
        for w, q in r.items():
            expected[w] = expected.get(w, Fraction(0)) + share * q
    assert exact(Distribution.mixture(parts)) == tally(expected.items())


@settings(max_examples=60, deadline=None)
@given(dists, small_n)
def test_repeat_is_repeated_addition(a: Distribution, n: int) -> None:
    total = Distribution.constant(0)
    for _ in range(n):
        total = total + a
    assert a.repeat(n) == total == n @ a
    assert exact(a.repeat(n)) == tally((sum(vs), p) for vs, p in rolls(*[ref(a)] * n))


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.integers(0, 3), st.integers(1, 4), min_size=1, max_size=3), dists)
def test_random_count_sum(counts_w: dict[int, int], a: Distribution) -> None:
    counts = Distribution(counts_w)
    expected: Ref = {}
    for n, p in ref(counts).items():
        for vs, q in rolls(*[ref(a)] * n):
            expected[sum(vs)] = expected.get(sum(vs), Fraction(0)) + p * q
    assert exact(counts @ a) == tally(expected.items())


@settings(max_examples=60, deadline=None)
@given(dists, st.integers(1, 4), st.integers(0, 5))
def test_highest_and_lowest_of_a_pool(a: Distribution, n: int, k: int) -> None:
    joint = list(rolls(*[ref(a)] * n))
    kept = min(k, n)
    assert exact(a.highest(n, k)) == tally(
        (sum(sorted(vs, reverse=True)[:kept]), p) for vs, p in joint
    )
    assert exact(a.lowest(n, k)) == tally((sum(sorted(vs)[:kept]), p) for vs, p in joint)
    assert exact(a.max_of(n)) == tally((max(vs), p) for vs, p in joint)
    assert exact(a.min_of(n)) == tally((min(vs), p) for vs, p in joint)
    pool = a.pool(n)
    assert pool.as_fractions() == dict(
        sorted(_tally_any((tuple(sorted(vs)), p) for vs, p in joint).items())
    )


def test_highest_with_a_score() -> None:
    """Rank by the face, count its score: successes (4+) among the best two of three d6."""
    d6 = Distribution.die(6)
    expected = tally(
        (sum(1 for f in sorted(vs, reverse=True)[:2] if f >= 4), p)
        for vs, p in rolls(*[ref(d6)] * 3)
    )
    assert exact(d6.highest(3, 2, score=lambda f: int(f >= 4))) == expected


def _tally_any(
    pairs: Iterable[tuple[tuple[int, ...], Fraction]],
) -> dict[tuple[int, ...], Fraction]:
    out: dict[tuple[int, ...], Fraction] = {}
    for v, p in pairs:
        out[v] = out.get(v, Fraction(0)) + p
    return out


@settings(deadline=None)
@given(dists)
def test_reroll_once_and_until(a: Distribution) -> None:
    ra = ref(a)
    low = min(ra)
    once: Ref = {}
    for v, p in ra.items():
        if v == low:  # roll again, the new face stands
            for w, q in ra.items():
                once[w] = once.get(w, Fraction(0)) + p * q
        else:
            once[v] = once.get(v, Fraction(0)) + p
    assert exact(a.reroll(lambda v: v == low)) == tally(once.items())
    if len(ra) > 1:  # until: the low face never stands
        rest = {v: p for v, p in ra.items() if v != low}
        norm = sum(rest.values(), Fraction(0))
        assert exact(a.reroll(lambda v: v == low, until=True)) == {
            v: p / norm for v, p in sorted(rest.items())
        }


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_explode_chains(depth: int) -> None:
    """d4 exploding on 4: every chain of at most `depth` dice (the last counts as it is)."""
    d4 = Distribution.die(4)
    expected: Ref = {}

    def walk(total: int, dice: int, p: Fraction) -> None:
        for f in range(1, 5):
            q = p / 4
            if f == 4 and dice + 1 < depth:
                walk(total + f, dice + 1, q)
            else:
                expected[total + f] = expected.get(total + f, Fraction(0)) + q

    walk(0, 0, Fraction(1))
    chain = d4.explode(lambda v: v == 4, depth=depth)
    assert exact(chain) == tally(expected.items()) and chain.truncated
    assert not d4.explode(lambda v: v > 4, depth=depth).truncated  # nothing explodes


# --- defective distributions -----------------------------------------------------------------


def test_where_union_fill_and_missing_mass() -> None:
    d6 = Distribution.die(6)
    low, high = d6.where(lambda v: v <= 2), d6.where(lambda v: v >= 5)
    assert low.missing == Fraction(2, 3) and exact(low) == {1: Fraction(1, 6), 2: Fraction(1, 6)}
    both = Distribution.union([low, high])
    assert both.missing == Fraction(1, 3)
    assert exact(both.fill(0)) == {0: Fraction(1, 3), **{v: Fraction(1, 6) for v in (1, 2, 5, 6)}}
    # sums and maps carry the missing mass along exactly
    assert (low + d6).missing == Fraction(2, 3)
    assert (low + low).missing == 1 - Fraction(1, 3) ** 2
    with pytest.raises(ValueError):
        Distribution.union([d6, d6])  # more than certain
    with pytest.raises(ValueError):
        low.highest(2)  # keep needs a complete distribution
    assert low.expected(lambda v: v) == Fraction(1 + 2, 6)


# --- the view ---------------------------------------------------------------------------------


@settings(deadline=None)
@given(dists)
def test_view_numbers_are_the_rounded_exact_values(a: Distribution) -> None:
    ra = ref(a)
    mean = sum((v * p for v, p in ra.items()), Fraction(0))
    var = sum(((v - mean) ** 2 * p for v, p in ra.items()), Fraction(0))
    assert a.mean() == float(mean)
    assert a.stdev() == pytest.approx(math.sqrt(var), rel=1e-15, abs=1e-15)
    assert list(a.probabilities) == sorted(ra) == a.outcomes() == list(a)
    assert a.items() == [(v, float(p)) for v, p in sorted(ra.items())]
    for k in range(-5, 6):
        assert a.p_at_least(k) == float(sum((p for v, p in ra.items() if v >= k), Fraction(0)))
        assert a.p_at_most(k) == float(sum((p for v, p in ra.items() if v <= k), Fraction(0)))
    assert (a.min, a.max) == (min(ra), max(ra))
    assert a.chance(lambda v: v > 0) == sum((p for v, p in ra.items() if v > 0), Fraction(0))
