"""Telegram's command menu in Italian (#24 item 4): every group with an Italian name is listed
under it, the groups named by `group_aliases` (/partita, /unita, /armata) included."""

from __future__ import annotations

from bot.adapters.telegram_menu import menu
from bot.commands import build_registry


def test_the_italian_menu_uses_the_italian_names() -> None:
    registry = build_registry()
    names = {name for name, _ in menu(registry, "it", "private")}
    for italian in ("partita", "unita", "turno", "fase", "armata", "campagna", "regole", "tira"):
        assert italian in names
    for english in ("game", "unit", "turn", "phase", "army", "campaign", "rules", "roll"):
        assert english not in names
    assert {"game", "unit", "army"} <= {name for name, _ in menu(registry, "en", "private")}
