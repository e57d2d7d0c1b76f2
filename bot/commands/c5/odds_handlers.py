"""The exact-odds twins of the C5 rolls: the same options as the roll, no dice, no state."""

from __future__ import annotations

from bot.commands.c5 import view
from bot.commands.c5.args import MeleeArgs, ShootArgs, TestArgs, WoundArgs, by_option
from bot.commands.c5.common import GAME, SETTINGS, no_roll, open_ended
from bot.commands.context import Context
from bot.protocol import Reply
from rules_core.systems.c5 import requests as rq
from rules_core.systems.c5.models import TestRequest
from rules_core.systems.c5.odds import melee_odds, shoot_odds, test_odds, wound_odds


async def test_odds_reply(ctx: Context, req: TestRequest, title: str) -> Reply:
    settings = await SETTINGS.load(ctx)
    odds = await ctx.offload(test_odds, req, open_ended(settings))
    return view.test_odds_reply(ctx, odds, title)


async def odds_test(ctx: Context) -> Reply:
    a = ctx.args(TestArgs)
    no_roll(a.dice)
    _, _, unit = await GAME.units(ctx)
    req = rq.plain_test_request(by_option(a), unit)
    return await test_odds_reply(ctx, req, view.test_title(ctx, req.value, req.stat))


async def odds_wound(ctx: Context) -> Reply:
    a = ctx.args(WoundArgs)
    no_roll(a.dice, a.apply)
    _, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = rq.wound_request(by_option(a), attacker, target, melee=True, mod_option="mod")
    odds = await ctx.offload(wound_odds, req, settings)
    return await view.wound_odds_reply(
        ctx, odds, ctx.t("c5.title_wound", str=req.str_, res=req.res)
    )


async def odds_melee(ctx: Context) -> Reply:
    a = ctx.args(MeleeArgs)
    no_roll(a.dice, a.apply)
    _, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = rq.melee_request(by_option(a), attacker, target)
    odds = await ctx.offload(melee_odds, req, settings)
    title = ctx.t("c5.title_melee", att=req.attack.value, str=req.wound.str_, res=req.wound.res)
    return await view.wound_odds_reply(ctx, odds, title)


async def odds_shoot(ctx: Context) -> Reply:
    a = ctx.args(ShootArgs)
    no_roll(a.dice, a.apply)
    _, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = rq.shoot_request(by_option(a), attacker, target)
    odds = await ctx.offload(shoot_odds, req, settings)
    title = ctx.t("c5.title_shoot", aim=req.test.value, str=req.wound.str_, res=req.wound.res)
    return await view.wound_odds_reply(ctx, odds, title)
