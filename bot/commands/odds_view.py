"""The one view of an exact distribution, shared by /odds and every game's odds command.

It is made in two steps so that the heavy one can run in a worker process: `summarize` (pure,
O(n log n) over every outcome: the table's rows, the histogram, the moments) and `view_blocks`
(cheap: the reply in the user's language from that summary). `odds_views` is what /odds runs in
the worker: parse, exact distributions, summaries, nothing for the event loop but the text.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bot.i18n import Lang, fmt_num, fmt_pct
from bot.protocol import Block, bold, plain, pre
from rules_core.dice import Distribution, distribution, parse, render
from rules_core.dice.ast import TOTAL_OPS, BinOp, Compare, Expr, Num, question

if TYPE_CHECKING:
    from bot.commands.context import Context

TABLE_ROWS = 12
"""Rows of a P(≥k) table when not every value fits (then evenly spaced, the step stated)."""
TABLE_ALL = 24
"""A distribution with at most this many values lists every one of them."""
BAR_WIDTH = 16
CHART_BARS = 60
"""Bars of a distribution's chart: one per outcome up to this many, else equal ranges."""
DATA_OUTCOMES = 10_000
"""Outcomes listed one by one in a reply's data (the reply budget's 10,000 values); a wider
distribution (d1000*d1000 has 248,083) gets its count and P(>=k) table instead: listing every
outcome cost most of the reply's time."""


def as_distribution(weights: Distribution | Mapping[int, Fraction]) -> Distribution:
    """A game system's exact distribution (or exact outcome -> probability map) for the view."""
    if isinstance(weights, Distribution):
        return weights
    return Distribution.from_probabilities(weights)


def distribution_data(dist: Distribution) -> dict[str, Any]:
    """The public JSON shape of a distribution (`ask --json`)."""
    wide = len(dist) > DATA_OUTCOMES
    return {
        "mean": dist.mean(),
        "stdev": dist.stdev(),
        "truncated": dist.truncated,
        "outcomes": len(dist),
        "distribution": None if wide else [[v, p] for v, p in dist.items()],
        "at_least": [[k, dist.p_at_least(k)] for k in interesting_values(dist)],
    }


def percent(p: float, lang: Lang = "en") -> str:
    """A chance with one decimal, the language's way (never a false 0% or 100%)."""
    return fmt_pct(lang, p)


def interesting_values(dist: Distribution) -> list[int]:
    """The k of the P(≥k) table: every value when they are few (TABLE_ALL); else evenly spaced
    ks (TABLE_ROWS at most, one step apart) over the values where the answer is neither
    certain nor hopeless, so no row is skipped silently: the reply states the step."""
    values = dist.outcomes()
    if len(values) <= TABLE_ALL:
        return values
    # P(≥k) falls as k grows, so the open range is found by bisection: O(n log n) work,
    # not one O(n) sum per value (10,000 values took seconds and blocked every chat).
    lo = bisect.bisect_left(values, True, key=lambda v: dist.p_at_least(v) < 0.999)
    hi = bisect.bisect_left(values, True, key=lambda v: dist.p_at_least(v) <= 0.001)
    values = values[lo:hi] or values
    if len(values) <= TABLE_ALL and values == list(range(values[0], values[-1] + 1)):
        return values
    first, last = values[0], values[-1]
    step = max(1, math.ceil((last - first) / (TABLE_ROWS - 1)))
    return list(range(first, last + 1, step))


