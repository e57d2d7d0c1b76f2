"""Army rosters: a player's units written once, added to a game in one command.

The plain-text format (`/army add`, `/army save NAME`), one unit per line:

    [N x] NAME [xN] stat=value … [| WEAPON: field=value …] [| WEAPON …]

- NAME: words up to the first `key=value`; quote it ("…", “…”, «…», '…') if it has an `=` or
  starts with a number. The model count is `5x Liberators`, `5 Liberators`, `Liberators x5` or
  `models=5` (`modelli=`); without one, the unit has one model.
- stats: the game's stat names as `/unit add` knows them, or their Italian or long names
  (`difesa=`/`def=`, `armatura=`/`arm=`, `salvezza=`/`save=`, `ferite=`/`wounds=`…), see
  rules_core.game.stat_names.
  Values are whole numbers; a printed `4+` or `5"` is read as 4 or 5 (Infinity's `mov=4-4` sets
  both moves). WARMACHINE's `grid=` (a damage grid) and `kind=` (`tipo=`: solitario, truppa...)
  are accepted as on `/unit add`.
- weapons: after a `|`, a name (a `:` after it is optional) and the game's weapon fields
  (WEAPON_FIELDS: WARMACHINE `rng rof aoe pow p+s loc`, Age of Sigmar `range attacks hit wound rend
  damage`…), values as printed (`d3`, `3+`, `-1`). A weapon may be only a name.
- a `;` also ends a unit (Discord's command box has a single line); blank lines and lines
  starting with `#` or `//` are skipped.

Every unit's weapon profiles are stored on the unit (`Unit.extra["roster"]["weapons"]`, with
the fields the game doesn't use under `kept`) so attacks can take them later; Age of Sigmar's
also go on the warscroll `/aos attack attacker=… weapon=…` reads, Infinity's into the game's
weapons and the unit's loadout (`/inf attack`), World of Warcraft's onto the Action Bar
(`/wow attack … card=…`): WEAPON_HOOKS.

Parsing is checked line by line against the game system (`validate_stats`), so a bad line is
reported with its number before anything is added; `add_roster` adds every unit or none (it
returns a new state, the input is never modified).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player, Unit
from rules_core.game.stat_names import (
    FREE_KEY,
    MODELS,
    is_yes_no,
    join_spaced_pairs,
    lookup,
    norm,
    stat_name,
    unknown_stat,
)
from rules_core.rules.text import fold
from rules_core.systems import get_system
from rules_core.systems.aos import system as aos_system
from rules_core.systems.base import Note, read_number
from rules_core.systems.inf import models as inf_models
from rules_core.systems.inf import transitions as inf_tr
from rules_core.systems.wm import grid as wm_grid
from rules_core.systems.wm import system as wm_system
from rules_core.systems.wow import cards as wow_cards
from rules_core.systems.wow import transitions as wow_tr

MAX_UNITS = 60
MAX_WEAPONS = 12
MAX_VALUE = 16
MAX_KEPT = 20
MAX_MODELS = 100
ROSTER_KEY = "roster"  # Unit.extra[ROSTER_KEY]: the roster's weapons and kept fields

WEAPON_FIELDS: dict[str, dict[str, tuple[str, ...]]] = {
    "wm": {
        "rng": ("range", "git", "gittata"),
        "rof": ("cdf", "cadenza"),
        "aoe": ("ade", "area"),
        "pow": ("pot", "potenza"),
        "p+s": ("ps", "p+f", "pf"),
        # L, R, H or - (the weapon's system); BattleScribe's Mk II data heads it `L/R/H`
        "loc": ("location", "posizione", "pos", "lrh"),
    },
    "aos": {
        "range": ("gittata", "rng"),
        "attacks": ("attacchi", "a"),
        "hit": ("tohit", "colpire", "percolpire"),
        "wound": ("towound", "ferire", "perferire"),
        "rend": ("impatto", "perforazione"),
        "damage": ("danni", "danno", "d", "dmg"),
    },
    "wow": {
        "power": ("potere", "pow", "attack", "attacco"),
        "range": ("raggio", "gittata"),
        "type": ("tipo",),
        "cost": ("costo",),  # the tick cost an Action Card needs (202)
    },
    "inf": {
        "dam": ("damage", "danno"),
        "burst": ("b", "raffica", "r"),
        "ammo": ("ammunition", "munizione", "munizioni", "mun"),
        "bands": ("range", "rng", "gittata", "distanza", "fasce"),  # 20:+3,40:0 as /inf weapon
        "template": ("sagoma",),  # direct, area or thrown, as /inf weapon add
    },
    "c5": {
        "str": ("strength", "for", "forza"),
        "range": ("gittata",),
    },
}
# Weapon values written as words, by their codes: the Italian words (and long names) a roster
# line may use, stored as the code so a screen shows each reader its own word (an unknown
# word stays as typed: the game's weapon refuses it when the unit joins a game).
WEAPON_VALUES: dict[str, dict[str, dict[str, str]]] = {
    "inf": {
        "template": {"diretta": "direct", "lancio": "thrown", "lanciata": "thrown"},
        "ammo": {fold(k): v for k, v in inf_models.AMMO_ALIASES.items()},
    },
    "wow": {"type": wow_cards.TYPE_WORDS},
}
_FIS = re.compile(r"^FIS(?=$|[+-])", re.IGNORECASE)  # Infinity's DAM `FIS+1`: PH+1
# WARMACHINE's base sizes by name, in mm (L1017-1020: small 30, medium 40, large 50).
WM_BASES = {"small": 30, "piccola": 30, "medium": 40, "media": 40, "large": 50, "grande": 50}
# WARMACHINE: the damage grid, and the model type (warjack, solo...: wm.system.model_kind).
UNIT_OPTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "wm": {"grid": ("griglia",), "kind": ("tipo", "tipo_modello")}
}
# The stat line each game prints: reported as missing when an import has no value for it.
EXPECTED: dict[str, tuple[str, ...]] = {
    "wm": ("spd", "str", "mat", "rat", "def", "arm", "cmd"),
    "aos": ("move", "wounds", "save", "bravery"),
    "wow": ("health", "armor", "resist"),
    "inf": ("cc", "bs", "ph", "wip", "arm", "bts", "w"),
    "c5": ("mov", "ini", "att", "str", "def", "res"),
}

_QUOTES = {'"': '"”', "“": '”"', "«": "»", "„": "“”", "'": "'’", "‘": "’'"}
_COUNT_FIRST = re.compile(r"^(\d{1,3})\s*[x×]?$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^[x×](\d{1,3})$", re.IGNORECASE)
_RANGE = re.compile(r"^(\d{1,2})\s*[-/]\s*(\d{1,2})$")
_VALUE = re.compile(r"^[^\s|;=]{1,120}$")


class Weapon(BaseModel):
    """A weapon profile as the roster gives it: the game's fields by their canonical names, the
    others kept as printed."""

    name: str
    values: dict[str, str] = Field(default_factory=dict)
    kept: dict[str, str] = Field(default_factory=dict)


class RosterUnit(BaseModel):
    name: str
    models: int = Field(default=1, ge=1, le=MAX_MODELS)
    stats: dict[str, int] = Field(default_factory=dict)
    options: dict[str, str] = Field(default_factory=dict)  # e.g. WARMACHINE's grid
    weapons: list[Weapon] = Field(default_factory=list)
    kept: dict[str, str] = Field(default_factory=dict)  # fields the game doesn't use
    line: int | None = None  # where it was written (text), for error messages


class Roster(BaseModel):
    system: str
    units: list[RosterUnit] = Field(default_factory=list)


class LineError(UserError):
    """A unit of a roster that can't be added: which one, and why (`cause`). The bot says
    `army.bad_line` with the cause translated."""

    def __init__(self, cause: UserError, *, line: int | None, unit: str | None) -> None:
        super().__init__(cause.key, **cause.params)
        self.cause = cause
        self.line = line
        self.unit = unit


def is_value(text: str) -> bool:
    """A value the text format can hold: one word without `|`, `;` or `=`."""
    return bool(_VALUE.match(text))


def weapon_field(system: str, key: str) -> str | None:
    if system not in WEAPON_FIELDS:
        low = key.lower()
        return low if FREE_KEY.match(low) else None
    return lookup(WEAPON_FIELDS[system]).get(norm(key))


def set_stat(system: str, stats: dict[str, int], key: str, value: str) -> bool:
    """Put `key=value` into `stats` if `key` is a stat of `system` with a readable value
    (Infinity's MOV `4-4` is both moves). False when it is not."""
    if system == "inf" and norm(key) == "mov":
        m = _RANGE.match(value.strip().replace('"', ""))
        if m is None:
            return False
        stats["mov1"], stats["mov2"] = int(m.group(1)), int(m.group(2))
        return True
    name = stat_name(system, key)
    if name is None:
        return False
    spec = get_system(system).stat(name)
    number = spec.read(value) if spec is not None else read_number(value)  # `4+`, `-` (no save)
    if system == "wm" and name == "base" and number is None:  # BattleScribe's `Base: Small`
        number = WM_BASES.get(norm(value))
    if number is None:
        return False
    stats[name] = number
    return True


# --- the text format ----------------------------------------------------------------------------


def _pieces(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "//")):
            continue
        out += [(number, piece.strip()) for piece in stripped.split(";") if piece.strip()]
    return out


