"""Issue 24, Age of Sigmar: one game walked through in Italian and in English (create, add
units, priority, commands, attack, damage, battleshock, turn, end). Every /aos reply uses its
language's words (the Italian rulebook's terms), counts take their singular for 1, and errors
name commands, phases and options the reader's way."""

from __future__ import annotations

import re

import pytest

from bot.app import App
from bot.i18n import Lang
from bot.protocol import Reply
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

# Words that must not appear on the other language's /aos screens: what leaked before.
ENGLISH = {
    "hit", "hits", "wound", "wounds", "save", "unsaved", "models", "model", "slain", "damage",
    "flee", "flees", "apply", "target", "attacker", "weapon", "first", "second", "phase",
    "hero", "combat", "shooting", "movement", "charge", "turn", "attack", "rally", "ward",
    "ones", "failed", "goes", "tie",
}  # fmt: skip
ITALIAN = {
    "colpo", "colpi", "ferita", "ferite", "salvezza", "modello", "modelli", "uccisi", "danni",
    "fuggono", "fugge", "bersaglio", "attaccante", "arma", "fase", "eroi", "turno", "carica",
    "priorità", "protezione", "negate", "ritorna", "ritornano", "comando", "impatto",
}  # fmt: skip
WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
TYPED = re.compile(r"\S+=\S+")
SYNTAX = ("Sintassi:", "Syntax:", "Usage:")
NAMES = {"ann", "bob", "vindictors", "gutrippaz", "stormspear", "aos", "age", "sigmar"}

WALK = {
    "it": [
        "/aos priorita applica dadi=5,2",
        "/aos eroi",
        "/aos comando",
        "/aos comando attacco totale unita=Vindictors",  # hero phase: refused, in Italian
        "/aos attacco attaccante=Vindictors bersaglio=Gutrippaz applica "
        "dadi=6,6,6,6,6,6,6,6,6,1,6,6,6,6,6,6,6,6,6,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
        "/aos attacco attacchi=1 colpire=3 ferire=3 salvezza=- modelli=1 ferite=3 danni=4 dadi=6,6",
        "/aos prob attaccante=Vindictors bersaglio=Gutrippaz",
        "/aos shock bersaglio=Gutrippaz dadi=1",
        "/aos shock coraggio=6 uccisi=1 dadi=6",
        "/aos lancia valore=6 dadi=1,1,1",
        "/turno fine",  # Rally comes at the start of a hero phase (L309): Bob's
        "/aos comando Chiamata a Raccolta unità=Gutrippaz gratis",
        "/aos prova raccolta bersaglio=Gutrippaz applica dadi=6,1,1,1,1,1,1,1,1",
        "/aos carica distanza=13",
        "/aos carica distanza=7.5 dadi=3,4",
        "/aos corri bersaglio=Vindictors applica dadi=3",
        "/aos attacco attacchi=1 colpire=3",
        "/aos impostazioni",
    ],
    "en": [
        "/aos priority apply dice=5,2",
        "/aos hero",
        "/aos command",
        "/aos command all-out attack unit=Vindictors",
        "/aos attack attacker=Vindictors target=Gutrippaz apply "
        "dice=6,6,6,6,6,6,6,6,6,1,6,6,6,6,6,6,6,6,6,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
        "/aos attack attacks=1 hit=3 wound=3 save=- models=1 wounds_per_model=3 damage=4 dice=6,6",
        "/aos odds attacker=Vindictors target=Gutrippaz",
        "/aos battleshock target=Gutrippaz dice=1",
        "/aos battleshock bravery=6 slain=1 dice=6",
        "/aos cast value=6 dice=1,1,1",
        "/turn end",  # Rally comes at the start of a hero phase (L309): Bob's
        "/aos command rally unit=Gutrippaz free",
        "/aos check rally target=Gutrippaz apply dice=6,1,1,1,1,1,1,1,1",
        "/aos charge distance=13",
        "/aos charge distance=7.5 dice=3,4",
        "/aos run target=Vindictors apply dice=3",
        "/aos attack attacks=1 hit=3",
        "/aos settings",
    ],
}

# Bob's unit receives its Rally from Bob (a command is the player's own, 6.1 L262); the
# organiser applies the roll.
BY_BOB = {
    "/aos comando Chiamata a Raccolta unità=Gutrippaz gratis",
    "/aos command rally unit=Gutrippaz free",
}


def text_of(reply: Reply) -> str:
    return plain.render(reply)


