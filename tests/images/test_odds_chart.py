"""The /odds chart: its facts are the exact distribution, the figure draws exactly them, the PNG
decodes at its designed size, Italian ticks have a decimal comma, and it looks like its golden."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from PIL import Image

from bot.commands.odds_view import CHART_BARS
from bot.images import odds_chart
from bot.images.render import picture
from rules_core.dice import distribution, parse
from tests.images import golden
from tests.images.golden import odds_facts


def exact(text: str) -> dict[int, float]:
    return dict(distribution(parse(text).rolls[0].expr).items())


def test_one_bar_per_total_with_its_exact_chance_and_the_at_least_line() -> None:
    chart = odds_facts("2d6+3>=10")
    (panel,) = chart.panels
    dist = exact("2d6+3")
    assert panel.first == panel.last == list(dist)  # 5..15, one bar each
    assert panel.exactly == list(dist.values())
    assert panel.exactly[panel.first.index(10)] == pytest.approx(6 / 36)  # 7 on 2d6
    assert panel.at_least == pytest.approx(
        [sum(p for v, p in dist.items() if v >= k) for k in panel.first], abs=1e-12
    )
    assert panel.hit == [v >= 10 for v in panel.first]  # the asked comparison
    assert panel.question == "2d6+3 ≥ 10" and panel.probability == pytest.approx(21 / 36)


def test_many_totals_are_grouped_into_equal_ranges_summing_to_one() -> None:
    (panel,) = odds_facts("10d10").panels  # 91 totals: more than one bar each
    assert len(panel.first) <= CHART_BARS
    widths = {b - a + 1 for a, b in zip(panel.first, panel.last, strict=True)}
    assert widths <= {2, 1} and panel.first[0] == 10 and panel.last[-1] == 100
    dist = exact("10d10")
    for a, b, p in zip(panel.first, panel.last, panel.exactly, strict=True):
        assert p == pytest.approx(sum(q for v, q in dist.items() if a <= v <= b), abs=1e-12)
    assert sum(panel.exactly) == pytest.approx(1.0)


def test_comparison_of_two_rolls_charts_the_margin_and_highlights_the_wins() -> None:
    """`2d6 > 1d6+4` charts the margin 2d6 - (1d6+4), from -8 to 7, the bars above 0 marked:
    together they hold the chance asked."""
    (panel,) = odds_facts("(2d6)>(1d6+4)").panels
    assert panel.first[0] == -8 and panel.last[-1] == 7 and panel.axis is not None
    assert panel.hit == [first > 0 for first in panel.first]
    p = distribution(parse("(2d6)>(1d6+4)").rolls[0].expr).probability(1)
    won = sum(x for x, hit in zip(panel.exactly, panel.hit, strict=True) if hit)
    assert won == pytest.approx(float(p)) and isinstance(p, Fraction)


def test_the_drawn_bars_are_the_facts() -> None:
    chart = odds_facts("2d6+3>=10; 4d6kh3")
    fig = odds_chart.draw(chart, "en")
    bar_axes = [ax for ax in fig.axes if ax.containers]  # the twin axes hold the lines
    assert len(bar_axes) == 2
    for ax, panel in zip(bar_axes, chart.panels, strict=True):
        bars = ax.containers[0]
        assert [r.get_height() for r in bars] == panel.exactly
        highlighted = [r.get_hatch() == "//" for r in bars]
        assert highlighted == panel.hit
    lines = [line for ax in fig.axes if not ax.containers for line in ax.get_lines()]
    drawn = [list(line.get_ydata()) for line in lines]
    assert drawn == [p.at_least for p in chart.panels]


def test_italian_labels_and_decimal_comma() -> None:
    chart = odds_facts("2d6+3>=10")
    fig = odds_chart.draw(chart, "it")
    fig.canvas.draw()
    ax = next(ax for ax in fig.axes if ax.containers)
    ticks = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert any("," in t and t.endswith("%") for t in ticks), ticks
    assert not any("." in t for t in ticks)
    assert ax.get_xlabel() == "totale" and "58,3%" in ax.get_title(loc="left")
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["esattamente questo totale", "2d6+3 ≥ 10", "almeno questo totale"]
    english = odds_chart.draw(chart, "en")
    ax_en = next(ax for ax in english.axes if ax.containers)
    assert ax_en.get_xlabel() == "total" and "58.3%" in ax_en.get_title(loc="left")


@pytest.mark.parametrize("text, panels", [("2d6", 1), ("2d6; 3d6; 4d6; 5d6; 6d6", 4)])
def test_png_decodes_at_its_designed_size(text: str, panels: int) -> None:
    chart = odds_facts(text)
    data = picture(odds_chart.render, chart, "en")
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.size == odds_chart.size(chart) == (800, 420 * panels)
    assert picture(odds_chart.render, chart, "en") == data  # deterministic


def test_a_hostile_label_is_drawn_as_typed() -> None:
    chart = odds_facts("2d6")
    chart.panels[0].label = "$\\frac{1}{0}$ <b>@everyone"
    fig = odds_chart.draw(chart, "en")
    title = next(ax for ax in fig.axes if ax.containers).get_title(loc="left")
    assert title.startswith("$\\frac{1}{0}$ <b>@everyone")
    picture(odds_chart.render, chart, "en")  # no TeX parse error


@pytest.mark.parametrize("case", golden.cases(), ids=lambda c: c[0])
def test_matches_its_golden_image(case: golden.Case) -> None:
    name, render, facts, lang = case
    got = picture(render, facts, lang)
    want = (golden.FOLDER / name).read_bytes()
    diff = golden.mean_abs_diff(got, want)
    assert diff <= golden.TOLERANCE, (
        f"{name} differs from its golden by {diff:.2f}: "
        "if the change is deliberate, run .venv/bin/python -m tests.images.golden"
    )
