"""/army show (/armata mostra) writes a saved roster in the reader's words: Italian keys on an
Italian screen (`ferite=`, `tipo_modello=truppa`, `griglia=`, a weapon's `attacchi=`), English
ones on an English screen, and the lines shown paste back into the same roster."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from rules_core.game import roster as rs
from tests.helpers import say
from tests.i18n_check import foreign_words

CHAT = "telegram:-701"
TITLES = ("Age", "Sigmar", "Confrontation", "World", "Warcraft", "Miniatures")  # the games' names
# One roster per game, written with the English codes; the names are the test's own.
ROSTERS = {
    "wm": (
        "Stormblades x6 spd=5 str=6 mat=6 rat=4 def=12 arm=13 cmd=8 kind=trooper"
        " | Storm Glaive: pow=5 p+s=11\n"
        "Lancer spd=6 str=10 mat=6 rat=4 def=12 arm=18 cmd=1 kind=warjack"
        " grid=......,..L..M,...MC.,...MC.,..R..M,...... | Shock Shield: pow=3 p+s=13 loc=L",
        ("Stormblades", "Storm", "Glaive", "Lancer", "Shock", "Shield"),
    ),
    "aos": (
        "5x Liberators move=5 save=4 wounds=2 bravery=6"
        " | Warhammer: range=1 attacks=2 hit=3+ wound=3+ rend=-1 damage=1",
        ("Liberators", "Warhammer"),
    ),
    "wow": (
        "Thrall health=20 armor=3 resist=2 speed=5 | Doomhammer: power=7 range=1 cost=2"
        " | Chain Lightning: power=5 range=6 type=magical cost=3",
        ("Thrall", "Doomhammer", "Chain", "Lightning"),
    ),
    "inf": (
        "Fusilier cc=13 bs=12 ph=10 wip=12 arm=1 bts=0 w=1 mov=4-2"
        " | Combi Rifle: dam=13 burst=3 ammo=N bands=8:+3,16:0"
        " | Flamethrower: dam=14 burst=1 ammo=FIRE template=direct"
        " | Knuckles: dam=PH+1 burst=1",
        ("Fusilier", "Combi", "Rifle", "Flamethrower", "Knuckles"),
    ),
    "c5": (
        "3x Guards mov=10 ini=3 att=4 str=4 def=3 res=5 cou=4 | Spear: str=2 range=10",
        ("Guards", "Spear"),
    ),
}


def shown_lines(reply: Reply) -> str:
    assert reply.error is None, plain.render(reply)
    return next(s.text for block in reply.blocks for s in block if s.style == "pre")


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("system", sorted(ROSTERS))
async def test_a_shown_roster_is_in_the_readers_words_and_pastes_back(
    app: App, system: str, lang: str
) -> None:
    text, names = ROSTERS[system]
    saved = await say(app, f"/army save Lista system={system}\n{text}", user="1", chat=CHAT)
    assert saved.error is None, plain.render(saved)
    group = "/armata mostra" if lang == "it" else "/army show"
    reply = await say(app, f"{group} Lista", user="1", chat=CHAT, lang=lang)
    lines = shown_lines(reply)
    assert foreign_words(lang, plain.render(reply), allow=(*names, *TITLES, "Lista")) == [], lines
    # What is shown is the roster: pasted back, it reads as the same units.
    again = rs.parse_text(lines, system)
    want = rs.parse_text(text, system)
    assert [u.model_dump(exclude={"line"}) for u in again.units] == [
        u.model_dump(exclude={"line"}) for u in want.units
    ]


async def test_an_italian_wm_roster_names_its_model_type_and_grid_in_italian(app: App) -> None:
    text, _ = ROSTERS["wm"]
    ok = await say(app, f"/army save Cygnar system=wm\n{text}", user="1", chat=CHAT)
    assert ok.error is None
    lines = shown_lines(await say(app, "/armata mostra Cygnar", user="1", chat=CHAT, lang="it"))
    assert "tipo_modello=truppa" in lines and "tipo_modello=warjack" in lines
    assert "griglia=......,..S..M,...MC.,...MC.,..D..M" in lines and "posizione=S" in lines
    assert "kind=" not in lines and "grid=" not in lines
    lines = shown_lines(await say(app, "/army show Cygnar", user="1", chat=CHAT, lang="en"))
    assert "kind=trooper" in lines and "grid=......,..L..M" in lines and "loc=L" in lines


def test_italian_weapon_words_are_stored_as_codes() -> None:
    """A roster typed in Italian is the same roster as in English: the weapon values that are
    words are kept by their codes (so each screen shows its reader's word)."""
    it = rs.parse_text(
        "Fiammiere w=1 | Lanciafiamme: danno=14 munizioni=FUOCO sagoma=diretta"
        " | Pugno: danno=FIS+1",
        "inf",
    )
    assert it.units[0].weapons[0].values == {"dam": "14", "ammo": "FIRE", "template": "direct"}
    assert it.units[0].weapons[1].values == {"dam": "PH+1"}
    wow = rs.parse_text("Jaina health=10 | Gelo: power=4 type=magico cost=2", "wow")
    assert wow.units[0].weapons[0].values["type"] == "magical"


@pytest.mark.parametrize(
    ("add", "lang", "shown"),
    [
        ("/unita aggiungi Eiryss mat=6 def=15 arm=12 tipo_modello=solitario", "it", "solitario"),
        ("/unit add Grunts mat=6 def=13 arm=13 models=5", "it", "truppa"),
        ("/unit add Grunts mat=6 def=13 arm=13 models=5", "en", "trooper"),
        ("/unit add Stryker mat=6 def=16 arm=15 focus=7", "it", "warcaster"),
    ],
)
async def test_unit_show_names_a_wm_units_model_type(
    app: App, add: str, lang: str, shown: str
) -> None:
    chat = "console:wm-kind-show"
    assert (await say(app, "/game new wm", user="1", chat=chat)).ok
    assert (await say(app, add, user="1", chat=chat, lang=lang)).ok
    name = add.split()[2]
    show = "/unita mostra" if lang == "it" else "/unit show"
    reply = await say(app, f"{show} {name}", user="1", chat=chat, lang=lang)
    text = plain.render(reply)
    label = "Tipo di modello" if lang == "it" else "Model type"
    assert f"{label}: {shown}" in text, text
    assert foreign_words(lang, text, allow=(name,)) == [], text


async def test_an_infinity_roster_shows_mov_as_its_profile_prints_it(app: App) -> None:
    text, _ = ROSTERS["inf"]
    assert (await say(app, f"/army save Nomadi system=inf\n{text}", user="1", chat=CHAT)).ok
    lines = shown_lines(await say(app, "/armata mostra Nomadi", user="1", chat=CHAT, lang="it"))
    assert lines.startswith("Fusilier MOV=4-2 CC=13") and "mov1" not in lines


async def test_an_italian_wm_roster_writes_str_and_focus_as_the_book_does(app: App) -> None:
    """The Italian book's stat bar prints FOR and FOCUS (p. 33, the stat bar): /armata
    mostra wrote 'forza=' beside VEL= MAT= DAT= DIF=, and 'focus=' in lower case."""
    line = "Stryker spd=6 str=6 mat=7 rat=6 def=16 arm=15 cmd=9 focus=6 kind=warcaster"
    assert (await say(app, f"/army save Caster system=wm\n{line}", user="1", chat=CHAT)).ok
    lines = shown_lines(await say(app, "/armata mostra Caster", user="1", chat=CHAT, lang="it"))
    assert lines.startswith("Stryker VEL=6 FOR=6 MAT=7 DAT=6 DIF=16 ARM=15 CMD=9 FOCUS=6"), lines
    english = shown_lines(await say(app, "/army show Caster", user="1", chat=CHAT, lang="en"))
    assert english.startswith("Stryker SPD=6 STR=6 MAT=7 RAT=6 DEF=16 ARM=15 CMD=9 FOCUS=6")


def test_a_stat_printed_as_an_abbreviation_is_one_in_both_languages() -> None:
    """Every game's stat the English screens show as the book's capital abbreviation (STR,
    DEF, CC...) is a capital abbreviation on the Italian screens too (FOR, DIF, CC...), and
    the reverse: the stats of /armata mostra and /unita mostra (game.stat.*) and the weapon
    fields of /armata mostra (army.field.*: C5's weapon FOR was 'str' in English)."""
    from bot import i18n

    it, en = i18n.catalogue("it"), i18n.catalogue("en")
    keys = [k for k in en if k.startswith(("game.stat.", "army.field.")) and k.count(".") == 3]
    assert keys
    mismatched = [k for k in keys if en[k].isupper() != str(it.get(k, "")).isupper()]
    assert mismatched == []
