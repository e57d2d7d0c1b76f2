"""/c5 mana, mystic, maintenance, faith and pass: the phases' rolls and their pools."""

from __future__ import annotations

from typing import Any

from bot import session
from bot.commands.c5 import view
from bot.commands.c5.args import (
    FaithArgs,
    MaintenanceArgs,
    ManaArgs,
    MysticArgs,
    PassArgs,
    by_option,
)
from bot.commands.c5.common import GAME, SETTINGS, apply_noted, change_pool
from bot.commands.context import Context
from bot.commands.system_kit import dice_text, log_roll, resolution
from bot.i18n import tn
from bot.protocol import Block, Reply, bold, plain
from rules_core.game import transitions as tr
from rules_core.systems.c5 import requests as rq
from rules_core.systems.c5 import tables
from rules_core.systems.c5 import transitions as c5tr
from rules_core.systems.c5.checks import may_pass, resolve_mana, resolve_recovery, temporary_faith


async def mana_cmd(ctx: Context) -> Reply:
    a = ctx.args(ManaArgs)
    _, _, unit = await GAME.units(ctx)
    rank = rq.need(by_option(a), "rank", unit, "rank")
    power = rq.need(by_option(a), "power", unit, "pow")
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(a.dice)
    step, out = resolve_mana(
        rank,
        power,
        source,
        recovery=a.recovery or 0,
        explode=settings.mana_explode == "yes",
    )
    source.check_exhausted()
    rank_name = tables.RANK_NAMES_MAGE.get(rank, str(rank))
    blocks: list[Block] = [
        [
            bold(ctx.t("c5.step.mana") + ": "),
            plain(view.mana_line(ctx, step, power, out.total, rank_name)),
        ],
        [bold(view.gems(ctx, out.gems))],
    ]
    data = resolution("c5", [step], out.model_dump())
    if unit is not None and a.apply:
        have = await change_pool(ctx, unit, "mana", "add", out.gems)
        blocks.append([plain(ctx.t("c5.pool", unit=unit.name, name="mana", n=have))])
        data["applied"] = {"unit": unit.name, "mana": have}
    await log_roll(ctx, source, out.gems, data)
    return Reply(title=ctx.t("c5.title_mana", rank=rank_name, pow=power), blocks=blocks, data=data)


async def mystic_cmd(ctx: Context) -> Reply:
    """Mystic phase: each mage (transitions.mages) rolls its mana recovery on its rank's row;
    `all` (organiser or admin) rolls for every mage; `apply` adds every mage's gems as ONE
    event."""
    a = ctx.args(MysticArgs)
    game = await GAME.load(ctx)
    everyone = a.all
    if everyone:
        session.require_manager(ctx, game.state)
    mages = c5tr.mages(game.state, ctx.request.user_id, everyone)
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(a.dice)
    rolled = []
    for unit in mages:
        rank = unit.stats.get("rank", 1)
        step, out = resolve_mana(
            rank, unit.stats["pow"], source, explode=settings.mana_explode == "yes"
        )
        rolled.append((unit, step, out))
    source.check_exhausted()
    blocks: list[Block] = []
    for unit, step, out in rolled:
        rank_name = tables.RANK_NAMES_MAGE.get(out.rank, str(out.rank))
        line = view.mana_line(ctx, step, unit.stats["pow"], out.total, rank_name) + " → "
        blocks.append([bold(unit.name + ": "), plain(line), bold(view.gems(ctx, out.gems))])
    gems = {unit.name: out.gems for unit, _, out in rolled}
    data = resolution("c5", [step for _, step, _ in rolled], {"gems": gems})
    if a.apply:
        change = await session.apply_change(ctx, lambda st: c5tr.add_mana(st, gems), "c5_mystic")
        have = {name: c5tr.pool(change.after, name, "mana") for name in gems}
        for name, n in have.items():
            blocks.append([plain(ctx.t("c5.pool", unit=name, name="mana", n=n))])
        data["applied"] = {"mana": have}
    blocks.append([plain(ctx.t("c5.mystic_faith"))])
    await log_roll(ctx, source, sum(out.gems for _, _, out in rolled), data)
    return Reply(title=ctx.t("c5.title_mystic"), blocks=blocks, data=data)


