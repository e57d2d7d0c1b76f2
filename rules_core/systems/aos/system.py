"""Age of Sigmar in the game state: the warscroll's stats, weapons and damage table, the turn
of six phases and command points.

- Card (22.2, L950-1001): Wounds per model, Save (7 = "-", L962-964), Bravery, Move, a ward
  (14.3, L591; 0 = none), `general=1` for the General (1.4.2, L121-123) and `monster=1` for a
  MONSTER (counted as 5 models on an objective, 18.1.2, L745), `hero=1` for a HERO (7.1, L283:
  the keyword on its warscroll; the heroic actions, L287-301, are a HERO's only). A keyword never
  given is 0: the bot knows no warscroll, so a unit is a HERO or a MONSTER only when told.
- Weapons (22.2, L941-942): name, Range, Attacks, To Hit, To Wound, Rend, Damage, kept in
  `Unit.extra["aos"]["weapons"]`; a value `@column` reads that column of the damage table.
- Damage table (22.5, L1023-1025; sample L993-997): rows by wounds allocated to the model.
- Damage (13.3.1, 14.1, L555-583): the generic model-by-model carry-over (wounds go to one
  model until it is slain) is exactly the AoS allocation.
- Turn and command points: see turns.py.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.rules.text import fold
from rules_core.systems.aos.turns import PHASES, aos_state, snapshot_turn
from rules_core.systems.aos.values import (
    parse_dice_value,
    parse_rend,
    parse_target,
)
from rules_core.systems.base import (
    ConditionSpec,
    GameSystem,
    Label,
    Note,
    ResourceSpec,
    StatSpec,
    refuse_destroyed,
)

if TYPE_CHECKING:
    from rules_core.game.models import GameState, Unit

MAX_WEAPONS = 8
MAX_ROWS = 6
WEAPON_FIELDS = ("range", "attacks", "hit", "wound", "rend", "damage")
_REF = re.compile(r"^@([a-z][a-z0-9_]{0,19})$")
_ROW = re.compile(r"^(\d{1,2})\+?:(.+)$")
_CELL = re.compile(r"^([a-z][a-z0-9_]{0,19})=([^,=]{1,8})$")


class Weapon(BaseModel):
    name: str
    range: str = "1"
    attacks: str
    hit: str
    wound: str
    rend: str = "-"
    damage: str = "1"


class TableRow(BaseModel):
    wounds: int = Field(ge=0, le=99)  # this row applies from this many wounds allocated
    values: dict[str, str]


def _check_value(field: str, value: str) -> None:
    if _REF.match(value):
        return
    if field == "range":
        if not re.fullmatch(r"\d{1,2}(?:-\d{1,2})?\"?", value):
            raise UserError("aos.bad_number", option=field, value=value[:20])
    elif field in ("attacks", "damage"):
        parse_dice_value(value, field)
    elif field in ("hit", "wound"):
        parse_target(value, field)
    elif field == "rend":
        parse_rend(value)


def make_weapon(name: str, values: dict[str, str]) -> Weapon:
    name = " ".join(name.split())
    if not 1 <= len(name) <= 30:
        raise UserError("aos.bad_weapon_name")
    for field in ("attacks", "hit", "wound"):
        if field not in values:
            raise UserError("aos.missing_value", option=field)
    for field, value in values.items():
        _check_value(field, value)
    return Weapon(name=name, **values)


# 13.0 (L497): missile weapons make shooting attacks, melee weapons combat attacks. The bot keeps
# no warscroll's weapon tables, so a stored weapon is told by its Range: more than this is a
# missile weapon (melee weapons reach 1"-3"; combat starts within 3", 12.1 L451). A weapon that
# breaks the rule is typed as its values (`attacks= hit= …`, no `weapon=`): not checked.
MELEE_REACH = 3


def is_missile(weapon: Weapon) -> bool | None:
    """A missile weapon (True) or a melee one (False) by its Range (`MELEE_REACH`); None when
    the Range is a damage table's column (it changes with the wounds)."""
    if _REF.match(weapon.range):
        return None
    numbers = [int(n) for n in re.findall(r"\d+", weapon.range)]
    return bool(numbers) and max(numbers) > MELEE_REACH


