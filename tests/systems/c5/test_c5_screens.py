"""Issue 24 for Confrontation: one game walked screen by screen in Italian and in English
(create, add units, test, attack, damage, mystic phase, turn, end). No word of the other language
on any screen; counts agree with their number ("1 ferita", "2 ferite", "1 wound"); chances use
the language's decimal mark; English never says "(s)" or "/e"."""

from __future__ import annotations

import re

import pytest

from bot.app import App
from bot.i18n import Lang
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

NAMES = ["Ann", "Bob", "Abel", "Orc", "Enoch", "Skirmish", "ann", "bob", "Confrontation"]
# Not prose: commands and options as typed (`/game join`, `target=Abel`), and the book's section
# titles cited in quotes (“Lanciare i dadi”: the Italian book's own headings, on both screens).
NOT_PROSE = re.compile(r"/[\w-]+(?: [a-z_]+)?|\b\w+=\S*|\b[a-z]+_[a-z_]+\b|“[^”]*”|«[^»]*»")
# C5 exists only in Italian: its abilities keep their book names on English screens too.
# The book's characteristic codes (FOR = Forza, TIR = Tiro...), the same on both screens.
CODES = ["FOR", "TIR", "DIF", "COR", "PAU", "POT", "RES", "INI", "ATT", "DIS", "MOV"]
ABILITIES = ["Rigenerazione", "Guarigione", "Effimero", "Flagello", "Ossoduro", "Mira"]


# Every /c5 reply ends with its sources line ("C5: …"); the others are checked by their titles.
C5_TITLES = {"it": ("Fase mistica",), "en": ("Mystic phase",)}


async def walk(app: App, lang: str) -> list[str]:
    chat = f"console:c5screens-{lang}"

    async def run(text: str, user: str = "ann", admin: bool = False) -> str:
        reply = await say(
            app, text, user=user, name=user.title(), chat=chat, lang=lang, admin=admin
        )
        assert reply.ok, (text, plain.render(reply))
        return plain.render(reply)

    screens = [
        await run("/game new c5 Skirmish"),
        await run("/game join", user="bob"),
        await run("/unit add Abel att=5 str=7 def=4 res=6 cou=4 size=2 warrior=1"),
        await run("/unit add Enoch att=2 str=3 def=2 res=5 pow=4 rank=2"),
        await run("/unit add Orc att=4 str=8 def=3 res=5 cou=3", user="bob"),
        await run("/c5 test target=Abel stat=att diff=9 dice=4"),
        await run("/c5 test value=5 diff=9 odds"),
        await run("/c5 fear target=Abel fear=6 dice=5"),
        await run("/phase next"),
        await run("/phase next"),  # -> combat
        # attack 5+5 = 10, defence 3+2 = 5, wound dice 4,4: row 4, R 4+7-5 = 6 -> 3 wounds
        await run("/c5 melee attacker=Abel target=Orc parry apply dice=5,2,4,4"),
        # the Orc (Critical: -3) strikes back: attack 4-3+6+2 = 9, wound dice 2,6: row 2,
        # R 6 + (8-3) - 6 = 5 -> 1 wound
        await run("/c5 melee attacker=Orc target=Abel apply dice=6,2,2,6", user="bob"),
        await run("/c5 melee attacker=Abel target=Orc odds"),
        # a recorded combat: Abel 1 attack die, the Orc 1; Abel misses, then it is the Orc's
        await run("/c5 combat Abel Orc attacks=1,1"),
        await run("/c5 melee attacker=Abel target=Orc apply dice=1,6"),
        await run("/c5 combat Orc end", user="bob"),
        await run("/unit damage Orc 1"),
        await run("/phase next"),  # -> mystic
        await run("/c5 mystic apply dice=5"),
        await run("/c5 maintenance ability=rigenerazione x=4 target=Abel apply dice=5"),
        await run("/game status"),
        await run("/turn end"),
        await run("/game end", admin=True),
    ]
    return screens


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_a_game_walked_in_one_language(app: App, lang: Lang) -> None:
    screens = await walk(app, lang)
    for screen in screens:
        if not screen.startswith(C5_TITLES[lang]) and "C5:" not in screen:
            continue  # the generic /game, /unit, /phase screens are the game engine's own
        assert (
            foreign_words(lang, NOT_PROSE.sub(" ", screen), allow=NAMES + CODES + ABILITIES) == []
        ), screen
        assert "(s)" not in screen and "/e " not in screen and "/i " not in screen, screen
    text = "\n".join(screens)
    if lang == "it":
        assert "3 ferite" in text and "1 ferita" in text and "Ferita Critica" in text
        assert "1 ferita curata" in text and "5 gemme recuperate" in text
        assert re.search(r"\d+,\d%", text)  # a chance with the decimal comma
    else:
        assert "3 wounds" in text and "1 wound" in text and "Critical Wound" in text
        assert "1 wound healed" in text and "5 gems recovered" in text
        assert re.search(r"\d+\.\d%", text)
