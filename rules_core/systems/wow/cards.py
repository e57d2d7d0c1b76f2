"""Action Cards as unit data (rules 106, 202, 300, 502.2).

A character's Action Bar (300.1) is kept in `Unit.extra["wow"]["cards"]`. Each card has a
tick cost (202, L256; 300.4), for attack and heal cards a power, a type (physical or magical
attack, a heal, or `other` for buffs, debuffs, Forms, Pets and Totems, 202 L276), a range
and its crit ability. Cards start ready (106.1, L158); playing one pays its cost and exhausts
it (300.5, L314: "cooldown"); an exhausted card can't be played until it is readied, which
happens to every card at the end of tick 10 (502.2, L853). Pets have no Action Bar (300.1)
and a bar never holds two cards with the same name (300.2, L302).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from rules_core.errors import UserError
from rules_core.game.models import GameState, Unit
from rules_core.rules.text import fold
from rules_core.systems.wow.clock import MAX_AHEAD
from rules_core.systems.wow.pool import MAX_POOL

CardType = Literal["physical", "magical", "heal", "other"]
CARD_TYPES: tuple[str, ...] = ("physical", "magical", "heal", "other")
# The Italian book's words for them (600.1 "attacco fisico", "magico"; 402.2 "cura").
TYPE_WORDS = {"fisico": "physical", "magico": "magical", "cura": "heal", "altro": "other"}


def card_type(text: str | None, allowed: tuple[str, ...] = CARD_TYPES) -> str | None:
    """A type as typed, in English or Italian (`magico`), or None when not given."""
    if text is None or not text.strip():
        return None
    word = fold(text.strip())
    kind = TYPE_WORDS.get(word, word)
    if kind not in allowed:
        key = "wow.bad_card_type" if "heal" in allowed else "wow.bad_attack_type"
        raise UserError(key, value=text.strip()[:20], valid=", ".join(allowed))
    return kind


MAX_NAME = 40
MAX_RANGE = 30
CRIT_MAX = 20
_CRIT = re.compile(r"^(damage|danno|heal|cura):(\d{1,2})$|^(effect|effetto)$")
_CRIT_WORDS = {"danno": "damage", "cura": "heal", "effetto": "effect"}


def parse_crit(text: str | None, allowed: set[str] | None = None) -> dict[str, int]:
    """`damage:2`, `effect`, `heal:1`, comma separated, Italian words too (danno, cura,
    effetto). A crit ability fires once per roll however many crits show (105.2, L128)."""
    out: dict[str, int] = {}
    if not text or not text.strip():
        return out
    for part in text.lower().split(","):
        m = _CRIT.match(part.strip())
        if m is None:
            raise UserError("wow.bad_crit", value=part.strip()[:30])
        word = m.group(1) or m.group(3)
        kind = _CRIT_WORDS.get(word, word)
        if allowed is not None and kind not in allowed:
            raise UserError("wow.bad_crit", value=part.strip()[:30])
        amount = int(m.group(2)) if m.group(2) else 1
        if amount > CRIT_MAX:
            raise UserError("wow.crit_too_big", limit=CRIT_MAX)
        out[kind] = amount
    return out


def crit_text(crit: dict[str, int]) -> str:
    """The canonical spelling of a parsed crit ability."""
    return ",".join(k if k == "effect" else f"{k}:{v}" for k, v in sorted(crit.items()))


class Card(BaseModel):
    name: str = Field(min_length=1, max_length=MAX_NAME)
    cost: int = Field(ge=0, le=MAX_AHEAD)  # 408.2a: a cost of 10 or more can never be paid
    power: int = Field(default=0, ge=0, le=MAX_POOL)  # attack or heal power (601.1, 402.2a)
    type: CardType = "physical"
    range: int | None = Field(default=None, ge=0, le=MAX_RANGE)  # 405.2
    crit: str = ""  # canonical crit ability text, e.g. "damage:2,effect"
    exhausted: bool = False  # 106.1: sideways, on cooldown (300.5)


def make_card(
    name: str,
    cost: int,
    power: int | None,
    type_: str | None,
    range_: int | None,
    crit: str | None,
) -> Card:
    """A new card from the command's options; the crit ability must fit the card's type."""
    clean = " ".join(name.split())
    if not 1 <= len(clean) <= MAX_NAME:
        raise UserError("wow.bad_card_name", limit=MAX_NAME)
    kind = card_type(type_) or "physical"
    allowed = {"heal"} if kind == "heal" else {"damage", "effect"}
    parsed = parse_crit(crit, allowed if kind != "other" else {"effect"})
    if not 0 <= cost <= MAX_AHEAD:
        raise UserError("wow.card_cost", limit=MAX_AHEAD)
    if power is not None and not 0 <= power <= MAX_POOL:
        raise UserError("wow.pool_size", what="power", limit=MAX_POOL)
    if range_ is not None and not 0 <= range_ <= MAX_RANGE:
        raise UserError("wow.card_range", limit=MAX_RANGE)
    return Card(
        name=clean,
        cost=cost,
        power=power or 0,
        type=kind,
        range=range_,
        crit=crit_text(parsed),
    )


def cards_of(unit: Unit) -> list[Card]:
    raw = unit.extra.get("wow", {}).get("cards", [])
    return [Card.model_validate(c) for c in raw]


def set_cards(unit: Unit, cards: list[Card]) -> None:
    unit.extra.setdefault("wow", {})["cards"] = [c.model_dump() for c in cards]


def find_card(unit: Unit, name: str) -> Card:
    """By name, case- and accent-insensitive, or an unambiguous prefix."""
    cards = cards_of(unit)
    key = fold(name.strip())
    exact = [c for c in cards if fold(c.name) == key]
    matches = exact or [c for c in cards if fold(c.name).startswith(key)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        valid = ", ".join(c.name for c in cards) or "-"
        raise UserError("wow.no_card", unit=unit.name, card=name[:40], valid=valid)
    raise UserError(
        "wow.ambiguous_card", card=name[:40], options=", ".join(c.name for c in matches)
    )


def add_card(unit: Unit, card: Card, limit: int | None) -> None:
    """`unit` is a mutable copy. Pets have no Action Bar (300.1); no two cards with the same
    name (300.2); at most `limit` cards (the `card_limit` setting: 100.2 / 101.2a)."""
    if unit.stats.get("pet"):
        raise UserError("wow.pet_no_cards", unit=unit.name)
    cards = cards_of(unit)
    if any(fold(c.name) == fold(card.name) for c in cards):
        raise UserError("wow.duplicate_card", unit=unit.name, card=card.name)
    if limit is not None and len(cards) >= limit:
        raise UserError("wow.too_many_cards", unit=unit.name, limit=limit)
    set_cards(unit, [*cards, card])


def remove_card(unit: Unit, name: str) -> Card:
    card = find_card(unit, name)
    set_cards(unit, [c for c in cards_of(unit) if c.name != card.name])
    return card


def exhaust(unit: Unit, name: str) -> Card:
    """300.5: exhausting the card is part of the cost of playing it; an exhausted card can't
    be played until it is readied (at the latest at the end of tick 10, 502.2)."""
    card = find_card(unit, name)
    if card.exhausted:
        raise UserError("wow.card_exhausted", unit=unit.name, card=card.name)
    set_cards(
        unit,
        [
            c.model_copy(update={"exhausted": True}) if c.name == card.name else c
            for c in cards_of(unit)
        ],
    )
    return card


def ready_all(state: GameState) -> list[str]:
    """502.2 (L853): at the end of tick 10 every Action Card is readied. `state` is a mutable
    copy; returns "Unit: Card" for every card that was exhausted."""
    readied: list[str] = []
    for unit in state.units:
        cards = cards_of(unit)
        if any(c.exhausted for c in cards):
            readied += [f"{unit.name}: {c.name}" for c in cards if c.exhausted]
            set_cards(unit, [c.model_copy(update={"exhausted": False}) for c in cards])
    return readied
