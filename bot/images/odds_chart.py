"""The /odds chart: per part of the message, bars of P(total = v) (equal ranges when the totals
are many), the cumulative "at least" line over them, and the asked comparison's bars highlighted
(colour and hatch). Made from the same summary as the text (`bot.commands.odds_view.DistView`).

`facts` builds the model, `arrays` is what gets drawn (the tests compare it with the exact
distribution), `draw` the matplotlib figure, `render` its PNG: WIDTH x PANEL_HEIGHT per part.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from bot.i18n import Lang, fmt_num, fmt_pct, t
from bot.images import palette
from bot.images.render import figure, kept_figure, to_png

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from bot.commands.odds_view import DistView

WIDTH = 800
PANEL_HEIGHT = 420
MAX_PANELS = 4
"""Parts of one message charted (a longer message's text still has every part)."""
MARGIN_SIDE = 75  # pixels: the percentage ticks and the axis names
MARGIN_BOTTOM = 70
MARGIN_TOP = 40
MAX_TICKS = 16
HEADROOM = 1.4  # the bars keep clear of the legend in the upper right corner
LABEL_CHARS = 60
BAR_WIDTH = 0.8


class OddsPanel(BaseModel):
    """One part of an /odds message: its bars, in the order drawn."""

    label: str  # the part as asked (`2d6+3>=10 [fire]`)
    first: list[int]  # bar i covers the totals first[i]..last[i]
    last: list[int]
    exactly: list[float]  # P(first ≤ total ≤ last)
    at_least: list[float]  # P(total ≥ first)
    hit: list[bool]  # the asked comparison holds there
    mean: float
    question: str | None = None  # `2d6+3 ≥ 10`
    probability: float | None = None
    axis: str | None = None  # what the totals count (a game's "damage dealt"); None: totals


class OddsChart(BaseModel):
    panels: list[OddsPanel] = Field(min_length=1, max_length=MAX_PANELS)


def panel(view: DistView, label: str) -> OddsPanel:
    bars = view.bars
    return OddsPanel(
        label=label[:LABEL_CHARS],
        first=[b[0] for b in bars],
        last=[b[1] for b in bars],
        exactly=[b[2] for b in bars],
        at_least=[b[3] for b in bars],
        hit=list(view.hits) if view.hits else [False] * len(bars),
        mean=view.mean,
        question=view.question,
        probability=view.probability,
        axis=view.margin,
    )


def facts(parts: list[tuple[DistView, str]]) -> OddsChart:
    """The chart of a message's first MAX_PANELS parts: (summary, label as asked)."""
    return OddsChart(panels=[panel(view, label) for view, label in parts[:MAX_PANELS]])


def size(chart: OddsChart) -> tuple[int, int]:
    """The picture's size in pixels."""
    return WIDTH, PANEL_HEIGHT * len(chart.panels)


@cache
def percent(lang: Lang, y: float, digits: int) -> str:
    """A tick's percentage the language's way (`12,5%`); cached: Babel is slow per call and
    matplotlib asks for the same ticks several times a render."""
    return fmt_pct(lang, y, digits, bounds=False)


def tick_label(lang: Lang, first: int, last: int) -> str:
    if first == last:
        return fmt_num(lang, first)
    return f"{fmt_num(lang, first)}–{fmt_num(lang, last)}"


def arrays(p: OddsPanel, lang: Lang) -> tuple[list[str], list[float], list[float], list[bool]]:
    """What one panel draws: x labels, bar heights, the "at least" line, highlighted bars."""
    labels = [tick_label(lang, a, b) for a, b in zip(p.first, p.last, strict=True)]
    return labels, list(p.exactly), list(p.at_least), list(p.hit)


def _title(p: OddsPanel, lang: Lang) -> str:
    title = p.label
    if p.question is not None and p.probability is not None:
        title = f"P({p.question}) = {fmt_pct(lang, p.probability)}"
    return f"{title}   ·   {t(lang, 'images.odds.mean')} {fmt_num(lang, p.mean, 2)}"


def _draw_panel(ax: Axes, line_ax: Axes, p: OddsPanel, lang: Lang) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter

    labels, exactly, at_least, hit = arrays(p, lang)
    xs = list(range(len(labels)))
    _bars(ax, xs, exactly, hit)
    top = max(exactly) if exactly else 1.0
    ax.set_ylim(0, top * HEADROOM or 1.0)
    digits = 1 if top < 0.2 else 0
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: percent(lang, y, digits)))
    ax.set_ylabel(t(lang, "images.odds.exactly_axis"))
    ax.set_xlabel(p.axis or t(lang, "images.odds.total"))
    step = max(1, math.ceil(len(xs) / MAX_TICKS))
    ax.set_xticks(xs[::step], labels[::step], rotation=0 if step == 1 and len(xs) <= 20 else 30)
    ax.set_xlim(-0.6, len(xs) - 0.4)
    ax.grid(axis="y", color=palette.GRID, zorder=0)
    ax.set_axisbelow(True)
    ax.set_title(_title(p, lang), loc="left")

    line_ax.plot(
        xs,
        at_least,
        color=palette.LINE,
        marker="o" if len(xs) <= 30 else None,
        markersize=4,
        linewidth=1.6,
        zorder=3,
    )
    line_ax.set_ylim(0, 1.05)
    line_ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: percent(lang, y, 0)))
    line_ax.set_ylabel(t(lang, "images.odds.at_least_axis"))

    handles = [
        Patch(facecolor=palette.BASE, label=t(lang, "images.odds.exactly")),
        *(
            [Patch(facecolor=palette.HIGHLIGHT, hatch=palette.HATCH, label=p.question)]
            if p.question is not None and any(hit)
            else []
        ),
        Line2D([], [], color=palette.LINE, marker="o", label=t(lang, "images.odds.at_least")),
    ]
    ax.legend(handles=handles, loc="upper right", fontsize=palette.TICK_SIZE, framealpha=0.9)


