"""The combat phase's fights, as the game records them: which units fought this phase and whose
pick is next.

Rulebook lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt.
- 12.0 (L447): in the combat phase the players take turns picking a friendly unit to fight,
  the player whose turn it is first.
- 12.1 (L451): a unit is eligible while it has not fought in that phase (and is within 3" of an
  enemy unit or made a charge move this turn, which the bot can't see: the players check it);
  you can't pass while you have an eligible unit.
- 12.1.1 (L455): a unit picked to fight piles in, then makes its combat attacks; after that
  it has fought. One fight is all the unit's melee weapons (12.3, L467; 13.1.2, L513-515):
  each attacking model attacks with each of them once, whatever the number of attacks the
  players write the fight in.
- 12.1.2 (L459): a player who passes hands the pick to the other; two passes in a row end the
  phase. A player with no unit left that has not fought has no eligible unit and passes.
- 1.6.5 (L195): an ability may let a unit fight again in the same phase, never more than
  twice (`again`).
- 12.4-12.5 (L469-483): units under a strike-first effect (the condition `strikes_first`) fight
  before all the others, those under a strike-last effect (`strikes_last`) after all the
  others; within each group the players alternate, the player whose turn it is first; both
  effects on one unit cancel out (L475). Worked example E2 (L493).

The record is the phase's ledger in `GameState.extra["aos"]` (turns.phase_ledger): it empties
when the phase, the turn or the round moves on.
"""

from __future__ import annotations

from pydantic import BaseModel

from rules_core.errors import UserError
from rules_core.game.models import GameState, Unit
from rules_core.rules.text import fold
from rules_core.systems.aos import turns

COMBAT = "combat"
MAX_FIGHTS = 2  # 1.6.5 (L195): never more than twice in the same phase
STRIKE_FIRST, NORMAL, STRIKE_LAST = 0, 1, 2  # the groups of 12.5 (L479-483), in order
STRIKES_FIRST, STRIKES_LAST = "strikes_first", "strikes_last"  # unit conditions


def in_combat_phase(state: GameState) -> bool:
    return 0 <= state.phase < len(turns.PHASES) and turns.PHASES[state.phase] == COMBAT


def fought(state: GameState) -> list[str]:
    """The folded names of the units that fought this combat phase, in the order of their
    fights (a unit that fought twice is there twice)."""
    aos = turns.aos_state(state)
    if not in_combat_phase(state) or aos.ledger != turns.phase_key(state):
        return []
    return list(aos.fought)


def fights_of(state: GameState, unit: str) -> int:
    """How many times the unit fought this combat phase."""
    return fought(state).count(fold(unit))


def has_fought(state: GameState, unit: str) -> bool:
    return fights_of(state, unit) > 0


def fighting(state: GameState) -> str | None:
    """The folded name of the unit whose fight is the latest (its attacks may still come)."""
    done = fought(state)
    return done[-1] if done else None


def may_fight(state: GameState, unit: Unit, again: bool = False) -> None:
    """A unit picked to fight (12.1.1, L455): only in the combat phase, once (L451) or, with an
    ability that says so (`again`), a second time but never a third (1.6.5, L195)."""
    if not in_combat_phase(state):
        phase = turns.PHASES[state.phase] if state.phase < len(turns.PHASES) else "-"
        raise UserError("aos.fight_not_combat", unit=unit.name, phase=phase)
    if unit.destroyed:
        raise UserError("aos.unit_destroyed", unit=unit.name)
    times = fights_of(state, unit.name)
    if times >= MAX_FIGHTS:
        raise UserError("aos.fought_twice", unit=unit.name, n=MAX_FIGHTS)
    if times and not again:
        raise UserError("aos.already_fought", unit=unit.name)
    if again and not times:
        raise UserError("aos.again_first_fight", unit=unit.name)


def record_fight(state: GameState, unit: Unit, again: bool = False) -> GameState:
    """The unit is picked to fight: its fight is recorded now (its attacks, if any, follow)."""
    may_fight(state, unit, again)
    aos = turns.phase_ledger(state)
    aos.fought.append(fold(unit.name))
    aos.strikes = {}
    return turns.with_aos(state, aos)