def _head(text: str) -> tuple[list[str], list[str], bool]:
    """Name words and field tokens of `NAME key=value …`; True if the name was quoted."""
    text = text.strip()
    closers = _QUOTES.get(text[:1])
    if closers:
        # As on the command line: a quote closes before a space or the end (`'Knight d'Azyr'`).
        end = next(
            (
                i
                for i in range(1, len(text))
                if text[i] in closers and (i + 1 == len(text) or text[i + 1].isspace())
            ),
            None,
        )
        if end is not None:
            return [text[1:end].strip()], join_spaced_pairs(text[end + 1 :]).split(), True
    tokens = join_spaced_pairs(text).split()
    first = next((i for i, t in enumerate(tokens) if "=" in t), len(tokens))
    return tokens[:first], tokens[first:], False


def _fields(tokens: list[str], system: str | None = None) -> list[tuple[str, str]]:
    """`key=value` tokens as pairs; a yes/no stat of `system` written alone (`generale`,
    `tenente`) is 1."""
    out = []
    for token in tokens:
        key, eq, value = token.partition("=")
        if not eq and system is not None and _yes_no_stat(system, token):
            key, value = token, "1"
        elif not eq or not key:
            raise UserError("army.bad_token", token=token[:30])
        if not _VALUE.match(value):
            raise UserError("army.bad_value", field=key[:24], value=value[:20])
        out.append((key, value))
    return out


