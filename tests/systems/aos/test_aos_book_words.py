"""A new player types the game's word for what they want as a subcommand (`/aos shoot`, `/aos
rally`, `/inf aro`): the bot offered a command that only looks alike (`/aos shoot` -> /aos
battleshock, `/aos rally` -> /aos pray) or nothing at all (`/inf aro`, `/aos recovery`). Each
word now offers the command that does it (CommandSpec.book_words), in both languages."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from tests.helpers import say

CASES = [
    ("en", "/aos shoot", "/aos attack"),
    ("en", "/aos save", "/aos attack"),
    ("en", "/aos rally", "/aos check"),
    ("en", "/aos recovery", "/aos check"),
    ("en", "/aos heroic", "/aos check"),
    ("en", "/aos inspiring", "/aos command"),
    ("en", "/aos spell", "/aos cast"),
    ("en", "/aos prayer", "/aos pray"),
    ("en", "/aos melee", "/aos fight"),
    ("it", "/aos tiro", "/aos attacco"),
    ("it", "/aos raccolta", "/aos prova"),
    ("it", "/aos incantesimo", "/aos lancia"),
]


@pytest.mark.parametrize(("lang", "typed", "offered"), CASES)
async def test_a_book_word_offers_the_command_that_does_it(
    app: App, lang: str, typed: str, offered: str
) -> None:
    reply = await say(app, typed, lang=lang)
    assert reply.error is not None and reply.error.code == "cmd.unknown_sub_hint", typed
    text = plain.render(reply)
    first = text.splitlines()[0]
    assert offered + "?" in first or offered + " " in first, (typed, text)
