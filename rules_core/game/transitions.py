"""Pure changes to a game's state. Each takes a state and returns a new one (the input is
never modified), or raises UserError with a `game.*` key. Permission checks are the caller's
job; these only enforce the rules of the state itself."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import Condition, GameState, Player, Unit, Until, unit_key
from rules_core.game.stat_names import canonical_stats
from rules_core.rules.text import fold
from rules_core.systems import get_system
from rules_core.systems.base import GameSystem, Note

MAX_UNITS = 200
MAX_PLAYERS = 16
MAX_CONDITIONS = 20
MAX_NAME = 40
_MAX_ROLLOFF_THROWS = 10
_DURATION = re.compile(r"^(end-of-turn|end-of-round|permanent|rounds?:(\d{1,3}))$")
# The same durations as an Italian player types them (`fino=fine-turno`, `round:2`).
_ITALIAN_UNTIL = {
    "fine-turno": "end-of-turn",
    "fine-round": "end-of-round",
    "permanente": "permanent",
}


def clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise UserError("game.bad_name", limit=MAX_NAME)
    return name


def find_unit(state: GameState, name: str) -> Unit:
    """By name, case- and accent-insensitive, or by an unambiguous prefix."""
    key = fold(name.strip())
    exact = [u for u in state.units if fold(u.name) == key]
    if exact:
        return exact[0]
    matches = [u for u in state.units if fold(u.name).startswith(key)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise UserError("game.no_unit", name=name[:40])
    raise UserError(
        "game.ambiguous_unit", name=name[:40], options=", ".join(u.name for u in matches[:6])
    )


def join(state: GameState, user_id: str, name: str, side: str | None) -> GameState:
    """A new player at the end of the turn order; a player already in the game (the organiser
    is, from the start) who names another side plays for that side from now, in the same seat."""
    me = state.player(user_id)
    if me is not None:
        if side is None or side == me.side:
            raise UserError("game.already_joined")
        new = state.clone()
        seat = new.player(user_id)
        assert seat is not None
        seat.side = side
        return new
    if len(state.players) >= MAX_PLAYERS:
        raise UserError("game.too_many_players", limit=MAX_PLAYERS)
    new = state.clone()
    new.players.append(Player(user_id=user_id, name=name, side=side))
    new.order.append(user_id)
    return new


def leave(state: GameState, user_id: str) -> GameState:
    if not state.player(user_id):
        raise UserError("game.not_a_player")
    new = state.clone()
    current = new.current
    new.players = [p for p in new.players if p.user_id != user_id]
    new.order = [u for u in new.order if u != user_id]
    if new.order:
        new.turn = new.order.index(current) if current in new.order else new.turn % len(new.order)
    else:
        new.turn = 0
    return new


def add_unit(
    state: GameState,
    name: str,
    owner: Player,
    stats: Mapping[str, int | str],
    options: dict[str, str] | None = None,
) -> GameState:
    """A new unit; a stat may be given as the card prints it (`salvezza=4+`, see StatSpec)."""
    system = get_system(state.system)
    name = clean_name(name)
    if any(fold(u.name) == fold(name) for u in state.units):
        raise UserError("game.duplicate_unit", name=name)
    if len(state.units) >= MAX_UNITS:
        raise UserError("game.too_many_units", limit=MAX_UNITS)
    typed = canonical_stats(state.system, stats)  # `modelli=5 ferite=2` as `models`, `wounds`
    models = _models(system, typed.pop("models", 1))
    checked = system.validate_stats(typed, creating=True)
    unit = Unit(
        name=name,
        owner=owner.user_id,
        owner_name=owner.name,
        stats=checked,
        models=models,
        wounds_per_model=checked.get(system.wounds_stat, 1),
    )
    new = state.clone()
    new.units.append(unit)
    system.setup_unit(new, new.units[-1], options or {})
    return new


def set_stats(
    state: GameState,
    name: str,
    stats: Mapping[str, int | str],
    options: dict[str, str] | None = None,
) -> GameState:
    """Change a unit's stats, and the system's own options (`GameSystem.update_unit`)."""
    system = get_system(state.system)
    new = state.clone()
    unit = find_unit(new, name)
    if options:
        system.update_unit(new, unit, options)
    typed = canonical_stats(state.system, stats)
    if "models" in typed:
        unit.models = _models(system, typed.pop("models"))
    checked = system.validate_stats(typed, creating=False)
    system.check_stats(new, unit, checked)
    unit.stats.update(checked)
    unit.wounds_per_model = unit.stats.get(system.wounds_stat, unit.wounds_per_model)
    unit.damage = min(unit.damage, unit.max_wounds)
    return new


def _models(system: GameSystem, given: int | str) -> int:
    models = system.read_stat("models", given) if isinstance(given, str) else given
    if not 1 <= models <= 100:
        raise UserError("game.stat_range", stat="models", min=1, max=100, stat_system=system.id)
    return models


def damage(
    state: GameState,
    name: str,
    amount: int,
    *,
    column: int | None = None,
    dice: DiceSource | None = None,
    notes: list[Note] | None = None,
    model: int | None = None,
) -> GameState:
    """Through the system's damage model (a grid may roll its column with `dice`; `model`
    names the model of a multi-model unit that is hit, where the system allows it)."""
    if amount < 0:
        raise UserError("game.negative_amount")
    new = state.clone()
    unit = find_unit(new, name)
    system = get_system(new.system)
    alive = not unit.destroyed
    if model is not None:
        if column is not None:
            raise UserError("game.no_unit_options", system=system.id, option="column")
        said = system.damage_one_model(unit, amount, model)
    else:
        said = system.damage_unit(unit, amount, column=column, dice=dice)
    said += system.after_damage(new, unit)
    if alive and unit.destroyed:
        said += system.on_destroyed(new, unit)
    if notes is not None:
        notes.extend(said)
    return new


def heal(state: GameState, name: str, amount: int) -> GameState:
    if amount < 0:
        raise UserError("game.negative_amount")
    new = state.clone()
    unit = find_unit(new, name)
    before = unit.damage
    get_system(new.system).heal_unit(unit, amount)
    if amount and unit.damage == before:  # said, not an unchanged unit as if it had healed
        raise UserError("game.nothing_to_heal", unit=unit.name)
    return new


def remove_unit(state: GameState, name: str) -> GameState:
    new = state.clone()
    unit = find_unit(new, name)
    new.units = [u for u in new.units if u is not unit]
    new.resources.pop(unit_key(unit.name), None)
    return new


def parse_until(text: str | None) -> tuple[Until, int | None]:
    if not text:
        return "permanent", None
    typed = text.strip().lower()
    m = _DURATION.match(_ITALIAN_UNTIL.get(typed, typed))
    if m is None:
        raise UserError("game.bad_until")
    if m.group(2):
        rounds = int(m.group(2))
        if rounds < 1:
            raise UserError("game.bad_until")
        return "rounds", rounds
    return m.group(1), None  # type: ignore[return-value]


def add_condition(state: GameState, name: str, condition: str, until: str | None) -> GameState:
    """Without `until`, a condition the system knows lasts its own default time (and takes
    its canonical name); any other condition is permanent until removed."""
    known = get_system(state.system).condition(condition) if not until else None
    if known is not None:
        kind, rounds = known.until, known.rounds
        condition = known.name
    else:
        kind, rounds = parse_until(until)
    condition = clean_name(condition)
    new = state.clone()
    unit = find_unit(new, name)
    get_system(state.system).check_condition(unit, condition)
    unit.conditions = [c for c in unit.conditions if fold(c.name) != fold(condition)]
    if len(unit.conditions) >= MAX_CONDITIONS:
        raise UserError("game.too_many_conditions", limit=MAX_CONDITIONS)
    unit.conditions.append(Condition(name=condition, until=kind, rounds_left=rounds))
    return new


def remove_condition(state: GameState, name: str, condition: str) -> GameState:
    new = state.clone()
    unit = find_unit(new, name)
    kept = [c for c in unit.conditions if fold(c.name) != fold(condition)]
    if len(kept) == len(unit.conditions):
        raise UserError("game.no_condition", unit=unit.name, condition=condition[:40])
    unit.conditions = kept
    return new


def _expire(state: GameState, *, round_end: bool) -> None:
    for unit in state.units:
        kept = []
        for cond in unit.conditions:
            if cond.until == "end-of-turn":
                continue
            if round_end and cond.until == "end-of-round":
                continue
            if round_end and cond.until == "rounds" and cond.rounds_left is not None:
                cond.rounds_left -= 1
                if cond.rounds_left <= 0:
                    continue
            kept.append(cond)
        unit.conditions = kept


def _refresh(state: GameState) -> None:
    system = get_system(state.system)
    for spec in system.resources:
        if spec.per == "player" and spec.refresh_to is not None:
            for player in state.players:
                state.resources.setdefault(f"player:{player.user_id}", {})[spec.name] = (
                    spec.refresh_to
                )
        if spec.per == "unit" and spec.refresh_from_stat is not None:
            for unit in state.units:
                value = unit.stats.get(spec.refresh_from_stat)
                if value is not None:
                    state.resources.setdefault(unit_key(unit.name), {})[spec.name] = value


def rolloff(
    players: list[str], roll: Callable[[int], int]
) -> tuple[list[str], list[list[tuple[str, int]]]]:
    """Each player rolls a D6, highest first; players who tie roll again among themselves
    to settle only their own places. Returns the order and every throw, for the reply."""
    throws: list[list[tuple[str, int]]] = []

    def settle(group: list[str], depth: int = 0) -> list[str]:
        # A tie still standing after 10 throws (only a broken dice source) keeps the old order.
        if len(group) < 2 or depth >= _MAX_ROLLOFF_THROWS:
            return group
        faces = [(u, roll(6)) for u in group]
        throws.append(faces)
        out: list[str] = []
        for face in sorted({f for _, f in faces}, reverse=True):
            tied = [u for u, f in faces if f == face]
            out += settle(tied, depth + 1 if len(tied) == len(group) else 0)
        return out

    return settle(list(players)), throws


def next_round(
    state: GameState,
    roll: Callable[[int], int] | None = None,
    *,
    dice: DiceSource | None = None,
    notes: list[Note] | None = None,
) -> GameState:
    """A new round: conditions expire, resources refresh, a roll-off system rolls for the new
    order (with `roll`, the command's dice), then the system's `start_round` hook runs."""
    new = state.clone()
    _expire(new, round_end=True)
    new.round += 1
    new.turn_seq += 1
    new.turn = 0
    new.phase = 0
    new.rolloff = []
    if get_system(new.system).order == "rolloff" and len(new.order) > 1 and roll is not None:
        new.order, new.rolloff = rolloff(new.order, roll)
    _refresh(new)
    said = get_system(new.system).start_round(new, dice)
    if notes is not None:
        notes.extend(said)
    return new


def end_turn(
    state: GameState,
    roll: Callable[[int], int] | None = None,
    *,
    dice: DiceSource | None = None,
    notes: list[Note] | None = None,
) -> GameState:
    """The next player's turn. After the last player in the order a new round begins, except
    with alternating activations, where play goes back and forth until `/round next`."""
    if not state.order:
        raise UserError("game.no_players")
    new = state.clone()
    _expire(new, round_end=False)
    new.turn += 1
    new.turn_seq += 1
    new.rolloff = []
    if get_system(new.system).order != "alternating":  # alternating: the lead passes in-phase
        new.phase = 0
    if get_system(new.system).order == "alternating":
        new.turn %= len(new.order)
    elif new.turn >= len(new.order):
        new = next_round(new, roll, dice=dice, notes=notes)
    # The system's start-of-turn bookkeeping (e.g. WARMACHINE's Maintenance and Control).
    said = get_system(new.system).start_turn(new, dice)
    if notes is not None:
        notes.extend(said)
    return new


def next_phase(state: GameState) -> GameState:
    phases = get_system(state.system).phases
    new = state.clone()
    if new.phase + 1 >= len(phases):
        raise UserError("game.last_phase", phase=phases[new.phase])
    new.phase += 1
    return new


def set_order(state: GameState, user_ids: list[str]) -> GameState:
    players = {p.user_id for p in state.players}
    if sorted(user_ids) != sorted(players) or len(set(user_ids)) != len(user_ids):
        raise UserError("game.bad_order")
    new = state.clone()
    new.order = list(user_ids)
    new.turn = 0
    return new


def resource_key(
    state: GameState,
    user_id: str,
    unit: str | None,
    resource: str | None = None,
    *,
    spend: bool = False,
) -> str:
    """Whose pool a change of `resource` is: the named unit's, else the player's; a pool the
    game keeps per unit (WARMACHINE's focus) with no unit named is the one unit of the
    player's that holds it (for a spend, the one with some left), and more than one, or none,
    is refused naming them: never the player's own empty pool."""
    if unit:
        return unit_key(find_unit(state, unit).name)
    spec = next((r for r in get_system(state.system).resources if r.name == resource), None)
    if spec is None or spec.per != "unit":
        return f"player:{user_id}"
    pools = {u.name: state.resources.get(unit_key(u.name), {}) for u in state.units}
    held = [u for u in state.units if u.owner == user_id and spec.name in pools[u.name]]
    if spend and len(held) > 1:
        held = [u for u in held if pools[u.name][spec.name] > 0] or held
    if len(held) == 1:
        return unit_key(held[0].name)
    if not held:
        raise UserError("game.no_unit_pool", resource=spec.name)
    raise UserError(
        "game.which_unit_pool", resource=spec.name, units=", ".join(u.name for u in held)
    )


def change_resource(
    state: GameState, owner_key: str, name: str, op: str, amount: int
) -> tuple[GameState, int]:
    spec = get_system(state.system).resource(name.lower())
    if amount < 0:
        raise UserError("game.negative_amount")
    new = state.clone()
    pools = new.resources.setdefault(owner_key, {})
    current = pools.get(spec.name, 0)
    if op == "set":
        value = amount
    elif op == "add":
        value = current + amount
    else:
        if amount > current:
            raise UserError("game.not_enough", resource=spec.name, have=current, want=amount)
        value = current - amount
    if value > 9999:
        raise UserError("game.stat_range", stat=spec.name, min=0, max=9999)
    pools[spec.name] = value
    return new, value


def end_game(state: GameState, winner: str | None) -> GameState:
    new = state.clone()
    new.status = "ended"
    new.winner = winner
    return new