def _yes_no_stat(system: str, word: str) -> bool:
    """A stat of `system` that is 0 or 1 (AoS's General, Infinity's Lieutenant...)."""
    name = stat_name(system, word)
    return name is not None and is_yes_no(system, name)


def _name_and_count(words: list[str], quoted: bool) -> tuple[str, int | None]:
    if quoted:
        return words[0] if words else "", None
    count: int | None = None
    if len(words) > 1 and (m := _COUNT_FIRST.match(words[0])):
        count, words = int(m.group(1)), words[1:]
        if len(words) > 1 and words[0].lower() in ("x", "×"):
            words = words[1:]
    elif len(words) > 1 and (m := _COUNT_LAST.match(words[-1])):
        count, words = int(m.group(1)), words[:-1]
    elif len(words) > 2 and words[-2].lower() in ("x", "×") and words[-1].isdecimal():
        count, words = int(words[-1]), words[:-2]
    return " ".join(words).rstrip(":").strip(), count


def _weapon(system: str, text: str) -> Weapon:
    words, tokens, quoted = _head(text)
    name = (words[0] if quoted else " ".join(words)).rstrip(":").strip()
    if not name:
        raise UserError("army.weapon_without_name")
    values: dict[str, str] = {}
    for key, value in _fields(tokens):
        field = weapon_field(system, key)
        if field is None:
            valid = ", ".join(WEAPON_FIELDS.get(system, {})) or "-"
            raise UserError("army.unknown_weapon_field", field=key[:24], valid=valid)
        if len(value) > MAX_VALUE:
            raise UserError("army.bad_value", field=key[:24], value=value[:20])
        values[field] = _value_code(system, field, value)
    return Weapon(name=tr.clean_name(name), values=values)


