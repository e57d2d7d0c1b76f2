"""/game, /unit, /res, /score, /turn, /phase, /round, /log and /undo: a chat's game state.

Every change loads the chat's active game, applies a pure transition from rules_core.game,
and saves it with `games.save_change` (one event with the state before and after, which is
what /log shows and /undo restores). Who may do what:
- the organiser (who created the game) and chat admins manage everything;
- a player changes their own units, and on their turn may damage or mark enemy units too
  (attacks are resolved on the attacker's turn); only the current player ends the turn;
- anyone else, a player who left the game included, can look (status, log, units) but changes
  nothing. A refusal says why: whose turn it is, whose unit, or "join the game first".

Games are numbered per chat (`StoredGame.number`, in /game history and `data`); the global id
is internal. The "End turn" button carries the turn it was made for (`turn_token`): pressed
after that turn ended, it answers "this turn has already ended" and changes nothing.

Loading, permissions and the one write path are in `bot.session`; how a game looks (unit
lines, the board) in `bot.commands.game_view`. This module declares and handles the commands.
"""

from __future__ import annotations

import hashlib

from bot.commands.context import Context
from bot.commands.game_settings import require_own_points_right
from bot.commands.game_view import (
    board,
    change_data,
    change_text,
    notes_blocks,
    unit_blocks,
    unit_line,
)
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import (
    Block,
    Button,
    ErrorInfo,
    Reply,
    bold,
    code,
    italic,
    mention,
    plain,
    pre,
)
from bot.session import (
    apply_change,
    find_player,
    is_manager,
    load_game,
    name_of,
    require_manager,
    require_player,
    require_turn,
    require_unit_rights,
)
from bot.storage import campaigns, events, games
from bot.storage.games import StoredGame
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, ScoreEntry
from rules_core.rules.text import fold
from rules_core.systems import SYSTEMS, get_system
from rules_core.systems.base import Note

# --- buttons that act on a turn ----------------------------------------------------------------

# The hidden option a turn's button adds to its command (`CommandSpec.guard`).
TURN_GUARD = "turn"


def turn_token(*parts: object) -> str:
    """A short opaque mark of one turn: which game or campaign, how far along, whose turn."""
    return hashlib.blake2s("\n".join(map(str, parts)).encode(), digest_size=5).hexdigest()


def game_turn(game: StoredGame) -> str:
    return turn_token("game", game.id, game.state.turn_seq, game.state.current)


def turn_over(ctx: Context, token: str) -> Reply | None:
    """A button pressed after the turn it was made for: the answer, changing nothing. None when
    the command came without a guard (typed) or its turn is still on."""
    sent = ctx.opts.get(TURN_GUARD)
    if sent is None or sent == token:
        return None
    # No syntax hint (as a UserError would get): the user typed nothing wrong.
    message = ctx.t("game.turn_over")
    return Reply(
        blocks=[[plain(message)]],
        ephemeral=True,
        error=ErrorInfo(code="game.turn_over", message=message),
    )


# --- /game ------------------------------------------------------------------------------------


async def game_new(ctx: Context) -> Reply:
    system = get_system(ctx.opts["system"])
    name = tr.clean_name(ctx.opts["name"] or ctx.t(f"systems.{system.id}"))
    state = GameState(system=system.id, name=name, organiser=ctx.request.user_id)
    state = tr.join(state, ctx.request.user_id, ctx.request.user_name, None)
    created = await games.create(ctx.conn, ctx.request.chat_key, state, ctx.now)
    campaign = await campaigns.active(ctx.conn, ctx.request.chat_key)
    if campaign is not None:  # games played during a campaign belong to it
        await campaigns.link_game(ctx.conn, campaign.id, created.id)
    await games.save_change(
        ctx.conn,
        created,
        state,
        user_id=ctx.request.user_id,
        user_name=ctx.request.user_name,
        command=ctx.request.text,
        kind="game_new",
        now=ctx.now,
    )
    return Reply(
        title=name,
        blocks=[[plain(ctx.t("game.created", system=ctx.t(f"systems.{system.id}")))]],
        data={"game": created.number, "system": system.id},
    )


