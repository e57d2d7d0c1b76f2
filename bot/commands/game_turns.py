"""/turn, /phase, /round, /log and /undo: whose turn it is, and a game's journal.

Only the current player (or a manager) ends the turn or moves the phase; the organiser moves
the round. The "End turn" button carries the turn it was made for (`session.TURN_GUARD`):
pressed after that turn ended, it answers "this turn has already ended" and changes nothing.
/undo puts back the state before the last change (`session.undo_last`). Declared in
`bot.commands.game`.
"""

from __future__ import annotations

from typing import Annotated

from bot.clean_text import shorten
from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.game_view import (
    change_lines,
    current_phase,
    notes_blocks,
    turn_over,
)
from bot.commands.spec import OptionSpec
from bot.protocol import Block, Button, Reply, bold, code, italic, mention, plain
from bot.session import (
    TURN_GUARD,
    apply_change,
    find_player,
    game_turn,
    load_game,
    name_of,
    require_manager,
    require_turn,
    undo_last,
)
from bot.storage import events
from bot.storage.games import StoredGame
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.systems.base import Note

LOG_DEFAULT = 10


class TurnOrderArgs(Args):
    players: Annotated[
        str, OptionSpec("players", type="text", positional=True, required=True, max_length=300)
    ]


class LogArgs(Args):
    n: Annotated[
        int,
        OptionSpec(
            "n", type="int", positional=True, min_value=1, max_value=50, default=LOG_DEFAULT
        ),
    ] = LOG_DEFAULT


# --- turns ------------------------------------------------------------------------------------


def turn_reply(ctx: Context, game: StoredGame, key: str) -> Reply:
    """Round, phase and whose turn it is, with the button that ends that turn."""
    state = game.state
    current = state.current
    blocks: list[Block] = [
        [
            plain(
                ctx.t(
                    "game.round_phase",
                    round=state.round,
                    phase=current_phase(ctx, state),
                )
            )
        ]
    ]
    for throw in state.rolloff:
        faces = ", ".join(f"{name_of(state, u)} {f}" for u, f in throw)
        blocks.append([plain(ctx.t("game.rolloff", faces=faces))])
    mentions: list[str] = []
    buttons: list[Button] = []
    if current:
        blocks.append([plain(ctx.t(key) + " "), mention(current, name_of(state, current))])
        if key == "game.turn_passes":
            mentions.append(current)
        if state.status == "active":
            # typed in the chat's language where the platform shows it (the console)
            command = f"{ctx.t('game.end_turn_command')} {TURN_GUARD}={game_turn(game)}"
            buttons.append(Button(label=ctx.t("game.end_turn_button"), command=command))
    return Reply(
        blocks=blocks,
        mentions=mentions,
        buttons=buttons,
        data={"round": state.round, "phase": state.phase, "current": current},
    )


async def turn_show(ctx: Context) -> Reply:
    game = await load_game(ctx)
    reply = turn_reply(ctx, game, "game.turn_of")
    reply.mentions = []
    return reply


async def phase_show(ctx: Context) -> Reply:
    """`/fase` alone: where the game is, and the command that moves it on (no button: a
    second press would skip a phase)."""
    return await _turn_with_hint(ctx, "game.phase_next_hint")


async def round_show(ctx: Context) -> Reply:
    """`/round` alone: as `/fase`, with the organiser's command for the next round."""
    return await _turn_with_hint(ctx, "game.round_next_hint")


async def _turn_with_hint(ctx: Context, hint: str) -> Reply:
    reply = await turn_show(ctx)
    reply.blocks.append([plain(ctx.t(hint))])
    return reply


async def turn_end(ctx: Context) -> Reply:
    game = await load_game(ctx)
    stale = turn_over(ctx, game_turn(game))
    if stale is not None:
        return stale
    state = game.state
    require_turn(ctx, state)
    source = ctx.dice()
    notes: list[Note] = []
    new = tr.end_turn(state, source.roll, dice=source, notes=notes)
    saved = (await apply_change(ctx, new, "turn_end", game=game)).game
    reply = turn_reply(ctx, saved, "game.turn_passes")
    reply.blocks += notes_blocks(ctx, notes)  # the system's start-of-turn bookkeeping
    return reply


async def turn_order(ctx: Context) -> Reply:
    game = await load_game(ctx)
    require_manager(ctx, game.state)
    ids = [find_player(game.state, t).user_id for t in ctx.args(TurnOrderArgs).players.split()]
    new = tr.set_order(game.state, ids)
    await apply_change(ctx, new, "turn_order", game=game)
    names = " → ".join(name_of(new, u) for u in new.order)
    return Reply(blocks=[[plain(ctx.t("game.order_set", order=names))]], data={"order": new.order})


async def phase_next(ctx: Context) -> Reply:
    game = await load_game(ctx)
    require_turn(ctx, game.state)
    try:
        new = tr.next_phase(game.state)
    except UserError as err:
        if err.key != "game.last_phase":
            raise
        # rules_core names the phase by its code; the reader gets the book's name
        raise UserError("game.last_phase", phase=current_phase(ctx, game.state)) from err
    saved = (await apply_change(ctx, new, "phase", game=game)).game
    return turn_reply(ctx, saved, "game.turn_of")


async def round_next(ctx: Context) -> Reply:
    game = await load_game(ctx)
    require_manager(ctx, game.state)
    source = ctx.dice()
    notes: list[Note] = []
    new = tr.next_round(game.state, source.roll, dice=source, notes=notes)
    saved = (await apply_change(ctx, new, "round", game=game)).game
    reply = turn_reply(ctx, saved, "game.turn_passes")
    reply.blocks += notes_blocks(ctx, notes)  # the system's start-of-round bookkeeping
    return reply


# --- history and undo ------------------------------------------------------------------------


async def log(ctx: Context) -> Reply:
    game = await load_game(ctx)
    found = await events.recent(ctx.conn, game.id, ctx.args(LogArgs).n)
    blocks: list[Block] = []
    changes = {ev.id: change_lines(ctx, ev.before, ev.after) for ev in found}  # once each
    for ev in reversed(found):
        line: Block = [
            plain(f"{ev.created_at:%H:%M} "),
            bold(ev.user_name),
            plain(" "),
            code(shorten(ev.command, 80)),
        ]
        if ev.undone:
            line.append(plain(" " + ctx.t("game.undone_mark")))
        blocks.append(line)
        what = "; ".join(text for _, text in changes[ev.id])
        if what:
            blocks.append([plain("  ↳ "), italic(what)])
    return Reply(
        title=ctx.t("game.log_title"),
        blocks=blocks or [[plain("-")]],
        data={
            "events": [
                {
                    "id": e.id,
                    "command": e.command,
                    "kind": e.kind,
                    "undone": e.undone,
                    "changes": [{"kind": kind, "text": text} for kind, text in changes[e.id]],
                }
                for e in found
            ]
        },
    )


async def undo(ctx: Context) -> Reply:
    event = await undo_last(ctx)
    return Reply(
        blocks=[[plain(ctx.t("game.undid") + " "), code(shorten(event.command, 80))]],
        data={"undone": event.id},
    )
