"""What each /wow command does to the game: pure functions from a state and the command's input
to the new state and the notes that explain it (the bot loads, checks rights, saves, renders).

The rules decided here: which defence dice oppose an attack (601.2), which card types may be
played as an attack or a heal (202), that an acting character's turn begins with its play and a
card's cost is paid and the card exhausted (300.5, 501), who scores a kill made by an attack
(403.2c, see settings.py), and the Action Bar's limits (300.1-300.2, 100.2/101.2a).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_core.errors import UserError
from rules_core.game.models import GameState, Unit
from rules_core.rules.text import fold
from rules_core.systems.base import Note
from rules_core.systems.wow import cards as wow_cards
from rules_core.systems.wow import system as wow_state
from rules_core.systems.wow.attack import AttackRequest, HealRequest
from rules_core.systems.wow.cards import Card, parse_crit
from rules_core.systems.wow.settings import WowSettings
from rules_core.systems.wow.system import WOW

ATTACK_TYPES = ("physical", "magical")  # 600.1: an attack is physical or magical


@dataclass
class Transition:
    """The game after a command, and what happened on the way (notes: catalogue key, params)."""

    state: GameState
    notes: list[Note] = field(default_factory=list)


def unit_named(state: GameState, name: str) -> Unit:
    """The unit of that exact name (case- and accent-insensitive); the bot resolves what the
    player typed (prefixes, ambiguity) before calling in."""
    key = fold(name)
    found = next((u for u in state.units if fold(u.name) == key), None)
    if found is None:
        raise UserError("game.no_unit", name=name[:40])
    return found


def deal_damage(state: GameState, name: str, amount: int, notes: list[Note]) -> GameState:
    """Damage through WoW's Health model; a destroyed character goes through on_destroyed
    (kill VP, respawn, 403)."""
    if amount < 0:
        raise UserError("game.negative_amount")
    new = state.clone()
    unit = unit_named(new, name)
    alive = not unit.destroyed
    notes += WOW.damage_unit(unit, amount, column=None, dice=None)
    if alive and unit.destroyed:
        notes += WOW.on_destroyed(new, unit)
    return new


def restore_health(state: GameState, name: str, amount: int) -> GameState:
    if amount < 0:
        raise UserError("game.negative_amount")
    new = state.clone()
    WOW.heal_unit(unit_named(new, name), amount)
    return new


# --- building the resolution's input -----------------------------------------------------------


def find_actor_card(state: GameState, actor_name: str, card_name: str | None) -> Card | None:
    """The Action Card the acting character plays, read from its bar (300.1)."""
    actor = unit_named(state, actor_name)
    return wow_cards.find_card(actor, card_name) if card_name else None


def attack_request(
    *,
    power: int | None,
    defense: int | None,
    kind: str | None,
    crit: str | None,
    reroll_attack: int = 0,
    reroll_defense: int = 0,
    elevation: bool = False,
    cover: bool = False,
    target: Unit | None = None,
    card: Card | None = None,
) -> AttackRequest:
    """The given values, else the card's power, type and crit ability; the defence dice from
    the target's card when not given: Armor against physical attacks, Resist against magical
    ones (601.2)."""
    if card is not None and card.type not in ATTACK_TYPES:
        raise UserError("wow.card_not_attack", card=card.name, type=card.type)
    if power is None:
        if card is None:
            raise UserError("wow.power_needed")
        power = card.power
    attack_type = kind or (card.type if card is not None else "physical")
    crit_text = crit if crit else (card.crit if card else "")
    parsed = parse_crit(crit_text, {"damage", "effect"})
    if defense is None:
        stat = "armor" if attack_type == "physical" else "resist"
        defense = target.stats.get(stat, 0) if target is not None else 0
    return AttackRequest(
        power=power,
        defense=defense,
        type=attack_type,
        reroll_attack=reroll_attack,
        reroll_defense=reroll_defense,
        elevation=elevation,
        cover=cover,
        crit_damage=parsed.get("damage", 0),
        crit_effect="effect" in parsed,
    )


def heal_request(
    *, power: int | None, rerolls: int, crit: str | None, card: Card | None
) -> HealRequest:
    """A heal's power and crit bonus (402.2a), else the heal card's."""
    if card is not None and card.type != "heal":
        raise UserError("wow.card_not_heal", card=card.name, type=card.type)
    if power is None:
        if card is None:
            raise UserError("wow.power_needed")
        power = card.power
    parsed = parse_crit(crit or (card.crit if card else ""), {"heal"})
    return HealRequest(power=power, rerolls=rerolls, crit_heal=parsed.get("heal", 0))


# --- playing and applying ----------------------------------------------------------------------


def check_play(state: GameState, actor: Unit, card: Card | None) -> None:
    """Before any die is rolled: may the character play now (its turn, the card ready, the
    cost payable)? Raises the refusal; the same checks run again when the result is applied."""
    if card is not None:
        wow_state.play_card(state, actor, card.name, [])
    else:
        wow_state.start(state, actor, [])


def apply_result(
    state: GameState,
    settings: WowSettings,
    target: str,
    amount: int,
    *,
    heal: bool,
    actor: str | None = None,
    card: str | None = None,
) -> Transition:
    """Damage or heal the target. With an acting character its turn begins (respawning it if
    it waits to, 501.1) and its card is played: the cost paid and the card exhausted (300.5);
    a kill made now scores for the attacker's player (403.2c)."""
    notes: list[Note] = []
    state = wow_state.with_settings(state, settings, replace=True)
    if actor is not None:
        me = unit_named(state, actor)
        if card is not None:
            state = wow_state.play_card(state, me, card, notes)
        else:
            state = wow_state.start(state, me, notes)
        clocks = wow_state.clocks_of(state)
        clocks.striker = me.owner
        state = wow_state.with_clocks(state, clocks)
    if heal:
        state = restore_health(state, target, amount)
    else:
        state = deal_damage(state, target, amount, notes)
    clocks = wow_state.clocks_of(state)
    if clocks.striker is not None:
        clocks.striker = None
        state = wow_state.with_clocks(state, clocks)
    return Transition(state, notes)


