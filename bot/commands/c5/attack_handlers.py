"""/c5 wound, melee and shoot: roll the chain rules_core resolves, apply it on `apply`."""

from __future__ import annotations

from bot import session
from bot.commands.c5 import view
from bot.commands.c5.args import CombatArgs, MeleeArgs, ShootArgs, WoundArgs, by_option
from bot.commands.c5.common import GAME, SETTINGS, apply_noted, apply_wounds
from bot.commands.c5.odds_handlers import odds_melee, odds_shoot, odds_wound
from bot.commands.context import Context
from bot.commands.system_kit import log_roll, resolution
from bot.protocol import Block, Reply, bold
from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.steps import Step
from rules_core.systems.c5 import combat
from rules_core.systems.c5 import requests as rq
from rules_core.systems.c5 import transitions as c5tr
from rules_core.systems.c5.attack import AttackOutcome, resolve_melee, resolve_shoot
from rules_core.systems.c5.wound import resolve_wound


async def wound_cmd(ctx: Context) -> Reply:
    a = ctx.args(WoundArgs)
    if a.odds:
        return await odds_wound(ctx)
    game, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = rq.wound_request(by_option(a), attacker, target, melee=True, mod_option="mod")
    source = ctx.dice(a.dice)
    step, out = resolve_wound(
        req,
        source,
        minus_three=settings.minus_three,
        melee_penalty=settings.melee_penalty,
        sacred_on_nothing=settings.sacred_on_nothing == "yes",
    )
    blocks: list[Block] = [view.wound_block(ctx, step)]
    data = resolution("c5", [step], out.model_dump())
    if game is not None and target is not None and a.apply:
        blocks += await apply_wounds(ctx, target, out.wounds, out.stunned)
        data["applied"] = {"unit": target.name, "wounds": out.wounds, "stunned": out.stunned}
    source.check_exhausted()
    await log_roll(ctx, source, out.wounds, data)
    title = ctx.t("c5.title_wound", str=req.str_, res=req.res)
    return Reply(title=title, blocks=blocks, data=data)


async def attack_reply(
    ctx: Context,
    target: Unit | None,
    applies: bool,
    apply: bool,
    steps: list[Step],
    out: AttackOutcome,
    source: DiceSource,
    title: str,
    striker: Unit | None = None,
    state: GameState | None = None,
) -> Reply:
    blocks: list[Block] = [view.step_block(ctx, s) for s in steps]
    blocks.append([bold(view.attack_verdict(ctx, out))])
    data = resolution("c5", steps, out.model_dump())
    in_combat = state is not None and striker is not None and combat.combat_of(state, striker.name)
    if striker is not None and target is not None and in_combat:
        # A blow in a recorded combat: its wounds and the exchange (a die spent, whose blow
        # next) as one change, hit or not.
        parried_by = (
            out.defence_total - out.total if out.parried and out.defence_total is not None else None
        )
        blocks += await apply_noted(
            ctx,
            lambda st: c5tr.blow(
                st,
                striker.name,
                target.name,
                out.hit,
                out.wounds,
                out.stunned,
                parried_by,
                out.auto_failed,
            ),
            "c5_wound",
            target.name,
            attack=True,
            rights=False,
        )
        data["applied"] = {"unit": target.name, "wounds": out.wounds, "stunned": out.stunned}
    elif applies and target is not None and apply and out.hit:
        blocks += await apply_wounds(ctx, target, out.wounds, out.stunned, striker=striker)
        data["applied"] = {"unit": target.name, "wounds": out.wounds, "stunned": out.stunned}
    source.check_exhausted()
    await log_roll(ctx, source, out.wounds, data)
    return Reply(title=title, blocks=blocks, data=data)


async def melee_cmd(ctx: Context) -> Reply:
    a = ctx.args(MeleeArgs)
    if a.odds:
        return await odds_melee(ctx)
    game, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = rq.melee_request(by_option(a), attacker, target)
    source = ctx.dice(a.dice)
    striker = None
    if game is not None and target is not None and a.apply:
        striker = blow_rights(ctx, game.state, attacker, target)
    steps, out = resolve_melee(req, source, settings)
    title = ctx.t("c5.title_melee", att=req.attack.value, str=req.wound.str_, res=req.wound.res)
    state = game.state if game is not None else None
    return await attack_reply(
        ctx, target, game is not None, a.apply, steps, out, source, title, striker, state
    )


