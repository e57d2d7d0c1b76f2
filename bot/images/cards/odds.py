"""Each game's attack odds as a picture: the /odds chart (`bot.images.odds_chart`) of the same
exact distributions the reply's text shows, one panel each (damage dealt, then models slain),
the axis named for what the game counts, in the chat's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot import i18n
from bot.commands.odds_view import summarize
from bot.images import odds_chart, render
from bot.protocol import Reply
from rules_core.dice import Distribution

if TYPE_CHECKING:
    from bot.commands.context import Context

Part = tuple[Distribution[int], str, str]
"""(the exact distribution, its label as the text heads it, what it counts: a key of
`cards.chart`: damage, wounds, hits, slain)."""


def chart(parts: Sequence[Part], lang: i18n.Lang) -> odds_chart.OddsChart:
    panels = [
        odds_chart.panel(summarize(dist), label).model_copy(
            update={"axis": i18n.t(lang, f"cards.chart.{counts}")}
        )
        for dist, label, counts in parts[: odds_chart.MAX_PANELS]
    ]
    return odds_chart.OddsChart(panels=panels)


async def attach(ctx: Context, reply: Reply, parts: Sequence[Part]) -> Reply:
    """`reply` with the chart of `parts` (see `bot.images.render.attach`)."""
    return await render.attach(ctx, reply, odds_chart.render, chart(parts, ctx.lang), "odds.png")