async def game_join(ctx: Context) -> Reply:
    game = await load_game(ctx)
    side = ctx.opts["side"]
    new = tr.join(game.state, ctx.request.user_id, ctx.request.user_name, side)
    await apply_change(ctx, new, "join", game=game)
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
    winner = find_player(game.state, ctx.opts["winner"]).user_id if ctx.opts["winner"] else None
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
        blocks.append(
            [
                code(f"#{g.number}"),
                plain(f" {g.created_at:%Y-%m-%d} "),
                bold(g.state.name),
                plain(f" · {ctx.t('systems.' + g.state.system)} · {result}"),
            ]
        )
    return Reply(
        title=ctx.t("game.history_title"),
        blocks=blocks,
        data={"games": [{"id": g.number, "status": g.state.status} for g in stored]},
    )


# --- /unit ------------------------------------------------------------------------------------


async def unit_add(ctx: Context) -> Reply:
    game = await load_game(ctx)
    state = game.state
    me = require_player(ctx, state)
    owner = me
    if ctx.opts["owner"]:
        owner = find_player(state, ctx.opts["owner"])
        if owner.user_id != ctx.request.user_id:
            require_manager(ctx, state)
    options = {"grid": ctx.opts["grid"]} if ctx.opts.get("grid") else {}
    new = tr.add_unit(state, ctx.opts["name"], owner, ctx.opts["stats"], options)
    await apply_change(ctx, new, "unit_add", game=game)
    unit = new.units[-1]
    return Reply(
        blocks=[
            [plain(ctx.t("game.unit_added", owner=owner.name) + " ")],
            *unit_blocks(ctx, unit, new.system),
        ],
        data={"unit": unit.model_dump()},
    )


async def unit_list(ctx: Context) -> Reply:
    game = await load_game(ctx)
    if not game.state.units:
        return Reply(blocks=[[plain(ctx.t("game.no_units"))]], data={"units": []})
    blocks = [
        [*unit_line(ctx, u, game.state.system), plain(" · " + u.owner_name)]
        for u in game.state.units
    ]
    return Reply(
        title=ctx.t("game.units_title"),
        blocks=blocks,
        data={"units": [u.model_dump() for u in game.state.units]},
    )


async def unit_show(ctx: Context) -> Reply:
    game = await load_game(ctx)
    unit = tr.find_unit(game.state, ctx.opts["name"])
    stats = "  ".join(f"{k}={v}" for k, v in sorted(unit.stats.items()))
    blocks: list[Block] = [
        *unit_blocks(ctx, unit, game.state.system),
        [plain(ctx.t("game.owner", name=unit.owner_name))],
    ]
    if stats:
        blocks.append([pre(stats)])
    pools = game.state.resources.get(f"unit:{fold(unit.name)}", {})
    if pools:
        blocks.append([plain(", ".join(f"{k} {v}" for k, v in sorted(pools.items())))])
    return Reply(title=unit.name, blocks=blocks, data={"unit": unit.model_dump()})


async def unit_change(ctx: Context, kind: str) -> Reply:
    game = await load_game(ctx)
    state = game.state
    unit = tr.find_unit(state, ctx.opts["name"])
    notes: list[Note] = []
    if kind == "unit_set":
        require_unit_rights(ctx, state, unit, attack=False)
        new = tr.set_stats(state, unit.name, ctx.opts["stats"])
    elif kind == "damage":

        def hit(st: GameState) -> GameState:
            notes.clear()  # a retry runs this again: keep only the last run's notes
            column = ctx.opts.get("column")
            return tr.damage(
                st, unit.name, ctx.opts["amount"], column=column, dice=ctx.dice(), notes=notes
            )

        change = await apply_change(
            ctx,
            hit,
            kind,
            unit=unit.name,
            attack=True,
            game=game,
        )
        after = change.unit or unit
        return Reply(
            blocks=notes_blocks(ctx, notes) + unit_blocks(ctx, after, change.after.system),
            data={"unit": after.model_dump()},
        )
    elif kind == "heal":
        require_unit_rights(ctx, state, unit, attack=False)
        new = tr.heal(state, unit.name, ctx.opts["amount"])
    else:
        require_unit_rights(ctx, state, unit, attack=False)
        new = tr.remove_unit(state, unit.name)
        await apply_change(ctx, new, kind, game=game)
        return Reply(blocks=[[plain(ctx.t("game.unit_removed", name=unit.name))]])
    await apply_change(ctx, new, kind, game=game)
    after = tr.find_unit(new, unit.name)
    return Reply(
        blocks=notes_blocks(ctx, notes) + unit_blocks(ctx, after, new.system),
        data={"unit": after.model_dump()},
    )


