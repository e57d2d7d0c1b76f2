"""Exact probability distributions of dice expressions.

Distributions are computed on whole distributions with exact integer weights (Python ints;
the probability of an outcome is its weight over the sum of weights), never by enumerating
rolls:

* n identical dice: polynomial power by J.C.P. Miller's recurrence (O(1) per coefficient
  for plain dice, O(support) otherwise);
* keep/drop: an order-statistics DP over the outcomes from best to worst whose states are
  (dice placed, score of the kept dice); once enough dice are kept the rest is closed-form;
* rerolls and explosions: per-die transforms (reroll-until is conditioning; explosion
  chains are summed up to the chain limit);
* `+ - * /`: pairwise combination of independent distributions.

The work is estimated from the syntax tree before anything is computed, and expressions
above `limits.ODDS_BUDGET` are refused with `dice.odds_too_large`.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable
from functools import cached_property, lru_cache
from itertools import accumulate

from pydantic import BaseModel, ConfigDict

from rules_core.dice import limits
from rules_core.dice.ast import Dice, Expr, Neg, Num, RollCommand
from rules_core.errors import UserError

Weights = dict[int, int]


class Distribution(BaseModel):
    """Exact outcome probabilities of an expression."""

    model_config = ConfigDict(frozen=True)

    probabilities: dict[int, float]
    """Outcome -> probability, ascending by outcome, zero-probability outcomes omitted."""
    truncated: bool
    """Some explosion chain can reach the chain limit (and is cut there)."""

    def items(self) -> list[tuple[int, float]]:
        return list(self._items)

    @cached_property
    def _items(self) -> tuple[tuple[int, float], ...]:
        return tuple(sorted(self.probabilities.items()))

    @property
    def min(self) -> int:
        return min(self.probabilities)

    @property
    def max(self) -> int:
        return max(self.probabilities)

    def mean(self) -> float:
        return self._moments[0]

    def stdev(self) -> float:
        return self._moments[1]

    @cached_property
    def _moments(self) -> tuple[float, float]:
        """Mean and standard deviation, summed once (a view asks for them several times)."""
        m = math.fsum(v * p for v, p in self.probabilities.items())
        return m, math.sqrt(math.fsum((v - m) ** 2 * p for v, p in self.probabilities.items()))

    def p_at_least(self, k: int) -> float:
        values, _, at_least = self._sums
        i = bisect_left(values, k)
        return min(1.0, at_least[i]) if i < len(values) else 0.0

    def p_at_most(self, k: int) -> float:
        values, at_most, _ = self._sums
        i = bisect_right(values, k)
        return min(1.0, at_most[i - 1]) if i > 0 else 0.0

    @cached_property
    def _sums(self) -> tuple[list[int], list[float], list[float]]:
        """Ascending values with P(<= v) and P(>= v) for each, in O(n) once instead of one
        O(n) sum per question (a 100,000-value /odds table asks dozens). Floats are exact
        binary fractions, so the sums are done exactly in integers and rounded once: every
        number is the correctly rounded sum, as math.fsum gives."""
        values = [v for v, _ in self._items]
        ratios = [p.as_integer_ratio() for _, p in self._items]
        shift = max((d.bit_length() - 1 for _, d in ratios), default=0)
        scaled = [n << (shift - d.bit_length() + 1) for n, d in ratios]
        denominator = 1 << shift
        at_most = [s / denominator for s in accumulate(scaled)]
        at_least = [s / denominator for s in accumulate(reversed(scaled))][::-1]
        return values, at_most, at_least


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


def _explodes(d: Dice) -> bool:
    return d.explode is not None and d.explode.count(d.sides) > 0


def _estimate_dice(d: Dice, chain_limit: int) -> _Est:
    s = d.sides
    n = d.count
    counting = d.success is not None
    cost = s
    if _explodes(d):
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
    if _explodes(d):
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
    return _Est(n * ulo, n * uhi, out, cost, bits)


def _estimate(node: Expr, chain_limit: int) -> _Est:
    if isinstance(node, Num):
        return _Est(node.value, node.value, 1, 1)
    if isinstance(node, Dice):
        return _estimate_dice(node, chain_limit)
    if isinstance(node, Neg):
        e = _estimate(node.operand, chain_limit)
        return _Est(-e.hi, -e.lo, e.nnz, e.cost + e.nnz, e.bits)
    a = _estimate(node.left, chain_limit)
    b = _estimate(node.right, chain_limit)
    pairs = a.nnz * b.nnz
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
    return _Est(lo, hi, min(pairs, hi - lo + 1), cost, bits)


def _kronecker_cost(len_a: int, len_b: int, bits_a: int, bits_b: int) -> int:
    """Rough cost, in elementary Python operations, of `_kronecker` (one big multiplication)."""
    slot = bits_a + bits_b + max(len_a, len_b).bit_length() + 1
    digits = (len_a + len_b) * slot / 30
    return int(len_a + len_b + digits**1.585 / 200)


def estimate_cost(expr: Expr, chain_limit: int = limits.MAX_CHAIN) -> int:
    """Upper bound of the elementary operations `distribution(expr)` performs."""
    return _estimate(expr, chain_limit).cost


# ---------------------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------------------


def _die_weights(d: Dice) -> list[int]:
    """Weights of faces 1..sides after the reroll rule (index = face - 1)."""
    s = d.sides
    rr = d.reroll
    if rr is None:
        return [1] * s
    lo, hi = rr.cond.interval(s)
    c = max(0, hi - lo + 1)
    if c == 0:
        return [1] * s
    if rr.until:
        return [0 if lo <= v <= hi else 1 for v in range(1, s + 1)]
    # P(v) = [v not rerolled]/s + (c/s) * (1/s)  -> weights over s*s
    return [(0 if lo <= v <= hi else s) + c for v in range(1, s + 1)]


def _scorer(d: Dice) -> Callable[[int], int]:
    succ = d.success
    if succ is None:
        return lambda v: v
    slo, shi = succ.interval(d.sides)
    flo, fhi = d.failure.interval(d.sides) if d.failure is not None else (1, 0)

    def score(v: int) -> int:
        if slo <= v <= shi:
            return 1
        if flo <= v <= fhi:
            return -1
        return 0

    return score


def _chain(base: list[int], d: Dice, score: Callable[[int], int], limit: int) -> Weights:
    """Distribution of the summed `score` of one explosion chain of at most `limit` dice."""
    assert d.explode is not None
    elo, ehi = d.explode.interval(d.sides)
    q = sum(base)
    grow = [(score(v), w) for v, w in enumerate(base, 1) if w and elo <= v <= ehi]
    stop = [(score(v), w) for v, w in enumerate(base, 1) if w and not elo <= v <= ehi]
    every = [(score(v), w) for v, w in enumerate(base, 1) if w]
    out: defaultdict[int, int] = defaultdict(int)
    prefix: Weights = {0: 1}  # score of i exploding dice, weights over q**i
    qpow = [q**e for e in range(limit + 1)]
    for i in range(1, limit + 1):
        last = i == limit
        scale = qpow[limit - i]
        for x, wx in prefix.items():
            wxs = wx * scale
            for y, wy in every if last else stop:
                out[x + y] += wxs * wy
        if not last:
            nxt: defaultdict[int, int] = defaultdict(int)
            for x, wx in prefix.items():
                for y, wy in grow:
                    nxt[x + y] += wx * wy
            prefix = nxt
            if not prefix:
                break
    return _reduce(dict(out))


def _reduce(w: Weights) -> Weights:
    w = {k: v for k, v in w.items() if v}
    g = 0
    for v in w.values():
        g = math.gcd(g, v)
        if g == 1:
            return w
    return {k: v // g for k, v in w.items()} if g > 1 else w


def _power(dist: Weights, n: int) -> Weights:
    """Distribution of the sum of `n` independent copies (Miller's recurrence)."""
    if n == 0:
        return {0: 1}
    if n == 1:
        return dict(dist)
    lo = min(dist)
    deg = max(dist) - lo
    if deg == 0:
        return {lo * n: dist[lo] ** n}
    a = [dist.get(lo + k, 0) for k in range(deg + 1)]
    size = n * deg + 1
    nz_count = sum(1 for x in a if x)
    if nz_count > 8 and a[0] and any(x != a[0] for x in a):
        return _kronecker_power(a, lo, n)
    f = [0] * size
    if all(x == a[0] for x in a):
        # Plain dice: O(1) per coefficient with running window sums.
        f[0] = 1
        s0 = s1 = 1  # S0(1), S1(1)
        for m in range(1, size):
            fm = ((n + 1) * s1 - m * s0) // m
            f[m] = fm
            old = f[m - deg] if m >= deg else 0
            s1 += s0 + fm - (deg + 1) * old
            s0 += fm - old
        c = a[0] ** n
        if c != 1:
            f = [x * c for x in f]
    else:
        a0 = a[0]
        nz = [(k, a[k]) for k in range(1, deg + 1) if a[k]]
        f[0] = a0**n
        n1 = n + 1
        for m in range(1, size):
            acc = 0
            for k, ak in nz:
                if k > m:
                    break
                fk = f[m - k]
                if fk:
                    acc += (n1 * k - m) * ak * fk
            f[m] = acc // (m * a0)
    return {lo * n + i: x for i, x in enumerate(f) if x}


def _kronecker_power(a: list[int], lo: int, n: int) -> Weights:
    """`n`-th power of the polynomial with coefficients `a` (from outcome `lo` on), by one
    big-integer power of the coefficients packed into slots wide enough never to carry."""
    slot_bits = n * sum(a).bit_length() + 1
    nbytes = (slot_bits + 7) // 8
    packed = int.from_bytes(b"".join(x.to_bytes(nbytes, "little") for x in a), "little")
    size = n * (len(a) - 1) + 1
    raw = (packed**n).to_bytes(size * nbytes, "little")
    base = lo * n
    out: Weights = {}
    for i in range(size):
        x = int.from_bytes(raw[i * nbytes : (i + 1) * nbytes], "little")
        if x:
            out[base + i] = x
    return out


def _keep(outcomes: list[tuple[int, int]], n: int, k: int) -> Weights:
    """Sum of the scores of the best `k` of `n` dice (0 < k < n).

    `outcomes` lists `(score, weight)` from best to worst rank.
    """
    total_w = [0] * (len(outcomes) + 1)
    for i in range(len(outcomes) - 1, -1, -1):
        total_w[i] = total_w[i + 1] + outcomes[i][1]
    if k == 1:
        # The best die alone: it is at rank `idx` when every die is at that rank or worse
        # and not every die is strictly worse (weights over total**n, as below).
        best: defaultdict[int, int] = defaultdict(int)
        for idx, (sc, w) in enumerate(outcomes):
            rest = total_w[idx + 1]
            best[sc] += (w + rest) ** n - rest**n
        return _reduce(dict(best))
    binom = [[math.comb(m, c) for c in range(k + 1)] for m in range(n + 1)]
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    done: defaultdict[int, int] = defaultdict(int)
    for idx, (sc, w) in enumerate(outcomes):
        rest = total_w[idx + 1]
        rpow = [1] * (n + 1)
        for e in range(1, n + 1):
            rpow[e] = rpow[e - 1] * rest
        wpow = [1] * (k + 1)
        for e in range(1, k + 1):
            wpow[e] = wpow[e - 1] * w
        nxt: defaultdict[tuple[int, int], int] = defaultdict(int)
        for (j, s), weight in states.items():
            left = n - j
            need = k - j
            row = binom[left]
            partial = 0
            for c in range(need):
                t = row[c] * wpow[c]
                nxt[(j + c, s + sc * c)] += weight * t
                partial += t * rpow[left - c]
            sat = (w + rest) ** left - partial
            if sat:
                done[s + sc * need] += weight * sat
        states = nxt
    return _reduce(dict(done))


@lru_cache(maxsize=256)
def _dice_dist(d: Dice, chain_limit: int) -> tuple[Weights, bool]:
    if (
        d.reroll is None
        and d.explode is None
        and d.keep is None
        and d.success is None
        and d.failure is None
    ):  # plain NdX: every face weight 1
        return _power(dict.fromkeys(range(1, d.sides + 1), 1), d.count), False
    base = _die_weights(d)
    score = _scorer(d)
    counting = d.success is not None
    truncated = False
    if _explodes(d):
        assert d.explode is not None
        elo, ehi = d.explode.interval(d.sides)
        truncated = d.count > 0 and any(base[v - 1] for v in range(elo, ehi + 1))
    if truncated:
        unit = _chain(base, d, score if counting else (lambda v: v), chain_limit)
        unit_score: Callable[[int], int] = lambda v: v  # noqa: E731
    else:
        unit = _reduce({v: w for v, w in enumerate(base, 1) if w})
        unit_score = score
    n = d.count
    if d.keep is not None:
        if counting and truncated:
            raise UserError("dice.keep_count_explode")
        highest, k = d.keep.resolve(n)
        if k == 0:
            return {0: 1}, truncated
        if k < n:
            ranks = sorted(unit, reverse=highest)
            return _keep([(unit_score(r), unit[r]) for r in ranks], n, k), truncated
    if truncated or not counting:
        return _power(unit, n), truncated
    scored: defaultdict[int, int] = defaultdict(int)
    for r, w in unit.items():
        scored[unit_score(r)] += w
    return _power(dict(scored), n), truncated


def _kronecker(a: Weights, b: Weights) -> Weights:
    """Convolution (distribution of the sum) by packing both into one big-int product."""
    lo_a, lo_b = min(a), min(b)
    len_a, len_b = max(a) - lo_a + 1, max(b) - lo_b + 1
    slot_bits = (
        max(a.values()).bit_length()
        + max(b.values()).bit_length()
        + max(len_a, len_b).bit_length()
        + 1
    )
    nbytes = (slot_bits + 7) // 8
    zero = bytes(nbytes)

    def pack(w: Weights, lo: int, length: int) -> int:
        chunks = [zero] * length
        for v, x in w.items():
            chunks[v - lo] = x.to_bytes(nbytes, "little")
        return int.from_bytes(b"".join(chunks), "little")

    product = pack(a, lo_a, len_a) * pack(b, lo_b, len_b)
    size = len_a + len_b - 1
    raw = product.to_bytes(size * nbytes, "little")
    out: Weights = {}
    base = lo_a + lo_b
    for i in range(size):
        x = int.from_bytes(raw[i * nbytes : (i + 1) * nbytes], "little")
        if x:
            out[base + i] = x
    return out


def _add(a: Weights, b: Weights) -> Weights:
    """Distribution of the sum of two independent outcomes, by the cheaper method."""
    pairs = len(a) * len(b)
    if pairs > 256:
        len_a, len_b = max(a) - min(a) + 1, max(b) - min(b) + 1
        bits_a = max(a.values()).bit_length()
        bits_b = max(b.values()).bit_length()
        if _kronecker_cost(len_a, len_b, bits_a, bits_b) < pairs:
            return _kronecker(a, b)
    out: defaultdict[int, int] = defaultdict(int)
    for x, wx in a.items():
        for y, wy in b.items():
            out[x + y] += wx * wy
    return dict(out)


def _combine(op: str, a: Weights, b: Weights) -> Weights:
    if op == "+":
        return _add(a, b)
    if op == "-":
        return _add(a, {-v: w for v, w in b.items()})
    out: defaultdict[int, int] = defaultdict(int)
    if op == "*":
        for x, wx in a.items():
            for y, wy in b.items():
                out[x * y] += wx * wy
    else:
        if 0 in b:
            raise UserError("dice.odds_division_by_zero")
        for x, wx in a.items():
            for y, wy in b.items():
                out[x // y] += wx * wy
    return dict(out)


def _weights(node: Expr, chain_limit: int) -> tuple[Weights, bool]:
    if isinstance(node, Num):
        return {node.value: 1}, False
    if isinstance(node, Dice):
        return _dice_dist(node, chain_limit)
    if isinstance(node, Neg):
        w, t = _weights(node.operand, chain_limit)
        return {-v: x for v, x in w.items()}, t
    a, ta = _weights(node.left, chain_limit)
    b, tb = _weights(node.right, chain_limit)
    if len(b) == 1 and node.op in "+-":
        ((y, wy),) = b.items()
        shift = y if node.op == "+" else -y
        return {x + shift: wx * wy for x, wx in a.items()}, ta or tb
    return _combine(node.op, a, b), ta or tb


def exact_weights(
    expr: Expr, chain_limit: int = limits.MAX_CHAIN, budget: int = limits.ODDS_BUDGET
) -> tuple[Weights, bool]:
    """Integer weights of every outcome and the truncation flag (see `distribution`)."""
    cost = estimate_cost(expr, chain_limit)
    if cost > budget:
        raise UserError("dice.odds_too_large", limit=budget)
    return _weights(expr, chain_limit)


def distribution(expr: Expr, *, chain_limit: int = limits.MAX_CHAIN) -> Distribution:
    """Exact distribution of `expr`; `dice.odds_too_large` if it would cost too much."""
    w, truncated = exact_weights(expr, chain_limit)
    total = sum(w.values())
    probs = {v: w[v] / total for v in sorted(w)}
    return Distribution.model_construct(probabilities=probs, truncated=truncated)


def distribution_of_command(cmd: RollCommand) -> list[Distribution]:
    """One distribution per `;`-separated roll (repeats share their distribution)."""
    return [distribution(spec.expr) for spec in cmd.rolls]