def parse_table(text: str) -> list[TableRow]:
    """`0:move=12,claws=6 5:move=11,claws=5 ...`: from N wounds allocated, these values."""
    rows: list[TableRow] = []
    for token in text.lower().split():
        m = _ROW.match(token)
        if m is None:
            raise UserError("aos.bad_table", token=token[:30])
        values: dict[str, str] = {}
        for cell in m.group(2).split(","):
            c = _CELL.match(cell)
            if c is None:
                raise UserError("aos.bad_table", token=cell[:30])
            values[c.group(1)] = c.group(2)
        rows.append(TableRow(wounds=int(m.group(1)), values=values))
    if not rows or len(rows) > MAX_ROWS:
        raise UserError("aos.bad_table_rows", limit=MAX_ROWS)
    rows.sort(key=lambda r: r.wounds)
    if rows[0].wounds != 0 or len({r.wounds for r in rows}) != len(rows):
        raise UserError("aos.bad_table_start")
    return rows


def table_row(rows: list[TableRow], wounds_allocated: int) -> TableRow:
    """22.5 (L1025): the row for the wounds currently allocated to the model. E6 (L993-997):
    rows from 0, 5, 9, 13 -> 4 wounds: row 0; 5: row 5; 12: row 9; 13 and 16: row 13."""
    row = rows[0]
    for candidate in rows:
        if wounds_allocated >= candidate.wounds:
            row = candidate
    return row


def profile(unit: Unit) -> dict[str, Any]:
    raw = unit.extra.get("aos")
    return raw if isinstance(raw, dict) else {}


def weapons(unit: Unit) -> list[Weapon]:
    return [Weapon.model_validate(w) for w in profile(unit).get("weapons", [])]


def table(unit: Unit) -> list[TableRow]:
    return [TableRow.model_validate(r) for r in profile(unit).get("table", [])]


def wounds_on_current_model(unit: Unit) -> int:
    """Wounds allocated to the model being worn down (L579: one model at a time)."""
    slain = unit.models - unit.models_left
    return max(0, unit.damage - slain * unit.wounds_per_model)


def current_row(unit: Unit) -> TableRow | None:
    rows = table(unit)
    return table_row(rows, wounds_on_current_model(unit)) if rows else None


def find_weapon(unit: Unit, name: str) -> Weapon:
    options = weapons(unit)
    key = fold(name.strip())
    exact = [w for w in options if fold(w.name) == key]
    matches = exact or [w for w in options if fold(w.name).startswith(key)]
    if len(matches) == 1 or (matches and exact):
        return matches[0]
    raise UserError(
        "aos.no_weapon",
        unit=unit.name,
        name=name[:30],
        valid=", ".join(w.name for w in options) or "-",
    )


def resolved_weapon(unit: Unit, weapon: Weapon) -> dict[str, str]:
    """The weapon's values with `@column` references read from the current table row."""
    row = current_row(unit)
    out: dict[str, str] = {}
    for field in WEAPON_FIELDS:
        value = str(getattr(weapon, field))
        m = _REF.match(value)
        if m:
            if row is None or m.group(1) not in row.values:
                raise UserError("aos.no_table_value", unit=unit.name, column=m.group(1))
            value = row.values[m.group(1)]
        out[field] = value
    return out


def set_weapon(unit: Unit, weapon: Weapon | None, name: str) -> None:
    data = dict(profile(unit))
    kept = [w for w in data.get("weapons", []) if fold(w["name"]) != fold(name)]
    if weapon is None:
        if len(kept) == len(data.get("weapons", [])):
            raise UserError("aos.no_weapon", unit=unit.name, name=name[:30], valid="-")
    else:
        if len(kept) >= MAX_WEAPONS:
            raise UserError("aos.too_many_weapons", limit=MAX_WEAPONS)
        kept.append(weapon.model_dump())
    data["weapons"] = kept
    unit.extra["aos"] = data


def set_table(unit: Unit, rows: list[TableRow] | None) -> None:
    data = dict(profile(unit))
    if rows is None:
        data.pop("table", None)
    else:
        data["table"] = [r.model_dump() for r in rows]
    unit.extra["aos"] = data


def weapon_line(w: Weapon) -> str:
    rend = w.rend if w.rend.startswith(("-", "@")) else f"-{w.rend}"
    if rend in ("-0", "0"):
        rend = "-"
    return f'{w.name}  {w.range}"  A{w.attacks}  {w.hit}+  {w.wound}+  {rend}  D{w.damage}'.replace(
        '""', '"'
    ).replace("++", "+")


