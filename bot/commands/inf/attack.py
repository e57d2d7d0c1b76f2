"""/inf attack and /inf odds: an attack resolved (and, with `apply`, applied to the game) and
its exact odds."""

from __future__ import annotations

from fractions import Fraction

from bot import session
from bot.commands import game_view
from bot.commands.context import Context
from bot.commands.inf.args import AttackArgs, OddsArgs
from bot.commands.inf.common import GAME, SETTINGS, weapons_of_chat
from bot.commands.inf.view import (
    ammo_label,
    attack_verdict,
    note_lines,
    roll_block,
    step_block,
)
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data, percent
from bot.commands.system_kit import log_roll, resolution
from bot.images.cards.odds import attach as odds_picture
from bot.protocol import Block, Reply, code, plain
from bot.storage import games
from rules_core.errors import UserError
from rules_core.game.models import GameState, Unit
from rules_core.systems.base import Note
from rules_core.systems.inf import transitions as inf_tr
from rules_core.systems.inf.attack import resolve_attack
from rules_core.systems.inf.models import AttackOutcome, AttackRequest
from rules_core.systems.inf.odds import attack_odds, hit_odds
from rules_core.systems.inf.request import (
    AttackOptions,
    build_request,
    stat_of,
    wants_hits_only,
)


def attack_options(ctx: Context) -> AttackOptions:
    """The attack's options, as /inf attack or /inf odds (and /compare's Infinity profiles,
    parsed as /inf odds) declare them."""
    cls = AttackArgs if ctx.spec.args is AttackArgs else OddsArgs
    return AttackOptions.read(ctx.args(cls).model_dump())


async def request_of(
    ctx: Context, game: games.StoredGame | None, attacker: Unit | None, target: Unit | None
) -> tuple[AttackRequest, list[Block]]:
    """The attack request, and the lines saying what was read (weapon, range, Mono)."""
    weapons = inf_tr.custom_weapons(game.state) if game is not None else await weapons_of_chat(ctx)
    req, notes = build_request(attack_options(ctx), attacker, target, weapons)
    return req, note_lines(ctx, notes)


def title_of(ctx: Context, req: AttackRequest) -> str:
    return ctx.t(
        "inf.title_attack",
        target=req.targets()[0],
        burst=req.active.burst,
        dam=req.active.dam if req.active.dam is not None else "-",
        ammo=ammo_label(ctx, req.active.ammo),
    )


async def apply_attack(
    ctx: Context, game: games.StoredGame, attacker: Unit | None, target: Unit, out: AttackOutcome
) -> list[Block]:
    """The attack's result on target= (and on attacker= if it was hit back) as ONE event."""
    back = attacker is not None and inf_tr.touches_attacker(out)
    if not inf_tr.touches_target(out) and not back:
        return [[plain(ctx.t("inf.nothing_applied", unit=target.name))]]
    if attacker is not None:
        session.require_unit_rights(ctx, game.state, attacker, attack=True)
    notes: list[Note] = []
    attacker_name = attacker.name if attacker is not None else None

    def hit(state: GameState) -> GameState:
        new, said = inf_tr.apply_attack(state, attacker_name, target.name, out)
        notes[:] = said
        return new

    change = await session.apply_change(ctx, hit, "inf_attack", unit=target.name, attack=True)
    blocks = game_view.notes_blocks(ctx, notes)
    if change.unit is not None:
        blocks += game_view.unit_blocks(ctx, change.unit, change.after.system)
    if back and attacker is not None:
        after = next((u for u in change.after.units if u.name == attacker.name), None)
        if after is not None:
            blocks += game_view.unit_blocks(ctx, after, change.after.system)
    return blocks


async def attack_cmd(ctx: Context) -> Reply:
    a = ctx.args(AttackArgs)
    game, attacker, target = await GAME.units(ctx)
    req, blocks = await request_of(ctx, game, attacker, target)
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(a.dice)
    steps, out = resolve_attack(req, source, settings)
    vs_wounds = req.target.dam is not None or req.target.ammo == "ADH"
    dodge = req.opposed and not vs_wounds  # a reaction that shoots nothing back is a Dodge
    blocks += [
        roll_block(ctx, s, dodge=True) if dodge and s.name == "reactive" else step_block(ctx, s)
        for s in steps
    ]
    blocks += attack_verdict(ctx, out, vs_wounds, target.name if target is not None else None)
    data = resolution("inf", steps, out.model_dump())
    source.check_exhausted()
    if game is not None and target is not None and a.apply:
        blocks += await apply_attack(ctx, game, attacker, target, out)
        data["applied"] = {"unit": target.name, "wounds": out.target_wounds}
    await log_roll(ctx, source, out.target_wounds, data)
    return Reply(title=title_of(ctx, req), blocks=blocks, data=data)


