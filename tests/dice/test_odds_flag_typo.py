"""`/odds 2d6 ful` (found by a new player's walk) was read as the label "ful": the player asked
for the full table and silently got none. A first word close to one of /odds's flags (full,
completa) is refused with the flag in the reader's word and the syntax; a label in brackets,
or any word not like a flag, is still a label (README, dice syntax: "text after the expression,
or `[label]`")."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from tests.helpers import say


@pytest.mark.parametrize(
    ("text", "lang", "like"),
    [
        ("/odds 2d6 ful", "en", "full"),
        ("/odds 2d6 fulll", "en", "full"),
        ("/prob 2d6 ful", "it", "completa"),
        ("/probabilita 2d6 comleta", "it", "completa"),
        ("/odds 2d6; 3d6 completo", "it", "completa"),
    ],
)
async def test_a_misspelt_flag_is_refused_with_the_flag(
    app: App, text: str, lang: str, like: str
) -> None:
    reply = await say(app, text, lang=lang)
    assert reply.error is not None and reply.error.code == "odds.flag_typo", plain.render(reply)
    typed = text.split()[-1]
    assert f"'{typed}'" in reply.error.message and f"{like}?" in reply.error.message
    assert f"[{typed}]" in reply.error.message
    syntax = "/odds EXPRESSION… [full]" if lang == "en" else "/probabilita ESPRESSIONE… [completa]"
    assert syntax in plain.render(reply)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("/odds 2d6 [ful]", "ful"),
        ("/odds 2d6 [completo]", "completo"),
        ("/odds 2d6 danni", "danni"),
        ("/odds 2d6 fulmine", "fulmine"),
        ("/odds 1d20+5 fire damage", "fire damage"),
    ],
)
async def test_a_label_is_still_a_label(app: App, text: str, label: str) -> None:
    reply = await say(app, text, lang="it")
    assert reply.ok, plain.render(reply)
    assert f"[{label}]" in plain.render(reply)


async def test_the_flag_itself_still_attaches_the_table(app: App) -> None:
    for text in ("/odds 2d6 full", "/prob 2d6 completa"):
        reply = await say(app, text, lang="it")
        assert reply.ok and [
            f.filename for f in reply.attachments if f.filename.endswith(".csv")
        ], text
