"""Rules of the battlefield the players measure and the bot counts: distances, coherency, the
order units fight in, and contesting objectives. Pure counting, no geometry: the players say
what they measured.

Rulebook lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Tier = Literal["first", "normal", "last"]
TIERS: tuple[Tier, ...] = ("first", "normal", "last")
AT_THE_DOUBLE_INCHES = 6  # 8.4 (L335)


def within(distance: float, limit: float) -> bool:
    """1.5.1 (L141): units are within N" when their closest models are N" or less apart."""
    return distance <= limit


def coherency_neighbours(models: int) -> int:
    """1.3.3 (L103): each model of a unit of 2-5 models must be within 1" of 1 other model of
    its unit, of 2 others when the unit has more than 5; a lone model has none to be near."""
    if models <= 1:
        return 0
    return 2 if models > 5 else 1


def at_the_double_move(move: int) -> int:
    """At the Double (8.4, L335): no run roll, +6" to Move for the phase; the unit has run."""
    return move + AT_THE_DOUBLE_INCHES


class Fighter(BaseModel):
    name: str
    strikes_first: bool = False
    strikes_last: bool = False

    @property
    def tier(self) -> Tier:
        """Both effects at once cancel out (12.4, L475)."""
        if self.strikes_first == self.strikes_last:
            return "normal"
        return "first" if self.strikes_first else "last"


def fight_order(active: list[Fighter], other: list[Fighter]) -> list[str]:
    """12.4-12.5 (L471-483): strike-first units fight before all others and strike-last ones
    after; within each group the players take turns, the player whose turn it is first, and
    once one player has no units left the other fights with the rest. E2 (L493)."""
    order: list[str] = []
    for tier in TIERS:
        mine = [f.name for f in active if f.tier == tier]
        theirs = [f.name for f in other if f.tier == tier]
        for i in range(max(len(mine), len(theirs))):
            order += mine[i : i + 1] + theirs[i : i + 1]
    return order


class Contender(BaseModel):
    """Models of one unit within 6" of the objective (18.1.2, L745)."""

    models: int = Field(ge=0)
    wounds: int = Field(default=1, ge=1)  # the Wounds characteristic of each model
    monster: bool = False


def contest_count(contenders: list[Contender]) -> int:
    """18.1.2 (L745): a MONSTER counts as 5 models, any other model with Wounds 5 or more as
    2, the rest as 1."""
    total = 0
    for unit in contenders:
        each = 5 if unit.monster else (2 if unit.wounds >= 5 else 1)
        total += each * unit.models
    return total


def gains_control(friendly: list[Contender], enemy: list[Contender]) -> bool:
    """18.1.1 (L741): control goes to more contesting models than the enemy's (a tie keeps the
    objective with whoever had it)."""
    return contest_count(friendly) > contest_count(enemy)
