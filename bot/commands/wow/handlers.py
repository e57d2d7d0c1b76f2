"""/wow commands that change the game without dice: Action Cards, turns and the clocks, ticks,
Health changes, effects, Pets and the standings."""

from __future__ import annotations

from bot.commands.context import Context
from bot.commands.game_view import notes_blocks
from bot.commands.wow import view
from bot.commands.wow.args import (
    ActArgs,
    CardArgs,
    EffectArgs,
    ForceArgs,
    HealthArgs,
    NameArgs,
    PetArgs,
    SetClockArgs,
    TickArgs,
)
from bot.commands.wow.common import GAME, SETTINGS, SYSTEM, card_names, synced
from bot.protocol import Block, Reply, bold, italic, plain
from bot.session import apply_change, require_player, require_unit_rights
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState
from rules_core.systems.wow import system as wow_state
from rules_core.systems.wow import transitions as wow_tr
from rules_core.systems.wow import victory
from rules_core.systems.wow.cards import Card


async def card_cmd(ctx: Context) -> Reply:
    a = ctx.args(CardArgs)
    game = await GAME.load(ctx)
    unit = tr.find_unit(game.state, a.name)
    action = a.action
    if action == "list":
        return view.card_list_reply(ctx, unit)
    card_name = a.card
    if not card_name:
        raise UserError("wow.card_needs_name", action=action)
    chat = await SETTINGS.load(ctx)
    removed: list[Card] = []

    def change(state: GameState) -> GameState:
        if action == "add":
            return wow_tr.add_card(
                state,
                chat,
                unit.name,
                name=card_name,
                cost=a.cost,
                power=a.power,
                kind=a.type,
                range_=a.range,
                crit=a.crit,
            )
        new, card = wow_tr.remove_card(state, chat, unit.name, card_name)
        removed[:] = [card]
        return new

    done = await apply_change(ctx, change, f"wow_card_{action}", unit=unit.name, game=game)
    after = done.unit or unit
    reply = view.card_list_reply(ctx, after)
    key = "wow.card_added" if action == "add" else "wow.card_removed"
    shown = removed[0].name if removed else card_name
    reply.blocks.insert(0, [plain(ctx.t(key, unit=after.name, card=shown))])
    return reply


async def clock_show(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    reply = view.clock_reply(ctx, game.state, [])
    reply.mentions = []  # looking at the clock pings nobody
    return reply


async def take_turn(ctx: Context, name: str, act: ActArgs | None) -> Reply:
    """`act` (its options), or a move-only turn (`act` None)."""
    kind = "moved" if act is None else "act"
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    unit = tr.find_unit(state, name)
    require_unit_rights(ctx, state, unit, attack=False)
    turn = wow_tr.take_turn(
        state,
        unit,
        moved_only=act is None,
        cost=(act.cost or 0) if act else 0,
        cards=card_names(act.card) if act else [],
        react=act is not None and act.react,
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
    a = ctx.args(ActArgs)
    return await take_turn(ctx, a.name, a)


async def moved(ctx: Context) -> Reply:
    return await take_turn(ctx, ctx.args(NameArgs).name, None)


async def tick(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    require_player(ctx, state)
    names = [tr.find_unit(state, n).name for n in card_names(ctx.args(TickArgs).vp)]
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
    """A Health increase or decrease (not damage, not healing): `transitions` has the rule."""
    a = ctx.args(HealthArgs)
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    unit = tr.find_unit(state, a.name)
    require_unit_rights(ctx, state, unit, attack=True)
    delta = a.change
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


async def clock_change(ctx: Context, name: str, *, tick: int = 0, forced: int | None) -> Reply:
    """The clock put at `tick`, or moved by `forced` ticks (an effect)."""
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    unit = tr.find_unit(state, name)
    if forced is not None:
        require_unit_rights(ctx, state, unit, attack=True)  # an enemy's effect may tick it
        done = wow_tr.force_clock(state, unit.name, forced)
    else:
        require_unit_rights(ctx, state, unit, attack=False)
        done = wow_tr.set_clock(state, unit.name, tick)
    kind = "wow_forced" if forced is not None else "wow_setclock"
    await apply_change(ctx, done.state, kind, game=game)
    line = ctx.t("wow.turn_taken", unit=unit.name, before=done.before, after=done.after)
    return view.clock_reply(ctx, done.state, [[plain(line)]])


async def set_clock(ctx: Context) -> Reply:
    a = ctx.args(SetClockArgs)
    return await clock_change(ctx, a.name, tick=a.tick, forced=None)


async def force_clock(ctx: Context) -> Reply:
    a = ctx.args(ForceArgs)
    return await clock_change(ctx, a.name, forced=a.ticks)


async def pet(ctx: Context) -> Reply:
    a = ctx.args(PetArgs)
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    mine = tr.find_unit(state, a.name)
    master = tr.find_unit(state, a.master)
    require_unit_rights(ctx, state, mine, attack=False)
    done = wow_tr.link_pet(state, mine.name, master.name)
    await apply_change(ctx, done.state, "wow_pet", game=game)
    head: list[Block] = [[plain(ctx.t("wow.pet_linked", pet=mine.name, unit=master.name))]]
    head += notes_blocks(ctx, done.notes)
    return view.clock_reply(ctx, done.state, head)


async def effect(ctx: Context) -> Reply:
    """A buff, debuff or other effect on a character, lasting until removed or to the end of a
    tick (the rule is in `rules_core.systems.wow`)."""
    a = ctx.args(EffectArgs)
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    unit = tr.find_unit(state, a.name)
    require_unit_rights(ctx, state, unit, attack=True)
    until = a.tick
    done = wow_tr.add_effect(state, unit.name, a.effect, until)
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
