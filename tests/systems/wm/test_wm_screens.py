"""A whole WARMACHINE game walked screen by screen in Italian and in English (issue 24): create
it, add units, roll for the first player, allocate focus, attack, damage, repair, odds,
deviation, end the turn, end the game. Every /wm screen speaks one language only (no word of
the other), counts take the language's plural form and numbers its decimal mark."""

from __future__ import annotations

import re

import pytest

from bot.app import App
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

NAMES = ("Ann", "Bob", "Stryker", "Ironclad", "Trenchers", "Defender", "Duel")
GRID = "......|..L..M|...MC.|...MC.|..R..M|......"
# Words that are the same in both books: the game's own names for its units and terms.
BOOK_TERMS = ("Cortex", "focus", "MAT", "DAT", "FOR", "POT", "DIF")  # the book's codes
SLASH_PLURAL = re.compile(r"\w\((s|es)\)|\w/[ie]\b")
MAINTENANCE = {"it": "Mantenimento e Controllo:", "en": "Maintenance and Control:"}
# A command named on a screen (a button's text included) is code, not prose.
COMMAND = re.compile(r"/\w+(?: \w+)?(?: \w+=\S+)*")


async def walk(app: App, lang: str) -> list[tuple[str, str]]:
    chat = f"console:wm-walk-{lang}"
    screens: list[tuple[str, str]] = []

    async def run(text: str, user: str = "ann") -> str:
        reply = await say(app, text, user=user, name=user.title(), chat=chat, lang=lang)
        assert reply.ok, (text, plain.render(reply))
        screen = plain.render(reply)
        screens.append((text, screen))
        return screen

    await run("/game new wm Duel")
    await run("/game join", user="bob")
    await run("/wm first dice=5,2")
    await run("/unit add Stryker def=16 arm=15 focus=6 grid=...|...|...|...|...|...")
    await run(f"/unit add Ironclad def=12 arm=18 grid={GRID}")
    await run("/unit add Trenchers def=13 arm=13 cmd=8 models=10", user="bob")
    await run(f"/unit add Defender def=12 arm=18 grid={GRID}", user="bob")
    await run("/phase next")
    await run("/wm allocate Ironclad 2")
    await run("/wm gear Ironclad fists=L")
    await run("/wm power headlock attacker=Ironclad target=Defender mat=7 str=11 apply dice=5,4")
    await run("/wm break Ironclad release")  # in its own activation (L2272-2274)
    await run(
        "/wm power trample attacker=Ironclad target=Trenchers mat=7 str=11 models=2 apply"
        " dice=5,4,1,1,6,5,1,1"
    )
    await run("/wm power slam mat=7 str=11 def=12 arm=18 collateral=14 dice=5,4,6,1,1,6,5")
    await run("/wm attack mat=7 pow=12 target=Trenchers apply dice=5,4,1,1")
    await run("/wm attack mat=7 pow=12 str=10 mods=charge target=Defender apply dice=5,4,1,1,1,2")
    await run("/unit damage Defender 1 column=1", user="bob")
    await run("/wm heal Defender 1", user="bob")
    await run("/wm odds mat=7 pow=12 str=10 target=Stryker")
    await run("/wm check target=Trenchers dice=3,4")
    await run("/wm fall height=5 arm=14 dice=1,2,3")
    await run("/wm deviate distance=5.5 thrown dice=3,6")
    await run("/wm feat Stryker")
    await run("/turn end")
    await run("/game end")
    return screens


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_a_whole_game_in_one_language(app: App, lang: str) -> None:
    screens = await walk(app, lang)
    allow = NAMES + BOOK_TERMS
    for command, screen in screens:
        if not command.startswith(("/wm", "/unit")):
            # The generic screens (/game, /phase, /turn) are the game module's; from them,
            # only the lines WARMACHINE's turn bookkeeping wrote are this game's.
            lines = screen.split("\n")
            heads = [i for i, line in enumerate(lines) if line.startswith(MAINTENANCE[lang])]
            screen = "\n".join(lines[heads[0] :]) if heads else ""
        prose = COMMAND.sub(" ", screen)
        assert foreign_words(lang, prose, allow=allow) == [], (command, screen)
        assert not SLASH_PLURAL.search(screen), (command, screen)
    text = dict(screens)
    assert MAINTENANCE[lang] in text["/turn end"]
    attack = text["/wm attack mat=7 pow=12 target=Trenchers apply dice=5,4,1,1"]
    deviate = text["/wm deviate distance=5.5 thrown dice=3,6"]
    odds = text["/wm odds mat=7 pow=12 str=10 target=Stryker"]
    repaired = text["/wm heal Defender 1"]
    if lang == "it":
        assert "Colpito: 1 danno." in attack and "1 danni" not in attack
        assert "il modello 1 subisce 1 danno" in attack
        assert "2,75" in deviate and "2.75" not in deviate
        assert "27,8%" in odds
        assert "1 casella riparata" in repaired
        assert "1 casella segnata" in text["/unit damage Defender 1 column=1"]
    else:
        assert "Hit: 1 damage." in attack and "model 1 takes 1 damage" in attack
        assert "2.75" in deviate and "27.8%" in odds
        assert "1 box repaired" in repaired
        assert "1 box marked" in text["/unit damage Defender 1 column=1"]
