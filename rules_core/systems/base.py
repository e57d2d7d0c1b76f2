"""The game-system plug-in: what a game (WARMACHINE, Age of Sigmar...) tells the system-agnostic
game state about itself. `gen` (rules_core/systems/gen.py) is the simplest filling.

A system module provides ONE `GameSystem` instance (a frozen pydantic model; subclass it to
override hooks) and registers it in `rules_core/systems/__init__.py` (`SYSTEMS[id]`):

Data (fields):
- `id`: "wm", "aos", "wow", "inf", "c5" (the id used by `/game new ID`).
- `stats`: the unit profile schema, one `StatSpec` each (name, min/max, required, default).
  `/unit add NAME stat=value ...` is validated against it; an unknown stat is an error listing
  the valid ones unless `free_stats`. `models=N` is always accepted (models in the unit).
- `wounds_stat`: the stat that gives wounds per model (health = models x wounds per model).
- `phases`: the phases of a turn, in order (`/phase next`).
- `order`: who acts next: "fixed" (join order, or `/turn order`), "rolloff" (a D6 roll-off for
  the order at each new round), "alternating" (play passes back and forth, the round only
  ends with `/round next`), "organiser" (the organiser sets it with `/turn order`).
- `resources`: pools players or units spend (`ResourceSpec`: per player or per unit, refreshed
  at each new round to a number or to one of the unit's stats). `/res add|spend|set NAME N`
  accepts only these names unless `free_resources`; spending more than you have is an error.
- `conditions`: conditions the system knows (`ConditionSpec`), with how long each lasts by
  default; `/unit cond NAME add COND` without `until=` uses that duration. Any other
  condition name is still accepted (permanent unless `until=` says otherwise).
- `board_stats`: the stats shown next to each unit on `/game status` (a rendering hint).

Hooks (methods; the defaults are the generic behaviour; `state` and `unit` passed to them are
mutable copies owned by the transition, so change them in place; never do I/O):
- `setup_unit(state, unit, options)`: a new unit gets its system state (e.g. a damage grid
  from `/unit add ... grid=`); keep it in `unit.extra` (JSON-able). `update_unit(state, unit,
  options)`: the options `/unit set` may change later (WARMACHINE's `kind=`).
- `after_damage(state, unit)`: what damage changes outside the unit (a warjack's focus).
- `damage_unit(unit, amount, column=, dice=) -> notes` and `heal_unit(unit, amount)`: the
  damage model. Keep `unit.damage` (wounds taken, 0..max) true: the health bar, `destroyed`
  and the standings read it.
- `health(unit) -> (left, max)`: the numbers of the health bar (default wounds left / max).
- `draw_unit(unit, label) -> str | None`: a monospace drawing under the unit (a grid, a
  profile); game codes and numbers only, each code named by `label(code)` (`bs` -> `CD` for an
  Italian reader: the bot passes the reader's book's words in), no words of a language itself.
- `unit_status(unit) -> str | None`: a catalogue key for a state shown on the unit's line.
- `on_destroyed(state, unit) -> notes`: e.g. victory points for the kill.
- `start_turn(state, dice) -> notes`: bookkeeping when a player's turn begins (maintenance).
- `start_round(state, dice) -> notes`: bookkeeping when a new round begins (after conditions
  expired and resources refreshed), e.g. a priority roll reminder.

A `Note` is `(catalogue key, params)`: the command shows it localised, so put the system's
strings in data/locales/{en,it}/<id>.toml. Refuse with `UserError("<id>.<code>", ...)`.
Game-level system state (clocks, priority) lives in `GameState.extra[<id>]`.

To change a game from a system command (e.g. `/aos attack target=X apply`), use
`bot.commands.game.apply_change` (one event, undoable); see that module's docstring.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from rules_core.errors import UserError
from rules_core.rules.text import fold

if TYPE_CHECKING:
    from rules_core.dice import DiceSource
    from rules_core.game.models import GameState, Unit

# A line for the reply: a catalogue key and its parameters (e.g. what maintenance did).
Note = tuple[str, dict[str, Any]]
# A drawn code's name for the reader (`bs` -> `CD` in Italian): the bot's catalogue, passed in.
Label = Callable[[str], str]

OrderKind = Literal["fixed", "rolloff", "alternating", "organiser"]


class StatSpec(BaseModel):
    """One stat on a unit's card, kept as a whole number; `read` and `text` go between it and
    the card's printed form (`4+`, `-`), so it is typed and shown the way the book prints it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    name: str
    min: int = 0
    max: int = 99
    required: bool = False
    default: int | None = None
    plus: bool = False  # printed as a dice target: `4+`
    dash: int | None = None  # the value a printed `-` stands for (no save: 7)
    derived: bool = (
        False  # the game computes it from other stats (Infinity's HP from W): never typed
    )

    def read(self, text: str) -> int | None:
        """The stat from its printed form: `4`, `4+`, `5"`, `12cm`, `-3`, and `-` where the
        card prints it for a value; None when the text is none of these."""
        if text.strip() in DASHES:
            return self.dash
        return read_number(text)

    def text(self, value: int) -> str:
        """The stat as the card prints it."""
        if self.dash is not None and value == self.dash:
            return "-"
        return f"{value}+" if self.plus else str(value)


