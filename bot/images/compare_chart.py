"""The `/compare` chart (#28 item 4): per profile, grouped bars of its expected damage, expected
models removed and damage per 100 points, the same numbers as the reply's table, labels in the
chat's language. `compare_facts` takes them from the rows; `render_compare_chart(facts, lang)
-> PNG` is a pure renderer for `bot.images.render.attach` (the worker pool, the shared style and
palette); `figure` is there for the tests, which read the bars back. A series shows its value
above each bar as well as its colour (never colour alone)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel

from bot import i18n
from bot.images import palette, render

if TYPE_CHECKING:
    from matplotlib.figure import Figure

WIDTH, HEIGHT = 640, 360  # pixels


class Series(BaseModel):
    label: str  # "danni attesi"
    values: list[float | None]  # one per profile, None: unknown (no bar)


class CompareChart(BaseModel):
    title: str
    profiles: list[str]  # "A", "B" … (with the unit's weapon when stored)
    series: list[Series]  # only those with at least one value


def compare_facts(
    lang: i18n.Lang, labels: list[str], columns: list[tuple[str, list[float | None]]]
) -> CompareChart:
    """`columns`: (catalogue key of the series, one value per profile)."""
    series = [
        Series(label=i18n.t(lang, key), values=values)
        for key, values in columns
        if any(v is not None for v in values)
    ]
    return CompareChart(title=i18n.t(lang, "compare.title"), profiles=labels, series=series)


def size() -> tuple[int, int]:
    return WIDTH, HEIGHT


def _layout(fig: Figure) -> None:
    fig.subplots_adjust(left=0.1, right=0.97, top=0.86, bottom=0.12)
    fig.subplots()


def figure(chart: CompareChart, lang: i18n.Lang, *, keep: bool = False) -> Figure:
    """The chart's figure: a new one, or with `keep` the worker's kept one (`kept_figure`)."""
    from matplotlib.ticker import FuncFormatter

    if keep:
        fig = render.kept_figure("compare", WIDTH, HEIGHT, _layout)
    else:
        fig = render.figure(WIDTH, HEIGHT)
        _layout(fig)
    (ax,) = fig.axes
    fig.suptitle(chart.title, fontsize=11)
    count = max(1, len(chart.series))
    width = 0.8 / count
    xs = list(range(len(chart.profiles)))
    for i, series in enumerate(chart.series):
        shift = (i - (count - 1) / 2) * width
        heights = [v if v is not None else 0.0 for v in series.values]
        bars = ax.bar(
            [x + shift for x in xs], heights, width, label=series.label, color=palette.series(i)
        )
        for bar, value in zip(bars, series.values, strict=True):
            if value is not None:
                ax.annotate(
                    i18n.fmt_num(lang, value, 2),
                    (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                    ha="center",
                    va="bottom",
                    fontsize=7,
                )
    ax.set_xticks(xs, chart.profiles, fontsize=9)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: i18n.fmt_num(lang, v)))
    ax.tick_params(axis="y", labelsize=8)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    return fig


def render_compare_chart(chart: CompareChart, lang: i18n.Lang) -> bytes:
    return render.to_png(figure(chart, lang, keep=True))
