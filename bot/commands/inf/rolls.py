"""/inf roll, /inf ftf and /inf initiative: rolls that change no game state."""

from __future__ import annotations

from bot.commands.context import Context
from bot.commands.inf.args import FtfArgs, InitiativeArgs, RollArgs
from bot.commands.inf.common import GAME, SETTINGS
from bot.commands.inf.view import roll_block, step_block
from bot.commands.system_kit import log_roll, resolution, signed
from bot.i18n import tn
from bot.protocol import Block, Reply, bold, plain
from rules_core.systems.inf import orders as orders_rules
from rules_core.systems.inf.request import roll_attribute
from rules_core.systems.inf.rolls import resolve_ftf, resolve_roll


async def roll_cmd(ctx: Context) -> Reply:
    a = ctx.args(RollArgs)
    _, _, unit = await GAME.units(ctx)
    attr = roll_attribute(a.attr, unit, a.stat)
    source = ctx.dice(a.dice)
    steps, out = resolve_roll(attr, a.mod or 0, a.burst or 1, source)
    source.check_exhausted()
    data = resolution("inf", steps, out.model_dump())
    await log_roll(ctx, source, out.successes, data)
    blocks: list[Block] = [roll_block(ctx, steps[0])]
    return Reply(title=ctx.t("inf.title_roll", target=out.target), blocks=blocks, data=data)


async def ftf_cmd(ctx: Context) -> Reply:
    a = ctx.args(FtfArgs)
    source = ctx.dice(a.dice)
    steps, out, _, _ = resolve_ftf(
        a.attr, a.mod or 0, a.burst or 1, a.vs, a.vs_mod or 0, a.vs_burst or 1, source
    )
    source.check_exhausted()
    data = resolution("inf", steps, out.model_dump())
    await log_roll(ctx, source, out.active_hits, data)
    if out.active_hits:
        verdict = ctx.t("inf.winner.active", hits=tn(ctx.lang, "inf.count.hits", out.active_hits))
    elif out.reactive_hits:
        hits = tn(ctx.lang, "inf.count.hits", out.reactive_hits)
        verdict = ctx.t("inf.winner.reactive", hits=hits)
    else:
        verdict = ctx.t("inf.winner.none")
    blocks = [step_block(ctx, s) for s in steps] + [[bold(verdict)]]
    title = ctx.t("inf.title_ftf", a=steps[0].target, b=steps[1].target)
    return Reply(title=title, blocks=blocks, data=data)


async def initiative_cmd(ctx: Context) -> Reply:
    a = ctx.args(InitiativeArgs)
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(a.dice)
    steps, out = orders_rules.resolve_initiative(
        a.wip, a.mod or 0, a.vs, a.vs_mod or 0, source, settings.initiative
    )
    source.check_exhausted()
    data = resolution("inf", steps, out.model_dump())
    await log_roll(ctx, source, 1 if out.winner == "player" else 0, data)
    if out.method == "ftf":
        blocks = [roll_block(ctx, s) for s in steps]
    else:
        blocks = [
            [
                bold(ctx.t(f"inf.step.{s.name}") + ": "),
                plain(f"[{s.dice[0]}] {signed(s.modifiers[0].value)} = {s.total}"),
            ]
            for s in steps
        ]
    blocks.append([bold(ctx.t(f"inf.initiative.{out.winner}"))])
    title = ctx.t("inf.title_initiative", a=a.wip, b=a.vs)
    return Reply(title=title, blocks=blocks, data=data)