def _grid_code(text: str) -> str:
    """A WARMACHINE grid's system letters by their keys: the Italian S, D, T are L, R, H
    (the grid reads them alike), so a grid typed or shown in Italian is the same grid."""
    return "".join(wm_grid.SYSTEM_KEYS.get(c, c) for c in text)


def _value_code(system: str, field: str, value: str) -> str:
    """A weapon value as stored: its code when it is a known word (`diretta` -> `direct`,
    `FUOCO` -> `FIRE`, `fisico` -> `physical`, Infinity's `FIS+1` -> `PH+1`)."""
    if system == "inf" and field == "dam":
        return _FIS.sub("PH", value)
    if system == "wm" and field == "loc":  # the weapon's system: S, D, T are L, R, H
        return wm_grid.SYSTEM_KEYS.get(value.upper(), value)
    return WEAPON_VALUES.get(system, {}).get(field, {}).get(fold(value), value)


def _unit(system: str, line: int, text: str) -> RosterUnit:
    head, *weapon_texts = text.split("|")
    words, tokens, quoted = _head(head)
    name, count = _name_and_count(words, quoted)
    if not name:
        raise UserError("army.unit_without_name")
    name = tr.clean_name(name)
    stats: dict[str, int] = {}
    options: dict[str, str] = {}
    unit_options = lookup(UNIT_OPTIONS.get(system, {}))
    for key, value in _fields(tokens, system):
        if norm(key) in {norm(m) for m in MODELS}:
            number = read_number(value)
            if number is None:
                raise UserError("army.not_a_number", field=key[:24], value=value[:20])
            count = number
        elif norm(key) in unit_options:
            option = unit_options[norm(key)]
            # A grid's columns are split by `|` on /unit add; here `|` starts a weapon.
            grid = option == "grid"
            options[option] = (
                _grid_code(value.replace(",", "|").replace("/", "|")) if grid else value
            )
            if option == "kind":  # stored as the code (`truppa` -> `trooper`), shown in words
                options[option] = wm_system.parse_model_kind(value)
        elif not set_stat(system, stats, key, value):
            if stat_name(system, key) is not None or (system == "inf" and norm(key) == "mov"):
                raise UserError("army.not_a_number", field=key[:24], value=value[:20])
            if weapon_field(system, key) is not None and system in WEAPON_FIELDS:
                raise UserError("army.weapon_field_on_unit", field=key[:24])
            raise unknown_stat(system, key)
    models = count or 1
    if not 1 <= models <= MAX_MODELS:
        raise UserError("game.stat_range", stat="models", min=1, max=MAX_MODELS)
    weapons = [_weapon(system, w) for w in weapon_texts if w.strip()]
    if len(weapons) > MAX_WEAPONS:
        raise UserError("army.too_many_weapons", limit=MAX_WEAPONS)
    get_system(system).validate_stats(stats, creating=True)  # checked now, derived when added
    return RosterUnit(
        name=name, models=models, stats=stats, options=options, weapons=weapons, line=line
    )


def parse_text(text: str, system: str) -> Roster:
    """A roster in the plain-text format for `system`; a bad unit raises `LineError`."""
    units: list[RosterUnit] = []
    for line, piece in _pieces(text):
        try:
            units.append(_unit(system, line, piece))
        except LineError:
            raise
        except UserError as err:
            raise LineError(err, line=line, unit=piece.split("|")[0].strip()) from None
        if len(units) > MAX_UNITS:
            raise UserError("army.too_many_units", limit=MAX_UNITS)
    if not units:
        raise UserError("army.empty")
    return Roster(system=system, units=units)