async def unit_set(ctx: Context) -> Reply:
    return await unit_change(ctx, "unit_set")


async def unit_damage(ctx: Context) -> Reply:
    return await unit_change(ctx, "damage")


async def unit_heal(ctx: Context) -> Reply:
    return await unit_change(ctx, "heal")


async def unit_remove(ctx: Context) -> Reply:
    return await unit_change(ctx, "unit_remove")


async def unit_cond(ctx: Context) -> Reply:
    game = await load_game(ctx)
    state = game.state
    unit = tr.find_unit(state, ctx.opts["name"])
    require_unit_rights(ctx, state, unit, attack=True)
    if ctx.opts["action"] == "add":
        new = tr.add_condition(state, unit.name, ctx.opts["condition"], ctx.opts["until"])
    else:
        new = tr.remove_condition(state, unit.name, ctx.opts["condition"])
    await apply_change(ctx, new, "condition", game=game)
    after = tr.find_unit(new, unit.name)
    return Reply(blocks=[unit_line(ctx, after, new.system)], data={"unit": after.model_dump()})


# --- /res, /score ------------------------------------------------------------------------------


async def res_show(ctx: Context) -> Reply:
    game = await load_game(ctx)
    blocks: list[Block] = []
    for key, pools in sorted(game.state.resources.items()):
        owner = key.split(":", 1)[1]
        who = name_of(game.state, owner) if key.startswith("player:") else owner
        blocks.append(
            [bold(who), plain(": " + ", ".join(f"{k} {v}" for k, v in sorted(pools.items())))]
        )
    return Reply(
        title=ctx.t("game.resources_title"),
        blocks=blocks or [[plain(ctx.t("game.no_resources"))]],
        data={"resources": game.state.resources},
    )


async def res_change(ctx: Context, op: str) -> Reply:
    game = await load_game(ctx)
    state = game.state
    require_player(ctx, state)
    target_unit = ctx.opts["unit"]
    if target_unit:
        unit = tr.find_unit(state, target_unit)
        require_unit_rights(ctx, state, unit, attack=False)
    owner_key = tr.resource_key(state, ctx.request.user_id, target_unit)
    new, value = tr.change_resource(state, owner_key, ctx.opts["resource"], op, ctx.opts["amount"])
    await apply_change(ctx, new, f"res_{op}", game=game)
    return Reply(
        blocks=[
            [plain(ctx.t("game.resource_now", name=ctx.opts["resource"].lower(), value=value))]
        ],
        data={"resource": ctx.opts["resource"].lower(), "value": value},
    )


async def res_set(ctx: Context) -> Reply:
    return await res_change(ctx, "set")


async def res_add(ctx: Context) -> Reply:
    return await res_change(ctx, "add")


async def res_spend(ctx: Context) -> Reply:
    return await res_change(ctx, "spend")


async def score_show(ctx: Context) -> Reply:
    game = await load_game(ctx)
    scores = game.state.score()
    ranked = sorted(game.state.players, key=lambda p: -scores.get(p.user_id, 0))
    blocks = [
        [bold(p.name), plain(" " + ctx.t("game.points", n=scores.get(p.user_id, 0)))]
        for p in ranked
    ]
    return Reply(
        title=ctx.t("game.score_title"), blocks=blocks or [[plain("-")]], data={"score": scores}
    )