def may_strike(state: GameState, unit: Unit, weapon: str, models: int) -> None:
    """An applied combat attack by the unit: part of the fight under way when it is the latest
    one, else a new fight, refused to a unit that has already fought (L451). Within one fight
    each model attacks with each weapon once (L467, L513-515)."""
    if not in_combat_phase(state):
        return
    if fighting(state) == fold(unit.name):
        aos = turns.aos_state(state)
        struck = aos.strikes.get(fold(weapon), 0)
        if struck and struck + models > unit.models_left:
            raise UserError("aos.already_fought_weapon", unit=unit.name)
        return
    may_fight(state, unit)


def record_strike(state: GameState, unit: Unit, weapon: str, models: int) -> GameState:
    """An applied combat attack: the unit's fight (a new one when it isn't the latest) and how
    many of its models attacked with that weapon in it."""
    if not in_combat_phase(state):
        return state
    may_strike(state, unit, weapon, models)
    if fighting(state) != fold(unit.name):
        state = record_fight(state, unit)
    aos = turns.phase_ledger(state)
    aos.strikes[fold(weapon)] = aos.strikes.get(fold(weapon), 0) + models
    return turns.with_aos(state, aos)


class NextPick(BaseModel):
    """Whose pick it is in the combat phase. `player` None: the phase is over (both pass);
    `passes`: the other player, who has no unit that may fight now, so passes (L459);
    `later`: that player has units left, in a group that fights later (12.5, L479-483)."""

    player: str | None
    passes: str | None = None
    later: bool = False
    waiting: list[str] = []  # the picking player's units that may fight now, by name
    group: int = NORMAL  # which of 12.5's groups fights now


def tier(unit: Unit) -> int:
    """The unit's group in 12.5's order: strike-first, neither, strike-last; both effects on
    the same unit cancel out (L475)."""
    names = {fold(c.name) for c in unit.conditions}
    first, last = STRIKES_FIRST in names, STRIKES_LAST in names
    if first == last:
        return NORMAL
    return STRIKE_FIRST if first else STRIKE_LAST


def unfought(state: GameState, user: str) -> list[Unit]:
    """The player's units still on the battlefield that haven't fought this phase: the only
    ones that may be eligible (L451; whether they are within 3" is the players' to check)."""
    done = set(fought(state))
    return [
        u for u in state.units if u.owner == user and not u.destroyed and fold(u.name) not in done
    ]


def next_pick(state: GameState) -> NextPick | None:
    """Who picks the next unit to fight (12.0-12.1.2, L447-459; 12.5, L479-483), or None
    outside the combat phase or without two players in the turn order. The first group with
    units that haven't fought fights now; in it the player whose turn it is picks first, then
    the pick alternates after each fight. A player with no unit of that group left passes and
    the other picks again; when neither has a unit left, both pass and the phase ends."""
    if not in_combat_phase(state) or len(state.order) != 2 or state.current is None:
        return None
    first = state.current
    other = state.order[1] if state.order[0] == first else state.order[0]
    left = {user: unfought(state, user) for user in (first, other)}
    tiers = [tier(u) for units in left.values() for u in units]
    if not tiers:
        return NextPick(player=None)
    now = min(tiers)
    owners = {fold(u.name): u.owner for u in state.units}
    picks = [owners.get(key) for key in fought(state) if _tier_of(state, key) == now]
    picker = first if not picks else (other if picks[-1] == first else first)
    second = other if picker == first else first
    ready = {user: [u.name for u in units if tier(u) == now] for user, units in left.items()}
    if ready[picker]:
        return NextPick(player=picker, waiting=ready[picker], group=now)
    later = any(tier(u) > now for u in left[picker])
    return NextPick(player=second, passes=picker, later=later, waiting=ready[second], group=now)


def _tier_of(state: GameState, key: str) -> int:
    unit = next((u for u in state.units if fold(u.name) == key), None)
    return tier(unit) if unit is not None else NORMAL
