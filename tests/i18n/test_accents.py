"""Option names to read carry their accents (#24 item 5): /help's option lines, the syntax
line's placeholders and the errors say `quantità`, `UNITÀ`, `difficoltà`; the ASCII name
Discord's picker needs (`quantita=`) stays what the syntax types, and both are accepted."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from tests.helpers import say


@pytest.mark.parametrize(
    ("command", "shown", "not_shown"),
    [
        ("/aiuto unita danno", "quantità: ", "quantita: "),
        ("/aiuto unita danno", "NOME QUANTITÀ", "QUANTITA"),
        ("/aiuto aos tabella", "/aos tabella UNITÀ RIGHE…", "UNITA "),
        ("/aiuto c5 prova", "difficoltà: ", "difficolta: "),
        ("/unita danno Guardie tre", "quantità deve essere", "quantita deve"),
    ],
)
async def test_an_option_to_read_has_its_accent(
    app: App, command: str, shown: str, not_shown: str
) -> None:
    text = plain.render(await say(app, command, lang="it", chat="console:accents"))
    assert shown in text and not_shown not in text, text


async def test_the_accented_and_the_plain_name_are_both_typed(app: App) -> None:
    chat = "console:accents-typed"
    await say(app, "/partita nuova gen", lang="it", chat=chat)
    await say(app, "/unita aggiungi Guardie ferite=5", lang="it", chat=chat)
    for typed in ("/c5 prova valore=5 difficoltà=7", "/c5 prova valore=5 difficolta=7"):
        reply = await say(app, typed, lang="it", chat=chat, seed=1)
        assert reply.error is None, reply.error


async def test_english_names_are_unchanged(app: App) -> None:
    text = plain.render(await say(app, "/help unit damage", lang="en", chat="console:accents-en"))
    assert "/unit damage NAME AMOUNT" in text
