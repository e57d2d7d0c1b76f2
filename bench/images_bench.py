"""Image render time (issue #28): each picture's renderer, warm, in this process (what a worker
does once matplotlib is loaded), p50 and p99 over RUNS renders; the goal is <= 150 ms each.

Each picture adds its case to CASES: a name and a function giving (renderer, facts, language),
the facts built outside the timing (their own cost is the command's, measured elsewhere)."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.i18n import Lang
from bot.images.render import picture

RUNS = 100
"""Renders per case: the p99 is the second slowest."""
GOAL_MS = 150.0

Made = tuple[Callable[[Any, Lang], bytes], Any, Lang]
Case = tuple[str, Callable[[], Made]]


def _odds() -> Made:
    from bot.commands.odds_view import odds_views
    from bot.images import odds_chart

    text = "2d6+3>=10"
    return odds_chart.render, odds_chart.facts([(odds_views(text)[0], text)]), "it"


def _odds_wide() -> Made:
    from bot.commands.odds_view import odds_views
    from bot.images import odds_chart

    text = "10d10"
    return odds_chart.render, odds_chart.facts([(odds_views(text)[0], text)]), "en"


def _stats() -> Made:
    from bot.images import stats_chart

    data: dict[str, Any] = {"rolls": 57, "games": 4, "won": 3, "luck_rolls": 50}
    data |= {"observed": 190, "expected": 175.0, "percentile": 0.83}
    return stats_chart.render, stats_chart.from_data("Marco", data), "it"


CASES: list[Case] = [
    ("/odds chart, 11 bars (2d6+3>=10)", _odds),
    ("/odds chart, 46 range bars (10d10)", _odds_wide),
    ("/stats chart", _stats),
]


@dataclass(frozen=True)
class Result:
    name: str
    p50_ms: float
    p99_ms: float
    size: int  # bytes of the PNG

    @property
    def met(self) -> bool:
        return self.p50_ms <= GOAL_MS and self.p99_ms <= GOAL_MS


def measure(case: Case, runs: int = RUNS) -> Result:
    name, make = case
    render, facts, lang = make()
    data = picture(render, facts, lang)  # warm: imports, fonts, caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        picture(render, facts, lang)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p99 = times[max(0, math.ceil(0.99 * len(times)) - 1)]  # nearest rank
    return Result(name, statistics.median(times), p99, len(data))


def main() -> list[Result]:
    results = [measure(case) for case in CASES]
    print(f"Image render, warm, {RUNS} renders each (goal p50 and p99 <= {GOAL_MS:.0f} ms):")
    for r in results:
        print(f"  {r.name}: p50 {r.p50_ms:.1f} ms, p99 {r.p99_ms:.1f} ms, {r.size:,} bytes")
    return results


if __name__ == "__main__":
    main()
