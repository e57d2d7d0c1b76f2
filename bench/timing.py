"""Timing helpers shared by the benchmarks: medians and spread over repeated runs (never the
best of N, which flatters whoever had the luckiest batch)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


def batch_times(
    fn: Callable[[], object],
    *,
    repeat: int = 5,
    number: int = 1,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """Seconds per call in each of `repeat` batches of `number` calls."""
    out = []
    for _ in range(repeat):
        start = clock()
        for _ in range(number):
            fn()
        out.append((clock() - start) / number)
    return out


def median_time(
    fn: Callable[[], object],
    *,
    repeat: int = 5,
    number: int = 1,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Seconds per call: the median of `repeat` batches of `number` calls."""
    return statistics.median(batch_times(fn, repeat=repeat, number=number, clock=clock))


def paired_ratio(
    ours: Callable[[], object],
    theirs: Callable[[], object],
    *,
    pairs: int = 5,
    batch: float = 0.01,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """How many times faster `ours` is than `theirs`: the median over `pairs` of one batch of
    each, run back to back (so a slow spell of the machine slows both sides of a pair, not one
    side of the comparison), each batch about `batch` seconds of calls."""

    def number(fn: Callable[[], object]) -> int:
        start = clock()
        fn()
        return max(1, round(batch / max(clock() - start, 1e-9)))

    n_ours, n_theirs = number(ours), number(theirs)
    ratios = []
    for _ in range(pairs):
        t_ours = batch_times(ours, repeat=1, number=n_ours, clock=clock)[0]
        t_theirs = batch_times(theirs, repeat=1, number=n_theirs, clock=clock)[0]
        ratios.append(t_theirs / t_ours)
    return statistics.median(ratios)


# The CPU time of this process: what a ratio of two in-process computations should compare on
# a machine shared with other jobs (wall time also counts the time the scheduler gave them).
cpu_clock = time.process_time


@dataclass(frozen=True)
class Spread:
    """The median of repeated runs and their range."""

    median: float
    lo: float
    hi: float

    @staticmethod
    def of(values: list[float]) -> Spread:
        return Spread(statistics.median(values), min(values), max(values))

    def fmt(self, unit: str = "x", digits: int = 1) -> str:
        return f"{self.median:.{digits}f}{unit} ({self.lo:.{digits}f}–{self.hi:.{digits}f})"


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(out)


def markdown(headers: list[str], rows: list[list[str]]) -> str:
    """The same table in Markdown, to paste into the README."""
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(out)
