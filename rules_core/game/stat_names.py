"""The names a unit's stats answer to, in English and in Italian: one table for `/unit add`,
`/unit set`, `/army` rosters and BattleScribe imports. The canonical name is the one stored
(`wounds`); the others are the books' Italian terms and abbreviations (`ferite`, `dif`,
`salvezza`), long English names and BattleScribe's characteristic names. What a screen shows
for a stat is the bot's catalogue (`game.stat.<system>.<name>`), and a test checks that every
name shown there answers here."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TypeVar

from rules_core.errors import UserError
from rules_core.rules.text import fold
from rules_core.systems import get_system

V = TypeVar("V", int, int | str)  # a stat's value, or as typed (`4+`): GameSystem.read_stat

# Canonical stat -> other names, English and Italian (the books' abbreviations, the bot's
# option aliases, BattleScribe's characteristic names). Compared after `norm`.
STATS: dict[str, dict[str, tuple[str, ...]]] = {
    "wm": {
        "spd": ("speed", "vel", "velocita"),
        "str": ("strength", "for", "forza"),
        "mat": ("mischia",),  # the Italian book keeps MAT
        "rat": ("dat", "distanza"),
        "def": ("defense", "defence", "dif", "difesa"),
        "arm": ("armor", "armour", "armatura"),
        "cmd": ("command", "comando", "com"),
        "focus": ("foc",),
        "boxes": ("damage", "dmg", "caselle", "danni", "ferite", "wounds"),  # p. 37: unmarked boxes
        "base": ("basetta",),
    },
    "aos": {
        "move": ("movimento", "mov", "m"),
        "wounds": ("ferite", "w", "health", "salute"),
        "save": ("salvezza", "sv"),
        "bravery": ("coraggio",),
        "ward": ("protezione",),
        "general": ("generale",),
        "monster": ("mostro",),
        "hero": ("eroe",),
    },
    "wow": {
        "health": ("salute", "hp", "puntiferita"),
        "armor": ("armour", "armatura"),
        "resist": ("resistance", "resistenza"),
        "speed": ("velocita", "movimento"),
        "range": ("raggio", "gittata"),
        "honor": ("honour", "onore"),
        "legendary": ("leggendario",),
        "pet": ("famiglio",),
        "attack": ("attacco",),
        "magical": ("magico",),
    },
    "inf": {
        "cc": ("corpoacorpo",),
        "bs": ("cd",),
        "ph": ("fis",),
        "wip": ("vol",),
        "arm": ("armor", "armour", "armatura"),
        "bts": ("pb",),
        "w": ("f", "wounds", "ferite"),
        "pts": ("points", "cost", "punti", "costo", "c"),
        "type": ("tipo",),
        "irr": ("irregular", "irregolare"),
        "lt": ("lieutenant", "tenente"),
        "group": ("gruppo",),
        "structure": ("struttura", "str"),
        "hp": (),  # the wounds at which it is Dead (W+1), derived
        "mov1": (),
        "mov2": (),
        "morat": (),
        "antipode": ("antipodi", "antipoda"),
        "hungries": ("affamati", "affamato"),
    },
    "c5": {
        "mov": ("movement", "movimento"),
        "ini": ("initiative", "iniziativa"),
        "att": ("attack", "attacco"),
        "str": ("strength", "for", "forza"),
        "def": ("defense", "defence", "dif", "difesa"),
        "res": ("resilience", "resistenza"),
        "aim": ("tir", "tiro"),
        "wstr": ("forzaarma",),
        "cou": ("courage", "cor", "coraggio"),
        "fear": ("pau", "paura"),
        "dis": ("discipline", "disciplina"),
        "pow": ("power", "pot", "potere"),
        "aspects": ("aspetti",),
        "rank": ("rango",),
        "size": ("taglia",),
        "warrior": ("guerriero",),
        "pieta": ("piety",),
        "posseduto": ("possessed",),
        "robustezza": ("toughness",),
        "wounds": ("ferite",),
    },
}
# A system without a table (the generic one, which takes any stat) knows its declared stats
# by their own names, and these by their Italian ones too.
FREE_STATS: dict[str, tuple[str, ...]] = {"wounds": ("ferite", "w")}
MODELS = ("models", "modelli", "miniature", "minis")
FREE_KEY = re.compile(r"^[a-z][a-z0-9_]{0,23}$")


def norm(key: str) -> str:
    """The form names are compared in: `To Hit` -> `tohit`, `P+S` -> `p+s`, `Velocità` ->
    `velocita`."""
    return re.sub(r"[^a-z0-9+]", "", fold(key))


def lookup(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for canonical, aliases in table.items():
        for name in (canonical, *aliases):
            out.setdefault(norm(name), canonical)
    return out


def stat_name(system: str, key: str) -> str | None:
    """The canonical stat a name means in `system`, or None. The generic system takes any."""
    if system in STATS:
        return lookup(STATS[system]).get(norm(key))
    spec = get_system(system)
    known = lookup({name: FREE_STATS.get(name, ()) for name in spec.stat_names()}).get(norm(key))
    if known is not None:
        return known
    low = key.lower()
    return low if FREE_KEY.match(low) and spec.free_stats else None


def unknown_stat(system: str, key: str) -> UserError:
    """`key` is no stat of `system`: the error lists the stats by their codes, and the bot
    names them in the reader's language (`stat_system`)."""
    valid = ",".join(STATS.get(system) or [s.name for s in get_system(system).stats]) or "-"
    return UserError("game.unknown_stat", stat=key[:24], valid=valid, stat_system=system)


