"""/inf range, /inf weapon and /inf loadout: weapons, their range bands, a unit's loadout."""

from __future__ import annotations

from bot import session
from bot.commands import game_view
from bot.commands.context import Context
from bot.commands.inf.args import LoadoutArgs, RangeArgs, WeaponArgs
from bot.commands.inf.common import GAME, weapons_of_chat
from bot.commands.inf.view import weapon_label, weapon_line
from bot.commands.system_kit import signed
from bot.protocol import Reply, bold, plain
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState
from rules_core.systems.inf import tables
from rules_core.systems.inf import transitions as inf_tr


async def range_cmd(ctx: Context) -> Reply:
    a = ctx.args(RangeArgs)
    weapons = await weapons_of_chat(ctx)
    weapon = tables.find_weapon(a.weapon, weapons)
    mod = tables.range_mod(weapon, a.distance)
    name = weapon_label(ctx, weapon)
    attr = ctx.t(f"inf.mod.{'ph' if weapon.thrown else 'bs'}")  # a grenade is thrown with PH
    text = ctx.t("inf.range_mod", weapon=name, distance=a.distance, mod=signed(mod), attr=attr)
    return Reply(
        blocks=[[bold(text)], [plain(tables.bands_text(weapon))]],
        data={"system": "inf", "weapon": name, "distance": a.distance, "mod": mod},
    )


async def weapon_cmd(ctx: Context) -> Reply:
    a = ctx.args(WeaponArgs)
    action = a.action or "list"
    if action == "list":
        custom = await weapons_of_chat(ctx)
        shown = [*tables.BOOK_WEAPONS] + [tables.Weapon.model_validate(v) for v in custom.values()]
        return Reply(
            title=ctx.t("inf.weapons_title"),
            blocks=[[plain(weapon_line(ctx, w))] for w in shown],
            data={"system": "inf", "weapons": [w.model_dump() for w in shown]},
        )
    name = a.name
    if not name:
        raise UserError("inf.weapon_needs_name")
    game = await GAME.load(ctx)
    session.require_player(ctx, game.state)
    if action == "remove":
        inf_tr.remove_weapon(game.state, name)  # refused before anything is written
        carried = inf_tr.carriers(game.state, name)
        for unit in carried:  # it leaves their loadouts: each one's owner's (or organiser's)
            session.require_unit_rights(ctx, game.state, unit, attack=False)
        await session.apply_change(ctx, lambda s: inf_tr.remove_weapon(s, name), "inf_weapon")
        blocks = [[plain(ctx.t("inf.weapon_removed", name=name))]]
        if carried:
            units = ", ".join(u.name for u in carried)
            blocks.append([plain(ctx.t("inf.weapon_unloaded", name=name, units=units))])
        return Reply(blocks=blocks)
    inf_tr.refuse_builtin(name)
    if a.dam is None:
        raise UserError("inf.weapon_missing", option="dam")
    if a.burst is None:
        raise UserError("inf.weapon_missing", option="burst")
    weapon = tables.make_weapon(name, a.bands, a.dam, a.burst, a.ammo, a.template)
    await session.apply_change(ctx, lambda s: inf_tr.add_weapon(s, weapon), "inf_weapon")
    return Reply(
        blocks=[[plain(ctx.t("inf.weapon_added")), bold(" " + weapon_line(ctx, weapon))]],
        data={"system": "inf", "weapon": weapon.model_dump()},
    )


async def loadout_cmd(ctx: Context) -> Reply:
    a = ctx.args(LoadoutArgs)
    game = await GAME.load(ctx)
    unit = tr.find_unit(game.state, a.unit)
    names = [n.strip() for n in a.weapons.split(",") if n.strip()]
    found: list[str] = []

    def run(state: GameState) -> GameState:
        new, got = inf_tr.equip(state, unit.name, names)
        found[:] = got
        return new

    change = await session.apply_change(ctx, run, "inf_loadout", unit=unit.name)
    after = change.unit or unit
    return Reply(
        blocks=game_view.unit_blocks(ctx, after, "inf"),
        data={"system": "inf", "unit": after.name, "weapons": found},
    )