def refuse_destroyed(unit: Unit) -> None:
    """No healing, repair or recovery for a destroyed unit: AoS 14.4 (L595), C5 Regeneration and
    Healing (@99096, @79745), a WoW character waiting to respawn (403.3, L546)."""
    if unit.destroyed:
        raise UserError("game.heal_destroyed", unit=unit.name)


DASHES = ("-", "–", "—")
_NUMBER = re.compile(r"^([+-]?\d{1,3})(?:\+|\"|''|cm)?$")


def read_number(text: str) -> int | None:
    """A printed stat as a whole number: `5`, `4+`, `5"`, `12cm`, `-3` (Infinity's PB); None
    if it is not one."""
    m = _NUMBER.match(text.strip().replace("”", '"').lower())
    return int(m.group(1)) if m else None


class ResourceSpec(BaseModel):
    """A pool players (or units) spend: focus, command points, orders, mana..."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    name: str
    per: Literal["player", "unit"] = "player"
    refresh_to: int | None = None  # set to this at the start of each round (None: kept)
    refresh_from_stat: str | None = None  # per-unit pools refreshed to one of its stats


class ConditionSpec(BaseModel):
    """A condition the system knows and how long it lasts unless `until=` says otherwise."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    name: str
    until: Literal["end-of-turn", "end-of-round", "rounds", "permanent"] = "permanent"
    rounds: int | None = None  # for until="rounds"
    aliases: tuple[str, ...] = ()  # e.g. the Italian name


