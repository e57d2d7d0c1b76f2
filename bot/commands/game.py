"""/game and the declarations of every command on a chat's game: /game, /unit, /res, /score,
/turn, /phase, /round, /log and /undo.

Loading the chat's game, who may do what and the one write path are `bot.session`; how a game
looks (unit lines, the board) is `bot.commands.game_view`. The handlers: /game here, units,
pools and score in `game_units`, turns and the journal in `game_turns`.

Games are numbered per chat (`StoredGame.number`, in /game history and `data`); the global id
is internal.
"""

from __future__ import annotations

from typing import Annotated

from bot import i18n
from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.game_turns import (
    LogArgs,
    TurnOrderArgs,
    log,
    phase_next,
    phase_show,
    round_next,
    round_show,
    turn_end,
    turn_order,
    turn_show,
    undo,
)
from bot.commands.game_units import (
    ResArgs,
    ScoreAddArgs,
    UnitAddArgs,
    UnitArgs,
    UnitCondArgs,
    UnitDamageArgs,
    UnitHealArgs,
    UnitSetArgs,
    res_add,
    res_set,
    res_show,
    res_spend,
    score_add,
    score_show,
    unit_add,
    unit_cond,
    unit_damage,
    unit_heal,
    unit_list,
    unit_remove,
    unit_set,
    unit_show,
)
from bot.commands.game_view import board
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Block, Reply, bold, code, plain
from bot.session import (
    TURN_GUARD,
    apply_change,
    create_game,
    find_player,
    load_game,
    name_of,
    require_manager,
)
from bot.storage import games
from rules_core.game import transitions as tr
from rules_core.game.models import GameState
from rules_core.systems import SYSTEMS, get_system

# --- /game ------------------------------------------------------------------------------------


class GameNewArgs(Args):
    system: Annotated[
        str,
        OptionSpec(
            "system", positional=True, required=True, choices=tuple(SYSTEMS), aliases=("sistema",)
        ),
    ]
    name: Annotated[str | None, OptionSpec("name", type="text", positional=True, max_length=40)] = (
        None
    )


class GameJoinArgs(Args):
    side: Annotated[str | None, OptionSpec("side", type="text", positional=True, max_length=30)] = (
        None
    )


class GameEndArgs(Args):
    winner: Annotated[
        str | None, OptionSpec("winner", type="text", positional=True, max_length=40)
    ] = None


async def game_new(ctx: Context) -> Reply:
    a = ctx.args(GameNewArgs)
    system = get_system(a.system)
    name = tr.clean_name(a.name or ctx.t(f"systems.{system.id}"))
    state = GameState(system=system.id, name=name, organiser=ctx.request.user_id)
    state = tr.join(state, ctx.request.user_id, ctx.request.user_name, None)
    created = await create_game(ctx, state)
    return Reply(
        title=name,
        blocks=[[plain(ctx.t("game.created", system=ctx.t(f"systems.{system.id}")))]],
        data={"game": created.number, "system": system.id},
    )


async def game_join(ctx: Context) -> Reply:
    game = await load_game(ctx)
    side = ctx.args(GameJoinArgs).side
    was_in = game.state.player(ctx.request.user_id) is not None
    new = tr.join(game.state, ctx.request.user_id, ctx.request.user_name, side)
    await apply_change(ctx, new, "join", game=game)
    if was_in:  # a side chosen by a player already in the game
        return Reply(
            blocks=[[plain(ctx.t("game.side_chosen", name=ctx.request.user_name, side=side))]]
        )
    return Reply(blocks=[[plain(ctx.t("game.joined", name=ctx.request.user_name))]])


async def game_leave(ctx: Context) -> Reply:
    game = await load_game(ctx)
    new = tr.leave(game.state, ctx.request.user_id)
    await apply_change(ctx, new, "leave", game=game)
    return Reply(blocks=[[plain(ctx.t("game.left", name=ctx.request.user_name))]])


async def game_status(ctx: Context) -> Reply:
    game = await load_game(ctx)
    return Reply(
        title=game.state.name,
        blocks=board(ctx, game.state),
        data={"game": game.number, "state": game.state.model_dump(mode="json")},
    )


async def game_end(ctx: Context) -> Reply:
    game = await load_game(ctx)
    require_manager(ctx, game.state)
    named = ctx.args(GameEndArgs).winner
    winner = find_player(game.state, named).user_id if named else None
    new = tr.end_game(game.state, winner)
    await apply_change(ctx, new, "end", game=game)
    text = (
        ctx.t("game.ended_winner", winner=name_of(new, winner)) if winner else ctx.t("game.ended")
    )
    return Reply(
        title=new.name,
        blocks=[[plain(text)], *board(ctx, new)],
        data={"game": game.number, "winner": winner},
    )


async def game_history(ctx: Context) -> Reply:
    stored = await games.history(ctx.conn, ctx.request.chat_key, 10)
    if not stored:
        return Reply(blocks=[[plain(ctx.t("game.no_history"))]], data={"games": []})
    blocks: list[Block] = []
    for g in stored:
        result = (
            ctx.t("game.won_by", name=name_of(g.state, g.state.winner))
            if g.state.winner
            else ctx.t(f"game.status_{g.state.status}")
        )
        system = ctx.t("systems." + g.state.system)
        # a game started without a name is named after its game (in its creator's language)
        unnamed = g.state.name in {i18n.t(lang, "systems." + g.state.system) for lang in i18n.LANGS}
        blocks.append(
            [
                code(f"#{g.number}"),
                plain(f" {g.created_at:%Y-%m-%d} "),
                bold(system if unnamed else g.state.name),
                plain(f" · {result}" if unnamed else f" · {system} · {result}"),
            ]
        )
    return Reply(
        title=ctx.t("game.history_title"),
        blocks=blocks,
        data={"games": [{"id": g.number, "status": g.state.status} for g in stored]},
    )


