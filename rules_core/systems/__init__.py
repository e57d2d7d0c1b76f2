"""Game systems by id. A new system module adds itself here."""

from __future__ import annotations

from rules_core.errors import UserError
from rules_core.systems.aos.system import AOS
from rules_core.systems.base import GameSystem
from rules_core.systems.c5.system import C5
from rules_core.systems.gen import GEN
from rules_core.systems.inf.system import INF
from rules_core.systems.wm.system import WM
from rules_core.systems.wow.system import WOW

SYSTEMS: dict[str, GameSystem] = {
    GEN.id: GEN,
    AOS.id: AOS,
    WM.id: WM,
    WOW.id: WOW,
    C5.id: C5,
    INF.id: INF,
}


def get_system(system_id: str) -> GameSystem:
    try:
        return SYSTEMS[system_id]
    except KeyError:
        raise UserError("game.unknown_system", system=system_id, valid=", ".join(SYSTEMS)) from None
