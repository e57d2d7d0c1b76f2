"""Exact probability distributions of dice expressions: each node of the syntax tree becomes
a `Distribution` (rules_core/dice/distribution.py), computed on whole distributions with
exact integer weights, never by enumerating rolls:

* n identical dice: `repeat` (polynomial power by J.C.P. Miller's recurrence);
* keep/drop: `highest`/`lowest` (an order-statistics DP over the outcomes best to worst);
* rerolls and explosions: `reroll` (reroll-until is conditioning) and `explode` (chains
  summed up to the chain limit);
* `+ - * /`: the operators, on independent distributions.

The work is estimated from the syntax tree before anything is computed (`odds_cost`): an
expression above `limits.ODDS_BUDGET` is refused with `dice.odds_too_large`, and a whole message
is charged to its `rules_core.budget.Budget` by `charge_odds` before any part is computed.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from rules_core.budget import Budget
from rules_core.dice import limits
from rules_core.dice.ast import (
    TOTAL_OPS,
    BinOp,
    Compare,
    Dice,
    DiceSet,
    Expr,
    Keep,
    Neg,
    Num,
    RollCommand,
)
from rules_core.dice.distribution import Distribution
from rules_core.dice.distribution import kronecker_cost as _kronecker_cost
from rules_core.errors import UserError

Weights = dict[int, int]


# ---------------------------------------------------------------------------------------
# Work estimates (upper bounds, computed before any real work)
# ---------------------------------------------------------------------------------------


class _Est:
    __slots__ = ("bits", "cost", "hi", "lo", "nnz")

    def __init__(self, lo: int, hi: int, nnz: int, cost: int, bits: int = 1) -> None:
        self.lo = lo
        self.hi = hi
        self.nnz = nnz
        self.cost = cost
        self.bits = bits  # bound on the bit length of the weights


def _score_range(d: Dice) -> tuple[int, int]:
    return (-1 if d.failure is not None else 0), 1


def _estimate_dice(d: Dice, chain_limit: int) -> _Est:
    s = d.sides
    n = d.count
    if d.explode is None and d.reroll is None and d.success is None:
        return _estimate_plain(s, n, d.keep)
    return _estimate_general(d, chain_limit)


def _estimate_general(d: Dice, chain_limit: int) -> _Est:
    s = d.sides
    n = d.count
    counting = d.success is not None
    explodes = d.explode is not None and d.explode.count(s) > 0
    cost = s
    if explodes:
        assert d.explode is not None
        elo, ehi = d.explode.interval(s)
        step = 2 if counting else ehi - elo
        for i in range(1, chain_limit + 1):
            cost += (1 + (i - 1) * step) * s
        ulo, uhi = (-chain_limit, chain_limit) if counting else (1, chain_limit * s)
    else:
        ulo, uhi = _score_range(d) if counting else (1, s)
    unit_nnz = uhi - ulo + 1
    # Weights are big integers: charge wide ones proportionally to their size.
    unit_bits = math.log2(s) * (2 if d.reroll is not None else 1)
    if explodes:
        unit_bits *= chain_limit
    bits = int(n * unit_bits) + 64
    wide = 1 + bits // 1024
    if d.keep is not None:
        _, k = d.keep.resolve(n)
        if 0 < k < n:
            srange = 2 if counting else uhi - ulo
            states = k * (k * srange + 1)
            cost += unit_nnz * states * (k + 1) * wide
            return _Est(k * ulo, k * uhi, k * (uhi - ulo) + 1, cost, bits)
        if k == 0:
            return _Est(0, 0, 1, cost)
    out = n * (uhi - ulo) + 1
    if n > 1:
        cost += out * (unit_nnz if d.reroll or d.explode or counting else 4) * wide
        if unit_nnz > 8 and (d.reroll is not None or explodes):
            # Uneven weights over more than 8 outcomes: `_power` raises one packed big integer
            # to the n-th power, whose size grows as n squared (`252d2!` took 25 s while the
            # line above charged it 2 million).
            cost += _kronecker_power_cost(n, unit_nnz, math.ceil(unit_bits))
    return _Est(n * ulo, n * uhi, out, cost, bits)


def _estimate_plain(s: int, n: int, keep: Keep | None) -> _Est:
    """`_estimate_dice` of dice without reroll, explosion or counting (most terms, and every
    cold `/odds 10d6kh3`): the same numbers, without the branches that don't apply."""
    bits = int(n * math.log2(s)) + 64
    wide = 1 + bits // 1024
    if keep is not None:
        k = keep.resolve(n)[1]
        if 0 < k < n:
            span = s - 1
            cost = s + s * k * (k * span + 1) * (k + 1) * wide
            return _Est(k, k * s, k * span + 1, cost, bits)
        if k == 0:
            return _Est(0, 0, 1, s)
    out = n * (s - 1) + 1
    return _Est(n, n * s, out, s + out * 4 * wide if n > 1 else s, bits)


