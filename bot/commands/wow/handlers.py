"""/wow handlers: load the chat's game and settings, check who may act, call
rules_core.systems.wow (transitions, attack, system), save, and hand the result to the view."""

from __future__ import annotations

from typing import Any

from bot import i18n
from bot.commands.context import Context
from bot.commands.game_view import notes_blocks
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data
from bot.commands.system_kit import SystemGame, SystemSettings, log_roll, pct, resolution
from bot.commands.wow import view
from bot.protocol import Block, Reply, bold, code, italic, plain
from bot.session import apply_change, require_player, require_unit_rights
from bot.storage.games import StoredGame
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.rules.text import fold
from rules_core.systems.wow import system as wow_state
from rules_core.systems.wow import transitions as wow_tr
from rules_core.systems.wow import victory
from rules_core.systems.wow.attack import (
    AttackRequest,
    attack_odds,
    crit_chance,
    resolve_against,
    resolve_attack,
    resolve_heal,
)
from rules_core.systems.wow.cards import Card
from rules_core.systems.wow.settings import CHOICES, WowSettings, update

SYSTEM = view.SYSTEM


async def copy_to_game(
    ctx: Context, game: StoredGame | None, current: WowSettings, changes: dict[str, str]
) -> None:
    """The chat's WoW game gets a copy of a change at once (and with every /wow command that
    changes it), so kills scored by /unit damage follow it."""
    if game is None or game.state.system != SYSTEM:
        return
    new = wow_state.with_settings(game.state, current, replace=True)
    if new != game.state:
        await apply_change(ctx, new, "wow_settings", game=game)


class WowSettingsCommand(SystemSettings[WowSettings]):
    """`/wow settings`, its lines with the setting's name and value in the chat's language
    (an Italian chat reads and types `campo_di_battaglia=si`)."""

    def line(self, ctx: Context, name: str, value: Any) -> Block:
        line = super().line(ctx, name, value)
        shown = ctx.t(f"wow.setting_name.{name}") + "=" + ctx.t(f"wow.setting_value.{value}")
        return [code(shown), *line[1:]]


SETTINGS = WowSettingsCommand(
    SYSTEM,
    WowSettings,
    tuple(CHOICES),
    update,
    "wow.settings_admin",
    per_value=True,
    on_change=copy_to_game,
)
GAME = SystemGame(SYSTEM, "wow.not_a_wow_game", "wow.apply_needs_target")


async def synced(ctx: Context, state: GameState) -> GameState:
    """The game with the chat's settings copied in (the game-state hooks read the copy)."""
    return wow_state.with_settings(state, await SETTINGS.load(ctx), replace=True)


async def actor_and_card(ctx: Context, option: str) -> tuple[Unit | None, Card | None]:
    """`attacker=NAME` (`healer=` for heals) and `card=CARD`, read from the chat's game."""
    name = ctx.opts.get(option)
    card_name = ctx.opts.get("card")
    if not name:
        if card_name:
            raise UserError("wow.card_needs_actor", option=option)
        return None, None
    game = await GAME.load(ctx)
    actor = tr.find_unit(game.state, name)
    return actor, wow_tr.find_actor_card(game.state, actor.name, card_name)


async def attack_request(
    ctx: Context, target: Unit | None, card: Card | None, attacker: Unit | None = None
) -> AttackRequest:
    return wow_tr.attack_request(
        attacker=attacker,
        force_reroll_attack=ctx.opts["force_reroll_attack"],
        force_reroll_defense=ctx.opts["force_reroll_defense"],
        settings=await SETTINGS.load(ctx),
        power=ctx.opts["power"],
        defense=ctx.opts["defense"],
        kind=ctx.opts["type"],
        crit=ctx.opts["crit"],
        reroll_attack=ctx.opts["reroll_attack"],
        reroll_defense=ctx.opts["reroll_defense"],
        elevation=ctx.opts["elevation"],
        cover=ctx.opts["cover"],
        target=target,
        card=card,
    )


def roll_expression(ctx: Context) -> str:
    """What the roll log names a WoW roll by: the command's text, else (a Discord command) its
    name, without the slash the other systems put in front."""
    return ctx.request.text or ctx.spec.name


