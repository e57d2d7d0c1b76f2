"""/wow attack, heal and odds: read the game, build the request (rules_core), roll, log, apply
the result as one change, render."""

from __future__ import annotations

from typing import Any

from bot import i18n
from bot.commands.context import Context
from bot.commands.game_view import notes_blocks
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data
from bot.commands.system_kit import log_roll, resolution
from bot.commands.wow import view
from bot.commands.wow.args import AttackArgs, HealArgs, OddsArgs
from bot.commands.wow.common import (
    GAME,
    SETTINGS,
    SYSTEM,
    actor_and_card,
    card_names,
    roll_expression,
)
from bot.images.cards.odds import attach as odds_picture
from bot.protocol import Block, Reply, bold, code, plain
from bot.session import apply_change, require_unit_rights
from bot.storage.games import StoredGame
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.rules.text import fold
from rules_core.systems.wow import transitions as wow_tr
from rules_core.systems.wow.attack import (
    AttackRequest,
    attack_odds,
    crit_chance,
    resolve_against,
    resolve_attack,
    resolve_heal,
)
from rules_core.systems.wow.cards import Card


async def attack_request(
    ctx: Context, a: OddsArgs, target: Unit | None, card: Card | None, attacker: Unit | None
) -> AttackRequest:
    return wow_tr.attack_request(
        attacker=attacker,
        force_reroll_attack=a.force_reroll_attack,
        force_reroll_defense=a.force_reroll_defense,
        settings=await SETTINGS.load(ctx),
        power=a.power,
        defense=a.defense,
        kind=a.type,
        crit=a.crit,
        reroll_attack=a.reroll_attack,
        reroll_defense=a.reroll_defense,
        elevation=a.elevation,
        cover=a.cover,
        target=target,
        card=card,
    )


async def check_play(
    ctx: Context,
    found: tuple[StoredGame, Unit] | None,
    actor: Unit | None,
    card: Card | None,
    *,
    apply: bool,
    heal: bool = False,
) -> None:
    """Before any die is rolled: may the character aim at this target, may the caller apply
    this, and may the character play now?"""
    if found is None or actor is None:
        return
    game, target = found
    wow_tr.check_target(game.state, actor, target, heal=heal)
    if not apply:
        return
    require_unit_rights(ctx, game.state, actor, attack=False)
    wow_tr.check_play(game.state, actor, card)


async def attack(ctx: Context) -> Reply:
    a = ctx.args(AttackArgs)
    if a.targets:
        return await shared_attack(ctx, a, a.targets)
    found = await GAME.target(ctx)
    actor, card = await actor_and_card(ctx, "attacker", a.attacker, a.card)
    req = await attack_request(ctx, a, found[1] if found else None, card, actor)
    await check_play(ctx, found, actor, card, apply=a.apply)
    source = ctx.dice(a.dice)
    res = resolve_attack(req, source)
    data = resolution(SYSTEM, res.steps, res.outcome.model_dump())
    await log_roll(ctx, source, res.outcome.damage, data, expression=roll_expression(ctx))
    kind = ctx.t(f"wow.type.{req.type}")
    title = ctx.t("wow.attack_title", power=req.power, type=kind, n=req.defense)
    blocks: list[Block] = [view.card_block(ctx, actor, card)] if actor and card else []
    blocks += [view.step_block(ctx, s, req) for s in res.steps]
    blocks.append([plain(ctx.t("wow.rule_ref"))])
    if found is not None and a.apply:
        blocks += await apply_to(
            ctx, found[1].name, res.outcome.damage, heal=False, actor=actor, card=card, data=data
        )
        data["applied"] = {"unit": found[1].name, "damage": res.outcome.damage}
    return Reply(title=title, blocks=blocks, data=data)


async def shared_attack(ctx: Context, a: AttackArgs, targets: str) -> Reply:
    """Cleave or AOE: `targets=A,B`, one attack roll, each target defends (rule in rules_core)."""
    if a.target:
        raise UserError("wow.target_or_targets")
    game = await GAME.load(ctx)
    state = game.state
    units = [tr.find_unit(state, n) for n in card_names(targets)]
    units = wow_tr.distinct_targets(state, [u.name for u in units])
    actor, card = await actor_and_card(ctx, "attacker", a.attacker, a.card)
    req = await attack_request(ctx, a, None, card, actor)
    defenses = [wow_tr.defense_dice(req.type, u, a.defense) for u in units]
    if actor is not None:
        for unit in units:
            wow_tr.check_target(state, actor, unit, heal=False)
        if a.apply:
            require_unit_rights(ctx, state, actor, attack=False)
            wow_tr.check_play(state, actor, card)
    source = ctx.dice(a.dice)
    res = resolve_against(req, defenses, source)
    data = resolution(SYSTEM, res.steps, {})
    data["outcomes"] = [
        {"unit": u.name, **o.model_dump()} for u, o in zip(units, res.outcomes, strict=True)
    ]
    total = sum(o.damage for o in res.outcomes)
    await log_roll(ctx, source, total, data, expression=roll_expression(ctx))
    kind = ctx.t(f"wow.type.{req.type}")
    title = i18n.tn(ctx.lang, "wow.shared_title", len(units), power=req.power, type=kind)
    blocks: list[Block] = [view.card_block(ctx, actor, card)] if actor and card else []
    names = [u.name for u in units]
    blocks += [view.step_block(ctx, s, req, names) for s in res.steps]
    blocks.append([plain(ctx.t("wow.shared_ref"))])
    if a.apply:
        chat = await SETTINGS.load(ctx)
        results = [(u.name, o.damage) for u, o in zip(units, res.outcomes, strict=True)]
        notes: list[Any] = []

        def change(state: GameState) -> GameState:
            done = wow_tr.apply_results(
                state,
                chat,
                results,
                heal=False,
                actor=actor.name if actor else None,
                card=card.name if card else None,
            )
            notes[:] = done.notes
            return done.state

        if actor is None:
            for unit in units:
                require_unit_rights(ctx, state, unit, attack=True)
        saved = await apply_change(ctx, change, "wow_attack", game=game)
        blocks += notes_blocks(ctx, notes)
        for name in names:
            blocks += view.unit_with_cards(ctx, tr.find_unit(saved.after, name), SYSTEM)
        data["applied"] = [{"unit": n, "damage": d} for n, d in results]
    return Reply(title=title, blocks=blocks, data=data)


