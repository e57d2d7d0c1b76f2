"""Rules of the battlefield that the bot counts from what the players measured: contesting
objectives (18.1, L741-745) and At the Double's Move (8.4, L335). The bot knows no positions:
the players say which models are within 6" of the objective.

Rulebook lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit

AT_THE_DOUBLE_INCHES = 6  # 8.4 (L335)
MONSTER_COUNTS = 5  # 18.1.2 (L745)
BIG_MODEL_COUNTS = 2  # L745: a model with Wounds 5 or more that is not a MONSTER
BIG_MODEL_WOUNDS = 5
MAX_CONTENDERS = 12  # units named on one side of /aos objective


def at_the_double_move(move: int) -> int:
    """At the Double (8.4, L335): no run roll, +6" to Move for the phase; the unit has run."""
    return move + AT_THE_DOUBLE_INCHES


class Contender(BaseModel):
    """Models of one unit within 6" of the objective (18.1.2, L745)."""

    unit: str = ""
    models: int = Field(ge=0)
    wounds: int = Field(default=1, ge=1)  # the Wounds characteristic of each model
    monster: bool = False

    @property
    def each(self) -> int:
        """L745: a MONSTER counts as 5 models, any other model with Wounds 5 or more as 2."""
        if self.monster:
            return MONSTER_COUNTS
        return BIG_MODEL_COUNTS if self.wounds >= BIG_MODEL_WOUNDS else 1

    @property
    def counted(self) -> int:
        return self.each * self.models


def contest_count(contenders: list[Contender]) -> int:
    """18.1.2 (L745): the contesting models of one side, each counted as the rule says."""
    return sum(unit.counted for unit in contenders)


def gains_control(friendly: list[Contender], enemy: list[Contender]) -> bool:
    """18.1.1 (L741): control goes to more contesting models than the enemy's (a tie keeps the
    objective with whoever had it)."""
    return contest_count(friendly) > contest_count(enemy)


def contender(unit: Unit, models: int | None) -> Contender:
    """A stored unit's models within 6" (all it has left unless the players say how many)."""
    if unit.destroyed:
        raise UserError("aos.unit_destroyed", unit=unit.name)
    left = unit.models_left
    if models is not None and models > left:
        raise UserError("aos.contenders_left", unit=unit.name, n=left)
    return Contender(
        unit=unit.name,
        models=left if models is None else models,
        wounds=unit.wounds_per_model,
        monster=bool(unit.stats.get("monster")),
    )


def parse_side(state: GameState, text: str) -> list[Contender]:
    """`Vindictors:3, Lord-Celestant`: units of the game, each with the number of its models
    within 6" of the objective after a colon (all its models left without one)."""
    entries = [part.strip() for part in text.split(",") if part.strip()]
    if len(entries) > MAX_CONTENDERS:
        raise UserError("aos.too_many_contenders", limit=MAX_CONTENDERS)
    side: list[Contender] = []
    for entry in entries:
        name, colon, count = entry.rpartition(":") if ":" in entry else (entry, "", "")
        if colon and not count.strip().isdigit():
            raise UserError("aos.bad_contender", entry=entry[:40])
        models = int(count.strip()) if colon else None
        side.append(contender(tr.find_unit(state, name.strip()), models))
    return side


class Objective(BaseModel):
    """Who gains control of an objective at the end of a turn (18.1.1, L741)."""

    friendly: list[Contender]
    enemy: list[Contender]
    friendly_total: int
    enemy_total: int
    outcome: Literal["friendly", "enemy", "tie"]


def objective(state: GameState, friendly: str, enemy: str | None) -> Objective:
    """Both sides' contesting models (L745) and who gains control (L741); each side is one
    player's units, and a unit is on one side only."""
    mine = parse_side(state, friendly)
    theirs = parse_side(state, enemy) if enemy else []
    names = [c.unit for c in (*mine, *theirs)]
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice is not None:  # a unit's models are counted once (L745)
        raise UserError("aos.contender_twice", unit=twice)
    owners = [{tr.find_unit(state, c.unit).owner for c in side} for side in (mine, theirs)]
    if any(len(found) > 1 for found in owners) or (owners[0] & owners[1]):
        raise UserError("aos.objective_sides")
    a, b = contest_count(mine), contest_count(theirs)
    outcome: Literal["friendly", "enemy", "tie"] = (
        "friendly" if a > b else ("enemy" if b > a else "tie")
    )
    return Objective(friendly=mine, enemy=theirs, friendly_total=a, enemy_total=b, outcome=outcome)
