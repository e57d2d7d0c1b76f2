"""What a game system plugs into the game state: its unit profile, its damage model, its
turn structure and its resources. `gen` (generic) is the simplest filling; each of the five
games subclasses `GameSystem` the same way.

A system is pure data plus pure functions: no I/O, nothing about chats or storage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from rules_core.errors import UserError

if TYPE_CHECKING:
    from rules_core.dice import DiceSource
    from rules_core.game.models import GameState, Unit

# A line for the reply: a catalogue key and its parameters (e.g. what maintenance did).
Note = tuple[str, dict[str, Any]]

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

    # --- hooks a system may override; the defaults are the generic behaviour ----------------

    def setup_unit(self, state: GameState, unit: Unit, options: dict[str, str]) -> None:
        """A new unit (already in `state`, mutable) gets its system state, e.g. a damage
        grid from the `grid=` option of /unit add."""
        if options:
            raise UserError("game.no_unit_options", system=self.id)

    def damage_unit(
        self, unit: Unit, amount: int, *, column: int | None, dice: DiceSource | None
    ) -> list[Note]:
        """Record `amount` damage on `unit` (mutable)."""
        if column is not None:
            raise UserError("game.no_unit_options", system=self.id)
        unit.damage = min(unit.max_wounds, unit.damage + amount)
        return []

    def heal_unit(self, unit: Unit, amount: int) -> None:
        unit.damage = max(0, unit.damage - amount)

    def draw_unit(self, unit: Unit) -> str | None:
        """A monospace drawing of the unit's state (e.g. its damage grid), or None."""
        return None

    def on_destroyed(self, state: GameState, unit: Unit) -> list[Note]:
        """`unit` has just been destroyed (`state` is mutable): e.g. victory points for it."""
        return []

    def start_turn(self, state: GameState, dice: DiceSource | None) -> list[Note]:
        """Bookkeeping when a player's turn begins (`state.current`; `state` is mutable)."""
        return []

    def resource(self, name: str) -> ResourceSpec:
        for spec in self.resources:
            if spec.name == name:
                return spec
        if self.free_resources:
            return ResourceSpec(name=name)
        valid = ", ".join(r.name for r in self.resources) or "-"
        raise UserError("game.unknown_resource", name=name, valid=valid)
