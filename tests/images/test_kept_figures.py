"""A worker keeps each chart's figure between pictures (bot.images.render.kept_figure): a kept
figure must draw exactly the bytes a new one draws, whatever it drew before (other numbers,
another language, a panel without data); and the pool's warm-up starts every worker, draws a
first picture in each and freezes what the worker keeps (no full collection scans it again)."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from typing import Any

import pytest

from bench import images_bench
from bot.images import compare_chart, odds_chart, stats_chart
from bot.images.render import picture, to_png, warm
from bot.workers import WorkerPool
from tests.images.golden import odds_facts

NO_LUCK: dict[str, Any] = {"rolls": 3, "games": 0, "won": 0}
LUCK: dict[str, Any] = {"rolls": 57, "games": 4, "won": 3, "luck_rolls": 50}
LUCK |= {"observed": 190, "expected": 175.0, "percentile": 0.83}


def fresh_odds(chart: odds_chart.OddsChart, lang: str) -> bytes:
    return to_png(odds_chart.draw(chart, lang))  # type: ignore[arg-type]


def fresh_stats(chart: stats_chart.StatsChart, lang: str) -> bytes:
    return to_png(stats_chart.draw(chart, lang))  # type: ignore[arg-type]


def fresh_compare(chart: compare_chart.CompareChart, lang: str) -> bytes:
    return to_png(compare_chart.figure(chart, lang))  # type: ignore[arg-type]


def compare_facts(values: list[float | None]) -> compare_chart.CompareChart:
    columns: list[tuple[str, list[float | None]]] = [
        ("compare.chart.damage", [v or 0.0 for v in values]),
        ("compare.chart.damage_per_100", values),
    ]
    return compare_chart.compare_facts("it", [f"P{i}" for i in range(len(values))], columns)


CASES: list[tuple[Callable[[Any, Any], bytes], Callable[[Any, str], bytes], list[Any]]] = [
    (
        odds_chart.render,
        fresh_odds,
        [odds_facts("2d6+3>=10"), odds_facts("10d10"), odds_facts("(2d6)>(1d6+4)")],
    ),
    (
        stats_chart.render,
        fresh_stats,
        [stats_chart.from_data("Ann", LUCK), stats_chart.from_data("Bob", NO_LUCK)],
    ),
    (
        compare_chart.render_compare_chart,
        fresh_compare,
        [compare_facts([1.5, 40.0]), compare_facts([0.2, None, 3.0, 7.5])],
    ),
]


@pytest.mark.parametrize(("render", "fresh", "charts"), CASES)
def test_a_kept_figure_draws_what_a_new_one_draws(
    render: Callable[[Any, Any], bytes], fresh: Callable[[Any, str], bytes], charts: list[Any]
) -> None:
    for lang in ("it", "en"):
        want = [picture(fresh, chart, lang) for chart in charts]  # type: ignore[arg-type]
        for _ in range(2):  # every order: each after each other one
            for chart, expected in zip(charts, want, strict=True):
                assert picture(render, chart, lang) == expected  # type: ignore[arg-type]
        for chart, expected in zip(reversed(charts), reversed(want), strict=True):
            assert picture(render, chart, lang) == expected  # type: ignore[arg-type]


def test_every_picture_of_the_bench_renders() -> None:
    for _, make in images_bench.CASES:
        render, facts, lang = make()
        assert picture(render, facts, lang).startswith(b"\x89PNG")


def test_warm_draws_a_picture() -> None:
    frozen = gc.get_freeze_count()
    warm(freeze=False)  # no error, and the kept one-part /odds figure is there for the next one
    assert gc.get_freeze_count() == frozen  # this process's objects stay collectable
    chart = odds_facts("2d6")
    assert picture(odds_chart.render, chart, "it") == picture(fresh_odds, chart, "it")  # type: ignore[arg-type]


async def test_warm_up_starts_every_worker_and_runs_once_in_each() -> None:
    pool = WorkerPool(2)
    try:
        pids = await pool.warm_up(os.getpid)
        assert sorted(pids) == sorted(pool.pids()) and len(set(pids)) == 2
        assert pool.usage() == (2, 0)  # both started, both idle again
        assert await pool.warm_up(warm) == [None, None]
        # each worker's long-lived objects are out of the full collections' way (the p99)
        assert all(n > 10_000 for n in await pool.warm_up(gc.get_freeze_count))
    finally:
        pool.shutdown()


def test_a_figure_first_kept_outside_the_style_is_still_styled() -> None:
    from bot.images import render

    render._KEPT.__dict__.pop("figures", None)  # this thread keeps no figure yet
    chart = compare_facts([2.5, 1.0, 0.5])
    compare_chart.render_compare_chart(chart, "en")  # directly, not through `picture`
    assert picture(compare_chart.render_compare_chart, chart, "en") == picture(
        fresh_compare, chart, "en"
    )
    compare_chart.render_compare_chart(chart, "it")  # and again once one is kept
    assert picture(compare_chart.render_compare_chart, chart, "en") == picture(
        fresh_compare, chart, "en"
    )
