"""Image render time (issue #28): each picture's renderer, warm, in this process (what a worker
does once warmed up at start: `bot.images.render.warm`), p50 and p99 over RUNS renders; the
goal is <= 150 ms each.

Each picture adds its case to CASES: a name and a function giving (renderer, facts, language),
the facts built outside the timing (their own cost is the command's, measured elsewhere)."""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.i18n import Lang
from bot.images.render import picture, warm

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


def _compare() -> Made:
    from bot.images.compare_chart import compare_facts, render_compare_chart

    columns: list[tuple[str, list[float | None]]] = [
        ("compare.chart.damage", [3.11, 2.5, 4.0]),
        ("compare.chart.removed", [1.2, 0.9, 1.7]),
        ("compare.chart.damage_per_100", [2.83, 1.79, None]),
    ]
    return render_compare_chart, compare_facts("it", ["A", "B", "C"], columns), "it"


def _board() -> Made:
    from bot.images import board_card as bc

    units = [
        bc.BoardUnit(name=f"Unit {i}", left=i, most=10, models=None, destroyed=None, conditions=[])
        for i in range(1, 7)
    ]
    players = [
        bc.BoardPlayer(name=name, score="3 VP", current=name == "Ada", resources=None, units=units)
        for name in ("Ada", "Bob")
    ]
    card = bc.BoardCard(
        game="Age of Sigmar", title="Battle", round_phase="Round 2 · hero phase", turn="Ada",
        ended=None, players=players, others=[], alt="",
    )  # fmt: skip
    return bc.render_board_card, card, "en"


CASES: list[Case] = [
    ("/odds chart, 11 bars (2d6+3>=10)", _odds),
    ("/odds chart, 46 range bars (10d10)", _odds_wide),
    ("/stats chart", _stats),
    ("WARMACHINE damage grid", _grid),
    ("unit status card (Confrontation)", _unit_card),
    ("/aos odds chart, damage and models slain", _game_odds),
    ("/compare chart, 3 profiles", _compare),
    ("board card, 2 players x 6 units", _board),
]


@dataclass(frozen=True)
class Result:
    name: str
    p50_ms: float
    p99_ms: float
    size: int  # bytes of the PNG
    cpu_p50_ms: float = 0.0  # the process's CPU time: what an idle core takes, whatever the load

    @property
    def met(self) -> bool:
        return self.p50_ms <= GOAL_MS and self.p99_ms <= GOAL_MS


def measure(case: Case, runs: int = RUNS) -> Result:
    name, make = case
    render, facts, lang = make()
    data = picture(render, facts, lang)  # warm: imports, fonts, caches
    times, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        picture(render, facts, lang)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    times.sort()
    p99 = times[max(0, math.ceil(0.99 * len(times)) - 1)]  # nearest rank
    return Result(name, statistics.median(times), p99, len(data), statistics.median(cpu))


def main() -> list[Result]:
    import gc

    warm()  # what each worker does at start-up (its long-lived objects frozen), then undone
    try:
        results = [measure(case) for case in CASES]
    finally:
        gc.unfreeze()  # the benchmarks after this one run in this process
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Image render, warm, {RUNS} renders each (goal p50 and p99 <= {GOAL_MS:.0f} ms; "
        f"load average {load:.1f} on {os.cpu_count()} cores, CPU time is what an idle core takes):"
    )
    for r in results:
        print(
            f"  {r.name}: p50 {r.p50_ms:.1f} ms, p99 {r.p99_ms:.1f} ms, "
            f"CPU p50 {r.cpu_p50_ms:.1f} ms, {r.size:,} bytes"
        )
    return results


if __name__ == "__main__":
    main()
