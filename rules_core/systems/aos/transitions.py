"""What the /aos commands do to the game, as pure functions: the state and the input in, the new
state (or the numbers to write) and the steps that explain them out. The bot loads the game,
calls these, saves the result as one event and renders the steps.

Rulebook lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt.
"""

from __future__ import annotations

from pydantic import BaseModel

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.systems.aos import checks, turns
from rules_core.systems.aos.system import wounds_on_current_model


class Healing(BaseModel):
    """A check that heals: its steps and outcome, and the wounds to heal on the unit."""

    check: checks.Check
    heal: int


def live_unit(state: GameState, name: str) -> Unit:
    """A unit that can still be attacked, tested or shot from: not a destroyed one."""
    unit = tr.find_unit(state, name)
    if unit.destroyed:
        raise UserError("aos.unit_destroyed", unit=unit.name)
    return unit


def own_attack(state: GameState, attacker: Unit | None, user_id: str) -> bool:
    """Both players fight in every combat phase (12.0, L445-467), so a player may write the
    wounds their own attacking unit inflicted even outside their turn."""
    return attacker is not None and attacker.owner == user_id and state.player(user_id) is not None


def wound(state: GameState, name: str, amount: int) -> GameState:
    """Wounds allocated model by model with carry-over (13.3.1, 14.1, L555-583)."""
    return tr.damage(state, name, amount)


def battleshock(
    bravery: int, slain: int, source: DiceSource, mod: int = 0, unit: Unit | None = None
) -> checks.Check:
    """15.1 (L613): the test, with no more models fleeing than the unit has left."""
    check = checks.battleshock(bravery, slain, source, mod)
    if unit is not None:
        check.outcome["fled"] = min(check.outcome["fled"], unit.models_left)
    return check


def battleshock_wounds(unit: Unit, fled: int) -> int:
    """Fleeing models are removed whole (15.1, L613): as many models' worth of wounds."""
    return min(unit.wounds_left, fled * unit.wounds_per_model)


def ward_mortal(check: checks.Check, unit: Unit | None, source: DiceSource) -> checks.Check:
    """Mortal wounds suffered by a unit with a ward get one ward roll each (L591, L601):
    the outcome's `damage` is what is left to allocate."""
    mortal = check.outcome["mortal_wounds"]
    value = unit.stats.get("ward", 0) if unit is not None else 0
    if not (mortal and value >= 2):
        return check
    step = checks.ward(mortal, value, source)
    outcome = {**check.outcome, "ward_saved": step.total, "damage": mortal - (step.total or 0)}
    return checks.Check(steps=[*check.steps, step], outcome=outcome)


def rally(unit: Unit | None, slain: int, source: DiceSource) -> Healing:
    """Rally (7.2, L307-309): only slain models return (14.2.1, L587), each with all its
    wounds."""
    check = checks.rally(min(slain, 100), source)
    if unit is None:
        return Healing(check=check, heal=0)
    returned = min(check.outcome["returned"], unit.models - unit.models_left)
    check.outcome["returned"] = returned
    return Healing(check=check, heal=returned * unit.wounds_per_model)


def recovery(unit: Unit | None, bravery: int, source: DiceSource) -> Healing:
    """Heroic Recovery (7.1, L301); slain models can't be healed (14.4, L595): only the
    wounded model's wounds."""
    check = checks.recovery(bravery, source)
    heal = check.outcome["healed"]
    if unit is not None:
        heal = min(heal, wounds_on_current_model(unit))
    return Healing(check=check, heal=heal)


def priority_tie(
    state: GameState, deployed: str | None, tie: str | None
) -> tuple[GameState, int | None]:
    """Who wins a tied priority roll (4.1, L239), as 0 or 1 of the two players (None if not
    known): `deployed` records who finished deploying first (round 1 only); `tie` names the
    winner outright."""
    players = turns.two_players(state)
    aos = turns.aos_state(state)
    if deployed is not None:
        if state.round > 1:
            raise UserError("aos.deployed_round_one")
        aos.deployed_first = deployed
        state = turns.with_aos(state, aos)
    known = tie if tie is not None else turns.tie_winner(state, aos)
    return state, (players.index(known) if known in players else None)