def _bars(ax: Axes, xs: list[int], heights: list[float], hit: list[bool]) -> None:
    """The bars `ax.bar(xs, heights, width=BAR_WIDTH)` draws, without its data limits: it
    measures every bar's outline to grow them (a third of a 46-bar chart's render), and the
    limits are set here anyway. Added as artists, held by one BarContainer (`ax.containers`)."""
    from matplotlib.container import BarContainer
    from matplotlib.patches import Rectangle

    patches = []
    for x, height, h in zip(xs, heights, hit, strict=True):
        bar = Rectangle(
            (x - BAR_WIDTH / 2, 0),
            BAR_WIDTH,
            height,
            facecolor=palette.HIGHLIGHT if h else palette.BASE,
            edgecolor=palette.BACKGROUND,
            hatch=palette.HATCH if h else None,
            zorder=2,
        )
        ax.add_artist(bar)
        patches.append(bar)
    ax.add_container(BarContainer(patches, datavalues=heights, orientation="vertical"))


def _layout(fig: Figure, n: int) -> None:
    """n panels, one above the other, each its bar axes and the twin of its "at least" line.
    Fixed margins in pixels, not tight_layout (that lays the figure out twice); room for the
    title above and the rotated range labels below."""
    width, height = WIDTH, PANEL_HEIGHT * n
    for i in range(n):
        bottom = (n - 1 - i) * PANEL_HEIGHT + MARGIN_BOTTOM
        rect = (
            MARGIN_SIDE / width,
            bottom / height,
            1 - 2 * MARGIN_SIDE / width,
            (PANEL_HEIGHT - MARGIN_BOTTOM - MARGIN_TOP) / height,
        )
        fig.add_axes(rect).twinx()


def draw(chart: OddsChart, lang: Lang, *, keep: bool = False) -> Figure:
    """The chart's figure: a new one, or with `keep` the worker's kept one of this layout."""
    width, height = size(chart)
    n = len(chart.panels)
    if keep:
        fig = kept_figure(("odds", n), width, height, lambda f: _layout(f, n))
    else:
        fig = figure(width, height)
        _layout(fig, n)
    bars, lines = fig.axes[0::2], fig.axes[1::2]  # each panel's axes, then its twin
    for ax, line_ax, p in zip(bars, lines, chart.panels, strict=True):
        _draw_panel(ax, line_ax, p, lang)
    return fig


def render(chart: OddsChart, lang: Lang) -> bytes:
    return to_png(draw(chart, lang, keep=True))
