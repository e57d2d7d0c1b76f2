"""/aos objective: who gains control of an objective at the end of a turn, counted by
rules_core.systems.aos.battlefield from the units the players name."""

from __future__ import annotations

from bot.commands.aos.args import ObjectiveArgs
from bot.commands.aos.common import GAME, SYSTEM
from bot.commands.context import Context
from bot.protocol import Block, Reply, bold, plain
from rules_core.game.models import GameState
from rules_core.systems.aos import battlefield


def side_line(state: GameState, side: list[battlefield.Contender], total: int) -> Block:
    """`Ann: Stardrake 1×5, Vindictors 5×1 = 10`."""
    if not side:
        return []
    owner = next(u.owner for u in state.units if u.name == side[0].unit)
    counts = ", ".join(f"{c.unit} {c.models}×{c.each}" for c in side)
    return [bold(state.player_name(owner)), plain(f": {counts} = {total}")]


async def objective(ctx: Context) -> Reply:
    a = ctx.args(ObjectiveArgs)
    game = await GAME.load(ctx)
    state = game.state
    out = battlefield.objective(state, a.friendly, a.enemy)
    blocks = [
        line
        for line in (
            side_line(state, out.friendly, out.friendly_total),
            side_line(state, out.enemy, out.enemy_total),
        )
        if line
    ]
    if out.outcome == "tie":
        verdict = ctx.t("aos.objective_tie", n=out.friendly_total)
    else:
        side = out.friendly if out.outcome == "friendly" else out.enemy
        owner = next(u.owner for u in state.units if u.name == side[0].unit)
        mine, theirs = out.friendly_total, out.enemy_total
        if out.outcome == "enemy":
            mine, theirs = theirs, mine
        verdict = ctx.t("aos.objective_gains", name=state.player_name(owner), a=mine, b=theirs)
    blocks.append([bold(verdict)])
    blocks.append([plain(ctx.t("aos.objective_note"))])
    return Reply(
        title=ctx.t("aos.objective_title"),
        blocks=blocks,
        data={"system": SYSTEM, **out.model_dump()},
    )
