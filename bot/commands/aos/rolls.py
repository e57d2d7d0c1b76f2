"""/aos battleshock, cast, unbind, pray, charge, run and check (rally, heroic recovery, heroic
leadership, dispel, banish): roll in rules_core, show the steps, write what `apply` asks."""

from __future__ import annotations

from bot.commands.aos.args import (
    BattleshockArgs,
    CastArgs,
    ChargeArgs,
    CheckArgs,
    PrayArgs,
    RunArgs,
    UnbindArgs,
)
from bot.commands.aos.common import (
    apply_damage,
    counted,
    finish_dice,
    optional_unit,
    roll_expression,
)
from bot.commands.aos.view import check_reply
from bot.commands.context import Context
from bot.commands.game_view import unit_blocks
from bot.commands.system_kit import log_roll
from bot.i18n import fmt_num
from bot.protocol import Block, Reply, bold, plain
from bot.session import apply_change, require_unit_rights
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.systems.aos import checks, turns
from rules_core.systems.aos import transitions as aos_tr
from rules_core.systems.aos.values import parse_decimal


async def battleshock(ctx: Context) -> Reply:
    a = ctx.args(BattleshockArgs)
    game, unit = await optional_unit(ctx)
    bravery = a.bravery
    if bravery is None and unit is not None:
        bravery = unit.stats.get("bravery")
    if bravery is None:
        raise UserError("aos.missing_value", option="bravery")
    slain = a.slain
    if slain is None and unit is not None and game is not None:
        slain = aos_tr.battleshock_slain(game.state, unit)  # counted by the game
    if slain is None:
        raise UserError("aos.missing_value", option="slain")
    no_test = None  # why no test is taken: no model slain this turn, or Inspiring Presence
    if not aos_tr.battleshock_needed(slain):
        no_test = ctx.t("aos.no_slain")
    elif unit is not None and game is not None and aos_tr.battleshock_exempt(game.state, unit):
        no_test = ctx.t("aos.inspired", unit=unit.name)
    if no_test is not None:
        title = ctx.t("aos.battleshock_title", bravery=bravery)
        data = {"system": "aos", "exempt": True, "outcome": {"fled": 0}, "steps": []}
        return Reply(title=title, blocks=[[bold(no_test)]], data=data)
    testing = a.apply and unit is not None and game is not None
    if testing and unit is not None and game is not None:  # refused before the die is rolled
        require_unit_rights(ctx, game.state, unit, attack=True)
        turns.may_battleshock(game.state, unit.name)
    source = ctx.dice(a.dice)
    check = aos_tr.battleshock(bravery, slain, source, a.mod or 0, unit)
    finish_dice(source, a.dice)
    fled = check.outcome["fled"]
    title = ctx.t("aos.battleshock_title", bravery=bravery)
    roll = check.outcome["roll"]
    line = (
        counted(ctx, "aos.fled", fled, roll=roll, bravery=bravery)
        if fled
        else ctx.t("aos.passed", roll=roll, bravery=bravery)
    )
    reply, data = check_reply(ctx, title, check, [[bold(line)]])
    await log_roll(ctx, source, fled, data, expression=roll_expression(ctx))
    if testing and unit is not None and game is not None:  # the test is taken, passed or not
        name = unit.name
        change = await apply_change(
            ctx,
            lambda st: turns.record_battleshock(aos_tr.flee(st, name, fled) if fled else st, name),
            "aos_battleshock",
            game=game,
        )
        if fled:
            after = tr.find_unit(change.after, name)
            reply.blocks += unit_blocks(ctx, after, change.after.system)
    return reply


async def cast(ctx: Context) -> Reply:
    a = ctx.args(CastArgs)
    game, unit = await optional_unit(ctx)
    source = ctx.dice(a.dice)
    check = checks.cast(a.value, source, a.mod or 0)
    if a.apply:
        check = aos_tr.ward_mortal(check, unit, source)
    finish_dice(source, a.dice)
    out = check.outcome
    key = "aos.miscast" if out["miscast"] else ("aos.cast_ok" if out["cast"] else "aos.cast_no")
    message = (
        counted(ctx, key, out["mortal_wounds"], total=out["total"])
        if out["miscast"]
        else ctx.t(key, total=out["total"])
    )
    lines = [[bold(message)]]
    if out["cast"]:
        lines.append([plain(ctx.t("aos.unbind_hint", roll=out["total"]))])
    reply, data = check_reply(ctx, ctx.t("aos.cast_title", value=a.value), check, lines)
    await log_roll(ctx, source, out["total"], data, expression=roll_expression(ctx))
    if a.apply and out["mortal_wounds"]:
        amount = out.get("damage", out["mortal_wounds"])
        reply.blocks += await apply_damage(ctx, game, unit, amount, "aos_miscast")
    return reply


