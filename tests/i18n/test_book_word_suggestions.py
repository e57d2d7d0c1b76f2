"""Book words a player types where the command wants another form get the form, not a bare
"I don't understand" (found walking C5 and AoS as new players): C5's `parata` for the `para`
flag, the US spelling "all-out defense" for AoS's All-out Defence, a stat by its book name
(`caratteristica=coraggio`) or misspelt (`attaco`). The suggestion is the bot's one "did you
mean" (`registry.closest`), in the reader's words."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

MELEE = {
    "it": "/c5 mischia attacco=5 dif=4 forza=7 resistenza=6",
    "en": "/c5 melee att=5 def=4 str=7 res=6",
}


@pytest.mark.parametrize(
    ("lang", "word", "code", "said"),
    [
        ("it", "parata", "cmd.unexpected_flag_like", "Qui non capisco 'parata': forse para?"),
        ("en", "parr", "cmd.unexpected_flag_like", "did you mean parry?"),
        ("it", "flagelo", "cmd.unexpected_flag_like", "forse flagello?"),
        ("it", "difesa", "cmd.unexpected_option_like", "Qui non capisco 'difesa': forse dif=?"),
    ],
)
async def test_a_bare_book_word_is_offered_the_option(
    app: App, lang: str, word: str, code: str, said: str
) -> None:
    reply = await say(app, f"{MELEE[lang]} {word}", lang=lang)
    assert reply.error is not None and reply.error.code == code, plain.render(reply)
    assert said in reply.error.message


async def test_a_word_unlike_any_option_is_still_not_understood(app: App) -> None:
    reply = await say(app, f"{MELEE['it']} carica", lang="it")
    assert reply.error is not None and reply.error.code in ("cmd.unexpected", "cmd.unexpected_unit")
    assert "applica" not in reply.error.message


@pytest.mark.parametrize(
    ("lang", "typed", "meant"),
    [
        ("en", "all-out defense", "did you mean All-out Defence?"),
        ("en", "inspiring presense", "did you mean Inspiring Presence?"),
        ("it", "difesa totali", "forse Difesa Totale?"),
    ],
)
async def test_an_aos_command_ability_misspelt_is_named(
    app: App, lang: str, typed: str, meant: str
) -> None:
    chat = f"console:suggest-aos-{lang}"
    here = {"user": "ann", "name": "Ann", "chat": chat, "lang": lang}
    assert (await say(app, "/game new aos", **here)).ok
    assert (await say(app, "/unit add Vindictors models=5 wounds=2", **here)).ok
    reply = await say(app, f"/aos command {typed} unit=Vindictors", **here)
    assert reply.error is not None and reply.error.code == "aos.unknown_command_like"
    assert meant in reply.error.message
    unknown = await say(app, "/aos command pippo unit=Vindictors", **here)
    assert unknown.error is not None and unknown.error.code == "aos.unknown_command"


async def test_a_c5_stat_by_its_book_name_or_misspelt(app: App) -> None:
    chat = "console:suggest-c5-stat"
    here = {"user": "ann", "name": "Ann", "chat": chat, "lang": "it"}
    assert (await say(app, "/partita nuova c5", **here)).ok
    assert (await say(app, "/unita aggiungi Abel att=5 for=7 dif=4 res=6 cor=4", **here)).ok
    for word in ("coraggio", "COR", "cor"):
        test = await say(
            app, f"/c5 prova bersaglio=Abel caratteristica={word} diff=9 dadi=4", **here
        )
        assert test.ok and "COR 4" in plain.render(test), word
    wrong = await say(app, "/c5 prova bersaglio=Abel caratteristica=attaco diff=9", **here)
    assert wrong.error is not None and wrong.error.code == "cmd.bad_choice_like"
    assert "(forse att?)" in wrong.error.message
    far = await say(app, "/c5 prova bersaglio=Abel caratteristica=pippo diff=9", **here)
    assert far.error is not None and far.error.code == "cmd.bad_choice"


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_c5_effects_are_listed_as_the_reader_types_them(app: App, lang: str) -> None:
    reply = await say(app, f"{MELEE[lang]} effects=ferroce", lang=lang)
    assert reply.error is not None and reply.error.code == "c5.bad_effect"
    assert foreign_words(lang, reply.error.message, allow=("ferroce",)) == []
    listed = "arma_sacra, armatura_sacra" if lang == "it" else "sacred, sacred_armour, saw_axe"
    assert listed in reply.error.message


@pytest.mark.parametrize(
    ("lang", "typed", "meant"),
    [
        ("it", "parata", "/c5 mischia"),  # was "forse /c5 paura?", the fear test
        ("en", "parry", "/c5 melee"),  # was "/c5 fear"
        ("en", "defense", "/c5 melee"),
        ("it", "coraggio", "/c5 paura"),
        ("it", "miracolo", "/c5 fede"),
        ("en", "rout", "/c5 rally"),
        ("it", "incantesimo", "/c5 prova"),  # was /c5 mantenimento
        ("it", "iniziativa", "/c5 opposto"),
        ("it", "paur", "/c5 paura"),  # a typo of a real name still finds it
    ],
)
async def test_a_c5_book_word_as_a_subcommand_offers_the_command(
    app: App, lang: str, typed: str, meant: str
) -> None:
    reply = await say(app, f"/c5 {typed}", lang=lang)
    assert reply.error is not None and reply.error.code == "cmd.unknown_sub_hint"
    said = "Forse intendevi" if lang == "it" else "Did you mean"
    assert f"{said} {meant}?" in reply.error.message, reply.error.message
