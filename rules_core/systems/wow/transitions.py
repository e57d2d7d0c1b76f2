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
from rules_core.game.models import Condition, GameState, ScoreEntry, Unit
from rules_core.rules.text import fold
from rules_core.systems.base import Note
from rules_core.systems.wow import cards as wow_cards
from rules_core.systems.wow import clock
from rules_core.systems.wow import system as wow_state
from rules_core.systems.wow.attack import AttackRequest, HealRequest
from rules_core.systems.wow.cards import Card, parse_crit
from rules_core.systems.wow.settings import WowSettings
from rules_core.systems.wow.system import WOW

ATTACK_TYPES = ("physical", "magical")  # 600.1: an attack is physical or magical
MAX_HEALTH = 99  # the health stat's bound
MAX_EFFECTS = 20  # buffs, debuffs and other effects on one character
MAX_EFFECT_NAME = 40


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
    force_reroll_attack: int = 0,
    force_reroll_defense: int = 0,
    settings: WowSettings | None = None,
    target: Unit | None = None,
    card: Card | None = None,
    attacker: Unit | None = None,
) -> AttackRequest:
    """The given values, else the card's power, type and crit ability, else the attacker's
    primary attack (its `attack` power and `magical` type on the Character Card, 600.1); the
    defence dice from the target's card when not given: Armor against physical attacks,
    Resist against magical ones (601.2)."""
    if card is not None and card.type not in ATTACK_TYPES:
        raise UserError("wow.card_not_attack", card=card.name, type=card.type)
    primary = card is None and attacker is not None and "attack" in attacker.stats
    if power is None:
        if card is not None:
            power = card.power
        elif primary and attacker is not None:
            power = attacker.stats["attack"]
        else:
            raise UserError("wow.power_needed")
    default_type = "magical" if primary and attacker and attacker.stats.get("magical") else None
    given = wow_cards.card_type(kind, ATTACK_TYPES)
    attack_type = given or (card.type if card is not None else default_type or "physical")
    crit_text = crit if crit else (card.crit if card else "")
    parsed = parse_crit(crit_text, {"damage", "effect"})
    if defense is None:
        defense = defense_dice(attack_type, target, None) if target is not None else 0
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
        force_reroll_attack=force_reroll_attack,
        force_reroll_defense=force_reroll_defense,
        forced_crits_first=(settings or WowSettings()).forced_reroll == "crits_first",
    )


def defense_dice(kind: str, target: Unit, given: int | None) -> int:
    """601.2: the defender rolls its Armor against a physical attack, its Resist against a
    magical one, unless the number of dice is given."""
    if given is not None:
        return given
    return target.stats.get("armor" if kind == "physical" else "resist", 0)


def heal_request(
    *,
    power: int | None,
    rerolls: int,
    crit: str | None,
    card: Card | None,
    target: Unit | None = None,
) -> HealRequest:
    """A heal's power and crit bonus (402.2a), else the heal card's; with a target, the heal
    restores at most the Health it is missing (402.2: never above Max Health)."""
    if card is not None and card.type != "heal":
        raise UserError("wow.card_not_heal", card=card.name, type=card.type)
    if power is None:
        if card is None:
            raise UserError("wow.power_needed")
        power = card.power
    parsed = parse_crit(crit or (card.crit if card else ""), {"heal"})
    missing = None if target is None else min(target.damage, target.max_wounds)
    return HealRequest(
        power=power, rerolls=rerolls, crit_heal=parsed.get("heal", 0), missing=missing
    )


def allies(state: GameState, a: Unit, b: Unit) -> bool:
    """Same player, or players on the same side."""
    return wow_state.same_team(state, a.owner, b.owner)


