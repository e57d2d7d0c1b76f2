"""Players are addressed gender-neutrally in Italian (#24 item 3): "tocca a Marco", "chi vince",
never "il giocatore" nor a masculine agreement about a player ("Ann ... gioca per primo", found
walking a WARMACHINE game as a new Italian player). Every Italian catalogue entry is checked,
screens, option descriptions and Discord labels alike."""

from __future__ import annotations

import re

from bot import i18n

GENDERED = re.compile(r"\b(?:il|al|del|dal) giocatore\b|\bgioca per primo\b", re.IGNORECASE)
# Infinity's initiative names its two sides as the book does: "Giocatore" and "Avversario".
BOOK_ROLES = {"inf.initiative.player"}


def test_no_italian_entry_speaks_of_the_player_in_the_masculine() -> None:
    found = {
        key: text
        for key, text in i18n.catalogue("it").items()
        if GENDERED.search(text) and key not in BOOK_ROLES
    }
    assert found == {}