async def maintenance_cmd(ctx: Context) -> Reply:
    """Maintenance phase: Rigenerazione/X, Guarigione/X or Effimero/X on a fighter; with
    target=UNIT the wounds come from the game and `apply` heals (or wounds) it as one event."""
    a = ctx.args(MaintenanceArgs)
    game, _, unit = await GAME.units(ctx)
    ability = a.ability or "rigenerazione"
    wounds = c5tr.recovery_wounds(unit, a.wounds, tables.MAX_WOUNDS)
    source = ctx.dice(a.dice)
    step, out = resolve_recovery(ability, a.x, wounds, source)
    source.check_exhausted()
    line = f"{dice_text(step.dice)} " + ctx.t("c5.vs", target=f"{out.x}+")
    key = "c5.lost" if ability == "effimero" else "c5.healed"
    n = out.lost if ability == "effimero" else out.healed
    verdict = tn(ctx.lang, key, n)
    blocks: list[Block] = [
        [bold(ctx.t(f"c5.step.{ability}") + ": "), plain(line + " → "), bold(verdict)]
    ]
    data = resolution("c5", [step], out.model_dump())
    if game is not None and unit is not None and a.apply and n:
        blocks += await apply_noted(
            ctx, lambda st: c5tr.recover(st, unit.name, ability, n), f"c5_{ability}", unit.name
        )
        data["applied"] = {"unit": unit.name, "healed": out.healed, "lost": out.lost}
    await log_roll(ctx, source, n, data)
    title = ctx.t("c5.title_maintenance", ability=ctx.t(f"c5.step.{ability}"), x=out.x)
    return Reply(title=title, blocks=blocks, data=data)


async def faith_cmd(ctx: Context) -> Reply:
    a = ctx.args(FaithArgs)
    opts = by_option(a)
    game, _, unit = await GAME.units(ctx)
    rank = rq.need(opts, "rank", unit, "rank")
    aspects = rq.need(opts, "aspects", unit, "aspects")
    piety = rq.option_or_stat(opts, "piety", unit, "pieta") or 0
    unspent = a.unspent
    if unspent is None and game is not None and unit is not None:
        unspent = c5tr.pool(game.state, unit.name, "ft")
    out = temporary_faith(
        rank,
        aspects,
        a.followers or 0,
        believer=a.believer or 0,
        consecrated=a.consecrated or 0,
        piety=piety,
        unspent=unspent or 0,
    )
    rank_name = tables.RANK_NAMES_FAITHFUL.get(rank, str(rank))
    line = ctx.t(
        "c5.faith_line",
        aspects=out.aspects,
        followers=out.from_followers,
        believer=out.believer,
        kept=out.kept,
        ft=out.ft,
    )
    blocks: list[Block] = [[plain(line)], [bold(ctx.t("c5.ft", n=out.ft))]]
    data: dict[str, Any] = resolution("c5", [], out.model_dump())
    if unit is not None and a.apply:
        have = await change_pool(ctx, unit, "ft", "set", out.ft)
        blocks.append([plain(ctx.t("c5.pool", unit=unit.name, name="ft", n=have))])
        data["applied"] = {"unit": unit.name, "ft": have}
    return Reply(title=ctx.t("c5.title_faith", rank=rank_name), blocks=blocks, data=data)


async def pass_cmd(ctx: Context) -> Reply:
    """The pass rule (transitions.check_pass); with `apply`, on the caller's lead in the chat's
    game, the lead goes to the opponent (one event; /undo gives it back)."""
    a = ctx.args(PassArgs)
    mine, theirs = a.mine, a.theirs
    ok = may_pass(mine, theirs)
    text = ctx.t("c5.may_pass" if ok else "c5.may_not_pass", mine=mine, theirs=theirs)
    blocks: list[Block] = [[bold(text)]]
    data: dict[str, Any] = resolution("c5", [], {"may_pass": ok})
    if a.apply:
        c5tr.require_may_pass(mine, theirs)
        game = await GAME.load(ctx)
        c5tr.check_pass(game.state, mine, theirs)
        session.require_turn(ctx, game.state)
        new = tr.end_turn(game.state)
        await session.apply_change(ctx, new, "c5_pass", game=game)
        blocks.append([plain(ctx.t("c5.passed", player=session.name_of(new, new.current)))])
        data["applied"] = {"lead": new.current}
    return Reply(blocks=blocks, data=data)
