"""Exact odds against an independent brute-force enumeration (Fractions, itertools.product)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules_core.dice import (
    BinOp,
    Dice,
    Expr,
    Neg,
    Num,
    distribution,
    distribution_of_command,
    parse,
    parse_expr,
)
from rules_core.dice.ast import Cond
from rules_core.dice.distribution import Distribution
from rules_core.dice.odds import exact_weights
from rules_core.errors import UserError

Dist = dict[int, Fraction]


def meets(c: Cond | None, v: int) -> bool:
    if c is None:
        return False
    return {
        ">=": v >= c.value,
        ">": v > c.value,
        "<=": v <= c.value,
        "<": v < c.value,
        "=": v == c.value,
    }[c.op]


def one_die(d: Dice) -> Dist:
    """Face distribution of one die after its reroll rule."""
    s = d.sides
    out: Dist = defaultdict(Fraction)
    rr = d.reroll
    if rr is not None and rr.until:
        ok = [v for v in range(1, s + 1) if not meets(rr.cond, v)]
        return {v: Fraction(1, len(ok)) for v in ok}
    for first, second in itertools.product(range(1, s + 1), repeat=2):
        face = second if rr is not None and meets(rr.cond, first) else first
        out[face] += Fraction(1, s * s)
    return dict(out)


def chains(d: Dice, limit: int) -> list[tuple[Fraction, tuple[int, ...], bool]]:
    """Every explosion chain: probability, faces, truncated."""
    die = one_die(d)
    out = []

    def walk(prefix: tuple[int, ...], p: Fraction) -> None:
        for v, pv in die.items():
            faces = (*prefix, v)
            if d.explode is not None and meets(d.explode, v):
                if len(faces) < limit:
                    walk(faces, p * pv)
                    continue
                out.append((p * pv, faces, True))
                continue
            out.append((p * pv, faces, False))

    walk((), Fraction(1))
    return out


def brute_dice(d: Dice, limit: int) -> tuple[Dist, bool]:
    out: Dist = defaultdict(Fraction)
    truncated = False
    options = chains(d, limit)
    for combo in itertools.product(options, repeat=d.count):
        p = Fraction(1)
        for q, _, t in combo:
            p *= q
            truncated = truncated or t
        idx = list(range(d.count))
        if d.keep is not None:
            n, mode = d.keep.n, d.keep.mode
            by_total = sorted(idx, key=lambda i: sum(combo[i][1]))
            if mode == "kh":
                idx = by_total[len(idx) - min(n, len(idx)) :]
            elif mode == "kl":
                idx = by_total[: min(n, len(idx))]
            elif mode == "dh":
                idx = by_total[: max(len(idx) - n, 0)]
            else:
                idx = by_total[min(n, len(idx)) :]
        value = 0
        for i in idx:
            for v in combo[i][1]:
                if d.success is None:
                    value += v
                elif meets(d.success, v):
                    value += 1
                elif meets(d.failure, v):
                    value -= 1
        out[value] += p
    return dict(out), truncated


def brute(e: Expr, limit: int) -> tuple[Dist, bool]:
    if isinstance(e, Num):
        return {e.value: Fraction(1)}, False
    if isinstance(e, Dice):
        return brute_dice(e, limit)
    if isinstance(e, Neg):
        inner, t = brute(e.operand, limit)
        return {-v: p for v, p in inner.items()}, t
    assert isinstance(e, BinOp)
    a, ta = brute(e.left, limit)
    b, tb = brute(e.right, limit)
    out: Dist = defaultdict(Fraction)
    for (x, px), (y, py) in itertools.product(a.items(), b.items()):
        v = {"+": x + y, "-": x - y, "*": x * y, "/": x // y if y else None}[e.op]
        assert v is not None
        out[v] += px * py
    return dict(out), ta or tb


CASES = [
    ("3d6", 20),
    ("2d6+3", 20),
    ("4d6kh3", 20),
    ("4d6dl1", 20),
    ("3d6kl2", 20),
    ("5d4dh2", 20),
    ("4d4kh2", 20),
    ("3d6kh5", 20),
    ("3d6dl5", 20),
    ("3d6kh0", 20),
    ("0d6 + 2", 20),
    ("3d4r1", 20),
    ("2d4rr<=2", 20),
    ("2d5r>=4", 20),
    ("2d5rr=3", 20),
    ("3d6>=5", 20),
    ("4d6>=4f1", 20),
    ("3d6>=4f>=6", 20),
    ("4d6<3", 20),
    ("3d6kh2>=4", 20),
    ("4d5r1kl2>=3f1", 20),
    ("2d4!", 4),
    ("2d4!>=3", 3),
    ("2d4!<2", 4),
    ("d6r1!", 3),
    ("2d4!>=4>=3f1", 3),
    ("3d4!kh2", 3),
    ("3d3!dl1", 3),
    ("d4rr1!", 4),
    ("2d4r=4!", 3),
    ("(d4+2)*d3", 20),
    ("d6/d3", 20),
    ("-d6/2", 20),
    ("-d4+2d3", 20),
    ("d10-d10", 20),
    ("d4*d4*d4", 20),
    ("4d3kl2-1", 20),
    ("d%", 20),
]


# Every keep/drop path of the engine: keep one die (its own closed form), keep some (the
# order-statistics DP), keep all or more, keep none; on plain dice, re-rolled dice, counted
# successes and explosion chains.
KEEP_CASES = [
    ("2d20kh1", 20),  # advantage
    ("2d20kl1", 20),  # disadvantage
    ("3d6kh1", 20),
    ("4d4kl1", 20),
    ("3d6dh2", 20),  # drop two highest = keep the lowest one
    ("3d6dl2", 20),  # drop two lowest = keep the highest one
    ("3d6kh1>=4", 20),
    ("4d4kl1<=2f4", 20),
    ("2d6r1kh1", 20),
    ("3d4rr1kl1", 20),
    ("3d4!kh1", 3),
    ("2d3!kl1", 3),
    ("4d3dh1", 20),
    ("4d4kh4", 20),
    ("3d4kl0", 20),
]


@pytest.mark.parametrize(("text", "limit"), CASES + KEEP_CASES)
def test_exact_matches_brute_force(text: str, limit: int) -> None:
    expr = parse_expr(text)
    expected, expected_truncated = brute(expr, limit)
    dist = distribution(expr, chain_limit=limit)
    assert dist.truncated == expected_truncated
    assert dist.as_fractions() == {v: p for v, p in sorted(expected.items()) if p}
    weights, _ = exact_weights(expr, limit)
    total = sum(weights.values())
    assert all(Fraction(w, total) == expected[v] for v, w in weights.items())


@st.composite
def keep_terms(draw: st.DrawFn) -> tuple[str, int]:
    """A small dice term with a keep or drop, and a chain limit: small enough to enumerate."""
    explode = draw(st.booleans())
    count = draw(st.integers(1, 3 if explode else 4))
    sides = draw(st.integers(2, 4 if explode else 6))
    text = f"{count}d{sides}"
    if draw(st.booleans()):
        word = draw(st.sampled_from(["r", "rr"]))
        face = draw(st.integers(1, sides - 1))  # never every face
        text += f"{word}{face}" if word == "r" else f"rr<={face}"
    counting = not explode and draw(st.booleans())  # counting kept exploding dice is refused
    if explode:
        text += "!"
    mode = draw(st.sampled_from(["kh", "kl", "dh", "dl", "k"]))
    text += f"{mode}{draw(st.integers(0, count + 1))}"
    if counting:
        text += f">={draw(st.integers(1, sides))}"
        if draw(st.booleans()):
            text += f"f<={draw(st.integers(1, sides))}"
    return text, draw(st.integers(2, 3)) if explode else 20


@settings(max_examples=150, deadline=None)
@given(keep_terms())
def test_every_keep_and_drop_matches_brute_force(case: tuple[str, int]) -> None:
    """Any keep/drop on any kind of die: the exact distribution equals the enumeration of
    every roll, exactly (Fractions)."""
    text, limit = case
    try:
        expr = parse_expr(text)
    except UserError as err:  # e.g. d2rr<=1! could only ever explode: refused on purpose
        assert err.key == "dice.explode_always"
        assume(False)
        raise
    expected, truncated = brute(expr, limit)
    dist = distribution(expr, chain_limit=limit)
    assert dist.as_fractions() == {v: p for v, p in sorted(expected.items()) if p}, text
    assert dist.truncated == truncated


def test_distribution_api() -> None:
    d = distribution(parse_expr("2d6"))
    assert d.min == 2 and d.max == 12
    assert d.items()[0] == (2, 1 / 36)
    assert abs(d.mean() - 7) < 1e-12
    assert abs(d.stdev() - (35 / 6) ** 0.5) < 1e-12
    assert abs(d.p_at_least(10) - 6 / 36) < 1e-12
    assert abs(d.p_at_most(3) - 3 / 36) < 1e-12
    assert abs(sum(d.probabilities.values()) - 1) < 1e-12
    assert not d.truncated
    assert distribution(parse_expr("d6!")).truncated


def test_distribution_of_command() -> None:
    dists = distribution_of_command(parse("3#d20+5 hit; 2d6 dmg"))
    assert len(dists) == 2
    assert dists[0].min == 6 and dists[1].max == 12


TYPICAL = ["40d6>=4", "10d6!>=6>=4", "4d6kh3", "2d6+3", "d20<=13", "3d10>=4f=1", "500d6"]
TYPICAL += ["8d6kh2", "d10!", "3d6!", "6d10>=4f=1", "2d20kh1"]


@pytest.mark.parametrize("text", TYPICAL)
def test_typical_expressions_are_within_the_budget(text: str) -> None:
    # Their speed is measured by `make bench`; here: accepted, and a proper distribution.
    d = distribution(parse_expr(text))
    assert abs(sum(d.probabilities.values()) - 1) < 1e-12


def test_large_sums_are_exact() -> None:
    d = distribution(parse_expr("500d6"))
    assert abs(d.mean() - 1750) < 1e-9
    assert d.probabilities[500] == 6.0**-500 or abs(d.probabilities[500] / 6.0**-500 - 1) < 1e-12


@pytest.mark.parametrize(
    "text", ["500d1000", "100d6kh50", "d1000!>=2", "500d6+500d6", "(d1000*d1000)*(d1000*d1000)"]
)
def test_too_large_is_refused_before_any_work(text: str) -> None:
    expr = parse_expr(text)
    with pytest.raises(UserError) as info:
        distribution(expr)
    assert info.value.key == "dice.odds_too_large"


def test_division_by_zero_in_odds() -> None:
    with pytest.raises(UserError) as info:
        distribution(parse_expr("d6/(d2-1)"))
    assert info.value.key == "dice.odds_division_by_zero"
    assert distribution(parse_expr("d6/(d2+1)")).max == 3


@pytest.mark.parametrize("text", ["30d6 + 40d6", "20d6 - 3d20", "2d6 + d8 - d4"])
def test_sums_match_pairwise_convolution(text: str) -> None:
    """Large sums use a big-int product; check it against the plain pairwise convolution."""
    expr = parse_expr(text)
    assert isinstance(expr, BinOp)
    left, _ = exact_weights(expr.left)
    right, _ = exact_weights(expr.right)
    sign = 1 if expr.op == "+" else -1
    expected: dict[int, int] = defaultdict(int)
    for x, wx in left.items():
        for y, wy in right.items():
            expected[x + sign * y] += wx * wy
    weights, _ = exact_weights(expr)
    assert weights == dict(expected)


@settings(max_examples=200, deadline=None)
@given(
    weights=st.dictionaries(st.integers(-50, 50), st.integers(1, 10**12), min_size=1, max_size=40),
    k=st.integers(-55, 55),
)
def test_tail_sums_are_the_correctly_rounded_exact_values(weights: dict[int, int], k: int) -> None:
    """P(>=k), P(<=k) and the mean come from exact integer sums made once, then one rounding:
    each equals the float of the exact Fraction."""
    total = sum(weights.values())
    dist = Distribution(weights)
    assert dist.p_at_least(k) == float(
        Fraction(sum(w for v, w in weights.items() if v >= k), total)
    )
    assert dist.p_at_most(k) == float(Fraction(sum(w for v, w in weights.items() if v <= k), total))
    assert dist.mean() == float(Fraction(sum(v * w for v, w in weights.items()), total))