# --- into a game ----------------------------------------------------------------------------


def unique_name(state: GameState, name: str, taken: set[str] | None = None) -> str:
    """`name`, or `name 2`, `name 3`… if the game already has it (kept within 40 characters)."""
    used = {fold(u.name) for u in state.units} | (taken or set())
    if fold(name) not in used:
        return name
    for n in range(2, tr.MAX_UNITS + 2):
        suffix = f" {n}"
        candidate = name[: tr.MAX_NAME - len(suffix)].rstrip() + suffix
        if fold(candidate) not in used:
            return candidate
    raise UserError("game.duplicate_unit", name=name)


def add_roster(
    state: GameState, roster: Roster, owner: Player, *, strict: bool = True
) -> tuple[GameState, list[Note]]:
    """Every unit of `roster` added to the game for `owner`, or none (a `LineError` names the
    unit that can't be). A name the game already has gets a number. Each weapon also becomes
    its game's own (WEAPON_HOOKS: an Age of Sigmar warscroll weapon, an Infinity loadout
    weapon, a World of Warcraft Action Card); with `strict`, one whose values can't make it is
    an error, otherwise a note (`army.weapon_not_usable`)."""
    if roster.system != state.system:
        raise UserError("army.wrong_system", roster=roster.system, game=state.system)
    notes: list[Note] = []
    new = state
    for item in roster.units:
        try:
            name = unique_name(new, item.name)
            if name != item.name:
                notes.append(("army.renamed", {"name": item.name, "new": name}))
            new = tr.add_unit(new, name, owner, {**item.stats, "models": item.models}, item.options)
            _attach(new, new.units[-1], item, notes, strict=strict)
        except UserError as err:
            raise LineError(err, line=item.line, unit=item.name) from None
    return new, notes


# How a game's attack commands take a roster's weapons, called for each weapon as its unit
# joins the game (the state and the unit in it mutable): it returns notes, and raises UserError
# when the values can't make that game's weapon. Games without one read
# `Unit.extra["roster"]` when they attack (WARMACHINE, Confrontation).
WeaponHook = Callable[[GameState, Unit, str, dict[str, str], dict[str, str]], list[Note]]


def _aos_weapon(
    state: GameState, unit: Unit, name: str, values: dict[str, str], kept: dict[str, str]
) -> list[Note]:
    if values:  # a weapon that is only a name stays in the roster
        made = aos_system.make_weapon(name[:30], values)
        aos_system.set_weapon(unit, made, made.name)
    return []


WEAPON_HOOKS: dict[str, WeaponHook] = {
    "aos": _aos_weapon,
    "inf": inf_tr.roster_weapon,
    "wow": wow_tr.roster_card,
}


def _attach(
    state: GameState, unit: Unit, item: RosterUnit, notes: list[Note], *, strict: bool
) -> None:
    if item.weapons or item.kept:
        unit.extra[ROSTER_KEY] = {
            "weapons": [w.model_dump() for w in item.weapons],
            "kept": dict(item.kept),
        }
    hook = WEAPON_HOOKS.get(state.system)
    if hook is None:
        return
    for weapon in item.weapons:
        try:
            notes += hook(state, unit, weapon.name, dict(weapon.values), dict(weapon.kept))
        except UserError as err:
            # a weapon written as a name alone is a documented form: never an error
            if strict and weapon.values:
                raise
            why = {"unit": unit.name, "weapon": weapon.name, "reason": (err.key, err.params)}
            notes.append(("army.weapon_not_usable", why))


