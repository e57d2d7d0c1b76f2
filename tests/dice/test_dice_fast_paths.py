"""The distribution's fast paths give what the plain pair-by-pair definition gives."""

from __future__ import annotations

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