async def score_add(ctx: Context) -> Reply:
    game = await load_game(ctx)
    state = game.state
    me = require_player(ctx, state)
    player, reason = me, ctx.opts["reason"]
    if ctx.opts["player"]:
        try:
            player = find_player(state, ctx.opts["player"])
        except UserError:  # `/score add 5 objective taken`: no player first, all of it the reason
            reason = " ".join(x for x in (ctx.opts["player"], reason) if x)[:100]
    if player.user_id != ctx.request.user_id:
        require_manager(ctx, state)
    elif not is_manager(ctx, state):
        await require_own_points_right(ctx, state)  # the chat's `/game settings score=`
    new = state.clone()
    new.score_log.append(
        ScoreEntry(user_id=player.user_id, points=ctx.opts["points"], reason=reason)
    )
    await apply_change(ctx, new, "score", game=game)
    total = new.score().get(player.user_id, 0)
    line = ctx.t("game.scored", name=player.name, n=ctx.opts["points"], total=total)
    if reason:
        line += " " + ctx.t("game.diff.reason", reason=reason)
    return Reply(
        blocks=[[plain(line)]],
        data={"player": player.user_id, "total": total, "reason": reason},
    )


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
                    phase=get_system(state.system).phases[state.phase],
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
            command = f"/turn end {TURN_GUARD}={game_turn(game)}"
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
    ids = [find_player(game.state, t).user_id for t in ctx.opts["players"].split()]
    new = tr.set_order(game.state, ids)
    await apply_change(ctx, new, "turn_order", game=game)
    names = " → ".join(name_of(new, u) for u in new.order)
    return Reply(blocks=[[plain(ctx.t("game.order_set", order=names))]], data={"order": new.order})


async def phase_next(ctx: Context) -> Reply:
    game = await load_game(ctx)
    require_turn(ctx, game.state)
    new = tr.next_phase(game.state)
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
    found = await events.recent(ctx.conn, game.id, ctx.opts["n"])
    blocks: list[Block] = []
    for ev in reversed(found):
        line: Block = [
            plain(f"{ev.created_at:%H:%M} "),
            bold(ev.user_name),
            plain(" "),
            code(ev.command[:80]),
        ]
        if ev.undone:
            line.append(plain(" " + ctx.t("game.undone_mark")))
        blocks.append(line)
        what = change_text(ctx, ev.before, ev.after)
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
                    "changes": change_data(ctx, e.before, e.after),
                }
                for e in found
            ]
        },
    )


async def undo(ctx: Context) -> Reply:
    """Put back the state before the game's last change not undone yet; again and again walks
    further back. Right after `/game end`, it reopens the game (if no other has started)."""
    game = await ctx.active_game()
    reopening = False
    if game is None:
        latest = await games.history(ctx.conn, ctx.request.chat_key, 1)
        if not latest or latest[0].state.status != "ended":
            raise UserError("game.none")
        game, reopening = latest[0], True
    event = await events.last_undoable(ctx.conn, game.id)
    if event is None or event.before is None or event.kind == "game_new":
        raise UserError("game.nothing_to_undo")
    if reopening and event.kind != "end":
        raise UserError("game.none")
    if event.user_id != ctx.request.user_id and not is_manager(ctx, game.state):
        raise UserError("perm.undo_not_yours", name=event.user_name)
    if event.after != game.state:
        raise UserError("game.undo_conflict")
    await apply_change(ctx, event.before, "undo", game=game)
    await events.mark_undone(ctx.conn, event.id)
    return Reply(
        blocks=[[plain(ctx.t("game.undid") + " "), code(event.command[:80])]],
        data={"undone": event.id},
    )


# --- declarations ------------------------------------------------------------------------------

NAME = OptionSpec(
    "name",
    type="text",
    positional=True,
    required=True,
    max_length=40,
    autocomplete="units",
    aliases=("nome",),
)
AMOUNT = OptionSpec(
    "amount", type="int", positional=True, required=True, min_value=0, max_value=999
)
STATS = OptionSpec("stats", type="pairs", max_length=300)