async def check_play(
    ctx: Context,
    found: tuple[StoredGame, Unit] | None,
    actor: Unit | None,
    card: Card | None,
    *,
    heal: bool = False,
) -> None:
    """Before any die is rolled: may the character aim at this target, may the caller apply
    this, and may the character play now?"""
    if found is None or actor is None:
        return
    game, target = found
    wow_tr.check_target(game.state, actor, target, heal=heal)
    if not ctx.opts.get("apply"):
        return
    require_unit_rights(ctx, game.state, actor, attack=False)
    wow_tr.check_play(game.state, actor, card)


async def attack(ctx: Context) -> Reply:
    if ctx.opts.get("targets"):
        return await shared_attack(ctx)
    found = await GAME.target(ctx)
    actor, card = await actor_and_card(ctx, "attacker")
    req = await attack_request(ctx, found[1] if found else None, card, actor)
    await check_play(ctx, found, actor, card)
    source = ctx.dice(ctx.opts["dice"])
    res = resolve_attack(req, source)
    data = resolution(SYSTEM, res.steps, res.outcome.model_dump())
    await log_roll(ctx, source, res.outcome.damage, data, expression=roll_expression(ctx))
    kind = ctx.t(f"wow.type.{req.type}")
    title = ctx.t("wow.attack_title", power=req.power, type=kind, defense=req.defense)
    blocks: list[Block] = [view.card_block(ctx, actor, card)] if actor and card else []
    blocks += [view.step_block(ctx, s, req) for s in res.steps]
    blocks.append([plain(ctx.t("wow.rule_ref"))])
    if found is not None and ctx.opts["apply"]:
        blocks += await apply_to(
            ctx, found[1].name, res.outcome.damage, heal=False, actor=actor, card=card, data=data
        )
        data["applied"] = {"unit": found[1].name, "damage": res.outcome.damage}
    return Reply(title=title, blocks=blocks, data=data)


async def shared_attack(ctx: Context) -> Reply:
    """Cleave or AOE: `targets=A,B`, one attack roll, each target defends (601.1b, 407.2b)."""
    if ctx.opts.get("target"):
        raise UserError("wow.target_or_targets")
    game = await GAME.load(ctx)
    state = game.state
    units = [tr.find_unit(state, n) for n in card_names(ctx.opts["targets"])]
    units = wow_tr.distinct_targets(state, [u.name for u in units])
    actor, card = await actor_and_card(ctx, "attacker")
    req = await attack_request(ctx, None, card, actor)
    defenses = [wow_tr.defense_dice(req.type, u, ctx.opts["defense"]) for u in units]
    if actor is not None:
        for unit in units:
            wow_tr.check_target(state, actor, unit, heal=False)
        if ctx.opts["apply"]:
            require_unit_rights(ctx, state, actor, attack=False)
            wow_tr.check_play(state, actor, card)
    source = ctx.dice(ctx.opts["dice"])
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
    if ctx.opts["apply"]:
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
    actor, card = await actor_and_card(ctx, "healer")
    found = await GAME.target(ctx)
    req = wow_tr.heal_request(
        power=ctx.opts["power"],
        rerolls=ctx.opts["reroll"],
        crit=ctx.opts["crit"],
        card=card,
        target=found[1] if found else None,
    )
    await check_play(ctx, found, actor, card, heal=True)
    source = ctx.dice(ctx.opts["dice"])
    res = resolve_heal(req, source)
    data = resolution(SYSTEM, res.steps, res.outcome.model_dump())
    await log_roll(ctx, source, res.outcome.healed, data, expression=roll_expression(ctx))
    blocks: list[Block] = [view.card_block(ctx, actor, card)] if actor and card else []
    blocks += [view.step_block(ctx, s, None) for s in res.steps]
    blocks.append([bold(ctx.t("wow.healed", n=res.outcome.healed))])
    if found is not None and ctx.opts["apply"]:
        blocks += await apply_to(
            ctx, found[1].name, res.outcome.healed, heal=True, actor=actor, card=card, data=data
        )
        data["applied"] = {"unit": found[1].name, "healed": res.outcome.healed}
    return Reply(title=ctx.t("wow.heal_title", power=req.power), blocks=blocks, data=data)


