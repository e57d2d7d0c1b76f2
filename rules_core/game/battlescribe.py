"""A BattleScribe / New Recruit roster mapped onto a game's units (pure: the XML is read by
bot/roster_import.py into the models below).

The roster schema (namespace http://www.battlescribe.net/schema/rosterSchema):
`roster > forces > force > selections > selection`, each selection with `type` (unit, model,
upgrade), `number`, `profiles > profile[name, typeName] > characteristics > characteristic[name]`
(the text is the value), `costs > cost[name, value]`, and its own `selections`; forces nest.

How it becomes units:
- a selection is a unit when it is `type="unit"` or `"model"`, or has a stat profile of its
  own; other selections (detachments, regiments, battalions) are looked into for units;
- its stats come from the first profile in it (its own first, then its children's) whose
  characteristics name at least two of the game's stats (stat_names.STATS, compared after
  `roster.norm`, so `To Hit`, `SPD` and `Velocità` all work); a profile named like the unit wins;
- models: the sum of `number` over its `type="model"` selections, else its own `number`;
- weapons: every other profile in it typed as a weapon or an attack (an untyped one: with two of
  the game's weapon fields), once per name; their other fields are kept;
- characteristics the game doesn't use are kept on the unit and listed; a value that isn't a
  number (`*`, `2D6`) is reported as unreadable; a stat of the game's stat line the profile
  lacks is reported as missing (the system's default applies);
- a unit selection without any stat profile is skipped and reported;
- its categories (`categories > category[name, primary]`) name what the rules read of it:
  WARMACHINE's model type (`unit_kind`) and Age of Sigmar's MONSTER and HERO keywords
  (`CATEGORY_STATS`).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from rules_core.errors import UserError
from rules_core.game import roster as rs
from rules_core.game import stat_names
from rules_core.game import transitions as tr
from rules_core.rules.text import fold
from rules_core.systems import get_system
from rules_core.systems.wm import system as wm_system

MIN_STATS = 2  # characteristics a profile needs to be the unit's stat line
# Words in a roster's gameSystemName that name one of our games.
GAME_WORDS: dict[str, tuple[str, ...]] = {
    "wm": ("warmachine", "hordes"),
    "aos": ("age of sigmar", "sigmar"),
    "wow": ("warcraft",),
    "inf": ("infinity",),
    "c5": ("confrontation",),
}


# Categories that are a yes/no stat of the game: Age of Sigmar's MONSTER keyword, a category of
# each monster's entry in BattleScribe's data (a unit with the keyword is a MONSTER, 21.0;
# what it changes: contesting objectives, 18.1.2).
CATEGORY_STATS: dict[str, dict[str, str]] = {"aos": {"monster": "monster", "hero": "hero"}}
# A WARMACHINE stat profile's type naming the model type, for a unit with no category saying
# it (the Mk II data's profile types; Myrmidons are Retribution warjacks).
WM_PROFILE_KINDS = {"warcaster": "warcaster", "warjack": "warjack", "myrmidon": "warjack"}


class BsCategory(BaseModel):
    name: str
    primary: bool = False


class BsProfile(BaseModel):
    name: str
    type_name: str = ""
    characteristics: list[tuple[str, str]] = Field(default_factory=list)


class BsSelection(BaseModel):
    name: str
    type: str = ""
    number: int = 1
    profiles: list[BsProfile] = Field(default_factory=list)
    costs: dict[str, float] = Field(default_factory=dict)
    categories: list[BsCategory] = Field(default_factory=list)
    selections: list[BsSelection] = Field(default_factory=list)


class BsRoster(BaseModel):
    name: str = ""
    game_system: str = ""
    selections: list[BsSelection] = Field(default_factory=list)  # of every force


class UnitReport(BaseModel):
    """What the import did with one unit, for the reply."""

    unit: str
    kept: dict[str, str] = Field(default_factory=dict)
    unreadable: dict[str, str] = Field(default_factory=dict)
    missing: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)  # catalogue keys ({unit}): shortened...


class Imported(BaseModel):
    roster: rs.Roster
    reports: list[UnitReport]
    skipped: list[str] = Field(default_factory=list)  # unit selections with no stat profile


def detect_system(game_system: str) -> str | None:
    name = fold(game_system)
    found = [system for system, words in GAME_WORDS.items() if any(w in name for w in words)]
    return found[0] if len(found) == 1 else None


def _stat_hits(system: str, profile: BsProfile) -> int:
    hits = sum(
        1 for key, _ in profile.characteristics if stat_names.stat_name(system, key) is not None
    )
    if system == "inf":
        hits += sum(1 for key, _ in profile.characteristics if stat_names.norm(key) == "mov")
    return hits


def _is_weapon(system: str, profile: BsProfile) -> bool:
    """A weapon profile: its type says so (`Melee Weapons`, `Ranged Weapon`, `Arma da tiro`,
    `Attack`), or, untyped, it has two of the game's weapon fields. A typed profile of another
    kind (a WARMACHINE spell has RNG and POW too) is not one."""
    kind = fold(profile.type_name)
    if kind:
        return any(w in kind for w in ("weapon", "attack")) or "arma" in kind.split()
    hits = sum(1 for key, _ in profile.characteristics if rs.weapon_field(system, key) is not None)
    return hits >= MIN_STATS


def _walk(selection: BsSelection) -> list[BsSelection]:
    out = [selection]
    for child in selection.selections:
        out += _walk(child)
    return out


def _is_unit(system: str, selection: BsSelection) -> bool:
    if selection.type in ("unit", "model"):
        return True
    return any(_stat_hits(system, p) >= MIN_STATS for p in selection.profiles)


def _stat_profile(system: str, unit: BsSelection) -> BsProfile | None:
    found = [p for s in _walk(unit) for p in s.profiles if _stat_hits(system, p) >= MIN_STATS]
    named = [p for p in found if fold(p.name) == fold(unit.name)]
    best = named or found
    return best[0] if best else None


def _models(unit: BsSelection) -> int:
    inside = [s for s in _walk(unit)[1:] if s.type == "model"]
    return sum(s.number for s in inside) if inside else max(1, unit.number)


def _clip(value: str) -> str:
    value = " ".join(value.split())
    return value if len(value) <= rs.MAX_VALUE * 4 else value[: rs.MAX_VALUE * 4 - 1] + "…"


def _weapons(system: str, unit: BsSelection, stats: BsProfile) -> list[rs.Weapon]:
    out: list[rs.Weapon] = []
    seen: set[str] = set()
    for sel in _walk(unit):
        for profile in sel.profiles:
            if profile is stats or not _is_weapon(system, profile) or fold(profile.name) in seen:
                continue
            seen.add(fold(profile.name))
            values: dict[str, str] = {}
            kept: dict[str, str] = {}
            for key, value in profile.characteristics:
                field = rs.weapon_field(system, key)
                text = " ".join(value.split())
                if field is not None and len(text) <= rs.MAX_VALUE and rs.is_value(text):
                    values[field] = text
                elif text:
                    kept[key[:24]] = _clip(text)
            name = " ".join(profile.name.split())[: tr.MAX_NAME] or "?"
            out.append(rs.Weapon(name=name, values=values, kept=dict(list(kept.items())[:8])))
    return out


def unit_kind(unit: BsSelection, profile: BsProfile) -> str | None:
    """A WARMACHINE unit's model type (warcaster, warjack, solo, trooper: the book's types,
    p. 31, L393-396) from its categories, the primary one first (the Mk II data files each
    model in one of Warcaster, Warjack, Solo, Unit; a Unit's models are troopers; later data
    shares one category with HORDES, `Warlock/Warcaster`, `Warjack/Warbeast`), else from its
    stat profile's type. None for the other categories (HORDES' Warlock and Warbeast alone,
    Battle Engine): the card decides, as for a unit typed without `kind=`."""
    ordered = sorted(unit.categories, key=lambda c: not c.primary)
    for name in [c.name for c in ordered]:
        for word in (name, *name.split("/")):
            try:
                return wm_system.parse_model_kind(word)
            except UserError:
                continue
    return WM_PROFILE_KINDS.get(fold(profile.type_name).strip())


def _category_stats(system: str, unit: BsSelection) -> dict[str, int]:
    table = CATEGORY_STATS.get(system, {})
    return {
        table[fold(c.name).strip()]: 1 for c in unit.categories if fold(c.name).strip() in table
    }


def _unit(system: str, unit: BsSelection) -> tuple[rs.RosterUnit, UnitReport] | None:
    profile = _stat_profile(system, unit)
    if profile is None:
        return None
    name = " ".join(unit.name.split()) or profile.name
    report = UnitReport(unit=name)
    if len(name) > tr.MAX_NAME:
        name = name[: tr.MAX_NAME].rstrip()
        report.unit = name
        report.notes.append("army.report_shortened")
    stats: dict[str, int] = {}
    for key, value in profile.characteristics:
        text = " ".join(value.split())
        if rs.set_stat(system, stats, key, text):
            continue
        if stat_names.stat_name(system, key) is not None or (
            system == "inf" and stat_names.norm(key) == "mov"
        ):
            if text not in ("", "-", "–"):
                report.unreadable[key[:24]] = _clip(text)
        elif text:
            report.kept[key[:24]] = _clip(text)
    if "pts" in get_system(system).stat_names():
        cost = next((v for k, v in unit.costs.items() if fold(k).strip() in ("pts", "points")), 0)
        if 0 < cost <= 999 and "pts" not in stats:
            stats["pts"] = int(cost)
    stats.update(_category_stats(system, unit))
    options: dict[str, str] = {}
    if system == "wm" and (kind := unit_kind(unit, profile)) is not None:
        options[wm_system.KIND_KEY] = kind
        if kind == "warjack":  # its damage goes on a grid the files don't print (L3644-3647)
            report.notes.append("army.report_wm_no_grid")
    known = {s.name: s for s in get_system(system).stats}
    for key in list(stats):  # out of the game's bounds: reported, the default applies
        spec = known.get(key)
        if spec is not None and not spec.min <= stats[key] <= spec.max:
            report.unreadable[key] = str(stats.pop(key))
    report.missing = [s for s in rs.EXPECTED.get(system, ()) if s not in stats]
    models = _models(unit)
    if system == "inf":
        models = 1  # an Infinity trooper is one model; a unit is each trooper
    if models > rs.MAX_MODELS:
        models = rs.MAX_MODELS
        report.notes.append("army.report_models_capped")
    weapons = _weapons(system, unit, profile)
    if len(weapons) > rs.MAX_WEAPONS:
        weapons = weapons[: rs.MAX_WEAPONS]
        report.notes.append("army.report_weapons_capped")
    kept = dict(list(report.kept.items())[: rs.MAX_KEPT])
    item = rs.RosterUnit(
        name=name, models=models, stats=stats, options=options, weapons=weapons, kept=kept
    )
    return item, report


def to_roster(roster: BsRoster, system: str) -> Imported:
    """The units of a BattleScribe roster for `system` (raises UserError: no unit at all, too
    many, a roster made for another of our games)."""
    meant = detect_system(roster.game_system)
    if meant is not None and meant != system:
        raise UserError("army.other_game", roster=meant, game=system)
    units: list[rs.RosterUnit] = []
    reports: list[UnitReport] = []
    skipped: list[str] = []

    def visit(selection: BsSelection) -> None:
        if not _is_unit(system, selection):
            for child in selection.selections:
                visit(child)
            return
        made = _unit(system, selection)
        if made is None:
            if selection.type == "unit":
                skipped.append(" ".join(selection.name.split())[: tr.MAX_NAME])
            else:
                for child in selection.selections:
                    visit(child)
            return
        units.append(made[0])
        reports.append(made[1])

    for top in roster.selections:
        visit(top)
    if not units:
        raise UserError("army.no_units")
    if len(units) > rs.MAX_UNITS:
        raise UserError("army.too_many_units", limit=rs.MAX_UNITS)
    return Imported(roster=rs.Roster(system=system, units=units), reports=reports, skipped=skipped)
