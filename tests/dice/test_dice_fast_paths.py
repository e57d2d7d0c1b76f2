"""The distribution's fast paths give what the plain pair-by-pair definition gives."""

from __future__ import annotations

import operator
import random
from collections import defaultdict
from collections.abc import Callable

import pytest

from rules_core.dice import Distribution, odds


def by_pairs(a: Distribution, b: Distribution, fn: Callable[[int, int], int]) -> dict[int, int]:
    out: defaultdict[int, int] = defaultdict(int)
    for x, wx in a.weights.items():
        for y, wy in b.weights.items():
            out[fn(x, y)] += wx * wy
    return dict(out)


@pytest.mark.parametrize(("left", "right"), [(6, 6), (4, 6), (20, 20), (2, 3)])
def test_products_and_quotients_of_dice(left: int, right: int) -> None:
    a, b = Distribution.die(left), Distribution.die(right)
    product = a * b
    assert product.weights == by_pairs(a, b, lambda x, y: x * y)
    assert product.total == a.total * b.total
    quotient = a // b
    assert quotient.weights == by_pairs(a, b, lambda x, y: x // y)


def test_the_product_of_two_d1000_is_exact() -> None:
    dist = odds("d1000*d1000")
    assert len(dist) == 248_083
    assert sum(dist.weights.values()) == dist.total == 1_000_000
    assert dist.weights[12] == 6  # 1*12, 2*6, 3*4 and their mirrors
    assert dist.weights[1_000_000] == 1


def _uniform(rng: random.Random, size: int, weight: int) -> Distribution:
    values = rng.sample(range(-3 * size, 3 * size), size)
    return Distribution(dict.fromkeys(values, weight))


@pytest.mark.parametrize("seed", range(12))
def test_wide_uniform_combinations_match_the_pairs(seed: int) -> None:
    """Products, sums and differences of two wide uniform distributions (counted with numpy
    from 4,096 pairs on) are the pair-by-pair weights, with the same sorted outcomes, tail
    sums and moments a distribution built from those weights has."""
    rng = random.Random(seed)
    a = _uniform(rng, rng.randint(40, 400), rng.choice([1, 1, 3]))
    b = _uniform(rng, rng.randint(40, 400), rng.choice([1, 2]))
    for fn in (operator.mul, operator.add, operator.sub):
        fast = a.combine(b, fn)
        plain = Distribution(by_pairs(a, b, fn), total=a.total * b.total)
        assert fast == plain and fast.weights == plain.weights and fast.total == plain.total
        assert fast.outcomes() == plain.outcomes()
        assert (fast.min, fast.max) == (plain.min, plain.max)
        for k in rng.sample(plain.outcomes(), 20):
            assert fast.p_at_least(k) == plain.p_at_least(k)
            assert fast.p_at_most(k) == plain.p_at_most(k)
        assert fast.mean() == plain.mean() and fast.stdev() == plain.stdev()
        assert fast.as_fractions() == plain.as_fractions()


def test_a_wide_product_keeps_the_truncated_flag_and_huge_values_exact() -> None:
    big = Distribution(dict.fromkeys(range(2**40, 2**40 + 100), 1), truncated=True)
    fast = big * Distribution.die(100)
    assert fast.truncated
    assert fast.weights == by_pairs(big, Distribution.die(100), operator.mul)
    huge = Distribution(dict.fromkeys(range(2**62, 2**62 + 100), 1))  # past int64: the Counter
    assert (huge + big).weights == by_pairs(huge, big, operator.add)


@pytest.mark.parametrize("sides", [2, 3, 6, 20, 100, 1000])
@pytest.mark.parametrize("count", [1, 2, 10, 100])
@pytest.mark.parametrize("keep", [None, "kh1", "kl3", "dh2", "dl200", "kh200"])
def test_the_plain_dice_estimate_is_the_general_one(
    sides: int, count: int, keep: str | None
) -> None:
    # The cost estimate of dice without reroll, explosion or counting takes a short cut
    # (`_estimate_plain`); it must charge exactly what the general estimate charges.
    from rules_core.dice.ast import Dice, Keep
    from rules_core.dice.odds import _estimate_dice, _estimate_general

    k = None if keep is None else Keep(keep[:2], int(keep[2:]))  # type: ignore[arg-type]
    dice = Dice(count, sides, keep=k)
    short = _estimate_dice(dice, 20)
    general = _estimate_general(dice, 20)
    fields = ("lo", "hi", "nnz", "cost", "bits")
    assert [getattr(short, f) for f in fields] == [getattr(general, f) for f in fields]