def _f(p: Fraction) -> float:
    return float(p)


async def odds_cmd(ctx: Context) -> Reply:
    options = attack_options(ctx)
    game, attacker, target = await GAME.units(ctx)
    if wants_hits_only(options, attacker):
        return await hits_odds(ctx, options, attacker)
    req, blocks = await request_of(ctx, game, attacker, target)
    settings = await SETTINGS.load(ctx)
    odds = await ctx.offload(attack_odds, req, settings)  # off the event loop
    dist = as_distribution(odds.target.wounds)
    head = [code(title_of(ctx, req) + " · " + ctx.t("inf.odds_wounds"))]
    blocks += distribution_blocks(ctx, dist, head)
    t, a = odds.target, odds.active
    line = ctx.t(
        "inf.p_line",
        hit=percent(_f(t.p_hit), ctx.lang),
        back=percent(_f(a.p_hit), ctx.lang),
        unconscious=percent(_f(t.p_unconscious), ctx.lang),
        dead=percent(_f(t.p_dead), ctx.lang),
        guts=percent(_f(t.p_guts), ctx.lang),
    )
    blocks.append([plain(line)])
    if a.p_dead or a.p_unconscious or any(k for k in a.wounds if k):
        back = ctx.t(
            "inf.p_back",
            unconscious=percent(_f(a.p_unconscious), ctx.lang),
            dead=percent(_f(a.p_dead), ctx.lang),
        )
        blocks.append([plain(back)])
    active_dist = as_distribution(a.wounds)
    data = {
        "system": "inf",
        **distribution_data(dist),
        "p_target_hit": _f(t.p_hit),
        "p_active_hit": _f(a.p_hit),
        "p_target_unconscious": _f(t.p_unconscious),
        "p_target_dead": _f(t.p_dead),
        "p_guts_roll": _f(t.p_guts),
        "p_target_disabled": _f(t.p_disabled),
        "p_target_immobilized": _f(t.p_immobilized),
        "p_active_unconscious": _f(a.p_unconscious),
        "p_active_dead": _f(a.p_dead),
        "active_wounds": [[v, p] for v, p in active_dist.items()],
    }
    reply = Reply(title=ctx.t("inf.odds_title"), blocks=blocks, data=data)
    return await odds_picture(ctx, reply, [(dist, title_of(ctx, req), "wounds")])


async def hits_odds(ctx: Context, o: AttackOptions, attacker: Unit | None) -> Reply:
    """With no weapon: the twin of /inf roll (no vs=) or /inf ftf: the hits of the active side."""
    attr = stat_of(o.attr, attacker, "cc" if o.cc or o.charge else "bs")
    if attr is None:
        raise UserError("inf.missing_stat", option="attr")
    odds = await ctx.offload(
        hit_odds,
        attr,
        o.mod or 0,
        o.burst or 1,
        o.vs,
        o.vs_mod or 0,
        o.vs_burst or 1,
        o.cover,
        o.my_cover,
        o.cc or o.charge,
        o.cc,
        o.vs_dam is not None or bool(o.vs_ammo),  # else a Dodge, as /inf attack reads it
    )
    dist = as_distribution(odds.hits)
    if odds.vs_target is None:
        title = ctx.t("inf.title_roll", target=odds.target)
    else:
        title = ctx.t("inf.title_ftf", a=odds.target, b=odds.vs_target)
    title += " · " + ctx.t("inf.odds_hits")
    blocks = distribution_blocks(ctx, dist, [code(title)])
    line = ctx.t(
        "inf.p_hits_line",
        hit=percent(_f(odds.p_hit), ctx.lang),
        crit=percent(_f(odds.p_critical), ctx.lang),
        back=percent(_f(odds.p_back), ctx.lang),
    )
    blocks.append([plain(line)])
    data = {
        "system": "inf",
        **distribution_data(dist),
        "p_target_hit": _f(odds.p_hit),
        "p_active_hit": _f(odds.p_back),
        "p_critical": _f(odds.p_critical),
        "kind": "hits",
    }
    reply = Reply(title=ctx.t("inf.odds_title"), blocks=blocks, data=data)
    return await odds_picture(ctx, reply, [(dist, title, "hits")])