SPECS = [
    CommandSpec(
        path=("game", "new"),
        handler=game_new,
        aliases=("nuova",),
        options=(
            OptionSpec(
                "system",
                positional=True,
                required=True,
                choices=tuple(SYSTEMS),
                aliases=("sistema",),
            ),
            OptionSpec("name", type="text", positional=True, max_length=40),
        ),
        examples=('/game new gen "Spring league"',),
    ),
    CommandSpec(
        path=("game", "join"),
        handler=game_join,
        aliases=("entra",),
        options=(OptionSpec("side", type="text", positional=True, max_length=30),),
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
        options=(OptionSpec("winner", type="text", positional=True, max_length=40),),
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
        handler=unit_add,
        aliases=("aggiungi",),
        options=(
            OptionSpec("name", positional=True, required=True, max_length=40, aliases=("nome",)),
            OptionSpec("owner", max_length=60, aliases=("proprietario",)),
            OptionSpec("grid", max_length=120, aliases=("griglia",)),
            STATS,
        ),
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
        options=(NAME,),
        examples=("/unit show Vindictors",),
    ),
    CommandSpec(
        path=("unit", "set"),
        handler=unit_set,
        aliases=("imposta",),
        options=(
            OptionSpec("name", positional=True, required=True, max_length=40, autocomplete="units"),
            STATS,
        ),
        examples=("/unit set Guards wounds=2",),
    ),
    CommandSpec(
        path=("unit", "damage"),
        handler=unit_damage,
        aliases=("danno", "danni"),
        options=(
            OptionSpec("name", positional=True, required=True, max_length=40, autocomplete="units"),
            AMOUNT,
            OptionSpec("column", type="int", min_value=1, max_value=6, aliases=("colonna",)),
        ),
        examples=("/unit damage Guards 3",),
    ),
    CommandSpec(
        path=("unit", "heal"),
        handler=unit_heal,
        aliases=("cura",),
        options=(
            OptionSpec("name", positional=True, required=True, max_length=40, autocomplete="units"),
            AMOUNT,
        ),
        examples=("/unit heal Guards 1",),
    ),
    CommandSpec(
        path=("unit", "remove"),
        handler=unit_remove,
        aliases=("rimuovi",),
        options=(NAME,),
        examples=("/unit remove Gutrippaz",),
    ),
    CommandSpec(
        path=("unit", "cond"),
        handler=unit_cond,
        aliases=("condizione",),
        options=(
            OptionSpec("name", positional=True, required=True, max_length=40, autocomplete="units"),
            OptionSpec("action", positional=True, required=True, choices=("add", "remove")),
            OptionSpec("condition", type="text", positional=True, required=True, max_length=40),
            OptionSpec("until", max_length=20, aliases=("fino",)),
        ),
        examples=("/unit cond Guards add pinned until=end-of-round",),
    ),
    CommandSpec(
        path=("res",), handler=res_show, readonly=True, aliases=("risorse",), examples=("/res",)
    ),
    *[
        CommandSpec(
            path=("res", op),
            handler=handler,
            options=(
                OptionSpec("resource", positional=True, required=True, max_length=24),
                OptionSpec(
                    "amount",
                    type="int",
                    positional=True,
                    required=True,
                    min_value=0,
                    max_value=9999,
                ),
                OptionSpec("unit", max_length=40, autocomplete="units", aliases=("unita",)),
            ),
            examples=(f"/res {op} points 3",),
        )
        for op, handler in (("set", res_set), ("add", res_add), ("spend", res_spend))
    ],
    CommandSpec(
        path=("score",), handler=score_show, readonly=True, aliases=("punti",), examples=("/score",)
    ),
    CommandSpec(
        path=("score", "add"),
        handler=score_add,
        aliases=("aggiungi",),
        options=(
            OptionSpec(
                "points",
                type="signed",
                positional=True,
                required=True,
                min_value=-999,
                max_value=999,
            ),
            OptionSpec("player", positional=True, max_length=40),
            OptionSpec("reason", type="text", positional=True, max_length=100),
        ),
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
        options=(
            OptionSpec("players", type="text", positional=True, required=True, max_length=300),
        ),
        examples=("/turn order @Bob @Ann",),
    ),
    CommandSpec(
        path=("phase", "next"), handler=phase_next, aliases=("prossima",), examples=("/phase next",)
    ),
    CommandSpec(
        path=("round", "next"), handler=round_next, aliases=("prossimo",), examples=("/round next",)
    ),
    CommandSpec(
        path=("log",),
        handler=log,
        readonly=True,
        aliases=("registro",),
        options=(
            OptionSpec("n", type="int", positional=True, min_value=1, max_value=50, default=10),
        ),
        examples=("/log 20",),
    ),
    CommandSpec(path=("undo",), handler=undo, aliases=("annulla",), examples=("/undo",)),
]
