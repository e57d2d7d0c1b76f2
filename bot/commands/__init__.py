"""All command declarations. Each module exposes `SPECS`; adding a command means adding a spec
there (and its strings in data/locales), never touching an adapter.

The modules are imported when a command needs them (`lazy_registry`): `wargame-bot ask
"/roll 2d6"` loads the dice commands, not the five game systems behind /aos, /wm, ... .
`HEADS` says which modules declare the commands under each first word (and its top-level
aliases); tests/core/test_registry.py checks it against every spec, so it cannot drift.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType

from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec

MODULE_NAMES = (
    "core", "dice", "rules", "game", "game_settings", "campaign", "campaign_page", "army", "stats",
    "wow", "wm", "aos", "c5", "inf", "batch", "macros", "private_rolls", "board",
    "compare",
)  # fmt: skip

HEADS: dict[str, tuple[str, ...]] = {
    "aiuto": ("core",), "help": ("core",), "lang": ("core",), "lingua": ("core",),
    "settings": ("core",), "impostazioni": ("core",),
    "start": ("core",), "inizia": ("core",),
    "odds": ("dice",), "prob": ("dice",), "probabilita": ("dice",),
    "roll": ("dice", "private_rolls"), "tira": ("dice", "private_rolls"),
    "regola": ("rules",), "rule": ("rules",), "rules": ("rules",),
    "regole": ("rules",),
    "game": ("game", "game_settings", "board"), "partita": ("game", "game_settings", "board"),
    "annulla": ("game",), "log": ("game",), "phase": ("game",), "punti": ("game",),
    "punteggio": ("game",),
    "registro": ("game",), "res": ("game",), "risorse": ("game",), "round": ("game",),
    "score": ("game",), "turn": ("game",), "turno": ("game",), "undo": ("game",),
    "unit": ("game",), "unita": ("game",), "fase": ("game",),
    "campaign": ("campaign", "campaign_page"), "campagna": ("campaign", "campaign_page"),
    "done": ("campaign",), "fatto": ("campaign",),
    "army": ("army",), "armata": ("army",), "stats": ("stats",), "statistiche": ("stats",),
    "batch": ("batch",), "serie": ("batch",),
    "compare": ("compare",), "confronta": ("compare",),
    "macro": ("macros",), "save": ("macros",), "salva": ("macros",),
    "aos": ("aos", "compare"), "c5": ("c5", "compare"), "inf": ("inf", "compare"),
    "wm": ("wm", "compare"), "wow": ("wow", "compare"),
}  # fmt: skip


def module(name: str) -> ModuleType:
    return importlib.import_module(f"bot.commands.{name}")


def all_specs() -> list[CommandSpec]:
    return [spec for name in MODULE_NAMES for spec in module(name).SPECS]


def build_registry() -> Registry:
    return Registry(all_specs())


class LazyRegistry(Registry):
    """The same registry, filled module by module as commands are looked up: a first word
    listed in HEADS loads its modules; any other word, or listing the commands, loads all."""

    def __init__(self) -> None:
        super().__init__()
        self._loaded: set[str] = set()

    def _load(self, names: tuple[str, ...]) -> None:
        for name in names:
            if name not in self._loaded:
                self._loaded.add(name)
                for spec in module(name).SPECS:
                    self.add(spec)

    def canonical(self, words: list[str]) -> tuple[str, ...]:
        if words:
            self._load(HEADS.get(words[0], MODULE_NAMES))
        return super().canonical(words)

    def __iter__(self) -> Iterator[CommandSpec]:
        self._load(MODULE_NAMES)
        return super().__iter__()

    def words_under(self, parent: tuple[str, ...]) -> list[str]:
        self._load(HEADS.get(parent[0], MODULE_NAMES) if parent else MODULE_NAMES)
        return super().words_under(parent)


def lazy_registry() -> Registry:
    return LazyRegistry()
