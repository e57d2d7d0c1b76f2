"""/stats: a player's dice in this chat — rolls made, how lucky they were (the sum of their
rolls placed in its exact distribution, rules_core/dice/luck.py) — and their games."""

from __future__ import annotations

from typing import Annotated

from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.spec import CommandSpec, OptionSpec
from bot.i18n import fmt_num, fmt_pct, tn
from bot.images import render, stats_chart
from bot.protocol import Reply, plain
from bot.storage import games as games_store
from bot.storage import rolls as rolls_store
from rules_core.dice.luck import Luck, luck
from rules_core.errors import UserError

RECENT = 500  # the newest rolls considered for luck (the bound in luck.py may count fewer)
GAMES = 1000


class StatsArgs(Args):
    player: Annotated[
        str | None,
        OptionSpec("player", type="text", positional=True, max_length=64, aliases=("giocatore",)),
    ] = None


def values(records: list[rolls_store.RollRecord]) -> list[tuple[str, int]]:
    """(expression, value) of every single roll: the successes when it counts them."""
    out: list[tuple[str, int]] = []
    for record in records:
        for part in record.result:
            value = part.get("successes")
            value = part.get("total") if value is None else value
            if isinstance(value, int) and isinstance(part.get("expression"), str):
                out.append((part["expression"], value))
    return out


async def stats(ctx: Context) -> Reply:
    chat = ctx.request.chat_key
    name = ctx.args(StatsArgs).player
    user_id, shown = ctx.request.user_id, ctx.request.user_name
    if name:
        found = await rolls_store.user_named(ctx.conn, chat, name)
        if found is None:
            raise UserError("stats.no_player", name=name)
        user_id, shown = found, name
    made = await rolls_store.count_by(ctx.conn, chat, user_id)
    records = await rolls_store.values_by(ctx.conn, chat, user_id, RECENT)
    played = won = 0
    for game in await games_store.history(ctx.conn, chat, GAMES):
        if game.state.player(user_id) is not None and game.state.status == "ended":
            played += 1
            won += game.state.winner == user_id
    pairs = values(records)
    result: Luck | None = await ctx.offload(luck, pairs, light=len(pairs) <= 20)
    lang = ctx.lang
    lines = [
        ctx.t("stats.title", name=shown),
        tn(lang, "stats.rolls", made),
        ctx.t(
            "stats.games", won=tn(lang, "stats.won", won), played=tn(lang, "stats.played", played)
        ),
    ]
    data: dict[str, object] = {"user_id": user_id, "rolls": made, "games": played, "won": won}
    if result is None:
        lines.append(ctx.t("stats.no_luck"))
    else:
        lines.append(
            tn(
                lang,
                "stats.luck",
                result.rolls,
                observed=fmt_num(lang, result.observed),
                expected=fmt_num(lang, float(result.expected), 1),
                percentile=fmt_pct(lang, float(result.percentile)),
            )
        )
        data.update(
            luck_rolls=result.rolls,
            observed=result.observed,
            expected=float(result.expected),
            percentile=float(result.percentile),
        )
    reply = Reply(blocks=[[plain(line)] for line in lines], data=data)
    chart = stats_chart.from_data(shown, data)  # the same numbers as the text
    return await render.attach(ctx, reply, stats_chart.render, chart, "stats.png")


SPECS = [
    CommandSpec(
        path=("stats",),
        handler=stats,
        readonly=True,
        aliases=("statistiche",),
        args=StatsArgs,
        examples=("/stats", "/stats Ann"),
    ),
]
