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
    ("en", "/inf aro", "/inf attack"),
    ("en", "/inf shoot", "/inf attack"),
    ("en", "/inf dodge", "/inf attack"),
    ("en", "/inf guts", "/inf roll"),
    ("en", "/inf flamethrower", "/inf template"),
    ("en", "/inf doctor", "/inf heal"),
    ("en", "/inf order", "/inf orders"),
    ("it", "/inf ora", "/inf attacco"),
    ("it", "/inf schivata", "/inf attacco"),
    ("it", "/inf lanciafiamme", "/inf sagoma"),
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
