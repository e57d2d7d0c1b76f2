"""Every /help page in one language (#24's rule, on the pages a new player reads first). English
pages listed each option's other names, mostly Italian words ("column (colonna)", "attacks
(attacchi, a)"), and some examples were Italian (`/rule fuoco`, `/wm test valore=8 dadi=3,4`);
Italian pages named `/army` and the ammunition FIRE. Game codes and proper names both books keep
are allowed, and the stats reference of /unit add and /unit set, which lists both languages'
names on purpose (both are typed)."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.app import App
from bot.commands import build_registry
from bot.commands.local_names import typed_name
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

REGISTRY = build_registry()
# Kept as the books write them on both screens: Confrontation's abilities (an Italian-only game),
# the Italian books' characteristic codes (FOR = Forza, POT = Potenza), warjack and product names.
ALLOWED = {
    "en": ["contrattacco", "ambidestro", "rigenerazione", "guarigione", "effimero"],
    "it": [
        *("FOR", "POT", "L'ARM", "l'ARM"),
        *("Crusader", "Defender", "Confrontation", "New", "Recruit"),
    ],
}


def _page(text: str, lang: i18n.Lang) -> str:
    """The page without the stats reference (both languages' names, on purpose)."""
    return text.split(i18n.t(lang, "help.stats"), 1)[0]


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_no_help_page_has_a_word_of_the_other_language(app: App, lang: i18n.Lang) -> None:
    found = {}
    for spec in REGISTRY:
        name = typed_name(REGISTRY, spec, lang)[1:]
        reply = await say(app, f"/{'help' if lang == 'en' else 'aiuto'} {name}", lang=lang)
        assert reply.ok, (name, reply.error)
        words = foreign_words(lang, _page(plain.render(reply), lang), allow=ALLOWED[lang])
        if words:
            found[name] = sorted(set(words))
    assert found == {}


async def test_a_sample_name_is_the_readers_too(app: App) -> None:
    # "/inf weapon add name=Lanciafiamme" stood on the English page (a word too rare for the
    # frequency check above): the sample is English, `help.samples` gives the Italian.
    english = plain.render(await say(app, "/help inf weapon", lang="en"))
    italian = plain.render(await say(app, "/aiuto inf arma", lang="it"))
    assert "name=Flamethrower" in english and "Lanciafiamme" not in english
    assert "nome=Lanciafiamme" in italian and "Flamethrower" not in italian


async def test_an_option_shows_its_short_forms_in_the_readers_language(app: App) -> None:
    # Dropping the other language's names from the page dropped the short forms too (`a=` for
    # attacks, `d=` for damage), the quickest thing to type on a phone. A short form shown is an
    # abbreviation of the word the reader sees, so it is never the other language's.
    english = plain.render(await say(app, "/help aos attack", lang="en"))
    italian = plain.render(await say(app, "/aiuto aos attacco", lang="it"))
    assert "attacks (a):" in english and "damage (d):" in english
    assert "attacchi (a):" in italian and "danni (d):" in italian
    burst_en = plain.render(await say(app, "/help inf roll", lang="en"))
    burst_it = plain.render(await say(app, "/aiuto inf tiro", lang="it"))
    assert "burst (b):" in burst_en and "(r)" not in burst_en
    assert "raffica (r):" in burst_it and "(b)" not in burst_it
    # an English name that begins the Italian one is no short form of it
    wm = plain.render(await say(app, "/aiuto wm attacco", lang="it"))
    assert "modello (" not in wm and "modello:" in wm