# A pair typed with spaces around `=` (`salute = 6`, `salute= 6`, `salute =6`), as a phone
# keyboard writes it: the key (a word, never a number: `2d6`), its `=` and spaces, up to the value.
SPACED_PAIR = re.compile(r"([^\W\d]\w*)(?:\s+=\s*|=\s+)(?=[^\s=])")


def join_spaced_pairs(text: str) -> str:
    """`text` with each spaced pair written as one (`salute = 10` -> `salute=10`), unless the
    word after the `=` is a pair of its own (`carta= costo=3`: carta has no value)."""

    def joined(m: re.Match[str]) -> str:
        value = text[m.end() :].split(maxsplit=1)[0]
        return m.group(0) if "=" in value else m.group(1) + "="

    return SPACED_PAIR.sub(joined, text)


# The value of a stat written alone (`/unita aggiungi Capitano ferite=6 generale`): the
# option parser has no game, so the game reads it (`canonical_stats`). No typed value is empty.
BARE = ""


def is_yes_no(system: str, name: str) -> bool:
    """`name` (canonical) is a stat of `system` that is 0 or 1: AoS's General, C5's warrior."""
    spec = get_system(system).stat(name)
    return spec is not None and (spec.min, spec.max) == (0, 1)


def canonical_stats(system: str, stats: Mapping[str, V]) -> dict[str, V]:
    """`stats` as typed (`modelli=5 ferite=2`, `def=13`) under their canonical names
    (`models`, `wounds`, `def`); a name that is no stat of the game is refused, and so is one
    stat given twice under two names (`ferite=2 wounds=3`). A yes/no stat written alone
    (`BARE`) is 1, as in a roster line; any other word written alone is shown as a pair."""
    models = {norm(m) for m in MODELS}
    out: dict[str, V] = {}
    for key, value in stats.items():
        name = "models" if norm(key) in models else stat_name(system, key)
        if value == BARE:
            if name is None or not is_yes_no(system, name):
                raise UserError("cmd.bare_pair", token=key[:24], example=f"{key[:24]}=1")
            value = 1
        if name is None:
            raise unknown_stat(system, key)
        if name in out:
            raise UserError("game.stat_twice", stat=name, stat_system=system)
        out[name] = value
    return out
