"""Game systems by id. A new system module adds itself here (to `_MODULES`).

A system's module is imported when it is first asked for (`get_system`), and all of them when
`SYSTEMS` is first read: storage and the game transitions import this package, and a process
that runs one dice command (`wargame-bot ask "/roll 2d6"`) should not pay for five rulebooks.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from rules_core.errors import UserError
from rules_core.systems.base import GameSystem

# id -> (module, name of its GameSystem), in the order systems are listed
_MODULES: dict[str, tuple[str, str]] = {
    "gen": ("rules_core.systems.gen", "GEN"),
    "aos": ("rules_core.systems.aos.system", "AOS"),
    "wm": ("rules_core.systems.wm.system", "WM"),
    "wow": ("rules_core.systems.wow.system", "WOW"),
    "c5": ("rules_core.systems.c5.system", "C5"),
    "inf": ("rules_core.systems.inf.system", "INF"),
}
SYSTEM_IDS: tuple[str, ...] = tuple(_MODULES)

if TYPE_CHECKING:
    SYSTEMS: dict[str, GameSystem]


def _load(system_id: str) -> GameSystem:
    module, name = _MODULES[system_id]
    system: GameSystem = getattr(importlib.import_module(module), name)
    return system


def __getattr__(name: str) -> dict[str, GameSystem]:
    if name == "SYSTEMS":
        # Built once, then a plain module global: tests may replace an entry in it.
        systems = {system_id: _load(system_id) for system_id in _MODULES}
        globals()["SYSTEMS"] = systems
        return systems
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_system(system_id: str) -> GameSystem:
    systems: dict[str, GameSystem] | None = globals().get("SYSTEMS")
    if systems is not None:
        found = systems.get(system_id)
    else:
        found = _load(system_id) if system_id in _MODULES else None
    if found is None:
        raise UserError("game.unknown_system", system=system_id, valid=", ".join(_MODULES))
    return found
