"""How /wow replies look: dice lines, the clocks, the Action Bar and the standings."""

from __future__ import annotations

from bot import i18n
from bot.commands.context import Context
from bot.commands.game_view import Reader, unit_line
from bot.commands.system_kit import dice_spans
from bot.protocol import Block, Reply, Span, bold, code, italic, mention, plain, strike
from bot.session import name_of
from rules_core.game.models import GameState, Unit
from rules_core.steps import Step
from rules_core.systems.wow import cards as wow_cards
from rules_core.systems.wow import clock, victory
from rules_core.systems.wow import system as wow_state
from rules_core.systems.wow.attack import AttackRequest
from rules_core.systems.wow.cards import Card

SYSTEM = "wow"


def faces(step: Step) -> list[Span]:
    """The dice in rolling order: rerolled ones struck through, then their replacements."""
    shown = [
        strike(str(f)) if i in step.rerolled else plain(str(f))
        for i, f in enumerate(step.first_rolls)
    ]
    shown += [bold(str(step.final[i])) for i in step.rerolled]
    return dice_spans(shown)


def step_block(
    ctx: Context, step: Step, req: AttackRequest | None, defenders: list[str] | None = None
) -> Block:
    """One step's line; with several defenders (Cleave, AOE) their steps name them."""
    who = ""
    if defenders is not None and "defender" in step.detail:
        who = f" ({defenders[step.detail_int('defender')]})"
    if step.name in ("attack", "defense", "heal"):
        label = ctx.t(f"wow.step.{step.name}")
        if step.name == "defense" and req is not None:
            label = ctx.t(f"wow.step.defense_{req.type}") + who
        line: Block = [bold(label + ": "), *faces(step), plain(" → ")]
        line.append(bold(i18n.tn(ctx.lang, f"wow.count.{step.name}", step.total or 0)))
        if step.name != "defense" and 10 in step.final:
            line.append(plain(" " + ctx.t("wow.crit_mark")))
        return line
    if step.name == "crit":
        return [plain(ctx.t("wow.step.crit_damage", hits=step.total))]
    if step.name == "crit_effect":
        return [plain(ctx.t("wow.step.crit_effect"))]
    return [bold(ctx.t("wow.step.damage") + who + ": "), bold(str(step.total))]


def card_block(ctx: Context, actor: Unit, card: Card) -> Block:
    return [italic(ctx.t("wow.card_used", unit=actor.name, card=card.name, cost=card.cost))]


def card_line(ctx: Reader, card: Card) -> Block:
    """One Action Card in the chat's language: ✔ ready or ✘ exhausted, cost, power, type."""
    parts = [ctx.t("wow.card_shows_cost", cost=card.cost)]
    if card.type != "other" or card.power:  # a buff or a Form rolls nothing
        parts.append(ctx.t("wow.card_shows_power", power=card.power))
    parts.append(ctx.t(f"wow.card_type.{card.type}"))
    if card.range is not None:
        parts.append(ctx.t("wow.card_shows_range", range=card.range))
    if card.crit:
        crits = wow_cards.parse_crit(card.crit)
        shown = ", ".join(
            ctx.t(f"wow.crit.{k}") + ("" if k == "effect" else f" {v}") for k, v in crits.items()
        )
        parts.append(ctx.t("wow.card_shows_crit", crit=shown))
    mark = "✘" if card.exhausted else "✔"
    return [plain(f"{mark} "), bold(card.name), plain(": " + " · ".join(parts))]


def card_blocks(ctx: Reader, unit: Unit) -> list[Block]:
    """The unit's Action Bar, one card a line, in the reader's language."""
    return [card_line(ctx, c) for c in wow_cards.cards_of(unit)]


def unit_with_cards(ctx: Context, unit: Unit, system: str) -> list[Block]:
    """The unit's line and its Action Bar, in the chat's language."""
    return [unit_line(ctx, unit, system), *card_blocks(ctx, unit)]