async def odds(ctx: Context) -> Reply:
    found = await GAME.target(ctx)
    actor, card = await actor_and_card(ctx, "attacker")
    req = await attack_request(ctx, found[1] if found else None, card, actor)
    dist = as_distribution(await ctx.offload(attack_odds, req))  # off the event loop
    p_crit = float(crit_chance(req))
    kind = ctx.t(f"wow.type.{req.type}")
    heading: Block = [
        code(ctx.t("wow.attack_title", power=req.power, type=kind, defense=req.defense))
    ]
    blocks = distribution_blocks(ctx, dist, heading)
    blocks.append([plain(ctx.t("wow.p_crit", p=pct(p_crit)))])
    data = {
        "system": SYSTEM,
        **distribution_data(dist),
        "p_critical": p_crit,
        "p_damage": 1 - dist.probabilities.get(0, 0.0),
    }
    return Reply(title=ctx.t("wow.odds_title"), blocks=blocks, data=data)


async def card_cmd(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    unit = tr.find_unit(game.state, ctx.opts["name"])
    action = ctx.opts["action"]
    if action == "list":
        return view.card_list_reply(ctx, unit)
    if not ctx.opts.get("card"):
        raise UserError("wow.card_needs_name", action=action)
    chat = await SETTINGS.load(ctx)
    removed: list[Card] = []

    def change(state: GameState) -> GameState:
        if action == "add":
            return wow_tr.add_card(
                state,
                chat,
                unit.name,
                name=ctx.opts["card"],
                cost=ctx.opts["cost"],
                power=ctx.opts["power"],
                kind=ctx.opts["type"],
                range_=ctx.opts["range"],
                crit=ctx.opts["crit"],
            )
        new, card = wow_tr.remove_card(state, chat, unit.name, ctx.opts["card"])
        removed[:] = [card]
        return new

    done = await apply_change(ctx, change, f"wow_card_{action}", unit=unit.name, game=game)
    after = done.unit or unit
    reply = view.card_list_reply(ctx, after)
    key = "wow.card_added" if action == "add" else "wow.card_removed"
    shown = removed[0].name if removed else ctx.opts["card"]
    reply.blocks.insert(0, [plain(ctx.t(key, unit=after.name, card=shown))])
    return reply


async def clock_show(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    reply = view.clock_reply(ctx, game.state, [])
    reply.mentions = []  # looking at the clock pings nobody
    return reply


def card_names(text: str | None) -> list[str]:
    """`card=A, B`: the names, comma separated."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


async def take_turn(ctx: Context, kind: str) -> Reply:
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    unit = tr.find_unit(state, ctx.opts["name"])
    require_unit_rights(ctx, state, unit, attack=False)
    turn = wow_tr.take_turn(
        state,
        unit,
        moved_only=kind == "moved",
        cost=(ctx.opts["cost"] or 0) if kind == "act" else 0,
        cards=card_names(ctx.opts.get("card")) if kind == "act" else [],
        react=kind == "act" and bool(ctx.opts["react"]),
    )
    await apply_change(ctx, turn.state, f"wow_{kind}", game=game)
    head: list[Block] = notes_blocks(ctx, turn.notes)
    if turn.played:
        cards = ", ".join(turn.played)
        head.append([plain(ctx.t("wow.cards_exhausted", unit=unit.name, cards=cards))])
    key = "wow.turn_taken" if turn.before != turn.after else "wow.turn_ended"
    head.append([plain(ctx.t(key, unit=unit.name, before=turn.before, after=turn.after))])
    return view.clock_reply(ctx, turn.state, head)


async def act(ctx: Context) -> Reply:
    return await take_turn(ctx, "act")


async def moved(ctx: Context) -> Reply:
    return await take_turn(ctx, "moved")


async def tick(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    require_player(ctx, state)
    names = [tr.find_unit(state, n).name for n in card_names(ctx.opts.get("vp"))]
    done = wow_tr.end_tick(state, names)
    new, report = done.state, done.report
    assert report is not None
    await apply_change(ctx, new, "wow_tick", game=game)
    head: list[Block] = [[plain(ctx.t("wow.tick_ended", tick=report.ended))]]
    if report.vp_locations and not names:
        head.append([plain(ctx.t("wow.vp_locations"))])
    head += notes_blocks(ctx, done.notes)
    if report.cards_ready:
        head.append([plain(ctx.t("wow.cards_ready"))])
        if report.readied:
            head.append([italic(", ".join(report.readied))])
    if report.new_round:
        head.append([bold(ctx.t("wow.new_round", round=new.round))])
    reply = view.clock_reply(ctx, new, head)
    reply.data = {**(reply.data or {}), **report.model_dump()}
    return reply


async def standings_cmd(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    state = game.state
    rows = wow_state.standings(state)
    decision = victory.decide(rows)
    blocks = view.standing_blocks(ctx, state, rows)
    blocks += notes_blocks(ctx, wow_state.victory_notes(state))
    if decision.reason == "none":
        blocks.append([plain(ctx.t("wow.win_none"))])
    return Reply(
        title=ctx.t("wow.standings_title"),
        blocks=blocks,
        data={
            "system": SYSTEM,
            "standings": [
                {**r.model_dump(), "margin": r.margin, "reached": r.reached} for r in rows
            ],
            "winner": decision.winner,
            "reason": decision.reason,
            "tied": decision.tied,
        },
    )


async def health(ctx: Context) -> Reply:
    """402.3: a Health increase or decrease (not damage, not healing)."""
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    unit = tr.find_unit(state, ctx.opts["name"])
    require_unit_rights(ctx, state, unit, attack=True)
    delta = ctx.opts["change"]
    done = wow_tr.change_health(state, unit.name, delta)
    saved = await apply_change(ctx, done.state, "wow_health", game=game)
    after = tr.find_unit(saved.after, unit.name)
    key = "wow.health_up" if delta >= 0 else "wow.health_down"
    blocks: list[Block] = [[plain(ctx.t(key, unit=after.name, n=abs(delta)))]]
    blocks += notes_blocks(ctx, done.notes)
    blocks += view.unit_with_cards(ctx, after, saved.after.system)
    return Reply(
        title=ctx.t("wow.health_title", unit=after.name),
        blocks=blocks,
        data={
            "system": SYSTEM,
            "unit": after.name,
            "health": after.wounds_left,
            "max_health": after.max_wounds,
            "destroyed": after.destroyed,
        },
    )


async def clock_change(ctx: Context, forced: bool) -> Reply:
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    unit = tr.find_unit(state, ctx.opts["name"])
    if forced:
        require_unit_rights(ctx, state, unit, attack=True)  # an enemy's effect may tick it
        done = wow_tr.force_clock(state, unit.name, ctx.opts["ticks"])
    else:
        require_unit_rights(ctx, state, unit, attack=False)
        done = wow_tr.set_clock(state, unit.name, ctx.opts["tick"])
    await apply_change(ctx, done.state, "wow_forced" if forced else "wow_setclock", game=game)
    line = ctx.t("wow.turn_taken", unit=unit.name, before=done.before, after=done.after)
    return view.clock_reply(ctx, done.state, [[plain(line)]])


async def set_clock(ctx: Context) -> Reply:
    return await clock_change(ctx, forced=False)


async def force_clock(ctx: Context) -> Reply:
    return await clock_change(ctx, forced=True)


async def pet(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    mine = tr.find_unit(state, ctx.opts["name"])
    master = tr.find_unit(state, ctx.opts["master"])
    require_unit_rights(ctx, state, mine, attack=False)
    done = wow_tr.link_pet(state, mine.name, master.name)
    await apply_change(ctx, done.state, "wow_pet", game=game)
    head: list[Block] = [[plain(ctx.t("wow.pet_linked", pet=mine.name, unit=master.name))]]
    head += notes_blocks(ctx, done.notes)
    return view.clock_reply(ctx, done.state, head)


async def effect(ctx: Context) -> Reply:
    """A buff, debuff or other effect on a character, lasting until removed or to the end of a
    tick (301.2b-c)."""
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    unit = tr.find_unit(state, ctx.opts["name"])
    require_unit_rights(ctx, state, unit, attack=True)
    until = ctx.opts.get("tick")
    done = wow_tr.add_effect(state, unit.name, ctx.opts["effect"], until)
    saved = await apply_change(ctx, done.state, "wow_effect", game=game)
    after = tr.find_unit(saved.after, unit.name)
    name = after.conditions[-1].name
    key = "wow.effect_until" if until is not None else "wow.effect_added"
    blocks: list[Block] = [[plain(ctx.t(key, unit=after.name, effect=name, tick=until))]]
    blocks += view.unit_with_cards(ctx, after, SYSTEM)
    return Reply(
        title=ctx.t("wow.effect_title", unit=after.name),
        blocks=blocks,
        data={"system": SYSTEM, "unit": after.name, "effect": name, "until_tick": until},
    )
