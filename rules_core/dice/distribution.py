"""The one exact probability distribution type: `/odds` and every game's odds are built from it.

A `Distribution` maps outcomes to integer weights over one integer total (Python integers, so
any size): the probability of an outcome is its weight over the total, exactly. Integers, not
Fractions, because combining distributions then multiplies and adds integers with no gcd per
operation (a Fraction does one on every `+` and `*`); a gcd is taken only where it keeps the
numbers small (`reduced`). Floats appear only in the view (`probabilities`, `mean`,
`p_at_least`...), each the correctly rounded value of the exact number.

Whole distributions are combined, never rolls enumerated (after icepool's `Die`):

    d6 = Distribution.die(6)
    hits = 2 @ d6 + 3 >= 7                      # a 0/1 distribution: P(2d6+3 >= 7)
    damage = hits.map(lambda h: 3 @ d6 if h else 0)   # a mixture
    best = Distribution.die(20).highest(2)      # advantage: the best of 2d20

Outcomes are any hashable values (game odds use tuples such as (successes, critical)); the
arithmetic, comparisons, `repeat`, `highest`/`lowest` and the numeric view need integers.

A distribution may be *defective*: its weights sum to less than its total when some outcomes
were left out on purpose (an infinite chain of re-rolls cut where its remaining chance is
negligible); `missing` says how much. Every operation carries the missing mass along exactly.
`truncated` is a flag, carried by every operation, saying that some outcome was cut short (an
explosion chain stopped at its limit); the distribution is still complete.
"""

from __future__ import annotations

import math
import operator
import struct
import sys
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from functools import lru_cache
from itertools import (
    accumulate,
    combinations,
    combinations_with_replacement,
    product,
    repeat,
    starmap,
)
from types import MappingProxyType
from typing import Any, Generic, Literal, cast, overload

from typing_extensions import TypeVar

# Outcomes are integers unless said otherwise: a bare `Distribution` is `Distribution[int]`.
T = TypeVar("T", bound=Hashable, default=int)
U = TypeVar("U", bound=Hashable, default=int)

Weights = dict[Any, int]
Probability = Fraction | int