def personal_clock(state: GameState, name: str) -> int:
    return wow_state.clocks_of(state).personal.get(fold(name), 1)


# --- the Action Bar ----------------------------------------------------------------------------


def add_card(
    state: GameState,
    settings: WowSettings,
    unit: str,
    *,
    name: str,
    cost: int | None,
    power: int | None,
    kind: str | None,
    range_: int | None,
    crit: str | None,
) -> GameState:
    """A card joins the character's Action Bar (pets have none, no two of one name, at most
    the `card_limit` setting's count: 300.1-300.2, 100.2/101.2a)."""
    if cost is None:
        raise UserError("wow.card_needs_cost")
    new = wow_state.with_settings(state, settings, replace=True).clone()
    card = wow_cards.make_card(name, cost, power, kind, range_, crit)
    wow_cards.add_card(unit_named(new, unit), card, wow_state.settings_of(new).max_cards)
    return new


def remove_card(
    state: GameState, settings: WowSettings, unit: str, name: str
) -> tuple[GameState, Card]:
    new = wow_state.with_settings(state, settings, replace=True).clone()
    removed = wow_cards.remove_card(unit_named(new, unit), name)
    return new, removed


# --- turns -------------------------------------------------------------------------------------


@dataclass
class Turn(Transition):
    before: int = 1  # the character's Personal Clock before and after
    after: int = 1
    played: list[str] = field(default_factory=list)  # the cards' names as on the bar


def take_turn(
    state: GameState,
    unit: Unit,
    *,
    moved_only: bool,
    cost: int = 0,
    cards: list[str] | None = None,
    react: bool = False,
) -> Turn:
    """`act` (pay `cost` and the played cards, end the turn), `react` (a React card on anyone's
    turn: paid and exhausted, no turn begins, 300.3) or `moved` (a move-only turn, 501.3b)."""
    before = personal_clock(state, unit.name)
    notes: list[Note] = []
    played = [] if moved_only else list(cards or [])
    if moved_only:
        new = wow_state.moved(state, unit, notes)
    elif react:
        new = wow_state.react(state, unit, cost, played)
    else:
        new = wow_state.act(state, unit, cost, played, notes)
    mine = unit_named(new, unit.name)
    names = [wow_cards.find_card(mine, n).name for n in played]
    return Turn(new, notes, before, personal_clock(new, unit.name), names)
