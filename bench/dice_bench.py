"""Dice: exact odds time against icepool over a corpus of expressions.

Each corpus entry is our expression, the same roll in d20's syntax (kept for reference), and a
builder of the same distribution in icepool (None where it has no direct form).
Probabilities are compared too: a benchmark of a wrong answer would be worthless.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import icepool

from bench.timing import median_time, table
from rules_core.dice import distribution, parse
from rules_core.dice.odds import _dice_dist


def fresh(sides: int) -> Any:
    """A new icepool die: icepool keeps caches on its die objects (sums, pools) and its
    module-level dice (`icepool.d6`) are shared singletons, so reusing them would time a warm
    icepool against our emptied caches."""
    return icepool.Die(range(1, sides + 1))


def _count(n: int, die: Any, pred: Callable[[int], int]) -> Any:
    return n @ die.map(pred)


CORPUS: list[tuple[str, str | None, Callable[[], Any] | None]] = [
    ("d20", "1d20", lambda: fresh(20)),
    ("d20+5", "1d20+5", lambda: fresh(20) + 5),
    ("2d6", "2d6", lambda: 2 @ fresh(6)),
    ("2d6+3", "2d6+3", lambda: 2 @ fresh(6) + 3),
    ("3d6", "3d6", lambda: 3 @ fresh(6)),
    ("4d6kh3", "4d6kh3", lambda: fresh(6).pool(4).highest(3).sum()),
    ("2d20kh1", "2d20kh1", lambda: fresh(20).pool(2).highest(1).sum()),
    ("2d20kl1", "2d20kl1", lambda: fresh(20).pool(2).lowest(1).sum()),
    ("8d6kh2", "8d6kh2", lambda: fresh(6).pool(8).highest(2).sum()),
    ("d8+d6+2", "1d8+1d6+2", lambda: fresh(8) + fresh(6) + 2),
    ("3d6+1d8-2", "3d6+1d8-2", lambda: 3 @ fresh(6) + fresh(8) - 2),
    ("10d6", "10d6", lambda: 10 @ fresh(6)),
    ("40d6", "40d6", lambda: 40 @ fresh(6)),
    ("d6r1", "1d6ro1", lambda: fresh(6).reroll([1], depth=1)),
    ("2d6r<=2", "2d6ro<3", lambda: 2 @ fresh(6).reroll([1, 2], depth=1)),
    ("d10!", "1d10e10", lambda: fresh(10).explode(depth=19)),
    ("3d6!", "3d6e6", lambda: 3 @ fresh(6).explode(depth=19)),
    ("10d6>=4", None, lambda: _count(10, fresh(6), lambda x: int(x >= 4))),
    ("20d6>=5", None, lambda: _count(20, fresh(6), lambda x: int(x >= 5))),
    ("40d6>=4", None, lambda: _count(40, fresh(6), lambda x: int(x >= 4))),
    ("3d20<=13", None, lambda: _count(3, fresh(20), lambda x: int(x <= 13))),
    ("6d10>=4f=1", None, lambda: _count(6, fresh(10), lambda x: int(x >= 4) - int(x == 1))),
    ("(2d6+3)*2", "(2d6+3)*2", lambda: (2 @ fresh(6) + 3) * 2),
    ("d%", "1d100", lambda: fresh(100)),
    ("5d10", "5d10", lambda: 5 @ fresh(10)),
]


def cold_distribution(expr: Any) -> Any:
    """Our odds with every cache emptied first: what a new expression costs (the exact
    distribution and the probabilities /odds shows)."""
    _dice_dist.cache_clear()
    return distribution(expr).probabilities


def cold_icepool(build: Callable[[], Any]) -> Any:
    """icepool's odds from a fresh die, with its own caches emptied as far as it exposes them."""
    return build().probabilities()


def check_same(ours: Mapping[int, float], theirs: Any) -> float:
    """Largest absolute difference between our probabilities and icepool's exact fractions."""
    exact = {
        int(k): Fraction(v) for k, v in zip(theirs.outcomes(), theirs.probabilities(), strict=True)
    }
    keys = set(exact) | set(ours)
    return max(abs(ours.get(k, 0.0) - float(exact.get(k, 0))) for k in keys)


@dataclass
class DiceResult:
    odds_vs_icepool: float  # geometric mean speed-up, both cold
    worst_diff: float


def main() -> DiceResult:
    """Exact odds of the whole corpus against icepool (rolls against d20 are timed like for
    like in headline_bench)."""
    rows: list[list[str]] = []
    odds_ratios: list[float] = []
    worst_diff = 0.0
    for ours, _, build in CORPUS:
        expr = parse(ours).rolls[0].expr
        t_odds = median_time(partial(cold_distribution, expr), repeat=5)
        cells = [ours, f"{t_odds * 1e3:.3f} ms"]
        if build is not None:
            t_ice = median_time(partial(cold_icepool, build), repeat=5)
            odds_ratios.append(t_ice / t_odds)
            worst_diff = max(worst_diff, check_same(distribution(expr).probabilities, build()))
            cells += [f"{t_ice * 1e3:.3f} ms", f"{t_ice / t_odds:.1f}x"]
        else:
            cells += ["–", "–"]
        rows.append(cells)
    print("Dice: exact odds against icepool (both cold: our caches emptied, a new icepool die")
    print("for every build), medians of 5")
    print(table(["expression", "odds (ours)", "odds (icepool)", "vs icepool"], rows))
    result = DiceResult(odds_vs_icepool=_gmean(odds_ratios), worst_diff=worst_diff)
    print(
        f"exact odds vs icepool: {result.odds_vs_icepool:.1f}x (geometric mean of "
        f"{len(odds_ratios)}); largest probability difference {worst_diff:.1e}"
    )
    return result


def _gmean(values: list[float]) -> float:
    import math

    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")
