"""/aos attack and /aos odds: the options (and the units named in the game) make an attack
request in rules_core; attack resolves it and may write its wounds, odds gives its exact
distribution."""

from __future__ import annotations

from typing import Any

from bot.commands.aos.args import AttackArgs, OddsArgs
from bot.commands.aos.common import (
    GAME,
    SETTINGS,
    SYSTEM,
    apply_damage,
    counted,
    finish_dice,
    roll_expression,
)
from bot.commands.aos.view import request_summary, step_block
from bot.commands.context import Context
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data
from bot.commands.system_kit import log_roll, resolution
from bot.i18n import fmt_num, fmt_pct
from bot.images.cards.odds import attach as odds_picture
from bot.protocol import Block, Reply, bold, code, plain, pre
from bot.storage.games import StoredGame
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import Unit
from rules_core.steps import Step
from rules_core.systems.aos import transitions as aos_tr
from rules_core.systems.aos.attack import resolve_attack
from rules_core.systems.aos.models import Settings
from rules_core.systems.aos.odds import attack_odds, slain_odds
from rules_core.systems.aos.requests import AttackInput, BuiltAttack, build_attack


def attack_args(ctx: Context) -> OddsArgs:
    """The attack's options, as /aos attack or /aos odds (and /compare's Age of Sigmar
    profiles, parsed as /aos odds) declare them."""
    return ctx.args(AttackArgs) if ctx.spec.args is AttackArgs else ctx.args(OddsArgs)


def attack_input(a: OddsArgs) -> AttackInput:
    fields = {name: getattr(a, name) for name in AttackInput.model_fields}
    for name in ("hit_mod", "wound_mod", "save_mod"):
        fields[name] = fields[name] or 0
    return AttackInput.model_validate(fields)


async def attack_request(
    ctx: Context, settings: Settings
) -> tuple[BuiltAttack, list[Step], StoredGame | None, Unit | None]:
    """The request, the steps of the commands that modify it, the chat's game (when a unit is
    named) and the target unit."""
    a = attack_args(ctx)
    if not (a.attacker or a.target):
        return build_attack(attack_input(a), None, None, settings), [], None, None
    game = await GAME.load(ctx)
    attacker: Unit | None = None
    defender: Unit | None = None
    if a.attacker:
        attacker = aos_tr.live(tr.find_unit(game.state, a.attacker))
    if a.target:
        defender = aos_tr.live(tr.find_unit(game.state, a.target))
    built, steps = aos_tr.attack_in_game(game.state, attack_input(a), attacker, defender, settings)
    return built, steps, game, defender


async def attack(ctx: Context) -> Reply:
    a = ctx.args(AttackArgs)
    settings = await SETTINGS.load(ctx)
    built, command_steps, game, defender = await attack_request(ctx, settings)
    req, source_info = built.request, built.source
    if a.apply and defender is None:
        raise UserError("aos.apply_needs_target")
    by = (
        tr.find_unit(game.state, source_info["attacker"])
        if a.apply and "attacker" in source_info and game
        else None
    )
    shot = aos_tr.shot_of(attack_input(a), built, by) if by is not None else None
    if by is not None and game is not None and defender is not None:
        aos_tr.may_target(by, defender)  # before any die is rolled
        aos_tr.may_apply_shot(game.state, by, shot)
        aos_tr.may_apply_fight(game.state, by, shot)
    source = ctx.dice(a.dice)
    res = resolve_attack(req, source, settings)
    finish_dice(source, a.dice)
    out = res.outcome
    steps = [*command_steps, *res.steps]
    data = {**resolution(SYSTEM, steps, out.model_dump()), **source_info}
    await log_roll(ctx, source, out.damage, data, expression=roll_expression(ctx))
    blocks = [step_block(ctx, s, req) for s in steps]
    result: Block = [bold(ctx.t("aos.result_damage", n=out.damage))]
    if out.models_slain is not None:
        result.append(plain(" · "))
        result.append(bold(ctx.t("aos.result_slain", n=out.models_slain)))
    if out.damage_lost:
        result.append(plain(" · " + counted(ctx, "aos.result_lost", out.damage_lost)))
    blocks.append(result)
    data["applied"] = False
    if a.apply:
        blocks += await apply_damage(ctx, game, defender, out.damage, "aos_attack", by, shot)
        data["applied"] = True
    title = ctx.t("aos.attack_title") + ": " + request_summary(ctx, req)
    return Reply(title=title, blocks=blocks, data=data)


async def odds(ctx: Context) -> Reply:
    settings = await SETTINGS.load(ctx)
    built, command_steps, _, _ = await attack_request(ctx, settings)
    req = built.request
    weights = await ctx.offload(attack_odds, req, settings)  # off the event loop
    dist = as_distribution(weights)
    heading: Block = [code(request_summary(ctx, req))]
    blocks = [step_block(ctx, s, req) for s in command_steps]
    blocks += distribution_blocks(ctx, dist, heading)
    data: dict[str, Any] = {"system": SYSTEM, **distribution_data(dist), **built.source}
    slain = slain_odds(req, weights)
    if slain is not None:
        slain_dist = as_distribution(slain)
        rows = [f"{'k':>4}  {'P(≥k)':>7}"]
        rows += [
            f"{k:>4}  {fmt_pct(ctx.lang, slain_dist.p_at_least(k)):>7}"
            for k, _ in slain_dist.items()
        ]
        mean = fmt_num(ctx.lang, slain_dist.mean(), 2)
        blocks.append([plain(ctx.t("aos.slain_odds", mean=mean))])
        blocks.append([pre("\n".join(rows))])
        data["models_slain_distribution"] = [[k, p] for k, p in slain_dist.items()]
        data["models_slain_mean"] = slain_dist.mean()
    else:
        data["models_slain_distribution"] = None
    parts = [(dist, request_summary(ctx, req), "damage")]
    if slain is not None:
        parts.append((slain_dist, request_summary(ctx, req), "slain"))
    reply = Reply(title=ctx.t("aos.odds_title"), blocks=blocks, data=data)
    return await odds_picture(ctx, reply, parts)
