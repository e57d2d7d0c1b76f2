"""/c5 test, opposed, fear and rally: characteristic tests and what they do to the game."""

from __future__ import annotations

from typing import Any

from bot import session
from bot.commands.c5 import view
from bot.commands.c5.args import FearArgs, OpposedArgs, RallyArgs, TestArgs, by_option
from bot.commands.c5.common import GAME, SETTINGS, no_roll, open_ended
from bot.commands.c5.odds_handlers import odds_test, test_odds_reply
from bot.commands.context import Context
from bot.commands.system_kit import log_roll, resolution
from bot.protocol import Block, Reply, bold, plain
from rules_core.steps import Step
from rules_core.systems.c5 import requests as rq
from rules_core.systems.c5 import transitions as c5tr
from rules_core.systems.c5.checks import rally_contact_outcome, resolve_opposed, resolve_test
from rules_core.systems.c5.models import TestRequest
from rules_core.systems.c5.odds import opposed_odds
from rules_core.systems.c5.system import is_routed


async def test_cmd(ctx: Context) -> Reply:
    a = ctx.args(TestArgs)
    if a.odds:
        return await odds_test(ctx)
    _, _, unit = await GAME.units(ctx)
    req = rq.plain_test_request(by_option(a), unit)
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(a.dice)
    step, out = resolve_test(req, source, open_ended=open_ended(settings))
    source.check_exhausted()
    data = resolution("c5", [step], out.model_dump())
    await log_roll(ctx, source, out.total, data)
    title = view.test_title(ctx, req.value, req.stat) + (
        " " + ctx.t("c5.vs", target=req.diff) if req.diff is not None else ""
    )
    return Reply(title=title, blocks=[view.test_block(ctx, step)], data=data)


async def opposed_cmd(ctx: Context) -> Reply:
    o = ctx.args(OpposedArgs)
    settings = await SETTINGS.load(ctx)
    a = rq.test_request(by_option(o), o.value_, None, o.mod or 0)
    b = TestRequest(value=o.vs, mod=o.vs_mod or 0)
    title = ctx.t("c5.title_opposed", a=a.value, b=b.value)
    if o.odds:
        no_roll(o.dice)
        odds = await ctx.offload(opposed_odds, a, b, open_ended(settings))
        return view.opposed_odds_reply(ctx, odds, title)
    source = ctx.dice(o.dice)
    steps, out = resolve_opposed(a, b, source, open_ended=open_ended(settings))
    source.check_exhausted()
    blocks = [view.test_block(ctx, s) for s in steps]
    blocks.append([bold(ctx.t(f"c5.winner.{out.winner}"))])
    data = resolution("c5", steps, out.model_dump())
    await log_roll(ctx, source, out.total_a, data)
    return Reply(title=title, blocks=blocks, data=data)


async def fear_cmd(ctx: Context) -> Reply:
    """A COU test against the frightening enemy's FEAR (rules: checks.resolve_test); with
    target=UNIT its COU is used and `apply` marks it routed on a failure (one event)."""
    a = ctx.args(FearArgs)
    game, _, unit = await GAME.units(ctx)
    courage = rq.need(by_option(a), "courage", unit, "cou")
    req = rq.test_request(by_option(a), courage, a.fear, a.mod or 0, stat="cou")
    title = ctx.t("c5.title_fear", cou=courage, fear=a.fear)
    if a.odds:
        no_roll(a.dice, a.apply)
        return await test_odds_reply(ctx, req, title)
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(a.dice)
    step, out = resolve_test(req, source, open_ended=open_ended(settings), name="fear")
    source.check_exhausted()
    verdict = ctx.t("c5.verdict.brave" if out.success else "c5.verdict.routed")
    blocks: list[Block] = [view.test_block(ctx, step), [bold(verdict)]]
    data = resolution("c5", [step], out.model_dump())
    if game is not None and unit is not None and a.apply and not out.success:
        if not is_routed(unit):
            await session.apply_change(
                ctx, lambda st: c5tr.rout(st, unit.name), "c5_fear", unit=unit.name
            )
        blocks.append([plain(ctx.t("c5.note.routed", unit=unit.name))])
        data["applied"] = {"unit": unit.name, "routed": True}
    await log_roll(ctx, source, out.total, data)
    return Reply(title=title, blocks=blocks, data=data)


async def rally_cmd(ctx: Context) -> Reply:
    """A rally test (rules: requests.rally_value, tables.RALLY_DIFFICULTY); `contact` is the
    automatic failure; with target=UNIT `apply` removes Rotta on a success."""
    a = ctx.args(RallyArgs)
    opts = by_option(a)
    game, _, unit = await GAME.units(ctx)
    value = rq.rally_value(opts, unit)
    title = ctx.t("c5.title_rally", value=value)
    if a.odds:
        no_roll(a.dice, a.apply)
        if a.contact:
            return view.rally_contact_odds(ctx, title)
        return await test_odds_reply(ctx, rq.rally_request(opts, value), title)
    settings = await SETTINGS.load(ctx)
    blocks: list[Block] = []
    source = ctx.dice(a.dice)
    steps: list[Step] = []
    outcome: dict[str, Any]
    if a.contact:
        outcome = rally_contact_outcome()
        blocks.append([bold(ctx.t("c5.rally_contact"))])
    else:
        req = rq.rally_request(opts, value)
        step, out = resolve_test(req, source, open_ended=open_ended(settings), name="rally")
        steps, outcome = [step], out.model_dump()
        blocks.append(view.test_block(ctx, step))
    source.check_exhausted()
    success = bool(outcome["success"])
    blocks.append([bold(ctx.t("c5.verdict.rallied" if success else "c5.verdict.still_routed"))])
    data = resolution("c5", steps, outcome)
    routed = unit is not None and is_routed(unit)
    if game is not None and unit is not None and a.apply and success and routed:
        await session.apply_change(
            ctx, lambda st: c5tr.rally(st, unit.name), "c5_rally", unit=unit.name
        )
        blocks.append([plain(ctx.t("c5.note.rallied", unit=unit.name))])
    if steps:
        await log_roll(ctx, source, int(outcome["total"]), data)
    return Reply(title=title, blocks=blocks, data=data)
