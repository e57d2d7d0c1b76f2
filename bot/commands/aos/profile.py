"""/aos weapon and /aos table: a unit's weapon profiles and damage table on its card."""

from __future__ import annotations

from bot.commands.aos.common import GAME, SYSTEM
from bot.commands.context import Context
from bot.commands.game_view import unit_blocks
from bot.protocol import Reply, plain
from bot.session import apply_change, require_unit_rights
from rules_core.game import transitions as tr
from rules_core.systems.aos import system as aos_system
from rules_core.systems.aos.requests import WEAPON_OPTIONS


async def weapon(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    state = game.state
    unit = tr.find_unit(state, ctx.opts["unit"])
    require_unit_rights(ctx, state, unit, attack=False)
    new = state.clone()
    target = tr.find_unit(new, unit.name)
    if ctx.opts["remove"]:
        aos_system.set_weapon(target, None, ctx.opts["name"])
    else:
        values = {f: ctx.opts[f] for f in ("range", *WEAPON_OPTIONS) if ctx.opts.get(f) is not None}
        made = aos_system.make_weapon(ctx.opts["name"], values)
        aos_system.set_weapon(target, made, made.name)
    await apply_change(ctx, new, "aos_weapon", game=game)
    return Reply(
        blocks=unit_blocks(ctx, target, new.system),
        data={"system": SYSTEM, "unit": target.model_dump()},
    )


async def damage_table(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    state = game.state
    unit = tr.find_unit(state, ctx.opts["unit"])
    require_unit_rights(ctx, state, unit, attack=False)
    new = state.clone()
    target = tr.find_unit(new, unit.name)
    text = ctx.opts["rows"].strip()
    rows = (
        None if text.lower() in ("clear", "none", "-", "cancella") else aos_system.parse_table(text)
    )
    aos_system.set_table(target, rows)
    await apply_change(ctx, new, "aos_table", game=game)
    row = aos_system.current_row(target)
    blocks = unit_blocks(ctx, target, new.system)
    if row is not None:
        blocks.append(
            [plain(ctx.t("aos.table_row", wounds=aos_system.wounds_on_current_model(target)))]
        )
    return Reply(
        blocks=blocks,
        data={
            "system": SYSTEM,
            "unit": target.model_dump(),
            "row": row.model_dump() if row else None,
        },
    )
