"""The console's first line tells a reader how to leave in their own words, and that word
leaves (the Italian banner said "/quit per uscire" beside "/aiuto")."""

from __future__ import annotations

import re

import pytest

from bot import i18n
from bot.adapters.console import QUIT


@pytest.mark.parametrize(("lang", "word"), [("it", "/esci"), ("en", "/quit")])
def test_the_banner_names_the_readers_quit_word(lang: i18n.Lang, word: str) -> None:
    banner = i18n.t(lang, "console.banner", chat="console:local", user="ann")
    assert word in re.findall(r"/\w+", banner), banner
    assert word in QUIT and word.removeprefix("/") in QUIT