async def unbind(ctx: Context) -> Reply:
    a = ctx.args(UnbindArgs)
    source = ctx.dice(a.dice)
    check = checks.unbind(a.roll, source, a.mod or 0)
    finish_dice(source, a.dice)
    key = "aos.unbound" if check.outcome["unbound"] else "aos.not_unbound"
    lines = [[bold(ctx.t(key, roll=a.roll))]]
    reply, data = check_reply(ctx, ctx.t("aos.unbind_title", roll=a.roll), check, lines)
    await log_roll(ctx, source, check.outcome["total"], data, expression=roll_expression(ctx))
    return reply


async def pray(ctx: Context) -> Reply:
    a = ctx.args(PrayArgs)
    game, unit = await optional_unit(ctx)
    source = ctx.dice(a.dice)
    check = checks.pray(a.value, source, a.mod or 0)
    if a.apply:
        check = aos_tr.ward_mortal(check, unit, source)
    finish_dice(source, a.dice)
    out = check.outcome
    key = "aos.wrath" if out["wrath"] else ("aos.answered" if out["answered"] else "aos.unanswered")
    reply, data = check_reply(
        ctx, ctx.t("aos.pray_title", value=a.value), check, [[bold(ctx.t(key))]]
    )
    await log_roll(ctx, source, out["total"], data, expression=roll_expression(ctx))
    if a.apply and out["mortal_wounds"]:
        amount = out.get("damage", out["mortal_wounds"])
        reply.blocks += await apply_damage(ctx, game, unit, amount, "aos_wrath")
    return reply


async def charge(ctx: Context) -> Reply:
    a = ctx.args(ChargeArgs)
    distance = parse_decimal(a.distance, "distance") if a.distance else None
    game, unit = await optional_unit(ctx)
    if a.apply and (unit is None or game is None):
        raise UserError("aos.apply_needs_target")
    if a.apply and distance is None:  # the roll alone can't say the charge reached
        raise UserError("aos.charge_apply_needs_distance", unit=unit.name if unit else "")
    if a.apply and unit is not None and game is not None:
        require_unit_rights(ctx, game.state, unit, attack=False)  # before the dice
    if unit is not None:
        aos_tr.may_charge(unit)
    source = ctx.dice(a.dice)
    check = checks.charge(source, a.mod or 0, distance)
    finish_dice(source, a.dice)
    out = check.outcome
    if out.get("in_range") is False and distance is not None:
        key = "aos.charge_too_close" if out.get("too_close") else "aos.charge_out_of_range"
        line = ctx.t(key, distance=fmt_num(ctx.lang, distance))
        reply, _ = check_reply(ctx, ctx.t("aos.charge_title"), check, [[bold(line)]])
        return reply  # no dice rolled, nothing for the roll log
    lines: list[Block] = [[bold(ctx.t("aos.charge_inches", n=out["total"]))]]
    if distance is not None:
        key = "aos.charge_reaches" if out["reaches"] else "aos.charge_short"
        lines.append([plain(ctx.t(key, distance=fmt_num(ctx.lang, distance)))])
    reply, data = check_reply(ctx, ctx.t("aos.charge_title"), check, lines)
    await log_roll(ctx, source, out["total"], data, expression=roll_expression(ctx))
    if a.apply and out["reaches"] and unit is not None and game is not None:
        name = unit.name
        await apply_change(ctx, lambda st: aos_tr.charged(st, name), "aos_charge", game=game)
        reply.blocks.append([plain(ctx.t("aos.charge_marked", unit=name))])
    return reply


async def run(ctx: Context) -> Reply:
    a = ctx.args(RunArgs)
    game, unit = await optional_unit(ctx)
    if a.apply and unit is not None:
        turns.may_run(unit)  # refused before the die is rolled
    move = a.move
    if move is None and unit is not None:
        move = unit.stats.get("move")
    source = ctx.dice(a.dice)
    check = checks.run(source, move, a.mod or 0)
    finish_dice(source, a.dice)
    out = check.outcome
    lines: list[Block] = []
    if move is not None:
        lines.append([bold(ctx.t("aos.run_move", move=out["move"], base=move, n=out["roll"]))])
    lines.append([plain(ctx.t("aos.run_note"))])
    reply, data = check_reply(ctx, ctx.t("aos.run_title"), check, lines)
    await log_roll(ctx, source, out["roll"], data, expression=roll_expression(ctx))
    if a.apply and unit is not None and game is not None:
        require_unit_rights(ctx, game.state, unit, attack=False)
        name = unit.name
        await apply_change(ctx, lambda st: aos_tr.run(st, name), "aos_run", game=game)
        reply.blocks.append([plain(ctx.t("aos.run_marked", unit=name))])
    return reply