async def apply_to(
    ctx: Context,
    name: str,
    amount: int,
    *,
    heal: bool,
    actor: Unit | None = None,
    card: Card | None = None,
    data: dict[str, Any] | None = None,
) -> list[Block]:
    """Damage or heal the target as one event that /undo reverts (see wow_tr.apply_result)."""
    chat = await SETTINGS.load(ctx)
    notes: list[Any] = []

    def change(state: GameState) -> GameState:
        done = wow_tr.apply_result(
            state,
            chat,
            name,
            amount,
            heal=heal,
            actor=actor.name if actor else None,
            card=card.name if card else None,
        )
        notes[:] = done.notes  # runs again after a version conflict
        return done.state

    kind = "wow_heal" if heal else "wow_attack"
    if actor is not None:
        game = await GAME.load(ctx)
        require_unit_rights(ctx, game.state, actor, attack=False)
        done = await apply_change(ctx, change, kind, game=game)
        target = next((u for u in done.after.units if fold(u.name) == fold(name)), None)
    else:
        done = await apply_change(ctx, change, kind, unit=name, attack=True)
        target = done.unit
    if not done.changed or target is None:
        return [[plain(ctx.t("wow.nothing_applied", unit=name))]]
    out: list[Block] = []
    if actor is not None and card is not None:
        before = wow_tr.personal_clock(done.before, actor.name)
        after = wow_tr.personal_clock(done.after, actor.name)
        out.append([plain(ctx.t("wow.card_played", card=card.name, before=before, after=after))])
        if data is not None:
            data["card"] = {"name": card.name, "clock": [before, after]}
    out += notes_blocks(ctx, notes)
    if actor is not None:
        out.append([plain(ctx.t("wow.turn_goes_on", unit=actor.name))])
    return out + view.unit_with_cards(ctx, target, done.after.system)


async def heal(ctx: Context) -> Reply:
    a = ctx.args(HealArgs)
    actor, card = await actor_and_card(ctx, "healer", a.healer, a.card)
    found = await GAME.target(ctx)
    req = wow_tr.heal_request(
        power=a.power,
        rerolls=a.reroll,
        crit=a.crit,
        card=card,
        target=found[1] if found else None,
    )
    await check_play(ctx, found, actor, card, apply=a.apply, heal=True)
    source = ctx.dice(a.dice)
    res = resolve_heal(req, source)
    data = resolution(SYSTEM, res.steps, res.outcome.model_dump())
    await log_roll(ctx, source, res.outcome.healed, data, expression=roll_expression(ctx))
    blocks: list[Block] = [view.card_block(ctx, actor, card)] if actor and card else []
    blocks += [view.step_block(ctx, s, None) for s in res.steps]
    blocks.append([bold(ctx.t("wow.healed", n=res.outcome.healed))])
    if found is not None and a.apply:
        blocks += await apply_to(
            ctx, found[1].name, res.outcome.healed, heal=True, actor=actor, card=card, data=data
        )
        data["applied"] = {"unit": found[1].name, "healed": res.outcome.healed}
    return Reply(title=ctx.t("wow.heal_title", power=req.power), blocks=blocks, data=data)


async def odds(ctx: Context) -> Reply:
    a = ctx.args(OddsArgs)
    found = await GAME.target(ctx)
    actor, card = await actor_and_card(ctx, "attacker", a.attacker, a.card)
    req = await attack_request(ctx, a, found[1] if found else None, card, actor)
    dist = as_distribution(await ctx.offload(attack_odds, req))  # off the event loop
    p_crit = float(crit_chance(req))
    kind = ctx.t(f"wow.type.{req.type}")
    heading: Block = [code(ctx.t("wow.attack_title", power=req.power, type=kind, n=req.defense))]
    blocks = distribution_blocks(ctx, dist, heading)
    blocks.append([plain(ctx.t("wow.p_crit", p=i18n.fmt_pct(ctx.lang, p_crit)))])
    data = {
        "system": SYSTEM,
        **distribution_data(dist),
        "p_critical": p_crit,
        "p_damage": 1 - dist.probabilities.get(0, 0.0),
    }
    reply = Reply(title=ctx.t("wow.odds_title"), blocks=blocks, data=data)
    title = ctx.t("wow.attack_title", power=req.power, type=kind, n=req.defense)
    return await odds_picture(ctx, reply, [(dist, title, "damage")])
