"""/aos weapon and /aos table: a unit's weapon profiles and damage table on its card."""

from __future__ import annotations

from bot.commands.aos.args import TableArgs, WeaponArgs
from bot.commands.aos.common import GAME, SYSTEM
from bot.commands.context import Context
from bot.commands.game_view import unit_blocks
from bot.protocol import Reply, plain
from bot.session import apply_change, require_unit_rights
from rules_core.game import transitions as tr
from rules_core.systems.aos import system as aos_system
from rules_core.systems.aos.requests import WEAPON_OPTIONS


async def weapon(ctx: Context) -> Reply:
    a = ctx.args(WeaponArgs)
    game = await GAME.load(ctx)
    state = game.state
    unit = tr.find_unit(state, a.unit)
    require_unit_rights(ctx, state, unit, attack=False)
    new = state.clone()
    target = tr.find_unit(new, unit.name)
    if a.remove:
        aos_system.set_weapon(target, None, a.name)
    else:
        given = {f: getattr(a, f) for f in ("range", *WEAPON_OPTIONS)}
        values: dict[str, str] = {f: v for f, v in given.items() if v is not None}
        made = aos_system.make_weapon(a.name, values)
        aos_system.set_weapon(target, made, made.name)
    await apply_change(ctx, new, "aos_weapon", game=game)
    return Reply(
        blocks=unit_blocks(ctx, target, new.system),
        data={"system": SYSTEM, "unit": target.model_dump()},
    )


async def damage_table(ctx: Context) -> Reply:
    a = ctx.args(TableArgs)
    game = await GAME.load(ctx)
    state = game.state
    unit = tr.find_unit(state, a.unit)
    require_unit_rights(ctx, state, unit, attack=False)
    new = state.clone()
    target = tr.find_unit(new, unit.name)
    text = a.rows.strip()
    rows = (
        None if text.lower() in ("clear", "none", "-", "cancella") else aos_system.parse_table(text)
    )
    aos_system.set_table(target, rows)
    await apply_change(ctx, new, "aos_table", game=game)
    row = aos_system.current_row(target)
    blocks = unit_blocks(ctx, target, new.system)
    if row is not None:
        blocks.append([plain(ctx.t("aos.table_row", n=aos_system.wounds_on_current_model(target)))])
    return Reply(
        blocks=blocks,
        data={
            "system": SYSTEM,
            "unit": target.model_dump(),
            "row": row.model_dump() if row else None,
        },
    )