def card_list_reply(ctx: Context, unit: Unit) -> Reply:
    cards = wow_cards.cards_of(unit)
    blocks: list[Block] = [card_line(ctx, c) for c in cards]
    if not cards:
        blocks.append([plain(ctx.t("wow.no_cards", unit=unit.name))])
    else:
        blocks.append([italic(ctx.t("wow.card_legend"))])
    return Reply(
        title=ctx.t("wow.cards_title", unit=unit.name),
        blocks=blocks,
        data={"system": SYSTEM, "unit": unit.name, "cards": [c.model_dump() for c in cards]},
    )


def clock_blocks(ctx: Context, state: GameState) -> tuple[list[Block], list[str]]:
    """The Master Clock, every character's Personal Clock, and who picks the next turn."""
    clocks = wow_state.clocks_of(state)
    chars = wow_state.characters(state, clocks)
    blocks: list[Block] = [[bold(ctx.t("wow.master_clock", tick=clocks.master, round=state.round))]]
    for c in sorted(chars, key=lambda c: (clock.offset(clocks.master, c.clock), c.name)):
        ahead = clock.offset(clocks.master, c.clock)
        mark = "▶ " if ahead == 0 else "  "
        line: Block = [
            code(f"{mark}{c.clock:>2}"),
            plain(" " + c.name),
            italic(f" ({name_of(state, c.owner)}, +{ahead})"),
        ]
        if not c.in_play:
            line.append(plain(" · " + ctx.t("wow.awaiting_respawn")))
        blocks.append(line)
    current = wow_state.turn_unit(state)
    if current is not None:
        blocks.append([plain(ctx.t("wow.turn_in_progress_note", unit=current.name))])
        return blocks, []
    chooser = wow_state.next_chooser(state)
    if chooser is None:
        blocks.append([plain(ctx.t("wow.nobody_ready"))])
        return blocks, []
    ready = wow_state.ready_now(state)
    if len(ready) == 1:  # the only character ready takes the next turn: nobody chooses
        said = ctx.t("wow.ready_one", unit=ready[0].name)
    else:
        said = ctx.t("wow.ready", units=", ".join(c.name for c in ready))
    blocks.append([plain(said + " "), mention(chooser, name_of(state, chooser))])
    return blocks, [chooser]


def clock_reply(ctx: Context, state: GameState, head: list[Block]) -> Reply:
    blocks, mentions = clock_blocks(ctx, state)
    clocks = wow_state.clocks_of(state)
    current = wow_state.turn_unit(state)
    return Reply(
        title=ctx.t("wow.clock_title"),
        blocks=head + blocks,
        mentions=mentions,
        data={
            "system": SYSTEM,
            "master": clocks.master,
            "round": state.round,
            "clocks": {c.name: c.clock for c in wow_state.characters(state, clocks)},
            "ready": [c.name for c in wow_state.ready_now(state)],
            "chooser": wow_state.next_chooser(state),
            "turn": current.name if current else None,
            "respawn": [c.name for c in wow_state.characters(state, clocks) if not c.in_play],
        },
    )


def _standing(ctx: Context, row: victory.Standing) -> str:
    """`0 VP su Onore 30: ne mancano 30`, or by how much the party's Honor is passed."""
    if row.margin < 0:
        return ctx.t("wow.standing_missing", vp=row.vp, honor=row.honor, n=-row.margin)
    return ctx.t("wow.standing_reached", vp=row.vp, honor=row.honor, n=row.margin)


def standing_blocks(ctx: Context, state: GameState, rows: list[victory.Standing]) -> list[Block]:
    blocks: list[Block] = []
    for row in sorted(rows, key=lambda r: (-r.margin, -r.honor)):
        mark = "✔ " if row.reached else "  "
        blocks.append(
            [
                code(mark),
                bold(name_of(state, row.player)),
                plain(" " + _standing(ctx, row)),
            ]
        )
    return blocks