def _kronecker_power_cost(n: int, width: int, unit_bits: int) -> int:
    """Rough cost, in the units of `_kronecker_cost`, of `_kronecker_power` (n copies of a unit
    of `width` outcomes whose weights sum to about 2**unit_bits)."""
    slot = n * unit_bits + 1
    digits = (n * (width - 1) + 1) * slot / 30
    return int(digits**1.585 / 200)


def _estimate(node: Expr, chain_limit: int) -> _Est:
    if isinstance(node, Num):
        return _Est(node.value, node.value, 1, 1)
    if isinstance(node, Dice):
        if node.mode == "once":
            chain_limit = 2
        if node.floor is not None or node.ceiling is not None:
            wide = max(node.sides, node.floor or 0, node.ceiling or 0)
            node = node._replace(sides=wide, floor=None, ceiling=None)
        return _estimate_dice(node, chain_limit)
    if isinstance(node, DiceSet):
        return _estimate_set(node, chain_limit)
    if isinstance(node, Neg):
        e = _estimate(node.operand, chain_limit)
        return _Est(-e.hi, -e.lo, e.nnz, e.cost + e.nnz, e.bits)
    a = _estimate(node.left, chain_limit)
    b = _estimate(node.right, chain_limit)
    pairs = a.nnz * b.nnz
    if isinstance(node, Compare):
        return _Est(0, 1, 2, a.cost + b.cost + pairs, a.bits + b.bits)
    cost = a.cost + b.cost + pairs
    bits = a.bits + b.bits
    if node.op in "+-":
        cost = (
            a.cost
            + b.cost
            + min(pairs, _kronecker_cost(a.hi - a.lo + 1, b.hi - b.lo + 1, a.bits, b.bits))
        )
    if node.op == "+":
        lo, hi = a.lo + b.lo, a.hi + b.hi
    elif node.op == "-":
        lo, hi = a.lo - b.hi, a.hi - b.lo
    elif node.op == "*":
        corners = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
        lo, hi = min(corners), max(corners)
    else:
        m = max(abs(a.lo), abs(a.hi))
        lo, hi = -m - 1, m + 1
    nnz = pairs
    if node.op == "*" and node.left == node.right:
        # a*b = b*a for two alike operands: at most one product per unordered pair (d1000*d1000:
        # 500,500 at most, 248,083 in fact).
        nnz = a.nnz * (a.nnz + 1) // 2
    return _Est(lo, hi, min(nnz, hi - lo + 1), cost, bits)


def _estimate_set(node: DiceSet, chain_limit: int) -> _Est:
    if node.keep is None:  # a plain sum of its members
        total: Expr = node.members[0]
        for m in node.members[1:]:
            total = BinOp("+", total, m)
        return _estimate(total, chain_limit)
    parts = [_estimate(m, chain_limit) for m in node.members]
    cost = sum(p.cost for p in parts)
    bits = sum(p.bits for p in parts)
    k = len(parts) if node.keep is None else node.keep.resolve(len(parts))[1]
    lo = sum(sorted(p.lo for p in parts)[:k])
    hi = sum(sorted((p.hi for p in parts), reverse=True)[:k])
    states = 1
    for p in parts:  # the sorted best-k tuples so far, times the member's outcomes
        cost += states * p.nnz * (k + 1)
        states = min(states * p.nnz, limits.ODDS_BUDGET)
    return _Est(lo, hi, max(1, hi - lo + 1), cost, bits)