# --- declarations ------------------------------------------------------------------------------

SPECS = [
    CommandSpec(
        path=("game", "new"),
        group_aliases=("partita",),
        handler=game_new,
        aliases=("nuova",),
        args=GameNewArgs,
        examples=('/game new gen "Spring league"',),
    ),
    CommandSpec(
        path=("game", "join"),
        handler=game_join,
        aliases=("entra", "unisciti", "unisci"),
        args=GameJoinArgs,
        examples=("/game join North",),
    ),
    CommandSpec(
        path=("game", "leave"), handler=game_leave, aliases=("esci",), examples=("/game leave",)
    ),
    CommandSpec(
        path=("game", "status"),
        handler=game_status,
        readonly=True,
        aliases=("stato",),
        examples=("/game status",),
    ),
    CommandSpec(
        path=("game", "end"),
        handler=game_end,
        aliases=("fine",),
        args=GameEndArgs,
        examples=("/game end Bruno", "/game end"),
    ),
    CommandSpec(
        path=("game", "history"),
        handler=game_history,
        readonly=True,
        aliases=("storico",),
        examples=("/game history",),
    ),
    CommandSpec(
        path=("unit", "add"),
        group_aliases=("unita",),
        handler=unit_add,
        aliases=("aggiungi",),
        args=UnitAddArgs,
        examples=("/unit add Guards models=5 wounds=1", '/unit add "Iron Giant" wounds=12'),
    ),
    CommandSpec(
        path=("unit", "list"),
        handler=unit_list,
        readonly=True,
        aliases=("elenco",),
        examples=("/unit list",),
    ),
    CommandSpec(
        path=("unit", "show"),
        handler=unit_show,
        readonly=True,
        aliases=("mostra",),
        args=UnitArgs,
        examples=("/unit show Vindictors",),
    ),
    CommandSpec(
        path=("unit", "set"),
        handler=unit_set,
        aliases=("imposta",),
        args=UnitSetArgs,
        examples=("/unit set Guards wounds=2",),
    ),
    CommandSpec(
        path=("unit", "damage"),
        handler=unit_damage,
        aliases=("danno", "danni"),
        args=UnitDamageArgs,
        examples=("/unit damage Guards 3", "/unit damage Trenchers 1 model=3"),
    ),
    CommandSpec(
        path=("unit", "heal"),
        handler=unit_heal,
        aliases=("cura",),
        args=UnitHealArgs,
        examples=("/unit heal Guards 1",),
    ),
    CommandSpec(
        path=("unit", "remove"),
        handler=unit_remove,
        aliases=("rimuovi",),
        args=UnitArgs,
        examples=("/unit remove Gutrippaz",),
    ),
    CommandSpec(
        path=("unit", "cond"),
        handler=unit_cond,
        aliases=("condizione",),
        args=UnitCondArgs,
        examples=("/unit cond Guards add pinned until=end-of-round",),
    ),
    CommandSpec(
        path=("res",), handler=res_show, readonly=True, aliases=("risorse",), examples=("/res",)
    ),
    *[
        CommandSpec(
            path=("res", op),
            handler=handler,
            aliases=(alias,),
            args=ResArgs,
            examples=(f"/res {op} points 3",),
        )
        for op, alias, handler in (
            ("set", "imposta", res_set),
            ("add", "aggiungi", res_add),
            ("spend", "spendi", res_spend),
        )
    ],
    CommandSpec(
        path=("score",),
        handler=score_show,
        readonly=True,
        aliases=("punti", "punteggio"),
        examples=("/score",),
    ),
    CommandSpec(
        path=("score", "add"),
        handler=score_add,
        aliases=("aggiungi",),
        args=ScoreAddArgs,
        examples=("/score add 3", "/score add 2 Bob objective"),
    ),
    CommandSpec(
        path=("turn",), handler=turn_show, readonly=True, aliases=("turno",), examples=("/turn",)
    ),
    CommandSpec(
        path=("turn", "end"),
        handler=turn_end,
        aliases=("fine",),
        guard=TURN_GUARD,
        examples=("/turn end",),
    ),
    CommandSpec(
        path=("turn", "order"),
        handler=turn_order,
        aliases=("ordine",),
        args=TurnOrderArgs,
        examples=("/turn order @Bob @Ann",),
    ),
    CommandSpec(path=("phase",), handler=phase_show, readonly=True, examples=("/phase",)),
    CommandSpec(
        path=("phase", "next"),
        handler=phase_next,
        group_aliases=("fase",),
        aliases=("prossima", "avanti", "successiva"),  # as an Italian player may say "next"
        examples=("/phase next",),
    ),
    CommandSpec(path=("round",), handler=round_show, readonly=True, examples=("/round",)),
    CommandSpec(
        path=("round", "next"),
        handler=round_next,
        aliases=("prossimo", "avanti", "successivo"),
        examples=("/round next",),
    ),
    CommandSpec(
        path=("log",),
        handler=log,
        readonly=True,
        aliases=("registro",),
        args=LogArgs,
        examples=("/log 20",),
    ),
    CommandSpec(path=("undo",), handler=undo, aliases=("annulla",), examples=("/undo",)),
]