def histogram(dist: Distribution) -> list[tuple[str, float]]:
    """At most TABLE_ROWS bars; wide supports are grouped into equal ranges."""
    lo, hi = dist.min, dist.max
    width = max(1, math.ceil((hi - lo + 1) / TABLE_ROWS))
    out = []
    for b in range((hi - lo) // width + 1):  # each bar from the tail sums: no pass per outcome
        start = lo + b * width
        end = min(hi, start + width - 1)
        label = str(start) if width == 1 else f"{start}–{end}"
        out.append((label, dist.p_between(start, end)))
    return out


Bar = tuple[int, int, float, float]
"""One bar of the chart: (first, last, P(first ≤ total ≤ last), P(total ≥ first))."""


def chart_bars(dist: Distribution) -> list[Bar]:
    """The chart's bars (bot/images/odds_chart.py): one per outcome when there are at most
    CHART_BARS, else CHART_BARS equal ranges over the span; each with its exact chance and the
    chance of at least its first value, from the distribution's tail sums (no pass per bar)."""
    values = dist.outcomes()
    if len(values) <= CHART_BARS:
        spans = [(v, v) for v in values]
    else:
        lo, hi = dist.min, dist.max
        width = math.ceil((hi - lo + 1) / CHART_BARS)
        spans = [(s, min(hi, s + width - 1)) for s in range(lo, hi + 1, width)]
    return [(a, b, dist.p_between(a, b), dist.p_at_least(a)) for a, b in spans]


def bar_hits(expr: Compare, bars: list[Bar]) -> tuple[bool, ...]:
    """Which bars the asked comparison holds for (for some total in the bar): `2d6+3 >= 10`
    marks 10, 11, ...; a comparison of two rolls (`3d6 > 2d6`) charts their margin and marks
    where it holds (a margin above 0 for `>`)."""
    holds = TOTAL_OPS[expr.op]
    n = expr.right.value if isinstance(expr.right, Num) else 0
    return tuple(any(holds(v, n) for v in _probes(first, last, n)) for first, last, _, _ in bars)


def _probes(first: int, last: int, n: int) -> tuple[int, ...]:
    """The totals of [first, last] that decide any comparison with n: its ends and n itself."""
    return (first, last, n) if first <= n <= last else (first, last)


@dataclass(frozen=True)
class DistView:
    """What the view shows of a distribution, and the distribution itself for `data` (as two
    flat lists: they cross from a worker process in a fraction of the time of pairs)."""

    mean: float
    stdev: float
    lo: int
    hi: int
    truncated: bool
    at_least: list[tuple[int, float]]  # (k, P(≥k)) for the values that matter
    histogram: list[tuple[str, float]]
    outcomes: int
    values: list[int]  # empty beyond DATA_OUTCOMES
    probabilities: list[float]
    step: int = 1  # the spacing of the P(≥k) rows (1: every value)
    question: str | None = None  # a comparison: `2d6+3 ≥ 10`
    margin: str | None = None  # a roll against a roll: what the table counts, `3d6 - 2d6`
    probability: float | None = None  # ... and its chance
    bars: tuple[Bar, ...] = ()  # the chart's (chart_bars)
    hits: tuple[bool, ...] = ()  # per bar: the comparison holds there (highlighted)
    table: bytes | None = None  # `/odds … full`: every outcome, a CSV file (see `TableFormat`)


@dataclass(frozen=True)
class TableFormat:
    """How `/odds … full` writes every outcome: the reader's column names, and their decimal
    mark (a comma separates columns, a semicolon where the decimal mark is a comma, as
    spreadsheets there expect)."""

    header: str
    separator: str
    decimal: str


def outcome_table(dist: Distribution, fmt: TableFormat) -> bytes:
    """Every outcome, its probability (the float nearest the exact value) and the exact
    fraction: one CSV row each. Built in the worker, so the event loop only sends the bytes."""
    total, weights, sep, mark = dist.total, dist.weights, fmt.separator, fmt.decimal
    rows = [fmt.header]
    for v in dist.outcomes():
        x = weights[v]
        g = math.gcd(x, total)
        p = repr(x / total)
        p = p if mark == "." else p.replace(".", mark)
        rows.append(f"{v}{sep}{p}{sep}{x // g}/{total // g}")
    rows.append("")
    return "\n".join(rows).encode()


def summarize(dist: Distribution) -> DistView:
    items = dist.items() if len(dist) <= DATA_OUTCOMES else []
    at_least = interesting_values(dist)
    return DistView(
        mean=dist.mean(),
        stdev=dist.stdev(),
        lo=dist.min,
        hi=dist.max,
        truncated=dist.truncated,
        at_least=[(v, dist.p_at_least(v)) for v in at_least],
        histogram=histogram(dist),
        outcomes=len(dist),
        values=[v for v, _ in items],
        probabilities=[p for _, p in items],
        step=_step(dist, at_least),
        bars=tuple(chart_bars(dist)),
    )


def _step(dist: Distribution, ks: list[int]) -> int:
    """1 when `ks` are all the values of `dist`, else their spacing."""
    if len(ks) < 2 or (len(ks) == len(dist) and ks == dist.outcomes()):
        return 1
    return ks[1] - ks[0]


def view_blocks(ctx: Context, view: DistView, heading: Block) -> list[Block]:
    """Mean and spread, a P(≥k) table for the values that matter, and a histogram: the same
    view for /odds and for every game's odds command. A comparison leads with its chance."""
    lang = ctx.lang
    if view.question is not None and view.probability is not None:
        heading = [bold(f"P({view.question}) = {percent(view.probability, lang)}")]
    blocks: list[Block] = [heading]
    if view.margin is not None:
        blocks.append([plain(ctx.t("odds.margin", expr=view.margin))])
    blocks += [
        [
            plain(ctx.t("odds.mean") + " "),
            bold(fmt_num(lang, view.mean, 2)),
            plain(" · " + ctx.t("odds.stdev") + " "),
            bold(fmt_num(lang, view.stdev, 2)),
            plain(" · " + ctx.t("odds.range", lo=view.lo, hi=view.hi)),
        ],
    ]
    rows = [f"{'k':>6}  {'P(≥k)':>7}"]
    rows += [f"{v:>6}  {percent(p, lang):>7}" for v, p in view.at_least]
    blocks.append([pre("\n".join(rows))])
    if view.step > 1:
        lo, hi = view.at_least[0][0], view.at_least[-1][0]
        blocks.append([plain(ctx.t("odds.table_step", step=view.step, lo=lo, hi=hi))])
    top = max(p for _, p in view.histogram) or 1.0
    label_width = max(len(label) for label, _ in view.histogram)
    bars = [
        f"{label:>{label_width}} {'█' * round(p / top * BAR_WIDTH):<{BAR_WIDTH}} "
        + percent(p, lang)
        for label, p in view.histogram
    ]
    blocks.append([pre("\n".join(bars))])
    if view.truncated:
        blocks.append([plain(ctx.t("odds.truncated"))])
    return blocks


def view_data(view: DistView) -> dict[str, Any]:
    """`distribution_data` from a summary."""
    wide = view.outcomes > DATA_OUTCOMES
    extra = {} if view.probability is None else {"probability": view.probability}
    return {
        **extra,
        "mean": view.mean,
        "stdev": view.stdev,
        "truncated": view.truncated,
        "outcomes": view.outcomes,
        "distribution": None
        if wide
        else [[v, p] for v, p in zip(view.values, view.probabilities, strict=True)],
        "at_least": [[k, p] for k, p in view.at_least],
    }


def distribution_blocks(ctx: Context, dist: Distribution, heading: Block) -> list[Block]:
    """The view of a distribution computed here (game odds: a few hundred values at most)."""
    return view_blocks(ctx, summarize(dist), heading)


def odds_views(text: str, table: TableFormat | None = None) -> list[DistView]:
    """/odds' heavy part, run in a worker: every part's exact distribution, summarized (and with
    `table`, written out whole)."""
    return [expression_view(spec.expr, table) for spec in parse(text).rolls]


def expression_view(expr: Expr, table: TableFormat | None = None) -> DistView:
    """The view of one expression; a comparison with a number (`2d6+3 >= 10`) is its chance
    followed by the view of the total it asks about."""
    if isinstance(expr, Compare):
        p = float(distribution(expr).probability(1))
        # Against a number, the total it asks about; against a roll, the margin between the
        # two (P(≥k) is "wins by k or more"), not the 0 and 1 of the comparison again.
        against_roll = not isinstance(expr.right, Num)
        shown = BinOp("-", expr.left, expr.right) if against_roll else expr.left
        dist = distribution(shown)
        view = summarize(dist)
        hits = bar_hits(expr, list(view.bars))
        margin = render(shown) if against_roll else None
        view = replace(view, question=question(expr), probability=p, hits=hits, margin=margin)
    else:
        dist = distribution(expr)
        view = summarize(dist)
    return view if table is None else replace(view, table=outcome_table(dist, table))
