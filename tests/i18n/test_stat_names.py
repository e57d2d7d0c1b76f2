"""Stats by their Italian and English names (#25 item 3, #24): `/unit add`, `/unit set` take
each game's stats under the books' Italian terms (`ferite=`, `salvezza=`, `dif=`, `modelli=`) as
well as the English ones, screens name them in the reader's language, an unknown name is
answered with the valid ones in that language, and `/help unit add` lists both names."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.app import App
from bot.render import plain
from rules_core.game.stat_names import canonical_stats, stat_name
from rules_core.systems import SYSTEMS
from tests.helpers import say
from tests.i18n.test_catalogues import prose
from tests.i18n_check import foreign_words

# Per game: an Italian /unita aggiungi, and the stats it must store (canonical names).
ADDS = {
    "gen": ("modelli=5 ferite=2", {"models": 5, "wounds": 2}),
    "aos": ("modelli=5 ferite=2 salvezza=4 coraggio=6", {"models": 5, "wounds": 2, "save": 4}),
    "wm": ("vel=5 for=11 mat=7 dat=4 difesa=12 armatura=18 caselle=10", {"def": 12, "arm": 18}),
    "wow": ("salute=20 armatura=3 resistenza=2 attacco=5 onore=10", {"health": 20, "resist": 2}),
    "inf": ("cc=15 cd=12 fis=10 vol=13 arm=1 pb=3 f=1 tipo=2", {"bs": 12, "wip": 13, "bts": 3}),
    "c5": ("mov=10 ini=3 att=4 forza=5 dif=3 res=5 taglia=2", {"str": 5, "def": 3, "size": 2}),
}
# One Italian name per game for /unita imposta, and what it sets.
SETS = {
    "gen": ("ferite=3", "wounds", 3),
    "aos": ("salvezza=3", "save", 3),
    "wm": ("dif=14", "def", 14),
    "wow": ("armatura=4", "armor", 4),
    "inf": ("armatura=2", "arm", 2),
    "c5": ("coraggio=4", "cou", 4),
}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_stat_has_a_name_in_each_language_that_answers(system: str) -> None:
    """The names screens show (`game.stat.<system>.<code>`) are names the parser takes."""
    problems = []
    for code in ["models", *SYSTEMS[system].stat_names()]:
        for lang in i18n.LANGS:
            cat = i18n.catalogue(lang)
            shown = cat.get(f"game.stat.{system}.{code}") or cat.get(f"game.stat.{code}")
            if shown is None:
                problems.append((lang, code, "no name"))
            elif canonical_stats(system, {shown: 1}) != {code: 1}:
                problems.append((lang, code, shown))
        if code != "models" and stat_name(system, code) != code:
            problems.append(("code", code, stat_name(system, code)))
    assert problems == []


@pytest.mark.parametrize("system", sorted(ADDS))
async def test_italian_stat_names_add_and_set_a_unit(app: App, system: str) -> None:
    chat = f"console:stats-{system}"
    typed, expected = ADDS[system]
    new = await say(app, f"/partita nuova {system}", chat=chat, lang="it")
    assert new.error is None, new.error
    added = await say(app, f"/unita aggiungi Prova {typed}", chat=chat, lang="it")
    assert added.error is None, added.error
    unit = added.data["unit"]
    stored = {**unit["stats"], "models": unit["models"]}
    assert {k: stored[k] for k in expected} == expected
    text, code, value = SETS[system]
    changed = await say(app, f"/unita imposta Prova {text}", chat=chat, lang="it")
    assert changed.error is None, changed.error
    assert changed.data["unit"]["stats"][code] == value


@pytest.mark.parametrize(
    ("lang", "command", "valid"),
    [
        ("it", "/unita aggiungi Guardie pippo=5", "valide: movimento, ferite, salvezza, coraggio"),
        ("en", "/unit add Guardie pippo=5", "valid: move, wounds, save, bravery"),
    ],
)
async def test_an_unknown_stat_lists_the_valid_ones_in_the_readers_language(
    app: App, lang: str, command: str, valid: str
) -> None:
    chat = f"console:unknown-stat-{lang}"
    await say(app, "/game new aos", chat=chat, lang=lang)
    reply = await say(app, command, chat=chat, lang=lang)
    assert reply.error is not None and reply.error.code == "game.unknown_stat"
    assert valid in reply.error.message
    assert foreign_words(lang, prose(plain.render(reply)), allow={"Guardie", "pippo"}) == []  # type: ignore[arg-type]


async def test_stats_are_shown_and_logged_under_the_readers_names(app: App) -> None:
    chat = "console:stats-shown"
    await say(app, "/partita nuova wm", chat=chat, lang="it")
    await say(app, "/unita aggiungi Jack difesa=12 armatura=18 caselle=10", chat=chat, lang="it")
    await say(app, "/unita imposta Jack dif=13", chat=chat, lang="it")
    shown = plain.render(await say(app, "/unita mostra Jack", chat=chat, lang="it"))
    assert "ARM=18" in shown and "DIF=13" in shown and "caselle=10" in shown
    assert "def=" not in shown and "boxes" not in shown
    log = plain.render(await say(app, "/registro", chat=chat, lang="it"))
    assert "Jack: DIF=13" in log
    english = plain.render(await say(app, "/unit show Jack", chat=chat, lang="en"))
    assert "DEF=13" in english and "boxes=10" in english


async def test_a_stat_given_twice_under_two_names_is_refused(app: App) -> None:
    chat = "console:stats-twice"
    await say(app, "/partita nuova aos", chat=chat, lang="it")
    reply = await say(app, "/unita aggiungi Guardie ferite=2 wounds=3", chat=chat, lang="it")
    assert reply.error is not None and reply.error.code == "game.stat_twice"
    assert "ferite" in reply.error.message


@pytest.mark.parametrize(
    ("lang", "command", "line"),
    [
        ("it", "/aiuto unita aggiungi", "aos: modelli (models), ferite (wounds), salvezza (save)"),
        ("en", "/help unit add", "aos: models (modelli), wounds (ferite), save (salvezza)"),
        (
            "it",
            "/aiuto unita imposta",
            "wm: modelli (models), VEL (SPD), FOR (STR), MAT, DAT (RAT)",
        ),
    ],
)
async def test_help_lists_both_names_of_every_games_stats(
    app: App, lang: str, command: str, line: str
) -> None:
    shown = plain.render(await say(app, command, lang=lang))
    assert line in shown
    for system in SYSTEMS:
        assert f"\n{system}: " in shown


async def test_warmachine_damage_boxes_answer_to_ferite(app: App) -> None:
    """WARMACHINE's book calls the unmarked damage boxes "ferite" (wounds, p. 37, L960-961), and
    '/unita aggiungi Capitano ferite=5' in a WM game was refused: only caselle= was known."""
    chat = "console:wm-ferite"
    assert (await say(app, "/partita nuova wm", chat=chat, lang="it")).ok
    added = await say(app, "/unita aggiungi Capitano ferite=5 dif=14 arm=13", chat=chat, lang="it")
    assert added.ok, plain.render(added)
    english = await say(app, "/unit add Sergeant wounds=3 def=13 arm=12", chat=chat, lang="en")
    assert english.ok, plain.render(english)
    shown = plain.render(await say(app, "/unita mostra Capitano", chat=chat, lang="it"))
    assert "caselle=5" in shown, shown
