"""/wow commands that change the game without dice: Action Cards, turns and the clocks, ticks,
Health changes, effects, Pets and the standings."""

from __future__ import annotations

from bot.commands.context import Context
from bot.commands.game_view import notes_blocks
from bot.commands.wow import view
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
    """A Health increase or decrease (not damage, not healing): `transitions` has the rule."""
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
    tick (the rule is in `rules_core.systems.wow`)."""
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