CHECK_KINDS = {
    "rally": "rally",
    "raccolta": "rally",
    "recovery": "recovery",
    "recupero": "recovery",
    "leadership": "leadership",
    "disciplina": "leadership",
    "dispel": "dispel",
    "disperdere": "dispel",
    "banish": "banish",
    "esiliare": "banish",
}


def need(given: int | None, name: str, fallback: int | None = None) -> int:
    """The option's value, else `fallback` (the unit's); neither: say which option is missing."""
    value = given if given is not None else fallback
    if value is None:
        raise UserError("aos.missing_value", option=name)
    return value


async def check(ctx: Context) -> Reply:
    """Rally, Heroic Recovery, Heroic Leadership, dispelling and banishing."""
    a = ctx.args(CheckArgs)
    kind = CHECK_KINDS.get(a.kind.strip().lower())
    if kind is None:
        raise UserError(
            "aos.bad_check",
            value=a.kind[:20],
            valid=", ".join(k for k, v in CHECK_KINDS.items() if (k == v) == (ctx.lang != "it")),
        )
    game, unit = await optional_unit(ctx)
    if a.apply and kind not in ("rally", "recovery"):
        raise UserError("aos.apply_not_here", kind=kind)
    rallying = a.apply and kind == "rally"
    recovering = a.apply and kind == "recovery"
    if kind in ("recovery", "leadership") and unit is not None:
        turns.require_hero(unit)  # a heroic action's unit, before a die is rolled
    if (rallying or recovering) and unit is not None and game is not None:
        require_unit_rights(ctx, game.state, unit, attack=False)  # before a die is rolled
        if rallying:
            turns.may_rally(game.state, unit.name)
        else:
            turns.may_heroic_unit(game.state, unit)
    source = ctx.dice(a.dice)
    mod = a.mod or 0
    heal = 0
    if kind == "rally":
        slain_now = aos_tr.slain_models(unit) if unit is not None else None
        healing = aos_tr.rally(unit, need(a.slain, "slain", slain_now), source)
        result, heal = healing.check, healing.heal
        line = counted(ctx, "aos.rally_result", result.outcome["returned"])
    elif kind == "recovery":
        bravery = need(
            a.bravery, "bravery", unit.stats.get("bravery") if unit is not None else None
        )
        healing = aos_tr.recovery(unit, bravery, source)
        result, heal = healing.check, healing.heal
        rolled = result.outcome["healed"]
        shown = heal if unit is not None else rolled  # a unit heals only the wounds it has
        line = counted(ctx, "aos.recovery_result", shown, bravery=bravery)
        if unit is not None and heal < rolled:
            capped = counted(ctx, "aos.recovery_capped", heal, unit=unit.name)
            line += " " + (ctx.t("aos.recovery_none", unit=unit.name) if not heal else capped)
    elif kind == "leadership":
        result = checks.leadership(source, a.general_slain)
        line = ctx.t("aos.leadership_yes" if result.outcome["cp"] else "aos.leadership_no")
    elif kind == "dispel":
        value = need(a.value, "value")
        result = checks.dispel(value, source, mod)
        done = result.outcome["dispelled"]
        line = ctx.t("aos.dispelled" if done else "aos.not_dispelled", value=value)
    else:
        value = need(a.value, "value")
        result = checks.banish(value, source, mod)
        done = result.outcome["banished"]
        line = ctx.t("aos.banished" if done else "aos.not_banished", value=value)
    finish_dice(source, a.dice)
    reply, data = check_reply(ctx, ctx.t(f"aos.check_title.{kind}"), result, [[bold(line)]])
    data["kind"] = kind
    first = next(iter(result.outcome.values()))
    await log_roll(ctx, source, int(first), data, expression=roll_expression(ctx))
    if unit is None or game is None:
        return reply
    applied = None
    if rallying:  # a Rally without a 6 is spent all the same
        applied = aos_tr.rallied(game.state, unit.name, result.outcome["returned"], heal)
    elif recovering:  # the HERO's heroic action, spent even when nothing heals
        healed = tr.heal(game.state, unit.name, heal) if heal else game.state
        applied = turns.record_heroic(healed, unit.owner)
    if applied is not None:
        await apply_change(ctx, applied, f"aos_{kind}", game=game)
    if applied is not None and heal:
        after = tr.find_unit(applied, unit.name)
        reply.blocks += [
            [plain(ctx.t("aos.healed_applied", n=heal) + " ")],
            *unit_blocks(ctx, after, applied.system),
        ]
    return reply