def blow_rights(ctx: Context, state: GameState, attacker: Unit | None, target: Unit) -> Unit | None:
    """The combat phase (transitions.check_blow). A named attacker must be the caller's (or
    the caller a manager): its blow needs no turn, and it is returned; without one the usual
    rights apply (enemy units on one's own turn) and None is returned."""
    owner = c5tr.check_blow(state, attacker.name if attacker else None, target.name)
    if attacker is None or owner is None:
        return None
    session.require_unit_rights(ctx, state, attacker, attack=False)
    return attacker


async def shoot_cmd(ctx: Context) -> Reply:
    a = ctx.args(ShootArgs)
    if a.odds:
        return await odds_shoot(ctx)
    game, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = rq.shoot_request(by_option(a), attacker, target)
    source = ctx.dice(a.dice)
    steps, out = resolve_shoot(req, source, settings)
    title = ctx.t("c5.title_shoot", aim=req.test.value, str=req.wound.str_, res=req.wound.res)
    return await attack_reply(ctx, target, game is not None, a.apply, steps, out, source, title)


async def combat_cmd(ctx: Context) -> Reply:
    """/c5 combat FIRST SECOND attacks=2,1: open a combat (FIRST won the initiative test), or
    `end` one; the player of either fighter, or the organiser. /c5 combat FIGHTER forgo: the
    fighter's player takes the attack die its Contrattacco/Ambidestro offers."""
    a = ctx.args(CombatArgs)
    game = await GAME.load(ctx)
    first = tr.find_unit(game.state, a.first)
    if a.forgo:
        _rights_on_either(ctx, game.state, [first])
        blocks = await apply_noted(
            ctx, lambda st: combat.forgo(st, first.name), "c5_combat", first.name, rights=False
        )
        return await _combat_reply(ctx, blocks)
    if a.end:
        _rights_on_either(ctx, game.state, [first])
        blocks = await apply_noted(
            ctx, lambda st: combat.end(st, first.name), "c5_combat", first.name, rights=False
        )
        return Reply(blocks=blocks, data={"system": "c5", "combats": []})
    if not a.second:
        raise UserError("cmd.missing_option", option="SECOND")  # a placeholder
    second = tr.find_unit(game.state, a.second)
    _rights_on_either(ctx, game.state, [first, second])
    dice = _attack_dice(a.attacks)
    counters: tuple[combat.Counter, combat.Counter] = (
        a.counter or "none",
        a.counter_second or "none",
    )
    blocks = await apply_noted(
        ctx,
        lambda st: combat.start(st, first.name, second.name, dice, counters),
        "c5_combat",
        first.name,
        rights=False,
    )
    return await _combat_reply(ctx, blocks)


async def _combat_reply(ctx: Context, blocks: list[Block]) -> Reply:
    """The notes of a combat change, with the game's recorded combats after it as data."""
    after = (await GAME.load(ctx)).state
    data = {"system": "c5", "combats": [c.model_dump() for c in combat.combats(after)]}
    return Reply(title=ctx.t("c5.combat_title"), blocks=blocks, data=data)


def _rights_on_either(ctx: Context, state: GameState, units: list[Unit]) -> None:
    """The player of one of the fighters (or the organiser, a chat admin) opens or ends it."""
    refusal: UserError | None = None
    for unit in units:
        try:
            session.require_unit_rights(ctx, state, unit, attack=False)
            return
        except UserError as error:
            refusal = refusal or error
    assert refusal is not None
    raise refusal


def _attack_dice(text: str | None) -> tuple[int, int]:
    """`attacks=2,1`: the attack dice of the first and of the second fighter."""
    parts = [p.strip() for p in (text or "").replace(";", ",").split(",")]
    if len(parts) != 2 or not all(p.isdecimal() and int(p) <= combat.MAX_DICE for p in parts):
        raise UserError("c5.combat_attacks", most=combat.MAX_DICE)
    return int(parts[0]), int(parts[1])