class GameSystem(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    id: str
    stats: tuple[StatSpec, ...] = ()
    free_stats: bool = False  # any numeric stat is accepted (the generic system)
    wounds_stat: str = "wounds"  # wounds per model
    phases: tuple[str, ...] = ("play",)
    order: OrderKind = "fixed"
    resources: tuple[ResourceSpec, ...] = ()
    free_resources: bool = False  # any resource name is accepted, per player
    conditions: tuple[ConditionSpec, ...] = ()
    board_stats: tuple[str, ...] = ()  # stats shown on the unit's line in /game status

    def stat_names(self) -> list[str]:
        return [s.name for s in self.stats]

    def stat(self, name: str) -> StatSpec | None:
        return next((s for s in self.stats if s.name == name), None)

    def stat_text(self, name: str, value: int) -> str:
        """A unit's stat as the game's cards print it (`4+`, `-`), for the screens."""
        spec = self.stat(name)
        return spec.text(value) if spec is not None else str(value)

    def read_stat(self, name: str, text: str) -> int:
        """A stat typed as the card prints it (`salvezza=4+`, `salvezza=-`), as a number."""
        spec = self.stat(name)
        value = spec.read(text) if spec is not None else read_number(text)
        if value is None:
            raise UserError("game.bad_stat_value", stat=name, value=text[:12], stat_system=self.id)
        return value

    def validate_stats(self, values: Mapping[str, int | str], *, creating: bool) -> dict[str, int]:
        """Check stat names and bounds (a value given as text is read as the card prints it,
        `read_stat`); on creation, fill defaults and require the required."""
        known = {s.name: s for s in self.stats}
        out: dict[str, int] = {}
        for name, given in values.items():
            spec = known.get(name)
            if spec is None and not self.free_stats:
                valid = ",".join(known) or "-"
                raise UserError("game.unknown_stat", stat=name, valid=valid, stat_system=self.id)
            value = self.read_stat(name, given) if isinstance(given, str) else given
            if spec is None:
                if not -999 <= value <= 999:
                    raise UserError("game.stat_range", stat=name, min=-999, max=999)
            elif not spec.min <= value <= spec.max:
                raise UserError(
                    "game.stat_range", stat=name, min=spec.min, max=spec.max, stat_system=self.id
                )
            out[name] = value
        if creating:
            for spec in self.stats:
                if spec.name not in out:
                    if spec.required:
                        raise UserError("game.missing_stat", stat=spec.name, stat_system=self.id)
                    if spec.default is not None:
                        out[spec.name] = spec.default
        return out

    # --- hooks a system may override; the defaults are the generic behaviour ----------------

    def setup_unit(self, state: GameState, unit: Unit, options: dict[str, str]) -> None:
        """A new unit (already in `state`, mutable) gets its system state, e.g. a damage
        grid from the `grid=` option of /unit add."""
        if options:
            raise UserError("game.no_unit_options", system=self.id, option=next(iter(options)))

    def update_unit(self, state: GameState, unit: Unit, options: dict[str, str]) -> None:
        """An existing unit's system options changed (`/unit set NAME kind=solo`): what the
        system lets change after creation."""
        if options:
            raise UserError("game.no_unit_options", system=self.id, option=next(iter(options)))

    def check_stats(self, state: GameState, unit: Unit, stats: Mapping[str, int]) -> None:
        """A change of `unit`'s stats typed by hand (/unit set; `stats` as validated), refused
        here (UserError) when the game's rules make it a move of their own, with a cost."""

    def check_condition(self, unit: Unit, condition: str) -> None:
        """A condition given to `unit` by hand (/unit cond add), refused here (UserError) when
        the unit's state forbids what it records (a WARMACHINE run with a crippled Movement)."""

    def damage_unit(
        self, unit: Unit, amount: int, *, column: int | None, dice: DiceSource | None
    ) -> list[Note]:
        """Record `amount` damage on `unit` (mutable)."""
        if column is not None:
            raise UserError("game.no_unit_options", system=self.id, option="column")
        unit.damage = min(unit.max_wounds, unit.damage + amount)
        return []

    def damage_one_model(self, unit: Unit, amount: int, model: int) -> list[Note]:
        """Record `amount` damage on model `model` (1-based) of `unit`, for a system whose
        hits damage one named model; the others take no `model=`."""
        raise UserError("game.no_unit_options", system=self.id, option="model")

    def after_damage(self, state: GameState, unit: Unit) -> list[Note]:
        """What damage changes beyond the unit (`state` mutable): a WARMACHINE warjack's
        crippled Cortex loses its focus, a lock breaks."""
        return []

    def heal_unit(self, unit: Unit, amount: int) -> None:
        """Heal `amount` wounds (`unit` mutable). A destroyed unit is out of play: healing
        never brings it back (a game's own rule returning models has its own path)."""
        refuse_destroyed(unit)
        unit.damage = max(0, unit.damage - amount)

    def health(self, unit: Unit) -> tuple[int, int]:
        """The health bar's numbers: (left, max)."""
        return unit.wounds_left, unit.max_wounds

    def unit_status(self, unit: Unit) -> str | None:
        """A catalogue key naming the unit's game state when it is one the health bar does not
        show (Infinity's Unconscious), shown on its line in the reader's language; or None."""
        return None

    def draw_unit(self, unit: Unit, label: Label) -> str | None:
        """A monospace drawing of the unit's state (e.g. its damage grid), or None; a code it
        shows (a stat, a troop type) is `label(code)`, the reader's name for it."""
        return None

    def on_destroyed(self, state: GameState, unit: Unit) -> list[Note]:
        """`unit` has just been destroyed (`state` is mutable): e.g. victory points for it."""
        return []

    def start_turn(self, state: GameState, dice: DiceSource | None) -> list[Note]:
        """Bookkeeping when a player's turn begins (`state.current`; `state` is mutable)."""
        return []

    def start_round(self, state: GameState, dice: DiceSource | None) -> list[Note]:
        """Bookkeeping when a new round begins (`state.round` is already the new one)."""
        return []

    def condition(self, name: str) -> ConditionSpec | None:
        """The known condition called `name` (case- and accent-insensitive, or an alias)."""
        key = fold(name)
        for spec in self.conditions:
            if key == fold(spec.name) or key in (fold(a) for a in spec.aliases):
                return spec
        return None

    def resource(self, name: str) -> ResourceSpec:
        for spec in self.resources:
            if spec.name == name:
                return spec
        if self.free_resources:
            return ResourceSpec(name=name)
        valid = ", ".join(r.name for r in self.resources) or "-"
        raise UserError("game.unknown_resource", name=name, valid=valid)
