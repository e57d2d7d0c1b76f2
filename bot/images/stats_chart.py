"""The /stats chart: a player's luck and games in this chat, the same facts as the text
(bot/commands/stats.py, rules_core/dice/luck.py).

Three panels side by side: the luck percentile on a 0–100% scale (50% is "as expected"), the
sum of the counted rolls against its expected value, and the rolls made, games finished and
won. Without a roll to measure, the two luck panels say so. WIDTH x HEIGHT pixels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from bot.i18n import Lang, fmt_num, fmt_pct, t
from bot.images import palette
from bot.images.render import figure, kept_figure, to_png

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.ticker import Formatter

WIDTH = 900
HEIGHT = 360
NAME_CHARS = 64


class StatsChart(BaseModel):
    name: str = Field(max_length=NAME_CHARS)
    rolls: int  # rolls made in this chat
    played: int  # games finished
    won: int
    luck_rolls: int | None = None  # the rolls the luck counts (None: none to measure)
    observed: int | None = None  # their sum
    expected: float | None = None  # its mean
    percentile: float | None = None  # 0..1


def from_data(name: str, data: dict[str, Any]) -> StatsChart:
    """The chart of a /stats reply's `data` (what its text says, the same numbers)."""
    return StatsChart(
        name=name[:NAME_CHARS],
        rolls=data["rolls"],
        played=data["games"],
        won=data["won"],
        luck_rolls=data.get("luck_rolls"),
        observed=data.get("observed"),
        expected=data.get("expected"),
        percentile=data.get("percentile"),
    )


def size(chart: StatsChart) -> tuple[int, int]:
    return WIDTH, HEIGHT


def counts(chart: StatsChart, lang: Lang) -> tuple[list[str], list[int]]:
    """The right panel's bars: rolls made, games finished, games won."""
    keys = ("images.stats.rolls", "images.stats.played", "images.stats.won")
    labels = ["\n".join(t(lang, key).split(" ", 1)) for key in keys]  # two short lines
    return labels, [chart.rolls, chart.played, chart.won]


def _nothing(ax: Axes, lang: Lang, title: str) -> None:
    ax.set_title(title, loc="left")
    ax.set_axis_off()
    ax.text(
        0.5,
        0.5,
        t(lang, "images.stats.no_luck"),
        ha="center",
        va="center",
        wrap=True,
        transform=ax.transAxes,  # the middle of the panel, whatever limits it had
    )


def _luck(ax: Axes, chart: StatsChart, lang: Lang) -> None:
    from matplotlib.ticker import FixedLocator, FuncFormatter

    title = t(lang, "images.stats.luck")
    if chart.percentile is None:
        _nothing(ax, lang, title)
        return
    p = chart.percentile
    ax.barh([0], [1.0], color=palette.GRID, height=0.5, zorder=1)
    ax.barh([0], [p], color=palette.BLUE, height=0.5, zorder=2)
    ax.axvline(0.5, color=palette.BLACK, linestyle="--", linewidth=1.2, zorder=3)
    ax.text(
        0.5,
        0.45,
        t(lang, "images.stats.as_expected"),
        ha="center",
        va="bottom",
        bbox={"facecolor": palette.BACKGROUND, "edgecolor": "none", "pad": 2},
        zorder=4,
    )
    ax.text(
        min(max(p, 0.08), 0.92),
        -0.35,
        fmt_pct(lang, p),
        ha="center",
        va="top",
        fontsize=palette.TITLE_SIZE,
    )
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.8, 0.8)
    ax.xaxis.set_major_locator(FixedLocator([0, 0.25, 0.5, 0.75, 1]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: fmt_pct(lang, x, 0, bounds=False)))
    ax.set_yticks([])
    ax.set_title(title, loc="left")
    ax.set_xlabel(t(lang, "images.stats.percentile"))


def _sums(ax: Axes, chart: StatsChart, lang: Lang) -> None:
    if chart.observed is None or chart.expected is None or not chart.luck_rolls:
        _nothing(ax, lang, t(lang, "images.stats.sums"))
        return
    title = t(lang, "images.stats.sum", n=chart.luck_rolls)
    values = [chart.expected, float(chart.observed)]
    labels = [t(lang, "images.stats.expected"), t(lang, "images.stats.observed")]
    bars = ax.bar([0, 1], values, color=[palette.SKY_BLUE, palette.BLUE], width=0.6, zorder=2)
    texts = [fmt_num(lang, chart.expected, 1), fmt_num(lang, chart.observed)]
    ax.bar_label(bars, labels=texts, padding=3)
    ax.set_xticks([0, 1], labels)
    ax.set_ylim(0, max(values) * 1.2 or 1)
    ax.yaxis.set_major_formatter(_number_formatter(lang))
    ax.grid(axis="y", color=palette.GRID, zorder=0)
    ax.set_title(title, loc="left")


def _counts(ax: Axes, chart: StatsChart, lang: Lang) -> None:
    from matplotlib.ticker import MaxNLocator

    labels, values = counts(chart, lang)
    colours = [palette.BLUE, palette.ORANGE, palette.GREEN]
    bars = ax.bar(range(3), values, color=colours, width=0.6, zorder=2)
    ax.bar_label(bars, labels=[fmt_num(lang, v) for v in values], padding=3)
    ax.set_xticks(range(3), labels)
    ax.set_ylim(0, max(values) * 1.2 or 1)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(_number_formatter(lang))
    ax.grid(axis="y", color=palette.GRID, zorder=0)
    ax.set_title(t(lang, "images.stats.activity"), loc="left")


def _number_formatter(lang: Lang) -> Formatter:
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda y, _: fmt_num(lang, y))


def _layout(fig: Figure) -> None:
    # Fixed positions (fractions of the figure), not tight_layout: one layout pass, not two.
    fig.add_axes((0.04, 0.22, 0.34, 0.56))  # luck
    fig.add_axes((0.46, 0.14, 0.22, 0.64))  # sums
    fig.add_axes((0.75, 0.14, 0.23, 0.64))  # counts


def draw(chart: StatsChart, lang: Lang, *, keep: bool = False) -> Figure:
    """The chart's figure: a new one, or with `keep` the worker's kept one (`kept_figure`)."""
    if keep:
        fig = kept_figure("stats", WIDTH, HEIGHT, _layout)
    else:
        fig = figure(WIDTH, HEIGHT)
        _layout(fig)
    title = t(lang, "stats.title", name=chart.name)
    fig.suptitle(title, x=0.02, ha="left", fontsize=palette.TITLE_SIZE)
    luck_ax, sums_ax, counts_ax = fig.axes
    _luck(luck_ax, chart, lang)
    _sums(sums_ax, chart, lang)
    _counts(counts_ax, chart, lang)
    return fig


def render(chart: StatsChart, lang: Lang) -> bytes:
    return to_png(draw(chart, lang, keep=True))
