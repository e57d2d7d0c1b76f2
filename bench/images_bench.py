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


def _grid() -> Made:
    from bot.images.cards.facts import grid_card
    from bot.images.cards.grid import render_grid
    from rules_core.game.models import Unit
    from rules_core.systems.wm import grid as grids

    grid = grids.parse_grid("......|..L..M|...MC.|...MC.|..R..M|......")
    grid, _ = grids.apply_damage(grid, 8, 2)  # the left arm crippled
    unit = Unit(name="Ironclad", owner="u", owner_name="Ada", extra={"grid": grid.model_dump()})
    card = grid_card(unit, "it")
    assert card is not None
    return render_grid, card, "it"


def _unit_card() -> Made:
    from bot.images.cards.facts import unit_card
    from bot.images.cards.unit import render_unit_card
    from rules_core.game.models import Condition, Unit

    unit = Unit(
        name="Abel", owner="u", owner_name="Ada", wounds_per_model=5, damage=2,
        stats={"att": 5, "str": 7, "def": 4, "res": 6, "wounds": 5},
        conditions=[Condition(name="stunned", until="end-of-round")],
    )  # fmt: skip
    return render_unit_card, unit_card(unit, "c5", "it"), "it"


def _game_odds() -> Made:
    from bot.images import odds_chart
    from bot.images.cards.odds import chart
    from rules_core.systems.aos.models import AttackRequest
    from rules_core.systems.aos.odds import attack_odds, slain_odds
    from rules_core.systems.aos.values import DiceValue

    req = AttackRequest(
        attacks=DiceValue(plus=10), hit=3, wound=3, rend=1, save=4, models=5, wounds_per_model=1
    )
    damage = attack_odds(req)
    slain = slain_odds(req, damage)
    assert slain is not None
    parts = [(damage, "10 attacks", "damage"), (slain, "10 attacks", "slain")]
    return odds_chart.render, chart(parts, "it"), "it"


CASES: list[Case] = [
    ("/odds chart, 11 bars (2d6+3>=10)", _odds),
    ("/odds chart, 46 range bars (10d10)", _odds_wide),
    ("/stats chart", _stats),
    ("WARMACHINE damage grid", _grid),
    ("unit status card (Confrontation)", _unit_card),
    ("/aos odds chart, damage and models slain", _game_odds),
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