def foreign(lang: Lang, text: str) -> list[str]:
    """Words of the other language: tests/i18n_check's, and the ones that leaked before."""
    # The syntax line under an error comes from the command registry, not from /aos.
    text = "\n".join(line for line in text.splitlines() if not line.startswith(SYNTAX))
    text = TYPED.sub(" ", text)  # `name=value` is syntax to type, shown as typed
    words = {w.lower() for w in WORD.findall(text)} - NAMES
    leaked = words & (ENGLISH if lang == "it" else ITALIAN)
    return sorted(leaked | set(foreign_words(lang, text, allow=NAMES)))


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_a_whole_game_in_one_language(app: App, lang: Lang) -> None:
    ann = {"user": "ann", "name": "Ann", "lang": lang}
    bob = {"user": "bob", "name": "Bob", "lang": lang}
    assert (await say(app, "/game new aos T", **ann)).ok
    assert (await say(app, "/game join", **bob)).ok
    assert (await say(app, "/unit add Vindictors models=5 wounds=2 save=4 bravery=7", **ann)).ok
    line = "/unit add Gutrippaz models=10 wounds=1 save=5 bravery=5 ward=6"
    assert (await say(app, line, **bob)).ok
    weapon = "/aos weapon Vindictors Stormspear range=2 attacks=2 hit=3 wound=3 rend=-1 damage=1"
    assert (await say(app, weapon, **ann)).ok
    texts: dict[str, str] = {}
    for command in WALK[lang]:
        reply = await say(app, command, **(bob if command in BY_BOB else ann))
        if reply.error is not None:
            assert not reply.error.code.startswith("internal"), (command, reply.error)
        texts[command] = text_of(reply)
        assert not foreign(lang, texts[command]), (command, texts[command])
    assert (await say(app, "/turn end", **ann)).ok
    assert (await say(app, "/game end", **ann)).ok
    said = "\n".join(texts.values())
    if lang == "it":
        # The book's terms and Italian singulars/plurals.
        assert "Per Colpire 3+" in said and "Salvezza 5+ (-1)" in said
        assert "Attacco Totale si usa nella fase di tiro o di combattimento" in said
        assert "non nella fase degli eroi" in said
        assert "1 ferita persa (l'unità è distrutta)" in said  # 4 damage on 1 model of 3
        assert "fugge 1 modello" in said  # 1 + 5 slain = 6 > 5
        assert "subisce 1 ferita mortale" in said  # miscast, D3 from a 1
        assert "Ritorna 1 modello ucciso" in said
        assert 'Il nemico è a 13"' in said
        assert "Serve ferire=" in said
        assert "1 attacco 3+/3+" in said and "1 attacchi" not in said  # read "1 attacchi"
        assert 'Basta per 7,5" di distanza' in said  # decimal comma
        assert re.search(r"Modelli uccisi \(media \d+,\d\d\)", said)
    else:
        assert "Hit 3+" in said and "Save 5+ (-1)" in said
        assert "All-out Attack is used in the shooting or combat phase" in said
        assert "1 wound lost (the unit is destroyed)" in said
        assert "1 model flees" in said
        assert "suffers 1 mortal wound" in said
        assert "1 slain model returns" in said
        assert "wound= is needed" in said
        assert "1 attack 3+/3+" in said and "1 attacks" not in said  # read "1 attacks"
        assert 'Enough for a 7.5" gap' in said
        assert re.search(r"Models slain \(mean \d+\.\d\d\)", said)


async def test_settings_take_italian_names(app: App) -> None:
    changed = await say(
        app, "/aos impostazioni limite_salvezza=bonus_only pc_eroi=own", lang="it", admin=True
    )
    assert changed.ok, changed.error
    assert changed.data is not None
    assert changed.data["settings"]["save_cap"] == "bonus_only"
    assert changed.data["settings"]["hero_cp"] == "own"
    english = await say(app, "/aos settings command_limit=shared", admin=True)
    assert english.data is not None and english.data["settings"]["command_limit"] == "shared"


def test_setting_values_are_read_in_both_languages() -> None:
    from bot.commands.aos.common import update_settings
    from rules_core.errors import UserError
    from rules_core.systems.aos.models import Settings

    new = update_settings(Settings(), {"save_cap": "solo_bonus", "hero_cp": "Proprio"})
    assert (new.save_cap, new.hero_cp) == ("bonus_only", "own")
    with pytest.raises(UserError) as raised:
        update_settings(Settings(), {"random_attacks": "tutti"})
    assert raised.value.key == "aos.bad_setting"
    assert raised.value.params["valid"] == "per_model (per_modello) | per_unit (per_unita)"


async def test_italian_errors_list_italian_values(app: App) -> None:
    on6 = await say(app, "/aos attacco attacchi=2 colpire=3 ferire=3 sei_colpire=rend:1", lang="it")
    assert on6.error is not None and on6.error.code == "aos.bad_on6"
    assert "colpo_extra, ferisce, mortali:N" in on6.error.message
    kind = await say(app, "/aos prova canto", lang="it")
    assert kind.error is not None
    assert "raccolta, recupero, disciplina, disperdere, esiliare" in kind.error.message
    english = await say(app, "/aos check sing")
    assert english.error is not None
    assert "rally, recovery, leadership, dispel, banish" in english.error.message