class AosSystem(GameSystem):
    def draw_unit(self, unit: Unit, label: Label) -> str | None:
        # the weapons' and damage table's names are the player's own words: nothing to name
        lines = [weapon_line(w) for w in weapons(unit)]
        row = current_row(unit)
        if row is not None:
            cells = " ".join(f"{k}={v}" for k, v in row.values.items())
            lines.append(f"[{row.wounds}+] {cells}")
        return "\n".join(lines) or None

    def unit_status(self, unit: Unit) -> str | None:
        """The unit's keywords the bot knows, HERO (7.1, L283) and MONSTER (18.1.2, L745), on
        its line."""
        hero, monster = bool(unit.stats.get("hero")), bool(unit.stats.get("monster"))
        if not (hero or monster):
            return None
        return "aos.keywords." + "_".join(
            k for k, on in (("hero", hero), ("monster", monster)) if on
        )

    def heal_unit(self, unit: Unit, amount: int) -> None:
        """14.4 (L595): only the wounds on the model being worn down heal; a slain model
        doesn't (only a rule that returns slain models does: `transitions.rallied`), so a heal
        when only slain models are missing is refused in words, pointing at the Rally."""
        refuse_destroyed(unit)
        if amount and unit.damage and not wounds_on_current_model(unit):
            raise UserError("aos.heal_slain_only", unit=unit.name)
        unit.damage -= min(amount, wounds_on_current_model(unit))

    def start_round(self, state: GameState, dice: DiceSource | None) -> list[Note]:
        """4.1 (L235-243): the round starts with the priority roll and its command points;
        unused ones were just lost (the `cp` pool refreshes to 0, L631)."""
        snapshot_turn(state)
        return [("aos.note.new_round", {"round": state.round})]

    def start_turn(self, state: GameState, dice: DiceSource | None) -> list[Note]:
        """7.0 (L279): the hero phase starts with the hero-phase command points; the models
        slain this turn are counted from here (15.1, L613)."""
        snapshot_turn(state)
        if aos_state(state).priority_round != state.round:
            return []  # the new-round note asks for priority first
        return [("aos.note.hero_phase", {})]


AOS = AosSystem(
    id="aos",
    stats=(
        StatSpec(name="wounds", min=1, max=99, default=1),
        # Save and Ward are printed as dice targets (`4+`), `-` for none: a Save of "-" needs
        # 7+ (L962-964), a Ward of "-" is no ward (14.3, L591; stored 0).
        StatSpec(name="save", min=1, max=7, default=7, plus=True, dash=7),
        StatSpec(name="bravery", min=1, max=20),
        StatSpec(name="move", min=0, max=40),
        StatSpec(name="ward", min=0, max=6, default=0, plus=True, dash=0),
        StatSpec(name="general", min=0, max=1, default=0),
        # MONSTER (keyword): counts as 5 models contesting an objective (18.1.2, L745)
        StatSpec(name="monster", min=0, max=1, default=0),
        # HERO (keyword, 7.1, L283): only a HERO carries out a heroic action (L287-301)
        StatSpec(name="hero", min=0, max=1, default=0),
    ),
    wounds_stat="wounds",
    phases=PHASES,
    order="fixed",
    resources=(ResourceSpec(name="cp", per="player", refresh_to=0),),
    # Unit states that last "for the rest of the turn": a unit that ran or retreated can't
    # shoot or charge later in the turn (L323, L327); one that charged gets no cover (L673).
    conditions=(
        ConditionSpec(name="ran", until="end-of-turn", aliases=("corso", "ha corso")),
        ConditionSpec(name="retreated", until="end-of-turn", aliases=("ritirata",)),
        ConditionSpec(name="charged", until="end-of-turn", aliases=("caricato", "ha caricato")),
        # Redeploy's unit can't shoot later in the turn (L339)
        ConditionSpec(name="redeployed", until="end-of-turn", aliases=("rischierata",)),
        # Strike-first and strike-last effects (12.4, L471-475): the fight order of 12.5
        # (fights.next_pick); an ability's own duration is typed with until=.
        ConditionSpec(
            name="strikes_first",
            until="end-of-turn",
            aliases=("attacca per primo", "attacca_per_primo", "per_primo", "strike first"),
        ),
        ConditionSpec(
            name="strikes_last",
            until="end-of-turn",
            aliases=("attacca per ultimo", "attacca_per_ultimo", "per_ultimo", "strike last"),
        ),
    ),
    board_stats=("save", "bravery"),
)
