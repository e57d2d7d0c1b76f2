"""Timing helpers shared by the benchmarks: best-of-N wall time of a callable."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_time(fn: Callable[[], object], *, repeat: int = 5, number: int = 1) -> float:
    """Seconds per call: the best of `repeat` batches of `number` calls (least disturbed)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(out)
