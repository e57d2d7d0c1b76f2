"""/unit, /res and /score: a game's units, resource pools and score.

A player changes their own units and pools; on their turn they may also damage or mark enemy
units (attacks are resolved on the attacker's turn); the organiser and chat admins change
anything. Who may add to their own score is the chat's `/game settings score=`. Declared in
`bot.commands.game`.
"""

from __future__ import annotations

from bot.commands.context import Context
from bot.commands.game_settings import require_own_points_right
from bot.commands.game_view import notes_blocks, stats_text, unit_blocks, unit_line
from bot.images.cards.attach import grid_picture, unit_picture
from bot.protocol import Block, Reply, bold, plain, pre
from bot.session import (
    apply_change,
    find_player,
    is_manager,
    load_game,
    name_of,
    require_manager,
    require_player,
    require_unit_rights,
)
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, ScoreEntry
from rules_core.rules.text import fold
from rules_core.systems.base import Note

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
    stats = stats_text(ctx, game.state.system, unit.stats)
    blocks: list[Block] = [
        *unit_blocks(ctx, unit, game.state.system),
        [plain(ctx.t("game.owner", name=unit.owner_name))],
    ]
    if stats:
        blocks.append([pre(stats)])
    pools = game.state.resources.get(f"unit:{fold(unit.name)}", {})
    if pools:
        blocks.append([plain(", ".join(f"{k} {v}" for k, v in sorted(pools.items())))])
    reply = Reply(title=unit.name, blocks=blocks, data={"unit": unit.model_dump()})
    return await unit_picture(ctx, reply, unit, game.state.system)


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
                st,
                unit.name,
                ctx.opts["amount"],
                column=column,
                dice=ctx.dice(),
                notes=notes,
                model=ctx.opts.get("model"),
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
        reply = Reply(
            blocks=notes_blocks(ctx, notes) + unit_blocks(ctx, after, change.after.system),
            data={"unit": after.model_dump()},
        )
        return await grid_picture(ctx, reply, after, change.after.system)
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