class Distribution(Generic[T]):
    """An exact, immutable probability distribution over hashable outcomes (see the module
    docstring). Build one with `die`, `constant`, `uniform`, `from_probabilities`,
    `bernoulli`, `mixture` or the constructor; combine with the operators and methods."""

    __slots__ = ("_keys", "_moments", "_probs", "_sums", "_total", "_w", "truncated")

    _w: dict[T, int]
    _total: int
    truncated: bool

    def __init__(
        self, weights: Mapping[T, int], *, total: int | None = None, truncated: bool = False
    ) -> None:
        """`weights`: outcome -> non-negative integer weight (zeros are dropped); `total`: the
        denominator (the weights' sum when omitted; larger for a defective distribution)."""
        w: dict[T, int] = {}
        for v, x in weights.items():
            if not isinstance(x, int) or x < 0:
                raise ValueError(f"weight of {v!r} must be a non-negative integer, not {x!r}")
            if x:
                w[v] = x
        mass = sum(w.values())
        total = mass if total is None else total
        if total <= 0 or total < mass:
            raise ValueError("the total must be positive and at least the sum of the weights")
        self._init(w, total, truncated)

    def _init(self, w: dict[T, int], total: int, truncated: bool) -> None:
        self._w = w
        self._total = total
        self.truncated = truncated
        self._keys: list[T] | None = None
        self._probs: dict[T, float] | None = None
        self._sums: tuple[list[Any], list[int], list[int]] | None = None
        self._moments: tuple[float, float] | None = None

    # --- construction ----------------------------------------------------------------------

    @classmethod
    def constant(cls, value: U) -> Distribution[U]:
        return cast("Distribution[U]", _make({value: 1}))

    @classmethod
    def die(cls, sides: int) -> Distribution[int]:
        """A fair die with faces 1..sides."""
        if sides < 1:
            raise ValueError("a die needs at least one side")
        return cast("Distribution[int]", _make(dict.fromkeys(range(1, sides + 1), 1)))

    @classmethod
    def die_keep(cls, sides: int, n: int, k: int, highest: bool = True) -> Distribution[int]:
        """`die(sides).highest(n, k)` (or `.lowest`) for 0 < k < n, without building the die
        first: `4d6kh3`, `2d20kh1`, the most common keep, is computed on every /odds."""
        faces = range(sides, 0, -1) if highest else range(1, sides + 1)
        weights = _keep_best(zip(faces, repeat(1)), n, k, 1, sides, sides)
        d: Distribution[int] = _make(weights)
        d._keys = list(weights)  # the kernel reads its slots lowest first: already sorted
        return d

    @classmethod
    def uniform(cls, values: Iterable[U]) -> Distribution[U]:
        """Each listed value equally likely (a value listed twice is twice as likely)."""
        w: defaultdict[U, int] = defaultdict(int)
        for v in values:
            w[v] += 1
        if not w:
            raise ValueError("no values")
        return cast("Distribution[U]", _make(dict(w)))

    @classmethod
    def bernoulli(cls, p: Probability) -> Distribution[int]:
        """1 with probability `p`, else 0."""
        p = Fraction(p)
        if not 0 <= p <= 1:
            raise ValueError("a probability is between 0 and 1")
        n, d = p.numerator, p.denominator
        return cast("Distribution[int]", _make({k: x for k, x in ((1, n), (0, d - n)) if x}, d))

    @classmethod
    def from_probabilities(
        cls, probabilities: Mapping[U, Probability | float], *, truncated: bool = False
    ) -> Distribution[U]:
        """Outcome -> exact probability (a float is taken at its exact binary value). They may
        sum to less than 1 (a defective distribution), never to more."""
        fracs = {v: Fraction(p) for v, p in probabilities.items() if p}
        if any(p < 0 for p in fracs.values()):
            raise ValueError("negative probability")
        denominator = math.lcm(*(p.denominator for p in fracs.values())) if fracs else 1
        w = {v: p.numerator * (denominator // p.denominator) for v, p in fracs.items()}
        if sum(w.values()) > denominator:
            raise ValueError("probabilities sum to more than 1")
        return cast("Distribution[U]", _make(w, denominator, truncated))

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Probability, Distribution[U] | U]]) -> Distribution[U]:
        """`(probability, distribution or outcome)` pairs: pick a part with its probability,
        then an outcome from it. Probabilities that sum to less than 1 leave that mass
        missing."""
        pairs = [(Fraction(p), d) for p, d in parts if p]
        if not pairs:
            raise ValueError("an empty mixture")
        denominator = math.lcm(*(p.denominator for p, _ in pairs))
        weighted = [(p.numerator * (denominator // p.denominator), d) for p, d in pairs]
        if sum(x for x, _ in weighted) > denominator:
            raise ValueError("mixture probabilities sum to more than 1")
        return cast("Distribution[U]", _mix(weighted, denominator))

    @classmethod
    def union(cls, parts: Iterable[Distribution[U]]) -> Distribution[U]:
        """Defective distributions of disjoint events of one experiment (e.g. "the active side
        hits" and "the reactive side hits") as one: their probabilities add up."""
        dists = list(parts)
        if not dists:
            raise ValueError("an empty union")
        common = math.lcm(*(d._total for d in dists))
        out: defaultdict[U, int] = defaultdict(int)
        for d in dists:
            scale = common // d._total
            for v, x in d._w.items():
                out[v] += x * scale
        if sum(out.values()) > common:
            raise ValueError("the parts are more than certain: they are not disjoint")
        return cast("Distribution[U]", _make(dict(out), common, any(d.truncated for d in dists)))

    # --- what it is --------------------------------------------------------------------------

    @property
    def weights(self) -> Mapping[T, int]:
        """Outcome -> integer weight (read-only); probability = weight / `total`."""
        return MappingProxyType(self._w)

    @property
    def total(self) -> int:
        return self._total

    def outcomes(self) -> list[T]:
        """Every outcome with a non-zero probability (ascending when they can be ordered)."""
        return list(self._ordered())

    def probability(self, outcome: T) -> Fraction:
        return Fraction(self._w.get(outcome, 0), self._total)

    def chance(self, predicate: Callable[[T], bool]) -> Fraction:
        """P(predicate(outcome)), exactly."""
        return Fraction(sum(x for v, x in self._w.items() if predicate(v)), self._total)

    def as_fractions(self) -> dict[T, Fraction]:
        """Outcome -> exact probability, ascending by outcome when they can be ordered."""
        t = self._total
        w = self._w
        return {v: Fraction(w[v], t) for v in self._ordered()}

    def expected(self, fn: Callable[[T], Probability]) -> Fraction:
        """E[fn(outcome)], exactly (a missing part counts as 0)."""
        return sum((Fraction(fn(v)) * x for v, x in self._w.items()), Fraction(0)) / self._total

    @property
    def missing(self) -> Fraction:
        """The probability left out (0 for a complete distribution)."""
        return Fraction(self._total - sum(self._w.values()), self._total)

    def __len__(self) -> int:
        return len(self._w)

    def __iter__(self) -> Iterator[T]:
        """The outcomes (as `outcomes()`), like a mapping's keys."""
        return iter(self.outcomes())

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._w

    def __eq__(self, other: object) -> bool:
        """Same outcomes with the same exact probabilities (and the same `truncated` flag)."""
        if not isinstance(other, Distribution):
            return NotImplemented
        if self.truncated != other.truncated or self._w.keys() != other._w.keys():
            return False
        a, b = self._total, other._total
        return all(x * b == other._w[v] * a for v, x in self._w.items())

    def __hash__(self) -> int:
        r = self.reduced()
        return hash((frozenset(r._w.items()), r._total, r.truncated))

    def __repr__(self) -> str:
        shown = ", ".join(f"{v!r}: {self._w[v]}" for v in self._ordered()[:8])
        more = ", ..." if len(self._w) > 8 else ""
        return f"Distribution({{{shown}{more}}}, total={self._total})"

    def reduced(self) -> Distribution[T]:
        """The same distribution with its weights and total divided by their gcd."""
        g = self._total
        for x in self._w.values():
            g = math.gcd(g, x)
            if g == 1:
                return self
        return cast(
            "Distribution[T]",
            _make({v: x // g for v, x in self._w.items()}, self._total // g, self.truncated),
        )

    def _ordered(self) -> list[T]:
        """The outcomes, ascending when they can be ordered (else as they were made)."""
        if self._keys is None:
            try:
                self._keys = sorted(cast(Any, self._w))
            except TypeError:
                self._keys = list(self._w)
        return self._keys

    def _sorted_items(self) -> list[tuple[T, int]]:
        w = self._w
        return [(v, w[v]) for v in self._ordered()]

    # --- transforming ------------------------------------------------------------------------

    @overload
    def map(self, fn: Callable[[T], Distribution[U]]) -> Distribution[U]: ...

    @overload
    def map(self, fn: Callable[[T], U | Distribution[U]]) -> Distribution[U]: ...

    def map(self, fn: Callable[[T], U | Distribution[U]]) -> Distribution[U]:
        """The distribution of `fn(outcome)`; when `fn` returns a distribution, the mixture of
        those distributions, each weighted by its outcome's probability."""
        results: list[tuple[int, U | Distribution[U]]] = []
        out: dict[Any, int] | None = {}
        for v, x in self._w.items():
            r = fn(v)
            results.append((x, r))
            if out is not None:
                if isinstance(r, Distribution):
                    out = None  # a mixture after all
                else:
                    out[r] = out.get(r, 0) + x
        if out is not None:
            return cast("Distribution[U]", _make(out, self._total, self.truncated))
        mixed = _mix(results, self._total)
        mixed.truncated = mixed.truncated or self.truncated
        return mixed

    def where(self, predicate: Callable[[T], bool]) -> Distribution[T]:
        """Only the outcomes `predicate` selects, with their probabilities (defective: the rest
        is missing). Not conditioning: see `reroll(..., until=True)` for that."""
        w = {v: x for v, x in self._w.items() if predicate(v)}
        return cast("Distribution[T]", _make(w, self._total, self.truncated))

    def fill(self, outcome: T) -> Distribution[T]:
        """The missing probability given to `outcome`: a complete distribution."""
        gap = self._total - sum(self._w.values())
        if not gap:
            return self
        w = dict(self._w)
        w[outcome] = w.get(outcome, 0) + gap
        return cast("Distribution[T]", _make(w, self._total, self.truncated))

    def if_else(self, then: Distribution[U] | U, otherwise: Distribution[U] | U) -> Distribution[U]:
        """For a 0/1 (true/false) distribution: `then` when true, `otherwise` when false."""
        return self.map(lambda v: then if v else otherwise)

    def combine(self, other: Any, fn: Callable[[T, Any], Any]) -> Distribution[Any]:
        """The distribution of `fn(a, b)` for independent `a` from self and `b` from other."""
        o: Distribution[Any] = _as_dist(other)
        wa, wb = set(self._w.values()), set(o._w.values())
        if len(wa) == 1 and len(wb) == 1:
            # Two uniform distributions (two dice): count the outcomes in C, one weight for all
            # (d1000*d1000 is a million pairs: 2 s through the loop below, 0.1 s here).
            k = wa.pop() * wb.pop()
            wide = _wide_int_product(self._w, o._w, fn, k, self._total * o._total)
            if wide is not None:
                wide.truncated = self.truncated or o.truncated
                return wide
            if fn is operator.mul and self._w.keys() == o._w.keys():
                # a*b = b*a: each unordered pair once, counted twice; squares once.
                keys: list[Any] = list(self._w)
                counted = Counter(starmap(fn, combinations(keys, 2)))
                doubled = map(operator.mul, counted.values(), repeat(2))
                w = dict(zip(counted, doubled, strict=True))  # doubled in C
                for a in keys:
                    w[a * a] = w.get(a * a, 0) + 1
            else:
                w = dict(Counter(starmap(fn, product(self._w, o._w))))
            if k != 1:
                w = {v: c * k for v, c in w.items()}
            return cast(
                "Distribution[Any]",
                _make(w, self._total * o._total, self.truncated or o.truncated),
            )
        out: defaultdict[Any, int] = defaultdict(int)
        b_items = list(o._w.items())
        for a, xa in self._w.items():
            for b, xb in b_items:
                out[fn(a, b)] += xa * xb
        result: Distribution[Any] = _make(
            dict(out), self._total * o._total, self.truncated or o.truncated
        )
        return result

    def reroll(self, which: Callable[[T], bool], *, until: bool = False) -> Distribution[T]:
        """Roll again once when `which(outcome)` (the new outcome stands), or, `until`, as
        often as needed (the outcomes `which` selects never stand)."""
        self._require_complete("reroll")
        again = sum(x for v, x in self._w.items() if which(v))
        if not again:
            return self
        if until:
            kept = {v: x for v, x in self._w.items() if not which(v)}
            if not kept:
                raise ValueError("every outcome is re-rolled")
            return cast("Distribution[T]", _make(kept, None, self.truncated))
        t = self._total
        w = {v: x * ((0 if which(v) else t) + again) for v, x in self._w.items()}
        return cast("Distribution[T]", _make(w, t * t, self.truncated))

    # --- integer arithmetic --------------------------------------------------------------------

    def __add__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        if isinstance(other, int):
            return self._shift(other)
        if len(other._w) == 1:
            ((y, xy),) = other._w.items()
            d = self._shift(y)
            if xy == other._total:
                return d if not other.truncated else d._flag(True)
        w = convolve(self._w, other._w)
        return cast(
            "Distribution[int]",
            _make(w, self._total * other._total, self.truncated or other.truncated),
        )

    __radd__ = __add__

    def __neg__(self: Distribution[int]) -> Distribution[int]:
        return cast(
            "Distribution[int]",
            _make({-v: x for v, x in self._w.items()}, self._total, self.truncated),
        )

    def __sub__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        return self + (-other)

    def __rsub__(self: Distribution[int], other: int) -> Distribution[int]:
        return (-self) + other

    def __mul__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        if isinstance(other, int):
            return self.map(lambda v: v * other)
        return self.combine(other, operator.mul)

    __rmul__ = __mul__

    def __floordiv__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        """Floor division; ZeroDivisionError when the divisor can be 0."""
        o = _as_dist(other)
        if 0 in o._w:
            raise ZeroDivisionError("the divisor can be 0")
        return self.combine(o, operator.floordiv)

    def __rfloordiv__(self: Distribution[int], other: int) -> Distribution[int]:
        return _as_dist(other) // self

    def _shift(self: Distribution[int], by: int) -> Distribution[int]:
        if by == 0:
            return self
        return cast(
            "Distribution[int]",
            _make({v + by: x for v, x in self._w.items()}, self._total, self.truncated),
        )

    def _flag(self, truncated: bool) -> Distribution[T]:
        return cast("Distribution[T]", _make(dict(self._w), self._total, truncated))

    def clip(
        self: Distribution[int], lo: int | None = None, hi: int | None = None
    ) -> Distribution[int]:
        """Outcomes below `lo` become `lo`, above `hi` become `hi` (e.g. damage never below 0)."""
        return self.map(
            lambda v: lo if lo is not None and v < lo else hi if hi is not None and v > hi else v
        )

    # --- comparisons: 0/1 distributions ------------------------------------------------------

    def __lt__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        return self._compare(other, lambda a, b: a < b)

    def __le__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        return self._compare(other, lambda a, b: a <= b)

    def __gt__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        return self._compare(other, lambda a, b: a >= b)

    def eq(self, other: Distribution[T] | T) -> Distribution[int]:
        """1 where the outcomes are equal (`==` compares whole distributions instead)."""
        return self.combine(other, lambda a, b: int(a == b))

    def ne(self, other: Distribution[T] | T) -> Distribution[int]:
        return self.combine(other, lambda a, b: int(a != b))

    def _compare(self, other: Any, op: Callable[[Any, Any], bool]) -> Distribution[int]:
        if not isinstance(other, Distribution):
            return self.map(lambda v: int(op(v, other)))
        return self.combine(other, lambda a, b: int(op(a, b)))

    # --- many dice ---------------------------------------------------------------------------

    def repeat(self: Distribution[int], n: int) -> Distribution[int]:
        """The sum of `n` independent copies (`n @ d`)."""
        if n < 0:
            raise ValueError("a negative number of copies")
        return cast(
            "Distribution[int]",
            _make(power(self._w, n), self._total**n, self.truncated and n > 0),
        )

    def __rmatmul__(self: Distribution[int], n: int) -> Distribution[int]:
        return self.repeat(n)

    def __matmul__(self: Distribution[int], other: Distribution[int]) -> Distribution[int]:
        """`counts @ d`: the sum of a random number of independent copies of `d`, that number
        drawn from `counts` (non-negative)."""
        if not self._w:
            return cast("Distribution[int]", _make({}, self._total, self.truncated))
        if len(self._w) == 1:
            ((n, x),) = self._w.items()
            if x == self._total:  # a fixed count: a plain sum of copies
                return other.repeat(n) if not self.truncated else other.repeat(n)._flag(True)
        if min(self._w) < 0:
            raise ValueError("a negative number of copies")
        top = max(self._w)
        parts: list[tuple[int, Distribution[int] | int]] = []
        current: Distribution[int] = Distribution.constant(0)
        for n in range(top + 1):
            x = self._w.get(n, 0)
            if x:
                parts.append((x, current))
            if n < top:
                current = current + other
        mixed = cast("Distribution[int]", _mix(parts, self._total))
        mixed.truncated = mixed.truncated or self.truncated
        return mixed

    def pool(self, n: int) -> Distribution[tuple[T, ...]]:
        """The faces of `n` independent copies as a sorted tuple (ascending): each multiset of
        outcomes once, weighted by its orderings, so `d.pool(3).map(judge)` judges every roll
        of three dice without enumerating the 6**3 sequences."""
        if n < 0:
            raise ValueError("a negative number of copies")
        self._require_complete("pool")
        if n == 0:
            return cast("Distribution[tuple[T, ...]]", _make({(): 1}, None, self.truncated))
        values, w = self._ordered(), self._w
        fact = [math.factorial(i) for i in range(n + 1)]
        first = w[values[0]]
        same = first**n if all(w[v] == first for v in values) else 0  # a fair die
        out: dict[tuple[T, ...], int] = {}
        for combo in combinations_with_replacement(values, n):
            # orderings: n! over the factorial of each run of equal faces, divided as we go
            ways, prev, run = fact[n], None, 0
            for v in combo:
                if v == prev:
                    run += 1
                    ways //= run
                else:
                    prev, run = v, 1
            out[combo] = ways * (same or math.prod(map(w.__getitem__, combo)))
        return cast("Distribution[tuple[T, ...]]", _make(out, self._total**n, self.truncated))

    def explode(
        self: Distribution[int],
        which: Callable[[int], bool],
        *,
        depth: int,
        score: Callable[[int], int] | None = None,
    ) -> Distribution[int]:
        """One explosion chain: roll, and while the outcome is one `which` selects roll again
        and add, `depth` dice at most (the last one counts whatever it shows); the sum of the
        dice, or of their `score`. `truncated` when a chain can still explode at its limit."""
        if depth < 1:
            raise ValueError("a chain has at least one die")
        self._require_complete("explode")
        pick = score if score is not None else _identity
        every = [(pick(v), x) for v, x in self._w.items()]
        grow = [(pick(v), x) for v, x in self._w.items() if which(v)]
        stop = [(pick(v), x) for v, x in self._w.items() if not which(v)]
        if not grow:
            return self if score is None else self.map(score)
        q = self._total
        out: defaultdict[int, int] = defaultdict(int)
        prefix: Weights = {0: 1}  # score of i exploding dice, weights over q**i
        qpow = [q**e for e in range(depth + 1)]
        for i in range(1, depth + 1):
            last = i == depth
            scale = qpow[depth - i]
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
        return cast("Distribution[int]", _make(reduce_weights(dict(out)), None, True))

    def max_of(self, n: int, *, key: Callable[[T], Any] | None = None) -> Distribution[T]:
        """The best of `n` independent copies, by `key` (by the outcome itself when omitted;
        `key` must order the outcomes totally): P(best <= x) = P(one <= x) ** n."""
        return self._extreme(n, key, best=True)

    def min_of(self, n: int, *, key: Callable[[T], Any] | None = None) -> Distribution[T]:
        """The worst of `n` independent copies (see `max_of`)."""
        return self._extreme(n, key, best=False)

    def _extreme(self, n: int, key: Callable[[T], Any] | None, best: bool) -> Distribution[T]:
        if n < 1:
            raise ValueError("the best of no copies")
        self._require_complete("max_of/min_of")
        rank: Callable[[T], Any] = key if key is not None else _identity_any
        order = sorted(self._w.items(), key=lambda item: rank(item[0]))
        if not best:
            order.reverse()
        out: dict[T, int] = {}
        below = 0
        for v, x in order:
            at = below + x
            out[v] = at**n - below**n
            below = at
        return cast("Distribution[T]", _make(out, self._total**n, self.truncated))

    def highest(
        self, n: int, k: int = 1, *, score: Callable[[T], int] | None = None
    ) -> Distribution[int]:
        """The sum of the `k` highest of `n` independent copies (`score(outcome)` summed when
        given: ranked by outcome, scored otherwise, e.g. successes among the kept dice)."""
        return self._keep(n, k, True, score)

    def lowest(
        self, n: int, k: int = 1, *, score: Callable[[T], int] | None = None
    ) -> Distribution[int]:
        """The sum of the `k` lowest of `n` independent copies (see `highest`)."""
        return self._keep(n, k, False, score)

    def _keep(
        self, n: int, k: int, highest: bool, score: Callable[[T], int] | None
    ) -> Distribution[int]:
        if n < 0 or k < 0:
            raise ValueError("negative dice")
        self._require_complete("keep")
        k = min(k, n)
        if k == 0:
            return cast("Distribution[int]", _make({0: 1}, None, self.truncated))
        if k == n:
            scored = cast("Distribution[int]", self) if score is None else self.map(score)
            return scored.repeat(n)
        w = self._w
        ranks: list[Any] = sorted(cast(Any, w), reverse=highest)
        if score is None:
            outcomes = [(r, w[r]) for r in ranks]
        else:
            outcomes = [(score(r), w[r]) for r in ranks]
        return cast("Distribution[int]", _make(keep_best(outcomes, n, k), None, self.truncated))

    def _require_complete(self, what: str) -> None:
        if sum(self._w.values()) != self._total:
            raise ValueError(f"{what} needs a complete distribution")

    # --- the view: floats, each the correctly rounded exact value ------------------------

    @property
    def probabilities(self) -> Mapping[T, float]:
        """Outcome -> probability, ascending by outcome (read-only)."""
        if self._probs is None:
            t, w = self._total, self._w
            self._probs = {v: w[v] / t for v in self._ordered()}
        return MappingProxyType(self._probs)

    def items(self) -> list[tuple[T, float]]:
        """(outcome, probability) ascending by outcome."""
        t, w = self._total, self._w
        return [(v, w[v] / t) for v in self._ordered()]

    @property
    def min(self: Distribution[int]) -> int:
        # The sorted outcomes when the view has them: a wide /odds asks for its ends often
        # (248,083 outcomes of d1000*d1000: a pass each).
        return self._keys[0] if self._keys is not None else min(self._w)

    @property
    def max(self: Distribution[int]) -> int:
        return self._keys[-1] if self._keys is not None else max(self._w)

    def mean(self: Distribution[int]) -> float:
        return self._stats()[0]

    def stdev(self: Distribution[int]) -> float:
        return self._stats()[1]

    def _stats(self: Distribution[int]) -> tuple[float, float]:
        if self._moments is None:
            t = self._total
            values, weights = self._w.keys(), self._w.values()
            s1 = sum(map(operator.mul, values, weights))  # in C: 250,000 outcomes in ms
            s2 = sum(map(operator.mul, map(operator.mul, values, values), weights))
            self._moments = _moments(s1, s2, t)
        return self._moments

    def p_at_least(self: Distribution[int], k: int) -> float:
        values, _, at_least = self._tails()
        i = bisect_left(values, k)
        return at_least[i] / self._total if i < len(values) else 0.0

    def p_at_most(self: Distribution[int], k: int) -> float:
        values, at_most, _ = self._tails()
        i = bisect_right(values, k)
        return at_most[i - 1] / self._total if i > 0 else 0.0

    def p_between(self: Distribution[int], lo: int, hi: int) -> float:
        """P(lo <= outcome <= hi), from the integer tail sums (exact, then rounded once)."""
        values, at_most, _ = self._tails()
        i, j = bisect_left(values, lo), bisect_right(values, hi)
        if j <= i:
            return 0.0
        return (at_most[j - 1] - (at_most[i - 1] if i else 0)) / self._total

    def _tails(self: Distribution[int]) -> tuple[list[Any], list[int], list[int]]:
        """Ascending outcomes with the integer weight of <= v and of >= v, summed once (a
        100,000-value /odds table asks dozens of questions)."""
        if self._sums is None:
            values = self._ordered()
            w = self._w
            xs = list(map(w.__getitem__, values))
            at_most = list(accumulate(xs))
            at_least = list(accumulate(reversed(xs)))[::-1]
            self._sums = (values, at_most, at_least)
        return self._sums


def _make(w: dict[Any, int], total: int | None = None, truncated: bool = False) -> Any:
    """Trusted construction: `w` has positive integer weights only and is not used again."""
    d: Distribution[Any] = object.__new__(Distribution)
    d._init(w, sum(w.values()) if total is None else total, truncated)
    return d


_WIDE_PAIRS = 4096
"""Pairs of outcomes from which a uniform combination is counted with numpy (below it the
Counter is as quick and numpy's import isn't worth it)."""
_INT64_SAFE = 2**62


def _moments(s1: int, s2: int, t: int) -> tuple[float, float]:
    """Mean and standard deviation from the exact sums of weight * v and weight * v^2."""
    # variance = E[X^2] - E[X]^2 = (s2 t - s1^2) / t^2, exactly, then rounded once
    return s1 / t, math.sqrt((s2 * t - s1 * s1) / (t * t))


def _wide_int_product(
    wa: dict[Any, int], wb: dict[Any, int], fn: Callable[[Any, Any], Any], k: int, total: int
) -> Distribution[int] | None:
    """`fn(a, b)` (+, - or *) over every pair of two uniform integer distributions, counted
    with numpy, or None when it doesn't apply. Exact: every value and count fits in int64
    (checked before), and the counts are multiplied by the common weight `k` in Python
    integers. d1000*d1000 (a million pairs) takes about 20 ms here, 140 ms with the Counter.
    The sorted outcomes and the tail sums come out of the same arrays, so the view's
    questions (min, max, P(>=k)) need no pass over the 248,083 outcomes."""
    ops = {operator.mul: "multiply", operator.add: "add", operator.sub: "subtract"}
    name = ops.get(fn)
    if name is None or len(wa) * len(wb) < _WIDE_PAIRS:
        return None
    if not all(type(v) is int for v in wa) or not all(type(v) is int for v in wb):
        return None
    ma = max(abs(min(wa)), abs(max(wa)))
    mb = max(abs(min(wb)), abs(max(wb)))
    if ma * mb >= _INT64_SAFE or ma + mb >= _INT64_SAFE or total >= _INT64_SAFE:
        return None
    import numpy as np  # only here: no other path needs it

    a = np.fromiter(wa, dtype=np.int64, count=len(wa))
    b = np.fromiter(wb, dtype=np.int64, count=len(wb))
    pairs = getattr(np, name).outer(a, b).ravel()
    lo, hi = int(pairs.min()), int(pairs.max())
    if hi - lo <= 4 * pairs.size:
        counted = np.bincount(pairs - lo)
        at = np.flatnonzero(counted)
        values, counts = at + lo, counted[at]
    else:
        values, counts = np.unique(pairs, return_counts=True)
    keys: list[int] = values.tolist()
    xs: list[int] = counts.tolist()
    at_most: list[int] = np.cumsum(counts).tolist()
    at_least: list[int] = np.cumsum(counts[::-1])[::-1].tolist()
    if k != 1:
        xs = [x * k for x in xs]
        at_most = [x * k for x in at_most]
        at_least = [x * k for x in at_least]
    d: Distribution[int] = _make(dict(zip(keys, xs, strict=True)), total)
    d._keys = keys
    d._sums = (keys, at_most, at_least)
    top = max(abs(lo), abs(hi))
    if top * top * pairs.size < _INT64_SAFE:  # the moments' sums fit too
        s1 = int(np.dot(values, counts)) * k
        s2 = int(np.dot(values * values, counts)) * k
        d._moments = _moments(s1, s2, total)
    return d


def _identity(v: int) -> int:
    return v


def _identity_any(v: Any) -> Any:
    return v


def _as_dist(value: Distribution[U] | U) -> Distribution[U]:
    return value if isinstance(value, Distribution) else Distribution.constant(value)


def _mix(parts: list[tuple[int, Distribution[U] | U]], denominator: int) -> Distribution[U]:
    """sum_i (x_i / denominator) * part_i, exactly; parts may be plain outcomes."""
    # The same distribution often comes back for many outcomes (every face that hits leads to
    # the same damage roll): weigh each one once.
    dists: dict[int, list[Any]] = {}
    out: dict[Any, int] = {}
    for x, d in parts:
        if isinstance(d, Distribution):
            entry = dists.get(id(d))
            if entry is None:
                dists[id(d)] = [x, d]
            else:
                entry[0] += x
        else:
            out[d] = out.get(d, 0) + x
    common = math.lcm(*(d._total for _, d in dists.values()))
    if common != 1:
        out = {v: x * common for v, x in out.items()}
    truncated = False
    for x, d in dists.values():
        truncated = truncated or d.truncated
        scale = x * (common // d._total)
        for v, y in d._w.items():
            out[v] = out.get(v, 0) + scale * y
    return cast("Distribution[U]", _make(out, denominator * common, truncated)).reduced()


# ---------------------------------------------------------------------------------------------
# Integer-weight kernels (also the dice engine's): sums of copies, sums of two, keep-best
# ---------------------------------------------------------------------------------------------


def reduce_weights(w: Weights) -> Weights:
    """Weights divided by their gcd, zeros dropped (same probabilities, smaller numbers)."""
    if 0 in w.values():
        w = {k: v for k, v in w.items() if v}
    g = math.gcd(*w.values())
    return {k: v // g for k, v in w.items()} if g > 1 else w


def kronecker_cost(len_a: int, len_b: int, bits_a: int, bits_b: int) -> int:
    """Rough cost, in elementary Python operations, of `_kronecker` (one big multiplication)."""
    slot = bits_a + bits_b + max(len_a, len_b).bit_length() + 1
    digits = (len_a + len_b) * slot / 30
    return int(len_a + len_b + digits**1.585 / 200)


# Up to this size a plain NdX is one packed big-integer power (cheaper than the recurrence's
# Python loop; beyond it the big-integer power costs more).
_PACKED_POWER_BYTES = 1600


def power(dist: Weights, n: int) -> Weights:
    """Weights of the sum of `n` independent copies (over the `n`-th power of the total), by
    J.C.P. Miller's recurrence: O(1) per coefficient for equal weights, O(support) otherwise,
    or one big-integer power when the support is wide."""
    if n == 0:
        return {0: 1}
    if n == 1:
        return dict(dist)
    lo = min(dist)
    deg = max(dist) - lo
    if deg == 0:
        return {lo * n: dist[lo] ** n}
    size = n * deg + 1
    weights = set(dist.values())
    fair = len(dist) == deg + 1 and len(weights) == 1  # every face of a range, equally likely
    if fair:
        nbytes = _slot_bytes(((deg + 1) ** n).bit_length())
        if nbytes <= 8 and size * nbytes <= _PACKED_POWER_BYTES:
            # Plain dice, few outcomes: one big-integer power of 1 + x + ... + x**deg, packed
            # in machine words (no coefficient exceeds (deg + 1)**n), read back in C.
            ones = int.from_bytes((1).to_bytes(nbytes, "little") * (deg + 1), "little")
            w = _unpack(ones**n, size, nbytes, lo * n)
            c = weights.pop() ** n
            return w if c == 1 else {v: x * c for v, x in w.items()}
    a = [dist.get(lo + k, 0) for k in range(deg + 1)]
    if not fair and len(dist) > 8:
        return _kronecker_power(a, lo, n)
    f = [0] * size
    if fair:
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
    elif a[0]:
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
    else:  # pragma: no cover - lo is the smallest outcome, so a[0] is never 0
        raise AssertionError("lowest outcome without weight")
    return {lo * n + i: x for i, x in enumerate(f) if x}


def _kronecker_power(a: list[int], lo: int, n: int) -> Weights:
    """`n`-th power of the polynomial with coefficients `a` (from outcome `lo` on), by one
    big-integer power of the coefficients packed into slots wide enough never to carry."""
    nbytes = _slot_bytes(n * sum(a).bit_length() + 1)
    packed = int.from_bytes(b"".join(x.to_bytes(nbytes, "little") for x in a), "little")
    return _unpack(packed**n, n * (len(a) - 1) + 1, nbytes, lo * n)


def _unpack(packed: int, size: int, nbytes: int, base: int) -> Weights:
    """The nonzero `nbytes`-wide slots of a Kronecker product, slot i being outcome base + i."""
    raw = packed.to_bytes(size * nbytes, "little")
    code = _SLOT_CODES.get(nbytes)
    if code is not None:  # machine-word slots: read all of them at once, in C
        values = memoryview(raw).cast(code).tolist()
        if 0 in values:
            return {v: x for v, x in enumerate(values, base) if x}
        return dict(enumerate(values, base))
    out: Weights = {}
    for i in range(size):
        x = int.from_bytes(raw[i * nbytes : (i + 1) * nbytes], "little")
        if x:
            out[base + i] = x
    return out


def _slot_bytes(bits: int) -> int:
    """Bytes per packed slot holding `bits`-bit numbers: a machine word when one fits (so
    `_unpack` reads the slots in C), else just enough bytes."""
    nbytes = (bits + 7) // 8
    for word in (1, 2, 4, 8):
        if nbytes <= word:
            return word
    return nbytes


# Slot i is bytes [i * nbytes, (i + 1) * nbytes) of the little-endian packing: on a
# little-endian machine memoryview reads them as native words (elsewhere the loop does).
_WORDS: tuple[Literal["B", "H", "I", "Q"], ...] = ("B", "H", "I", "Q")
_SLOT_CODES = {struct.calcsize(c): c for c in _WORDS} if sys.byteorder == "little" else {}


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
    nbytes = _slot_bytes(slot_bits)
    zero = bytes(nbytes)

    def pack(w: Weights, lo: int, length: int) -> int:
        chunks = [zero] * length
        for v, x in w.items():
            chunks[v - lo] = x.to_bytes(nbytes, "little")
        return int.from_bytes(b"".join(chunks), "little")

    product = pack(a, lo_a, len_a) * pack(b, lo_b, len_b)
    return _unpack(product, len_a + len_b - 1, nbytes, lo_a + lo_b)


def convolve(a: Weights, b: Weights) -> Weights:
    """Weights of the sum of two independent integer outcomes, by the cheaper method."""
    if not a or not b:
        return {}
    pairs = len(a) * len(b)
    if pairs > 256:
        len_a, len_b = max(a) - min(a) + 1, max(b) - min(b) + 1
        bits_a = max(a.values()).bit_length()
        bits_b = max(b.values()).bit_length()
        # a pair of wide weights costs a multiplication of wide integers, not one operation
        if kronecker_cost(len_a, len_b, bits_a, bits_b) < pairs * (1 + (bits_a + bits_b) // 64):
            return _kronecker(a, b)
    out: defaultdict[int, int] = defaultdict(int)
    for x, wx in a.items():
        for y, wy in b.items():
            out[x + y] += wx * wy
    return dict(out)


def keep_best(outcomes: list[tuple[int, int]], n: int, k: int) -> Weights:
    """Weights of the sum of the scores of the best `k` of `n` dice (0 < k < n), over the
    `n`-th power of the total weight.

    `outcomes` lists `(score, weight)` from best to worst rank. Summed over the rank of the
    k-th best die (after icepool's evaluation of a pool outcome by outcome): `a < k` dice
    better than it, `b >= k - a` dice at it, the rest worse. The better dice's sum is the
    `a`-th power of P, the polynomial of the ranks seen so far, kept as one packed big integer
    (slots wide enough never to carry), so every step is a handful of C-level
    multiplications and shifts instead of a dictionary of states.
    """
    scores, weights = zip(*outcomes, strict=True)
    return _keep_best(outcomes, n, k, min(scores), max(scores), sum(weights))


def _keep_best(
    outcomes: Iterable[tuple[int, int]], n: int, k: int, lo: int, hi: int, total: int
) -> Weights:
    """`keep_best` given the lowest and highest score and the total weight (`outcomes` is
    read once, best rank first)."""
    nbytes = _slot_bytes((total**n).bit_length())  # no coefficient exceeds total**n
    slot = nbytes * 8
    # ways(a): the other n - a dice at this rank or worse, at least k - a of them at it. With
    # here = w + rest and low = rest**(n - k + 1), by Pascal's rule along a:
    #   ways(k - 1) = here**(n - k + 1) - low          (at least one at this rank)
    #   ways(a) = here * ways(a + 1) - C(n - a - 1, k - a - 1) * w**(k - a - 1) * low
    # This rank's share, the sum over a of C(n, a) ways(a) P**a X**(k - a) with X = x**s, by
    # Horner from a = k - 1 down, in the same loop as the recurrence.
    base, top, steps = _keep_steps(n, k)
    acc = 0
    better = 0  # P, packed
    rest = total  # weight of the ranks worse than the current one
    low = total**base
    for sc, w in outcomes:
        here = rest  # this rank or worse: the last rank's "worse"
        rest -= w
        shift = (sc - lo) * slot
        x = low  # here**base, the last rank's low
        low = rest**base
        x -= low
        h = top * x
        wlow = low
        for st, cn, e in steps:
            wlow *= w
            x = here * x - st * wlow
            h = h * better + ((cn * x) << (e * shift))
        acc += h << shift
        better += w << shift
    return _unpack_reduced(acc, k * (hi - lo) + 1, nbytes, k * lo)


@lru_cache(maxsize=256)
def _keep_steps(n: int, k: int) -> tuple[int, int, tuple[tuple[int, int, int], ...]]:
    """The binomial coefficients of `_keep_best`'s recurrence and Horner steps for n and k
    (a table of constants: the same few pools are asked for again and again)."""
    steps = tuple(
        (math.comb(n - a - 1, k - a - 1), math.comb(n, a), k - 1 - a) for a in range(k - 2, -1, -1)
    )
    return n - k + 1, math.comb(n, k - 1), steps


def _unpack_reduced(packed: int, size: int, nbytes: int, base: int) -> Weights:
    """`reduce_weights(_unpack(...))` in one pass over machine-word slots: the gcd is taken
    over the list the slots are read into, and one dictionary built."""
    code = _SLOT_CODES.get(nbytes)
    if code is None:
        return reduce_weights(_unpack(packed, size, nbytes, base))
    values = memoryview(packed.to_bytes(size * nbytes, "little")).cast(code).tolist()
    g = math.gcd(*values)
    if g > 1:
        values = [x // g for x in values]
    if 0 in values:
        return {v: x for v, x in enumerate(values, base) if x}
    return dict(enumerate(values, base))