def from_unit(unit: Unit, state: GameState) -> RosterUnit:
    """A game's unit back as a roster entry (its profile, not its damage): what `/army save`
    keeps of a player's units. Infinity's weapons are the unit's loadout as it is in the game
    (changed since the import or not: `inf_tr.loadout_roster`)."""
    system = state.system
    stored: dict[str, Any] = unit.extra.get(ROSTER_KEY) or {}
    weapons = [Weapon.model_validate(w) for w in stored.get("weapons", [])]
    if system == "inf":
        given = [(w.name, dict(w.values), dict(w.kept)) for w in weapons]
        now = inf_tr.loadout_roster(state, unit, given)
        weapons = [Weapon(name=n, values=v, kept=k) for n, v, k in now]
    known = {fold(w.name) for w in weapons}
    for w in aos_system.weapons(unit):  # weapons added with /aos weapon
        if fold(w.name) not in known:
            values = {f: str(getattr(w, f)) for f in aos_system.WEAPON_FIELDS}
            weapons.append(Weapon(name=w.name, values=values))
    options = {}
    grid = unit.extra.get("grid")
    if isinstance(grid, dict) and grid.get("columns"):
        options["grid"] = "|".join(str(c) for c in grid["columns"])
    if isinstance(unit.extra.get("kind"), str):  # a model type the player set (WARMACHINE)
        options["kind"] = unit.extra["kind"]
    defaults = {s.name: s.default for s in get_system(system).stats}
    stats = {
        k: v
        for k, v in unit.stats.items()
        if defaults.get(k) != v and not (k == "boxes" and "grid" in options) and k != "hp"
    }  # Infinity derives hp from W; a grid gives WARMACHINE's boxes
    return RosterUnit(
        name=unit.name,
        models=unit.models,
        stats=stats,
        options=options,
        weapons=weapons[:MAX_WEAPONS],
        kept=dict(stored.get("kept", {})),
    )


def _name_text(name: str) -> str:
    """A name as the format reads it back: quoted when words alone would not be."""
    words, _, _ = _head(name)
    plain = " ".join(words) == name and _name_and_count(name.split(), False) == (name, None)
    return name if plain and ";" not in name and "|" not in name else f"«{name}»"


# How a line's codes are written for a reader: (what, code) -> the word, `what` being "stat"
# (`wounds`), "option" (WARMACHINE's `grid`, `kind`), "kind" (a model type: `trooper`),
# "field" (a weapon's `attacks`) or "value.FIELD" (a weapon's value: Infinity's
# `template=direct`, WoW's `type=physical`, any other as stored: `3+`). Every word given must
# be one the parser takes for that code (a test pastes each game's shown roster back).
Words = Callable[[str, str], str]


def codes(what: str, code: str) -> str:
    """The canonical words: the codes themselves."""
    return code


def _kind_code(text: str) -> str:
    """A stored model type as its code: rosters saved before parsing stored it as typed."""
    try:
        return wm_system.parse_model_kind(text)
    except UserError:
        return text


def to_text(unit: RosterUnit, words: Words = codes) -> str:
    """One unit as a line of the text format (what `/army show` prints, pasteable back), its
    keys and WARMACHINE's model type in `words`."""
    parts = [
        f"{unit.models}x {_name_text(unit.name)}" if unit.models > 1 else _name_text(unit.name)
    ]
    both = "mov1" in unit.stats and "mov2" in unit.stats  # Infinity's MOV, printed `4-2`
    skip = ("mov1", "mov2") if both else ()
    stats = {words("stat", k): str(v) for k, v in unit.stats.items() if k not in skip}
    if both:  # as both books print it
        stats = {"MOV": f"{unit.stats['mov1']}-{unit.stats['mov2']}", **stats}
    parts += [f"{k}={v}" for k, v in stats.items()]
    for k, v in unit.options.items():
        if k == "kind":
            value = words("kind", _kind_code(v))
        elif k == "grid":  # each system letter as the reader's book prints it (S for L)
            value = "".join(words("letter", c) for c in _grid_code(v).replace("|", ","))
        else:
            value = v.replace("|", ",")
        parts.append(f"{words('option', k)}={value}")
    line = " ".join(parts)
    for weapon in unit.weapons:
        fields = " ".join(
            f"{words('field', k)}={words('value.' + k, v)}" for k, v in weapon.values.items()
        )
        line += f" | {_name_text(weapon.name)}" + (f": {fields}" if fields else "")
    return line
