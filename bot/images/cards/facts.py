"""What a card shows, as pydantic models built from the game state (the same facts as the text
reply), with every label already in the chat's language. The renderers draw these and nothing
else, so the tests check the facts against the state and the pictures against the facts.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from bot import i18n
from bot.commands.game_view import condition_label, stat_label
from bot.commands.local_names import system_letter
from rules_core.game.models import Unit
from rules_core.systems import get_system
from rules_core.systems.c5 import tables as c5_tables
from rules_core.systems.c5.system import unit_penalty
from rules_core.systems.inf.orders import unit_state
from rules_core.systems.wm.grid import SYSTEM_KEYS
from rules_core.systems.wm.system import unit_grid
from rules_core.systems.wow.cards import cards_of

# --- WARMACHINE damage grid -----------------------------------------------------------------


class GridBox(BaseModel):
    column: int  # 1..6, as printed above the grid
    row: int  # 0 = the top box of its column
    letter: str  # "" a hull box, else the system's letter as the chat's book prints it
    system: str | None  # the system key (L, R, H, C, M, A, G or another letter), None = hull
    marked: bool
    crippled: bool  # its system has every box marked


class GridCard(BaseModel):
    name: str
    title: str
    rows: int
    boxes: list[GridBox]
    left: int
    total: int
    left_label: str
    crippled_title: str
    crippled: list[str]  # "S braccio sinistro", in the grid's order of keys
    disabled: str | None  # the word for it, when every box is marked


def grid_card(unit: Unit, lang: i18n.Lang) -> GridCard | None:
    """The card of a warjack's or warcaster's grid (None for a model without one)."""
    grid = unit_grid(unit)
    if grid is None:
        return None
    marked = grid.marked
    crippled = set(grid.crippled())
    boxes = []
    for c, col in enumerate(grid.columns):
        for r, cell in enumerate(col):
            if cell == "_":
                continue
            key = None if cell == "." else SYSTEM_KEYS.get(cell, cell)
            boxes.append(
                GridBox(
                    column=c + 1,
                    row=r,
                    letter="" if key is None else system_letter(lang, key),
                    system=key,
                    marked=(c, r) in marked,
                    crippled=key in crippled,
                )
            )
    left = grid.boxes - len(marked)
    return GridCard(
        name=unit.name,
        title=i18n.t(lang, "cards.wm.grid"),
        rows=max(len(c) for c in grid.columns),
        boxes=boxes,
        left=left,
        total=grid.boxes,
        left_label=i18n.tn(lang, "cards.wm.left", left, total=grid.boxes),
        crippled_title=i18n.t(lang, "cards.wm.crippled"),
        crippled=[
            f"{system_letter(lang, k)} {i18n.t(lang, f'cards.wm.system.{k}')}"
            if i18n.has(f"cards.wm.system.{k}", lang)
            else k
            for k in sorted(crippled)
        ],
        disabled=i18n.t(lang, "cards.wm.disabled") if grid.destroyed else None,
    )


# --- unit status card -------------------------------------------------------------------------


class Stat(BaseModel):
    label: str
    value: str


class UnitCard(BaseModel):
    system: str
    game: str  # the game's name, on the card's band
    name: str
    owner: str  # "Proprietario: Ada"
    health_label: str
    left: int
    most: int
    models: str | None  # "3/5 modelli", for a unit of several models
    stats: list[Stat]
    states_title: str
    states: list[str]  # the game's own states: "Ferita Grave", "Incosciente", "distrutta"
    conditions_title: str
    conditions: list[str]
    lines_title: str | None = None  # WoW's Action Bar
    lines: list[str] = Field(default_factory=list)


def unit_card(unit: Unit, system: str, lang: i18n.Lang) -> UnitCard:
    spec = get_system(system)
    left, most = spec.health(unit)
    health_key = f"cards.health.{system}"
    if system == "inf" and unit.stats.get("structure"):
        health_key = "cards.health.inf_structure"
    if not i18n.has(health_key, lang):
        health_key = "cards.health.gen"
    health = i18n.t(lang, health_key)
    stats = [
        Stat(label=stat_code(lang, system, k), value=str(unit.stats[k]))
        for k in spec.board_stats
        if k in unit.stats
    ]
    lines: list[str] = []
    lines_title = None
    if system == "wow":
        bar = cards_of(unit)
        if bar:
            lines_title = i18n.t(lang, "cards.action_bar")
            lines = [
                f"{'✘' if c.exhausted else '✔'} {c.name} · "
                + i18n.t(lang, "cards.exhausted" if c.exhausted else "cards.ready")
                for c in bar
            ]
    return UnitCard(
        system=system,
        game=i18n.t(lang, f"cards.game.{system}"),
        name=unit.name,
        owner=i18n.t(lang, "game.owner", name=unit.owner_name),
        health_label=health,
        left=left,
        most=most,
        models=(
            i18n.t(lang, "game.models_left", n=unit.models_left, of=unit.models)
            if unit.models > 1
            else None
        ),
        stats=stats,
        states_title=i18n.t(lang, "cards.states"),
        states=unit_states(unit, system, lang),
        conditions_title=i18n.t(lang, "cards.conditions"),
        conditions=[
            condition_label(lang, c.name, c.until, c.rounds_left, system) for c in unit.conditions
        ],
        lines_title=lines_title,
        lines=lines,
    )


def stat_code(lang: i18n.Lang, system: str, stat: str) -> str:
    """A stat's name as the game's catalogue has it, else its code as the cards print it
    (`BS`, `ARM`: the books' codes are capitals)."""
    named = stat_label(lang, system, stat)
    return stat.upper() if named == stat else named


def unit_states(unit: Unit, system: str, lang: i18n.Lang) -> list[str]:
    """The state the game's book names for the unit's wounds, in the chat's language."""
    if system == "inf":
        return [i18n.t(lang, f"inf.state.{unit_state(unit)}")]
    if system == "c5":
        out = [i18n.t(lang, f"cards.c5_state.{c5_tables.state_key(unit.damage, unit.max_wounds)}")]
        penalty = unit_penalty(unit)
        if penalty and not unit.destroyed:
            out.append(i18n.t(lang, "cards.c5_penalty", n=penalty))
        return out
    return [i18n.t(lang, "game.destroyed")] if unit.destroyed else []
