"""An error's syntax line speaks the reader's language: the command and its options as an
Italian reader types them (`/tira ESPRESSIONE… [dadi=3,5,6…]`), the declaration in English."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words


async def test_italian_errors_show_the_italian_syntax(app: App) -> None:
    bad = plain.render(await say(app, "/tira 2d", lang="it"))
    assert "Sintassi: /tira ESPRESSIONE… [dadi=3,5,6…]" in bad
    game = plain.render(await say(app, "/partita nuova", lang="it"))
    assert "Sintassi: /partita nuova SISTEMA [NOME…]" in game
    attack = plain.render(await say(app, "/aos attacco attacchi=x", lang="it"))
    syntax = attack.split("Sintassi: ", 1)[1]
    assert syntax.startswith("/aos attacco [attacchi=") and "[bersaglio=" in syntax
    assert foreign_words("it", syntax) == []


async def test_english_errors_keep_the_declared_syntax(app: App) -> None:
    bad = plain.render(await say(app, "/roll 2d", lang="en"))
    assert "Syntax: /roll EXPRESSION… [dice=3,5,6…]" in bad
