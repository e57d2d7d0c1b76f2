"""A game's attack odds as a chart: bars for P(exactly k), a line for P(at least k), the mean
marked; one panel per distribution (damage dealt, then models slain). matplotlib's object API
on the Agg canvas (no pyplot: no global state, safe in a worker)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from bot.i18n import Lang, fmt_pct
from bot.images.cards.facts import ChartPanel, OddsChart

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

DPI = 100
WIDTH_IN = 6.4
PANEL_IN = 3.2
BAR = "#0072B2"  # Okabe & Ito blue
LINE = "#D55E00"  # vermillion
MEAN = "#009E73"  # bluish green


def size(chart: OddsChart) -> tuple[int, int]:
    return round(WIDTH_IN * DPI), round((0.5 + PANEL_IN * len(chart.panels)) * DPI)


def figure(chart: OddsChart, lang: Lang) -> Figure:
    """The chart as a matplotlib figure (the tests read its bars back)."""
    from matplotlib.figure import Figure

    width, height = size(chart)
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    fig.suptitle(chart.title, fontsize=11)
    # Fixed margins, not tight_layout: measuring every label again cost a third of the render.
    top = 1 - 0.45 * DPI / height
    bottom = 0.5 * DPI / height
    fig.subplots_adjust(left=0.1, right=0.97, top=top, bottom=bottom, hspace=0.38)
    axes = fig.subplots(len(chart.panels), 1, squeeze=False)
    for ax, panel in zip(axes[:, 0], chart.panels, strict=True):
        _panel(ax, panel, chart, lang)
    return fig


def _panel(ax: Axes, panel: ChartPanel, chart: OddsChart, lang: Lang) -> None:
    from matplotlib.ticker import FuncFormatter

    xs = list(range(len(panel.labels)))
    ax.bar(xs, panel.probabilities, color=BAR, label=chart.exactly_label, width=0.8)
    ax.plot(
        xs,
        panel.at_least,
        color=LINE,
        marker="o",
        markersize=3,
        linestyle="--",
        label=chart.at_least_label,
    )
    mean_x = _mean_x(panel)
    if mean_x is not None:
        ax.axvline(mean_x, color=MEAN, linestyle=":", linewidth=1.5, label=panel.mean_label)
    step = -(-len(xs) // 16)  # at most 16 tick labels
    ax.set_xticks(xs[::step], panel.labels[::step], fontsize=8, rotation=45 if panel.grouped else 0)
    ax.set_ylim(0, 1.05)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda p, _: fmt_pct(lang, p, 0, bounds=False)))
    ax.set_xlabel(panel.x_label, fontsize=9)
    ax.set_ylabel(chart.y_label, fontsize=9)
    ax.tick_params(axis="y", labelsize=8)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper right", frameon=False)


def _mean_x(panel: ChartPanel) -> float | None:
    """The mean on the bars' axis (bar i is the value in its label): between the two bars
    around it, proportionally; None for ranges."""
    if panel.grouped:
        return None
    values = [int(v) for v in panel.labels]
    for i in range(len(values) - 1):
        lo, hi = values[i], values[i + 1]
        if lo <= panel.mean <= hi:
            return i + (panel.mean - lo) / (hi - lo)
    return 0.0 if values else None


def render_odds_chart(chart: OddsChart, lang: Lang) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = figure(chart, lang)
    FigureCanvasAgg(fig)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI, metadata={"Software": None})
    return out.getvalue()
