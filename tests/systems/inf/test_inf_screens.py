"""Issue 24 for Infinity: one game walked screen by screen in Italian and in English (create,
add units, weapons, Orders, attack, damage, turn, odds, Retreat!, end). No screen has a word of
the other language (tests/i18n_check), counts agree with their number (i18n.tn: "1 colpo",
"2 colpi"), and no "(s)" / "/i" plural is left."""

from __future__ import annotations

import re

import pytest

from bot.app import App
from bot.i18n import Lang
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

NAMES = ("Angus", "WenLiu", "Silva", "HMG", "alice", "bob")
# The book's own codes on both languages' screens (ammunition, troop types, markers).
CODES = ("da", "exp", "imm", "dis", "hi", "li", "mi", "tag", "rem", "lt", "irr", "hmg", "str")

SPLIT_DICE = "dice=5,9,20,3,20,20,1,2,3,20"
WALK: dict[Lang, list[tuple[str, str]]] = {
    "it": [
        ("alice", "/game new inf"),
        ("bob", "/game join"),
        ("alice", "/unit add Angus bs=12 cc=13 ph=10 wip=12 arm=1 w=1 lt=1 pts=20"),
        ("alice", "/unit add Silva bs=12 cc=13 ph=10 wip=12 arm=1 w=1 pts=20"),
        ("bob", "/unit add WenLiu bs=11 cc=14 ph=10 wip=13 arm=1 bts=3 w=2 lt=1 pts=30"),
        ("alice", "/inf arma add name=HMG bands=20:0,40:+3,60:-3,120:-6 dam=15 burst=4 ammo=DA"),
        ("alice", "/inf equipaggia Angus armi=HMG"),
        ("alice", "/inf ordini"),
        ("alice", "/inf ordini spend unita=Angus n=2"),
        ("alice", "/inf tiro attributo=12 mod=-3 raffica=2 dice=9,4"),
        ("alice", "/inf confronto attributo=11 raffica=2 contro=12 dice=7,3,13"),
        ("alice", "/inf attacco unita=Angus bersaglio=WenLiu distanza=30 dice=5,9,20,20,1,2,3,20"),
        ("alice", "/inf prob unita=Angus bersaglio=WenLiu distanza=30"),
        ("alice", "/inf gittata arma=HMG distanza=35"),
        ("alice", "/inf ritirata"),
        ("alice", "/inf gittata arma=Fucile distanza=35"),
        (
            "alice",
            "/inf sagoma danno=13 munizione=fuoco bersagli=WenLiu,Silva schivano=Silva dice=3,20",
        ),
        ("alice", "/inf sagoma danno=13 armatura=1 fis=10 schivano=tutti probabilita"),
        (
            "alice",
            "/inf dividi unita=Angus bersagli=WenLiu,Silva colpi=2,1 contro=11,- danno_contro=13 "
            + SPLIT_DICE,
        ),
        ("alice", "/inf dividi attributo=12 raffica=4 danno=15 colpi=2,2 contro=11,11 probabilita"),
        ("alice", "/inf cura rigenerazione fis=12 f=2 subite=2 dice=4"),
        ("alice", "/inf cura medico vol=13 probabilita"),
        ("alice", "/inf arma elenca"),
        ("alice", "/turn end"),
        ("alice", "/game end"),
    ],
    "en": [
        ("alice", "/game new inf"),
        ("bob", "/game join"),
        ("alice", "/unit add Angus bs=12 cc=13 ph=10 wip=12 arm=1 w=1 lt=1 pts=20"),
        ("alice", "/unit add Silva bs=12 cc=13 ph=10 wip=12 arm=1 w=1 pts=20"),
        ("bob", "/unit add WenLiu bs=11 cc=14 ph=10 wip=13 arm=1 bts=3 w=2 lt=1 pts=30"),
        ("alice", "/inf weapon add name=HMG bands=20:0,40:+3,60:-3,120:-6 dam=15 burst=4 ammo=DA"),
        ("alice", "/inf loadout Angus weapons=HMG"),
        ("alice", "/inf orders"),
        ("alice", "/inf orders spend unit=Angus n=2"),
        ("alice", "/inf roll attr=12 mod=-3 burst=2 dice=9,4"),
        ("alice", "/inf ftf attr=11 burst=2 vs=12 dice=7,3,13"),
        ("alice", "/inf attack unit=Angus target=WenLiu distance=30 dice=5,9,20,20,1,2,3,20"),
        ("alice", "/inf odds unit=Angus target=WenLiu distance=30"),
        ("alice", "/inf range weapon=HMG distance=35"),
        ("alice", "/inf retreat"),
        ("alice", "/inf range weapon=Rifle distance=35"),
        ("alice", "/inf template dam=13 ammo=fire targets=WenLiu,Silva dodge=Silva dice=3,20"),
        ("alice", "/inf template dam=13 arm=1 ph=10 dodge=all odds"),
        (
            "alice",
            "/inf split unit=Angus targets=WenLiu,Silva shots=2,1 vs=11,- vs_dam=13 " + SPLIT_DICE,
        ),
        ("alice", "/inf split attr=12 burst=4 dam=15 shots=2,2 vs=11,11 odds"),
        ("alice", "/inf heal regeneration ph=12 w=2 wounds=2 dice=4"),
        ("alice", "/inf heal doctor wip=13 odds"),
        ("alice", "/inf weapon list"),
        ("alice", "/turn end"),
        ("alice", "/game end"),
    ],
}


# Counted phrases the walk must show, by step: plural forms chosen by the number.
EXPECTED: dict[Lang, dict[int, tuple[str, ...]]] = {
    "it": {9: ("2 successi", "(1 critico)"), 10: ("2 colpi",), 11: ("2 colpi, 3 ferite",)},
    "en": {9: ("2 successes", "(1 critical)"), 10: ("2 hits",), 11: ("2 hits, 3 wounds",)},
}


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_screens_walk_a_game(app: App, lang: Lang) -> None:
    problems: list[str] = []
    for step, (user, text) in enumerate(WALK[lang]):
        reply = await say(app, text, user=user, lang=lang)
        assert reply.ok, (text, reply.error)
        screen = plain.render(reply)
        for phrase in EXPECTED[lang].get(step, ()):
            assert phrase in screen, (phrase, screen)
        if not text.startswith("/inf"):
            continue  # /game, /unit and /turn screens belong to the game's own checks
        foreign = foreign_words(lang, screen, allow=(*NAMES, *CODES))
        if foreign:
            problems.append(f"{text}: {foreign}")
        if re.search(r"\(s\)|\(es\)|\w/[ie]\b", screen):
            problems.append(f"{text}: slash plural in {screen!r}")
    assert problems == [], "\n".join(problems)


async def test_italian_option_names_and_values(app: App) -> None:
    changed = await say(
        app, "/inf impostazioni struttura=destroyed critico_shock=yes", admin=True, lang="it"
    )
    assert changed.ok, changed.error
    assert changed.data is not None
    assert changed.data["settings"]["structure"] == "destroyed"
    assert changed.data["settings"]["shock_crit_kills"] == "yes"
    hit = await say(
        app, "/inf attacco attributo=12 danno=13 armatura=2 ferite=2 dice=5,10", lang="it"
    )
    assert hit.ok and hit.data is not None
    assert hit.data["steps"][1]["total"] == 12 and hit.data["outcome"]["target_wounds"] == 1