def check_target(state: GameState, actor: Unit, target: Unit, *, heal: bool) -> None:
    """407.1a: attacks (and debuffs) can't target allies; heals (and buffs) can't target
    enemies. A character is its own ally."""
    if target.destroyed:  # waiting to respawn: out of play, no target (403.3, 407.1)
        raise UserError("wow.target_out_of_play", target=target.name)
    friendly = allies(state, actor, target)
    if heal and not friendly:
        raise UserError("wow.target_enemy", unit=actor.name, target=target.name)
    if not heal and friendly:
        raise UserError("wow.target_ally", unit=actor.name, target=target.name)


# --- playing and applying ----------------------------------------------------------------------


def check_play(
    state: GameState,
    actor: Unit,
    card: Card | None,
    target: Unit | None = None,
    *,
    heal: bool = False,
) -> None:
    """Before any die is rolled: may the character play now (its turn, the card ready, the
    cost payable) on this target (407.1a)? Raises the refusal; the same checks run again when
    the result is applied."""
    if target is not None:
        check_target(state, actor, target, heal=heal)
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
    return apply_results(state, settings, [(target, amount)], heal=heal, actor=actor, card=card)


def distinct_targets(state: GameState, names: list[str]) -> list[Unit]:
    """407.1b: an ability with several targets can't target the same one twice."""
    units = [unit_named(state, n) for n in names]
    seen: set[str] = set()
    for unit in units:
        if fold(unit.name) in seen:
            raise UserError("wow.target_twice", unit=unit.name)
        seen.add(fold(unit.name))
    return units


def apply_results(
    state: GameState,
    settings: WowSettings,
    results: list[tuple[str, int]],
    *,
    heal: bool,
    actor: str | None = None,
    card: str | None = None,
) -> Transition:
    """`apply_result` for one roll against several targets (Cleave, AOE): the play is paid
    once, then every target takes its damage (403.2: none is destroyed before all defended,
    so the order of the hooks below changes nothing)."""
    notes: list[Note] = []
    state = wow_state.with_settings(state, settings, replace=True)
    targets = distinct_targets(state, [name for name, _ in results])
    if actor is not None:
        me = unit_named(state, actor)
        for unit in targets:
            check_target(state, me, unit, heal=heal)
        if card is not None:
            state = wow_state.play_card(state, me, card, notes)
        else:
            state = wow_state.start(state, me, notes)
        clocks = wow_state.clocks_of(state)
        clocks.striker = me.owner
        state = wow_state.with_clocks(state, clocks)
    for unit, (_, amount) in zip(targets, results, strict=True):
        if heal:
            state = restore_health(state, unit.name, amount)
        else:
            state = deal_damage(state, unit.name, amount, notes)
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


COST_FIELDS = ("cost", "costo")  # a roster's tick cost: `cost=` in text, BattleScribe's `Cost`


def _roster_number(field: str, raw: str | None) -> int | None:
    if raw is None or not raw.strip() or raw.strip() in ("-", "—"):
        return None
    if not raw.strip().isdecimal():
        raise UserError("army.not_a_number", field=field, value=raw[:20])
    return int(raw.strip())


def roster_card(
    state: GameState, unit: Unit, name: str, values: dict[str, str], kept: dict[str, str]
) -> list[Note]:
    """An attack of a roster (/army add, load, import) joins `unit`'s Action Bar (`state` and
    `unit` in it mutable) as `/wow card add` would put it: its Cost as the tick cost (202,
    L256; every attack has one, 600.1), power, range and type (physical or magical, 600.1c),
    the same refusals (a pet has no bar, no two cards of one name, the card limit). Raises
    UserError when the values can't make a card."""
    raw_cost = values.get("cost") or next(
        (v for k, v in kept.items() if fold(k).strip() in COST_FIELDS), None
    )
    cost = _roster_number("cost", raw_cost)
    if cost is None:
        raise UserError("wow.card_needs_cost")
    card = wow_cards.make_card(
        name,
        cost,
        _roster_number("power", values.get("power")),
        values.get("type"),
        _roster_number("range", values.get("range")),
        None,
    )
    wow_cards.add_card(unit, card, wow_state.settings_of(state).max_cards)
    return []


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


