"""Issue 24 for WoW: one game played screen by screen in Italian and in English (create, add
units, attack, damage, turn, end); every /wow reply is in one language, with the book's terms
and correct plural forms."""

from __future__ import annotations

import re

import pytest

from bot.app import App
from bot.i18n import Lang
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

NAMES = ("Jaina", "Thrall", "Fireball", "Renew", "Ann", "Bob", "Wolf")
# English words the checker takes for Italian ones ("dice": the Italian "says").
EN_ALSO = ("dice",)
# The Italian book's own loanword: "la somma dell'Onore dei personaggi del suo party" (102.1).
IT_ALSO = ("party",)
ANN = {"user": "A", "name": "Ann"}
BOB = {"user": "B", "name": "Bob"}
# What each walk types: the same game, the Italian one with the Italian command words.
WALK = {
    "en": [
        (ANN, "/wow settings battleground=no"),
        (ANN, "/wow card add Jaina card=Fireball cost=3 power=4 type=magical crit=damage:1"),
        (ANN, "/wow card list Jaina"),
        (ANN, "/wow clock"),
        (ANN, "/wow odds power=4 defense=1"),
        (ANN, "/wow attack attacker=Jaina card=Fireball target=Thrall apply dice=5,10,2,1,1"),
        (ANN, "/wow act Jaina"),
        (BOB, "/wow attack attacker=Thrall power=1 target=Jaina apply dice=6"),
        (BOB, "/wow moved Thrall"),
        (BOB, "/wow heal power=1 target=Thrall dice=7"),
        (ANN, "/wow tick"),
        (ANN, "/wow health Thrall change=-1"),
        (ANN, "/wow standings"),
        (ANN, "/wow settings"),
    ],
    "it": [
        (ANN, "/wow impostazioni campo_di_battaglia=no"),
        (ANN, "/wow carta add Jaina carta=Fireball costo=3 potere=4 tipo=magico critico=danno:1"),
        (ANN, "/wow carta list Jaina"),
        (ANN, "/wow orologio"),
        (ANN, "/wow prob potere=4 difesa=1"),
        (
            ANN,
            "/wow attacco attaccante=Jaina carta=Fireball bersaglio=Thrall applica dadi=5,10,2,1,1",
        ),
        (ANN, "/wow agisci Jaina"),
        (BOB, "/wow attacco attaccante=Thrall potere=1 bersaglio=Jaina applica dadi=6"),
        (BOB, "/wow mosso Thrall"),
        (BOB, "/wow cura potere=1 bersaglio=Thrall dadi=7"),
        (ANN, "/wow scatto"),
        (ANN, "/wow salute Thrall variazione=-1"),
        (ANN, "/wow classifica"),
        (ANN, "/wow impostazioni"),
    ],
}
# Found walking a game as a new player: "vs 1 defence dice", "contro 1 dadi di difesa", and the
# odds' crit chance with a decimal point on an Italian screen ("34.4%").
BAD_PLURALS = re.compile(
    r"\(s\)|\(es\)|\w/[ie]\b|\b1 (?:hits|blocks|successes|ticks|VP to|defence dice)\b"
)
IT_BAD = re.compile(r"\b1 (?:colpi|parati|successi|scatti|dadi)\b|\bpuò\b.*\b\w+, \w+|\d\.\d+%")


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_a_game_screen_by_screen(app: App, lang: Lang) -> None:
    chat = f"console:wowscreens-{lang}"
    for who, text in [
        (ANN, "/game new wow"),
        (BOB, "/game join"),
        (ANN, "/unit add Jaina health=6 resist=1 honor=4"),
        (BOB, "/unit add Thrall health=5 armor=1 resist=1 honor=4"),
    ]:
        reply = await say(app, text, chat=chat, lang=lang, **who)  # type: ignore[arg-type]
        assert reply.error is None, (text, reply.error)
    problems: list[tuple[str, list[str], str]] = []
    allow = NAMES + (EN_ALSO if lang == "en" else IT_ALSO)
    bad = BAD_PLURALS if lang == "en" else IT_BAD
    for who, text in WALK[lang]:
        reply = await say(app, text, chat=chat, lang=lang, **who)  # type: ignore[arg-type]
        assert reply.error is None, (text, reply.error)
        shown = plain.render(reply)
        found = foreign_words(lang, shown, allow=allow)
        plural = bad.search(shown)
        if found or plural:
            problems.append((text, found + ([plural.group(0)] if plural else []), shown))
    assert problems == []
    end = await say(app, "/game end", chat=chat, lang=lang, **ANN)  # type: ignore[arg-type]
    assert end.error is None


@pytest.mark.parametrize(
    ("lang", "status", "bar"),
    [
        ("it", "/partita stato", "Fireball: costo 3 · potere 4 · attacco magico · critico danno 1"),
        ("en", "/game status", "Fireball: cost 3 · power 4 · magical attack · crit damage 1"),
    ],
)
async def test_the_action_bar_on_the_board_speaks_the_readers_language(
    app: App, lang: Lang, status: str, bar: str
) -> None:
    """The board (/game status, /unit show) shows each card as /wow card list does, in the
    reader's language; it showed the raw options (`cost=3 power=4 type=magical`) to everyone."""
    chat = f"console:wowbar-{lang}"
    for text in [
        "/game new wow",
        "/unit add Jaina health=6 resist=1",
        "/wow card add Jaina card=Fireball cost=3 power=4 type=magical crit=damage:1",
    ]:
        reply = await say(app, text, chat=chat, lang=lang, **ANN)  # type: ignore[arg-type]
        assert reply.error is None, (text, reply.error)
    for text in (status, "/unit show Jaina"):
        shown = plain.render(await say(app, text, chat=chat, lang=lang, **ANN))  # type: ignore[arg-type]
        assert bar in shown and "cost=" not in shown, shown
