"""What a C5 result does to the game state: pure functions, state + input -> new state + the
notes that explain it. The input state is never modified: each change works on a clone.

Through the C5 system object, not rules_core.game.transitions: that module reaches every game
through the systems registry, and the games stay independent of each other (import-linter).

The bot loads the chat's game, calls one of these inside its one write path and saves the
result as one event (/undo reverts it); every rule decision about the state is made here.
"""

from __future__ import annotations

from rules_core.errors import UserError
from rules_core.game.models import Condition, GameState, Unit, unit_key
from rules_core.rules.text import fold
from rules_core.systems.base import Note
from rules_core.systems.c5 import combat
from rules_core.systems.c5.checks import may_pass
from rules_core.systems.c5.system import C5, ROUTED, STUNNED, is_routed

Result = tuple[GameState, list[Note]]
POOL_MAX = 9999  # as every game's resources (rules_core.game.transitions.change_resource)


def named(state: GameState, name: str) -> Unit:
    """The unit called `name` (the bot has resolved what the player typed to a unit's name)."""
    key = fold(name.strip())
    for unit in state.units:
        if fold(unit.name) == key:
            return unit
    raise UserError("game.no_unit", name=name[:40])


def _with_condition(unit: Unit, name: str) -> None:
    """A condition C5 knows, with its own duration, replacing one of the same name."""
    spec = C5.condition(name)
    assert spec is not None
    unit.conditions = [c for c in unit.conditions if fold(c.name) != fold(spec.name)]
    unit.conditions.append(Condition(name=spec.name, until=spec.until, rounds_left=spec.rounds))


def wound(state: GameState, target: str, wounds: int, stunned: bool) -> Result:
    """A wound roll's result on its target (@5779, @10224): the wounds, then Stordito until the
    end of the round unless the fighter died of them."""
    new = state.clone()
    unit = named(new, target)
    notes = _damage(new, unit, wounds)
    if stunned and not unit.destroyed:
        _with_condition(unit, STUNNED)
        notes.append(("c5.note.stunned", {"unit": unit.name}))
    return new, notes


def _damage(state: GameState, unit: Unit, wounds: int) -> list[Note]:
    """`wounds` on `unit` of the mutable `state` through C5's health model (@1361, @5779)."""
    if wounds < 0:
        raise UserError("game.negative_amount")
    if not wounds:
        return []
    alive = not unit.destroyed
    notes = C5.damage_unit(unit, wounds, column=None, dice=None)
    if alive and unit.destroyed:
        notes += C5.on_destroyed(state, unit)
    return notes


def rout(state: GameState, target: str) -> GameState:
    """A failed fear test (digest §4.5): the fighter is in Rotta; already routed stays as is."""
    if is_routed(named(state, target)):
        return state
    new = state.clone()
    _with_condition(named(new, target), ROUTED)
    return new


def routed_condition(unit: Unit) -> str | None:
    """The name the Rotta condition carries on this unit (it may be typed in Italian)."""
    return next(
        (c.name for c in unit.conditions if fold(c.name) in ("routed", "rotta", "in rotta")), None
    )


def rally(state: GameState, target: str) -> GameState:
    """A successful rally test (@15362): the fighter is no longer in Rotta."""
    if routed_condition(named(state, target)) is None:
        return state
    new = state.clone()
    unit = named(new, target)
    gone = fold(routed_condition(unit) or "")
    unit.conditions = [c for c in unit.conditions if fold(c.name) != gone]
    return new


def recovery_wounds(unit: Unit | None, typed: int | None, cap: int) -> int:
    """Wounds a maintenance roll works on: typed, else the fighter's, else the most possible."""
    if typed is not None:
        return typed
    return unit.damage if unit is not None else cap


def recover(state: GameState, target: str, ability: str, n: int) -> Result:
    """Maintenance phase (digest §3.6): Effimero/X loses `n` wounds, Rigenerazione/X and
    Guarigione/X heal `n` (never above the capacity, @8725)."""
    if n < 0:
        raise UserError("game.negative_amount")
    new = state.clone()
    unit = named(new, target)
    if ability == "effimero":
        return new, _damage(new, unit, n)
    C5.heal_unit(unit, n)
    return new, []