# --- Health changes (402.3) --------------------------------------------------------------------


def change_health(state: GameState, name: str, delta: int) -> Transition:
    """402.3a/b: a Health decrease (increase) lowers (raises) current and Max Health alike;
    it is not damage (healing). Max Health is the printed Health plus these changes (402.3c).
    A decrease to 0 destroys the character, which scores like any kill (403.2c)."""
    new = state.clone()
    unit = unit_named(new, name)
    if unit.destroyed:
        raise UserError("wow.unit_destroyed", unit=unit.name)
    wow_state.wow_extra(unit).setdefault("printed_health", wow_state.printed_health(unit))
    target_max = unit.wounds_per_model + delta
    if target_max > MAX_HEALTH:
        raise UserError("wow.health_limit", limit=MAX_HEALTH)
    notes: list[Note] = []
    if target_max - unit.damage > 0:
        wow_state.set_max_health(unit, target_max)  # the damage taken stays as it was
        return Transition(new, notes)
    wow_state.set_max_health(unit, max(1, target_max))
    unit.damage = unit.max_wounds  # 0 Health or less: destroyed (402.1)
    notes += WOW.on_destroyed(new, unit)
    return Transition(new, notes)


# --- corrections and forced clock moves (408) ---------------------------------------------------


@dataclass
class ClockMove(Transition):
    before: int = 1
    after: int = 1


def set_clock(state: GameState, name: str, tick: int) -> ClockMove:
    """A correction: the character's Personal Clock is put at `tick` (1-10). Any value is
    0-9 ticks ahead of the Master Clock, so it is always legal (408.2a)."""
    if not 1 <= tick <= clock.TICKS:
        raise UserError("wow.bad_tick", limit=clock.TICKS)
    unit = unit_named(state, name)
    clocks = wow_state.clocks_of(state)
    before = clocks.personal.get(fold(unit.name), clocks.master)
    clocks.personal[fold(unit.name)] = tick
    return ClockMove(wow_state.with_clocks(state, clocks), [], before, tick)


def force_clock(state: GameState, name: str, ticks: int) -> ClockMove:
    """An effect ticks the character's clock up (`ticks` > 0) or down: up stops at exactly 9
    ahead of the Master Clock, down stops level with it (408.2a)."""
    unit = unit_named(state, name)
    clocks = wow_state.clocks_of(state)
    key = fold(unit.name)
    before = clocks.personal.get(key, clocks.master)
    if ticks >= 0:
        after = clock.forced_tick_up(clocks.master, before, ticks)
    else:
        after = clock.tick_down(clocks.master, before, -ticks)
    clocks.personal[key] = after
    return ClockMove(wow_state.with_clocks(state, clocks), [], before, after)


# --- Pets (304) ---------------------------------------------------------------------------------


def link_pet(state: GameState, pet: str, master: str) -> Transition:
    """A Pet added with /unit add is tied to the character that summoned it: its clock is the
    master's (304.2), the Pet it replaces leaves play (304.1, the `pet_limit` setting), and it
    leaves play when the master is destroyed (304.2)."""
    new = state.clone()
    mine, boss = unit_named(new, pet), unit_named(new, master)
    if not mine.stats.get("pet"):
        raise UserError("wow.not_a_pet", unit=mine.name)
    if boss.stats.get("pet") or boss is mine:
        raise UserError("wow.bad_master", unit=boss.name)
    if boss.owner != mine.owner:
        raise UserError("wow.master_not_yours", unit=boss.name, pet=mine.name)
    old = wow_state.link_pet(new, mine, boss)
    notes: list[Note] = [("wow.pet_replaced", {"pet": o.name, "new": mine.name}) for o in old]
    return Transition(new, notes)


# --- effects that last until the end of a tick (301.2c) ---------------------------------------


