"""What a game system plugs into the game state: its unit profile, its damage model, its
turn structure and its resources. `gen` (generic) is the simplest filling; each of the five
games subclasses `GameSystem` the same way.

A system is pure data plus pure functions: no I/O, nothing about chats or storage.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from rules_core.errors import UserError

OrderKind = Literal["fixed", "rolloff", "alternating", "organiser"]


class StatSpec(BaseModel):
    """One stat on a unit's card."""

    model_config = ConfigDict(frozen=True)

    name: str
    min: int = 0
    max: int = 99
    required: bool = False
    default: int | None = None


class ResourceSpec(BaseModel):
    """A pool players (or units) spend: focus, command points, orders, mana..."""

    model_config = ConfigDict(frozen=True)

    name: str
    per: Literal["player", "unit"] = "player"
    refresh_to: int | None = None  # set to this at the start of each round (None: kept)
    refresh_from_stat: str | None = None  # per-unit pools refreshed to one of its stats


class GameSystem(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    stats: tuple[StatSpec, ...] = ()
    free_stats: bool = False  # any numeric stat is accepted (the generic system)
    wounds_stat: str = "wounds"  # wounds per model
    phases: tuple[str, ...] = ("play",)
    order: OrderKind = "fixed"
    resources: tuple[ResourceSpec, ...] = ()
    free_resources: bool = False  # any resource name is accepted, per player

    def stat_names(self) -> list[str]:
        return [s.name for s in self.stats]

    def validate_stats(self, values: dict[str, int], *, creating: bool) -> dict[str, int]:
        """Check stat names and bounds; on creation, fill defaults and require the required."""
        known = {s.name: s for s in self.stats}
        out: dict[str, int] = {}
        for name, value in values.items():
            spec = known.get(name)
            if spec is None:
                if not self.free_stats:
                    raise UserError("game.unknown_stat", stat=name, valid=", ".join(known) or "-")
                if not -999 <= value <= 999:
                    raise UserError("game.stat_range", stat=name, min=-999, max=999)
            elif not spec.min <= value <= spec.max:
                raise UserError("game.stat_range", stat=name, min=spec.min, max=spec.max)
            out[name] = value
        if creating:
            for spec in self.stats:
                if spec.name not in out:
                    if spec.required:
                        raise UserError("game.missing_stat", stat=spec.name)
                    if spec.default is not None:
                        out[spec.name] = spec.default
        return out

    def resource(self, name: str) -> ResourceSpec:
        for spec in self.resources:
            if spec.name == name:
                return spec
        if self.free_resources:
            return ResourceSpec(name=name)
        valid = ", ".join(r.name for r in self.resources) or "-"
        raise UserError("game.unknown_resource", name=name, valid=valid)
