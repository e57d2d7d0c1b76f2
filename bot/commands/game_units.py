"""/unit, /res and /score: a game's units, resource pools and score.

A player changes their own units and pools; on their turn they may also damage or mark enemy
units (attacks are resolved on the attacker's turn); the organiser and chat admins change
anything. Who may add to their own score is the chat's `/game settings score=`. Declared in
`bot.commands.game`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Literal

from pydantic import Field

from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.game_settings import require_own_points_right
from bot.commands.game_view import (
    notes_blocks,
    points_text,
    pool_code,
    pool_name,
    pools_text,
    stats_text,
    unit_blocks,
    unit_facts,
    unit_line,
)
from bot.commands.spec import OptionSpec
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
from rules_core.game.models import GameState, ScoreEntry, unit_key
from rules_core.systems import get_system
from rules_core.systems.base import Note

# --- options ----------------------------------------------------------------------------------

STATS = OptionSpec("stats", type="pairs", max_length=300)
# a system's model type (wm); `tipo=` is Infinity's stat
KIND = OptionSpec("kind", max_length=30, aliases=("tipo_modello", "tipo_di_modello"))
# a unit of the game the command acts on, completed from the game's units
UNIT = OptionSpec("name", positional=True, required=True, max_length=40, autocomplete="units")
AMOUNT = OptionSpec(
    "amount", type="int", positional=True, required=True, min_value=0, max_value=999
)


class UnitAddArgs(Args):
    name: Annotated[
        str, OptionSpec("name", positional=True, required=True, max_length=40, aliases=("nome",))
    ]
    owner: Annotated[str | None, OptionSpec("owner", max_length=60, aliases=("proprietario",))] = (
        None
    )
    grid: Annotated[str | None, OptionSpec("grid", max_length=120, aliases=("griglia",))] = None
    kind: Annotated[str | None, KIND] = None
    stats: Annotated[dict[str, int | str], STATS] = Field(default_factory=dict)


class UnitArgs(Args):
    """/unit show, /unit remove: a unit by its name (the whole rest of the line)."""

    name: Annotated[
        str,
        OptionSpec(
            "name",
            type="text",
            positional=True,
            required=True,
            max_length=40,
            autocomplete="units",
            aliases=("nome",),
        ),
    ]


class UnitSetArgs(Args):
    name: Annotated[str, UNIT]
    grid: Annotated[str | None, OptionSpec("grid", max_length=120, aliases=("griglia",))] = None
    kind: Annotated[str | None, KIND] = None
    stats: Annotated[dict[str, int | str], STATS] = Field(default_factory=dict)


class UnitAmountArgs(Args):
    name: Annotated[str, UNIT]
    amount: Annotated[int, AMOUNT]


class UnitHealArgs(UnitAmountArgs):
    # at least 1: a heal of 0 changes nothing and would be logged as a change
    amount: Annotated[int, replace(AMOUNT, min_value=1)]


class UnitDamageArgs(UnitAmountArgs):
    column: Annotated[
        int | None,
        OptionSpec("column", type="int", min_value=1, max_value=6, aliases=("colonna",)),
    ] = None
    model: Annotated[
        int | None,
        OptionSpec("model", type="int", min_value=1, max_value=100, aliases=("modello",)),
    ] = None


class UnitCondArgs(Args):
    name: Annotated[str, UNIT]
    action: Annotated[
        Literal["add", "remove"],
        OptionSpec("action", positional=True, required=True, choices=("add", "remove")),
    ]
    condition: Annotated[
        str,
        OptionSpec("condition", type="text", positional=True, required=True, max_length=40),
    ]
    until: Annotated[str | None, OptionSpec("until", max_length=20, aliases=("fino",))] = None


class ResArgs(Args):
    """/res set|add|spend."""

    resource: Annotated[str, OptionSpec("resource", positional=True, required=True, max_length=24)]
    amount: Annotated[
        int,
        OptionSpec(
            "amount", type="int", positional=True, required=True, min_value=0, max_value=9999
        ),
    ]
    unit: Annotated[
        str | None,
        OptionSpec("unit", max_length=40, autocomplete="units", aliases=("unita",)),
    ] = None


class ScoreAddArgs(Args):
    points: Annotated[
        int,
        OptionSpec(
            "points", type="signed", positional=True, required=True, min_value=-999, max_value=999
        ),
    ]
    player: Annotated[str | None, OptionSpec("player", positional=True, max_length=40)] = None
    reason: Annotated[
        str | None, OptionSpec("reason", type="text", positional=True, max_length=100)
    ] = None


# --- /unit ------------------------------------------------------------------------------------


async def unit_add(ctx: Context) -> Reply:
    a = ctx.args(UnitAddArgs)
    game = await load_game(ctx)
    state = game.state
    me = require_player(ctx, state)
    owner = me
    if a.owner:
        owner = find_player(state, a.owner)
        if owner.user_id != ctx.request.user_id:
            require_manager(ctx, state)
    given = {"grid": a.grid, "kind": a.kind}  # the system's own (WARMACHINE's grid, model type)
    options = {k: v for k, v in given.items() if v}
    new = tr.add_unit(state, a.name, owner, a.stats, options)
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
    unit = tr.find_unit(game.state, ctx.args(UnitArgs).name)
    stats = stats_text(ctx, game.state.system, unit.stats)
    blocks: list[Block] = [
        *unit_blocks(ctx, unit, game.state.system),
        [plain(ctx.t("game.owner", name=unit.owner_name))],
        *unit_facts(ctx, unit, game.state.system),
    ]
    if stats:
        blocks.append([pre(stats)])
    pools = game.state.resources.get(unit_key(unit.name), {})
    if pools:
        blocks.append([plain(pools_text(ctx, pools))])
    reply = Reply(title=unit.name, blocks=blocks, data={"unit": unit.model_dump()})
    return await unit_picture(ctx, reply, unit, game.state.system)


async def unit_change(
    ctx: Context,
    kind: str,
    name: str,
    *,
    stats: dict[str, int | str] | None = None,
    amount: int = 0,
    column: int | None = None,
    model: int | None = None,
    options: dict[str, str] | None = None,
) -> Reply:
    game = await load_game(ctx)
    state = game.state
    unit = tr.find_unit(state, name)
    notes: list[Note] = []
    if kind == "unit_set":
        require_unit_rights(ctx, state, unit, attack=False)
        new = tr.set_stats(state, unit.name, stats or {}, options)
    elif kind == "damage":

        def hit(st: GameState) -> GameState:
            notes.clear()  # a retry runs this again: keep only the last run's notes
            return tr.damage(
                st,
                unit.name,
                amount,
                column=column,
                dice=ctx.dice(),
                notes=notes,
                model=model,
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
        new = tr.heal(state, unit.name, amount)
        healed = unit.damage - tr.find_unit(new, unit.name).damage
        if 0 < healed < amount:  # less than asked: said, not silently clipped
            notes.append(("game.healed_part", {"unit": unit.name, "n": healed, "asked": amount}))
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
    a = ctx.args(UnitSetArgs)
    given = {"grid": a.grid, "kind": a.kind}  # the system's own, as on /unit add
    options = {k: v for k, v in given.items() if v} or None
    return await unit_change(ctx, "unit_set", a.name, stats=a.stats, options=options)


async def unit_damage(ctx: Context) -> Reply:
    a = ctx.args(UnitDamageArgs)
    return await unit_change(ctx, "damage", a.name, amount=a.amount, column=a.column, model=a.model)


async def unit_heal(ctx: Context) -> Reply:
    a = ctx.args(UnitHealArgs)
    return await unit_change(ctx, "heal", a.name, amount=a.amount)


async def unit_remove(ctx: Context) -> Reply:
    return await unit_change(ctx, "unit_remove", ctx.args(UnitArgs).name)


async def unit_cond(ctx: Context) -> Reply:
    a = ctx.args(UnitCondArgs)
    game = await load_game(ctx)
    state = game.state
    unit = tr.find_unit(state, a.name)
    require_unit_rights(ctx, state, unit, attack=True)
    if a.action == "add":
        new = tr.add_condition(state, unit.name, a.condition, a.until)
    else:
        new = tr.remove_condition(state, unit.name, a.condition)
    await apply_change(ctx, new, "condition", game=game)
    after = tr.find_unit(new, unit.name)
    return Reply(blocks=[unit_line(ctx, after, new.system)], data={"unit": after.model_dump()})


# --- /res, /score ------------------------------------------------------------------------------


def pool_holder(state: GameState, key: str) -> str:
    """Who holds the pools under `key` of `GameState.resources`: the player, by name, or the
    unit as its name is written (the key folds it)."""
    kind, owner = key.split(":", 1)
    if kind == "player":
        return name_of(state, owner)
    return next((u.name for u in state.units if unit_key(u.name) == key), owner)


async def res_show(ctx: Context) -> Reply:
    game = await load_game(ctx)
    blocks: list[Block] = []
    for key, pools in sorted(game.state.resources.items()):
        blocks.append([bold(pool_holder(game.state, key)), plain(": " + pools_text(ctx, pools))])
    return Reply(
        title=ctx.t("game.resources_title"),
        blocks=blocks or [[plain(ctx.t("game.no_resources"))]],
        data={"resources": game.state.resources},
    )


async def res_change(ctx: Context, op: str) -> Reply:
    a = ctx.args(ResArgs)
    game = await load_game(ctx)
    state = game.state
    require_player(ctx, state)
    target_unit = a.unit
    if target_unit:
        unit = tr.find_unit(state, target_unit)
        require_unit_rights(ctx, state, unit, attack=False)
    code = pool_code(state.system, a.resource)
    try:
        owner_key = tr.resource_key(
            state, ctx.request.user_id, target_unit, code, spend=op == "spend"
        )
    except UserError as err:  # the pool as the reader names it
        raise UserError(err.key, **{**err.params, "resource": pool_name(ctx.lang, code)}) from err
    try:
        new, value = tr.change_resource(state, owner_key, code, op, a.amount)
    except UserError as err:  # the game's pools as the reader names them, not their codes
        if err.key != "game.unknown_resource":
            raise
        valid = ", ".join(pool_name(ctx.lang, r.name) for r in get_system(state.system).resources)
        raise UserError(err.key, name=a.resource[:24], valid=valid or "-") from err
    await apply_change(ctx, new, f"res_{op}", game=game)
    name = code.lower()
    shown = pool_name(ctx.lang, name)
    if owner_key.startswith("unit:"):  # whose pool, above all when the bot chose it
        holder = pool_holder(new, owner_key)
        line = ctx.t("game.unit_resource_now", unit=holder, name=shown, value=value)
    else:
        line = ctx.t("game.resource_now", name=shown, value=value)
    return Reply(blocks=[[plain(line)]], data={"resource": name, "value": value})


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
        [
            bold(p.name),
            plain(" " + points_text(ctx.lang, game.state.system, scores.get(p.user_id, 0))),
        ]
        for p in ranked
    ]
    return Reply(
        title=ctx.t("game.score_title"), blocks=blocks or [[plain("-")]], data={"score": scores}
    )


async def score_add(ctx: Context) -> Reply:
    a = ctx.args(ScoreAddArgs)
    game = await load_game(ctx)
    state = game.state
    me = require_player(ctx, state)
    player, reason = me, a.reason
    if a.player:
        try:
            player = find_player(state, a.player)
        except UserError:  # `/score add 5 objective taken`: no player first, all of it the reason
            reason = " ".join(x for x in (a.player, reason) if x)[:100]
    if player.user_id != ctx.request.user_id:
        require_manager(ctx, state)
    elif not is_manager(ctx, state):
        await require_own_points_right(ctx, state)  # the chat's `/game settings score=`
    new = state.clone()
    new.score_log.append(ScoreEntry(user_id=player.user_id, points=a.points, reason=reason))
    await apply_change(ctx, new, "score", game=game)
    total = new.score().get(player.user_id, 0)
    line = ctx.t("game.scored", name=player.name, n=a.points, total=total)
    if reason:
        line += " " + ctx.t("game.diff.reason", reason=reason)
    return Reply(
        blocks=[[plain(line)]],
        data={"player": player.user_id, "total": total, "reason": reason},
    )