def effect_ends(unit: Unit) -> dict[str, int]:
    """Folded effect name -> the tick at whose end it goes."""
    ends: dict[str, int] = wow_state.wow_extra(unit).setdefault("effect_ends", {})
    return ends


def add_effect(state: GameState, name: str, effect: str, until_tick: int | None) -> Transition:
    """A buff, debuff, Form, Stealth, Taunt... on the character, shown like any condition.
    Played again it replaces the old one (301.2b, D18); with `until_tick` it is removed at the
    end of that tick (301.2c: "at the end of tick 10 remove this buff"), else it stays until
    removed."""
    label = " ".join(effect.split())
    if not 1 <= len(label) <= MAX_EFFECT_NAME:
        raise UserError("wow.bad_effect_name", limit=MAX_EFFECT_NAME)
    if until_tick is not None and not 1 <= until_tick <= clock.TICKS:
        raise UserError("wow.bad_tick", limit=clock.TICKS)
    new = state.clone()
    unit = unit_named(new, name)
    key = fold(label)
    unit.conditions = [c for c in unit.conditions if fold(c.name) != key]
    if len(unit.conditions) >= MAX_EFFECTS:
        raise UserError("game.too_many_conditions", limit=MAX_EFFECTS)
    unit.conditions.append(Condition(name=label))
    ends = effect_ends(unit)
    ends.pop(key, None)
    if until_tick is not None:
        ends[key] = until_tick
    return Transition(new)


def expire_effects(state: GameState, ended: int) -> list[Note]:
    """`state` is mutable: the effects lasting until the end of tick `ended` go (301.2c)."""
    notes: list[Note] = []
    for unit in state.units:
        ends = unit.extra.get("wow", {}).get("effect_ends", {})
        gone = {key for key, tick in ends.items() if tick == ended}
        if not gone:
            continue
        for cond in [c for c in unit.conditions if fold(c.name) in gone]:
            notes.append(("wow.effect_expired", {"unit": unit.name, "effect": cond.name}))
        unit.conditions = [c for c in unit.conditions if fold(c.name) not in gone]
        for key in gone:
            ends.pop(key)
    return notes


# --- the end of a tick (502) -------------------------------------------------------------------


@dataclass
class TickEnd(Transition):
    report: wow_state.TickReport | None = None


def end_tick(state: GameState, at_locations: list[str] | None = None) -> TickEnd:
    """The tick ends (500.3a, 502). At the end of ticks 5 and 10 every non-Pet character in
    play on or next to a VP location scores 1 VP for its player (502.1; Pets never, 304.2):
    `at_locations` names them, once each (704.2c: a same-name trigger hits a character once).
    Then a player reaching their Honor total wins (102.1), announced here."""
    new = state.clone()
    notes: list[Note] = []
    names = at_locations or []
    if names:
        if wow_state.clocks_of(new).master not in clock.VP_TICKS:
            raise UserError("wow.vp_not_now")
        seen: set[str] = set()
        for name in names:
            unit = unit_named(new, name)
            if fold(unit.name) in seen:
                raise UserError("wow.vp_twice", unit=unit.name)
            seen.add(fold(unit.name))
            if unit.destroyed:
                raise UserError("wow.unit_destroyed", unit=unit.name)
        listed = [unit_named(new, n) for n in names]
        notes += [("wow.vp_pet", {"unit": u.name}) for u in listed if u.stats.get("pet")]
        scorers = [u for u in listed if not u.stats.get("pet")]
    else:
        scorers = []
    after, report = wow_state.tick(new)
    notes += expire_effects(after, report.ended)
    for unit in scorers:
        after.score_log.append(ScoreEntry(user_id=unit.owner, points=1, reason=unit.name))
        notes.append(("wow.vp_scored", {"unit": unit.name, "player": unit.owner_name}))
    if scorers:
        notes += wow_state.victory_notes(after)
    return TickEnd(after, notes, report)