def change_pool(
    state: GameState, unit: str, name: str, op: str, amount: int
) -> tuple[GameState, int]:
    """Mana or temporary faith of one fighter (`op` add or set); returns the pool's new value."""
    spec = C5.resource(name)
    if amount < 0:
        raise UserError("game.negative_amount")
    new = state.clone()
    pools = new.resources.setdefault(unit_key(named(new, unit).name), {})
    value = amount if op == "set" else pools.get(spec.name, 0) + amount
    if value > POOL_MAX:
        raise UserError("game.stat_range", stat=spec.name, min=0, max=POOL_MAX)
    pools[spec.name] = value
    return new, value


def pool(state: GameState, unit: str, name: str) -> int:
    return state.resources.get(unit_key(unit), {}).get(name, 0)


def mages(state: GameState, user_id: str, everyone: bool) -> list[Unit]:
    """Mystic phase (digest §4.1): the living fighters with a POW, the caller's own or all."""
    found = [
        u
        for u in state.units
        if not u.destroyed and u.stats.get("pow") and (everyone or u.owner == user_id)
    ]
    if not found:
        raise UserError("c5.no_mages")
    return found


def add_mana(state: GameState, gems: dict[str, int]) -> GameState:
    """Every mage's recovered gems added to its mana reserve (@130449), in one change."""
    for name, n in gems.items():
        state, _ = change_pool(state, name, "mana", "add", n)
    return state


def require_may_pass(mine: int, theirs: int) -> None:
    """@16499: on your lead you may pass only when the opponent has more cards left to
    activate than you (reserves included)."""
    if not may_pass(mine, theirs):
        raise UserError("c5.pass_refused", mine=mine, theirs=theirs)


def require_activation(state: GameState) -> None:
    """Passing happens in the activation phase (@16499)."""
    if C5.phases[state.phase] != "activation":
        raise UserError("c5.pass_not_activation")


def check_pass(state: GameState, mine: int, theirs: int) -> None:
    """The pass (@16499) is allowed in this state; it ends the passer's turn, so the lead goes
    to the opponent (the game's end of turn). Whose lead it is, is the caller's check."""
    require_may_pass(mine, theirs)
    require_activation(state)


def survives(unit: Unit, wounds: int) -> bool:
    """@5779: the fighter dies when his last wound is gone."""
    return wounds < unit.wounds_left


def check_blow(state: GameState, attacker: str | None, target: str) -> str | None:
    """A melee blow may be recorded on the game only in the combat phase (digest §4.1: melees
    are fought after all activations; "fase di combattimento", Implacabile/X). A combat is
    fought in passes of arms in which both fighters strike (Contrattacco and Ambidestro give
    the defender attack dice), so the blow belongs to the striking fighter's player, whoever's
    lead it is. Returns that player (None for values typed without attacker=); a fighter
    killed earlier in the combat strikes no more (@5779)."""
    if C5.phases[state.phase] != "combat":
        raise UserError("c5.melee_not_combat")
    named(state, target)
    combat.check_turn(state, attacker, target)  # a recorded exchange: whose blow it is
    if attacker is None:
        return None
    striker = named(state, attacker)
    if striker.destroyed:
        raise UserError("c5.attacker_dead", unit=striker.name)
    return striker.owner


def blow(
    state: GameState,
    striker: str | None,
    target: str,
    hit: bool,
    wounds: int,
    stunned: bool,
    parried_by: int | None,
    auto_failed: bool = False,
) -> Result:
    """A melee blow recorded on the game as one change: its wounds and Stordito on a hit, and,
    in a recorded combat, the striker's attack die spent and whose blow comes next
    (combat.after_blow); `parried_by` is how much a parry beat the attack by, `auto_failed`
    whether the attack failed automatically."""
    new, notes = wound(state, target, wounds, stunned) if hit else (state.clone(), [])
    if striker is not None:
        killed = named(new, target).destroyed
        notes += combat.after_blow(new, striker, parried_by, killed, auto_failed)
    return new, notes
