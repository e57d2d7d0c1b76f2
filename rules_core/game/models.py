"""The state of one game in one chat, as pydantic models (stored as JSON, snapshotted into the
event log before and after every change, which is what makes `/undo` exact)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules_core.rules.text import fold

Until = Literal["end-of-turn", "end-of-round", "rounds", "permanent"]

# Validators are built on first use, not at import: a process that never loads a game (a dice
# command) doesn't pay for them.
_DEFERRED = ConfigDict(defer_build=True)


def unit_key(name: str) -> str:
    """The key of a unit's own resource pools in `GameState.resources` (focus, mana, a unit's
    Order): `unit:` and the name folded, so `Stryker` and `stryker` share one pool."""
    return f"unit:{fold(name)}"


class Condition(BaseModel):
    model_config = _DEFERRED

    name: str
    until: Until = "permanent"
    rounds_left: int | None = None  # for until="rounds"


class Unit(BaseModel):
    model_config = _DEFERRED

    name: str
    owner: str  # user id
    owner_name: str
    stats: dict[str, int] = Field(default_factory=dict)
    models: int = 1
    wounds_per_model: int = 1
    damage: int = 0  # wounds taken in total
    conditions: list[Condition] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict)  # system state, e.g. a damage grid

    @property
    def max_wounds(self) -> int:
        return self.models * self.wounds_per_model

    @property
    def wounds_left(self) -> int:
        return max(0, self.max_wounds - self.damage)

    @property
    def models_left(self) -> int:
        """Damage is allocated model by model: a model is removed when its wounds are gone."""
        return -(-self.wounds_left // self.wounds_per_model)

    @property
    def destroyed(self) -> bool:
        return self.wounds_left == 0


class Player(BaseModel):
    model_config = _DEFERRED

    user_id: str
    name: str
    side: str | None = None


class ScoreEntry(BaseModel):
    model_config = _DEFERRED

    user_id: str
    points: int
    reason: str | None = None


class GameState(BaseModel):
    model_config = _DEFERRED

    system: str
    name: str
    organiser: str
    players: list[Player] = Field(default_factory=list)
    units: list[Unit] = Field(default_factory=list)
    round: int = 1
    phase: int = 0
    turn: int = 0  # index into `order`
    # Moves on whenever a turn ends or a round begins (never back, except by /undo): a button
    # made for "this turn" carries it, so pressed once the turn is over it does nothing.
    turn_seq: int = 0
    order: list[str] = Field(default_factory=list)  # user ids
    resources: dict[str, dict[str, int]] = Field(default_factory=dict)  # owner key -> pools
    score_log: list[ScoreEntry] = Field(default_factory=list)
    status: Literal["active", "ended"] = "active"
    winner: str | None = None
    # A system's own game-level state (e.g. the WoW Master and Personal Clocks), by system id.
    extra: dict[str, Any] = Field(default_factory=dict)
    # The dice of the last roll-off for the turn order, in throws: [[user id, face], ...] each.
    rolloff: list[list[tuple[str, int]]] = Field(default_factory=list)

    def player(self, user_id: str) -> Player | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def player_name(self, user_id: str | None, missing: str | None = None) -> str:
        """A player's name; for an id that is no player's (one who left), `missing`, else the
        id itself (`-` for none)."""
        player = self.player(user_id) if user_id else None
        if player is not None:
            return player.name
        return missing if missing is not None else (user_id or "-")

    @property
    def current(self) -> str | None:
        return self.order[self.turn % len(self.order)] if self.order else None

    def score(self) -> dict[str, int]:
        out = {p.user_id: 0 for p in self.players}
        for entry in self.score_log:
            out[entry.user_id] = out.get(entry.user_id, 0) + entry.points
        return out

    def clone(self) -> GameState:
        """An independent copy to change. Through pydantic-core rather than
        `model_copy(deep=True)`: copy.deepcopy over a game's nested dicts was a fifth of an
        attack command's time."""
        return GameState.model_validate(self.model_dump())