def estimate_cost(expr: Expr, chain_limit: int = limits.MAX_CHAIN) -> int:
    """Upper bound of the elementary operations `distribution(expr)` performs."""
    return _estimate(expr, chain_limit).cost


@dataclass(frozen=True)
class OddsCost:
    """What the exact distribution of one expression costs, estimated before any work."""

    operations: int
    """Upper bound of the elementary operations."""
    values: int
    """Upper bound of the distinct outcomes (one row each in the reply)."""
    result_bytes: int
    """Rough upper bound of the memory the exact weights take (a Python int and its share of
    a dict entry per outcome)."""


def odds_cost(expr: Expr, chain_limit: int = limits.MAX_CHAIN) -> OddsCost:
    """The estimate of `distribution(expr)`; `dice.odds_too_large` when one expression alone is
    over the per-expression limit."""
    est = _estimate(expr, chain_limit)
    if est.cost > limits.ODDS_BUDGET:
        raise UserError("dice.odds_too_large", limit=limits.ODDS_BUDGET)
    values = min(est.nnz, est.hi - est.lo + 1)
    return OddsCost(
        operations=est.cost, values=values, result_bytes=values * ((est.bits + 7) // 8 + 32)
    )


def charge_odds(cmd: RollCommand, budget: Budget) -> list[OddsCost]:
    """Charge every part of a message's odds to its budget, before any of them is computed.
    A `N#` repeat is charged once: its distribution is computed once and shown once."""
    costs = []
    for spec in cmd.rolls:
        cost = odds_cost(spec.expr)
        # A reply lists a distribution's values up to the reply limit; a wider one is summed up
        # (its P(>=k) table and histogram), so one part never charges more than the limit.
        listed = min(cost.values, budget.limits.reply)
        budget.charge(operations=cost.operations, result=cost.result_bytes, reply=listed)
        costs.append(cost)
    return costs


# ---------------------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------------------


def _scorer(d: Dice) -> Callable[[int], int] | None:
    """What one die counts for when successes are counted (None: its face)."""
    succ = d.success
    if succ is None:
        return None
    slo, shi = succ.interval(d.sides)
    flo, fhi = d.failure.interval(d.sides) if d.failure is not None else (1, 0)

    def score(v: int) -> int:
        if slo <= v <= shi:
            return 1
        if flo <= v <= fhi:
            return -1
        return 0

    return score


@lru_cache(maxsize=256)
def _dice_dist(d: Dice, chain_limit: int) -> Distribution[int]:
    n = d.count
    clamps = d.floor is not None or d.ceiling is not None
    plain = d.reroll is None and d.explode is None and d.success is None and not d.fudge
    if d.keep is not None and plain and not clamps:
        highest, k = d.keep.resolve(n)
        if 0 < k < n:
            return Distribution.die_keep(d.sides, n, k, highest)  # plain NdXkhK
    die = Distribution.uniform((-1, 0, 1)) if d.fudge else Distribution.die(d.sides)
    if (
        d.reroll is None
        and d.explode is None
        and d.keep is None
        and d.success is None
        and not clamps
    ):
        return die.repeat(n)  # plain NdX
    if d.reroll is not None:
        lo, hi = d.reroll.cond.interval(d.sides)
        if lo <= hi:
            die = die.reroll(lambda v: lo <= v <= hi, until=d.reroll.until)
    if clamps:
        floor, ceiling = d.floor, d.ceiling
        die = die.map(lambda v: _clamp(v, floor, ceiling))
    score = _scorer(d)
    unit, unit_score = die.reduced(), score
    if d.explode is not None and n > 0:
        elo, ehi = d.explode.interval(d.sides)
        if any(elo <= v <= ehi for v in die.weights):
            # A chain is one unit; its score is what it counts for. Compounding (`!!`) sums
            # the same; penetrating (`!p`) counts every die one less, then the first one back.
            depth = 2 if d.mode == "once" else chain_limit
            if d.mode == "penetrate":
                unit = die.explode(lambda v: elo <= v <= ehi, depth=depth, score=_minus_one) + 1
            else:
                unit = die.explode(lambda v: elo <= v <= ehi, depth=depth, score=score)
            if d.mode == "once":
                unit = Distribution(unit.weights, total=unit.total)  # one extra die: not cut
            unit_score = None
    if d.keep is not None:
        if score is not None and unit.truncated:
            raise UserError("dice.keep_count_explode")
        highest, k = d.keep.resolve(n)
        if k < n:
            kept = unit.highest if highest else unit.lowest
            return kept(n, k, score=unit_score)
    return (unit if unit_score is None else unit.map(unit_score)).repeat(n)


def _minus_one(v: int) -> int:
    return v - 1


def _clamp(v: int, lo: int | None, hi: int | None) -> int:
    if lo is not None and v < lo:
        return lo
    if hi is not None and v > hi:
        return hi
    return v


def _set_dist(node: DiceSet, chain_limit: int) -> Distribution[int]:
    """The kept members' sum: the sorted totals of the best k so far, member by member."""
    dists = [_evaluate(m, chain_limit) for m in node.members]
    if node.keep is None:
        out = dists[0]
        for dist in dists[1:]:
            out = out + dist
        return out
    highest, k = node.keep.resolve(len(dists))
    if k == 0:
        return Distribution.constant(0)
    best: Distribution[tuple[int, ...]] = Distribution.constant(())

    def push(top: tuple[int, ...], v: int) -> tuple[int, ...]:
        return tuple(sorted((*top, v), reverse=highest)[:k])

    for dist in dists:
        best = best.combine(dist, push)
    return best.map(sum)


def _evaluate(node: Expr, chain_limit: int) -> Distribution[int]:
    if isinstance(node, Num):
        return Distribution.constant(node.value)
    if isinstance(node, Dice):
        return _dice_dist(node, chain_limit)
    if isinstance(node, Neg):
        return -_evaluate(node.operand, chain_limit)
    if isinstance(node, Compare):
        return _compare(node, chain_limit)
    if isinstance(node, DiceSet):
        return _set_dist(node, chain_limit)
    a = _evaluate(node.left, chain_limit)
    if isinstance(node.right, Num) and node.op in "+-*":  # a constant: no pairing needed
        n = node.right.value
        return a + n if node.op == "+" else a - n if node.op == "-" else a * n
    b = _evaluate(node.right, chain_limit)
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    if 0 in b.weights:
        raise UserError("dice.odds_division_by_zero")
    if node.op == "%":
        return a.combine(b, operator.mod)
    return a // b


def _compare(node: Compare, chain_limit: int) -> Distribution[int]:
    """1 where the comparison of the two totals holds, else 0."""
    test = TOTAL_OPS[node.op]
    a = _evaluate(node.left, chain_limit)
    b = _evaluate(node.right, chain_limit)
    return a.combine(b, lambda x, y: int(test(x, y)))


def exact_weights(
    expr: Expr, chain_limit: int = limits.MAX_CHAIN, budget: int = limits.ODDS_BUDGET
) -> tuple[dict[int, int], bool]:
    """Integer weights of every outcome and the truncation flag (see `distribution`)."""
    dist = distribution(expr, chain_limit=chain_limit, budget=budget)
    return dict(dist.weights), dist.truncated


def distribution(
    expr: Expr, *, chain_limit: int = limits.MAX_CHAIN, budget: int = limits.ODDS_BUDGET
) -> Distribution[int]:
    """Exact distribution of `expr`; `dice.odds_too_large` if it would cost too much.
    `truncated` when an explosion chain can reach the chain limit (and is cut there)."""
    if _estimate(expr, chain_limit).cost > budget:  # estimate_cost's, a call less
        raise UserError("dice.odds_too_large", limit=budget)
    return _evaluate(expr, chain_limit)


def distribution_of_command(cmd: RollCommand) -> list[Distribution[int]]:
    """One distribution per `;`-separated roll (repeats share their distribution)."""
    return [distribution(spec.expr) for spec in cmd.rolls]
