"""A whole generic game, screen by screen, in Italian and in English (#24 "done when"): every
reply free of the other language's words, counts in the right plural form, Italian written
for any player ("tocca a Marco"), commands typed in the chat's language."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from tests.helpers import say
from tests.i18n.test_catalogues import prose
from tests.i18n_check import foreign_words

NAMES = {"Marco", "Giulia", "Guardie", "Gigante", "gen"}
# The same game typed by Italian and by English players.
GAME = {
    "it": [
        ("1", '/partita nuova gen "Scontro"'),
        ("2", "/partita entra Sud"),
        ("1", "/unita aggiungi Guardie models=5 wounds=2"),
        ("2", "/unita aggiungi Gigante wounds=12"),
        ("1", "/unita danno Gigante 1"),
        ("1", "/unita danno Gigante 4"),
        ("1", "/unita condizione Gigante aggiungi bloccato fino=round:1"),
        ("1", "/unita condizione Guardie aggiungi ispirate fino=round:2"),
        ("1", "/unita cura Gigante 1"),
        ("1", "/unita elenco"),
        ("1", "/unita mostra Gigante"),
        ("1", "/punti aggiungi 1"),
        ("1", "/punti aggiungi 3"),
        ("1", "/turno"),
        ("1", "/turno fine"),
        ("2", "/partita stato"),
        ("2", "/partita stato"),
        ("2", "/registro 20"),
        ("1", "/annulla"),
        ("1", "/partita fine Marco"),
        ("1", "/partita storico"),
    ],
    "en": [
        ("1", '/game new gen "Skirmish"'),
        ("2", "/game join South"),
        ("1", "/unit add Guardie models=5 wounds=2"),
        ("2", "/unit add Gigante wounds=12"),
        ("1", "/unit damage Gigante 1"),
        ("1", "/unit damage Gigante 4"),
        ("1", "/unit cond Gigante add pinned until=rounds:1"),
        ("1", "/unit cond Guardie add inspired until=rounds:2"),
        ("1", "/unit heal Gigante 1"),
        ("1", "/unit list"),
        ("1", "/unit show Gigante"),
        ("1", "/score add 1"),
        ("1", "/score add 3"),
        ("1", "/turn"),
        ("1", "/turn end"),
        ("2", "/game status"),
        ("2", "/game status"),
        ("2", "/log 20"),
        ("1", "/undo"),
        ("1", "/game end Marco"),
        ("1", "/game history"),
    ],
}


async def walk(app: App, lang: str) -> list[tuple[str, str]]:
    shown = []
    for user, text in GAME[lang]:
        name = "Marco" if user == "1" else "Giulia"
        reply: Reply = await say(app, text, user=user, name=name, lang=lang, chat="telegram:-7")
        assert reply.ok, (text, reply.error)
        shown.append((text, plain.render(reply)))
    return shown


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_every_screen_of_a_game_speaks_one_language(app: App, lang: str) -> None:
    foreign = {
        text: found
        for text, screen in await walk(app, lang)
        # what the players typed (commands, stats as `wounds=2`) is theirs, not the screen's
        if (found := foreign_words(lang, prose(screen), allow=NAMES))  # type: ignore[arg-type]
    }
    assert foreign == {}


async def test_italian_counts_and_phrasing(app: App) -> None:
    screens = dict(await walk(app, "it"))
    log = screens["/registro 20"]
    assert "Gigante: 1 danno, 11/12 rimaste" in log
    assert "Gigante: 4 danni, 7/12 rimaste" in log
    assert "1 ferita curata" in log
    assert "Marco: +1 punto (1)" in log and "Marco: +3 punti (4)" in log
    assert (
        "bloccato (1 round)" in screens["/unita condizione Gigante aggiungi bloccato fino=round:1"]
    )
    assert "Tocca a @Giulia" in screens["/turno fine"]
    assert "Giulia entra nella partita" in screens["/partita entra Sud"]
    assert "la organizzi tu" in screens['/partita nuova gen "Scontro"']


async def test_english_counts(app: App) -> None:
    screens = dict(await walk(app, "en"))
    log = screens["/log 20"]
    assert "Gigante: 1 damage, 11/12 left" in log
    assert "1 wound healed" in log and "Marco: +1 point (1)" in log
    assert "Marco: +3 points (4)" in log
    assert "pinned (1 round)" in screens["/unit cond Gigante add pinned until=rounds:1"]
    assert "inspired (2 rounds)" in screens["/unit cond Guardie add inspired until=rounds:2"]
