"""The HERO keyword (7.1, L283: a unit with the keyword HERO on its warscroll is a HERO): a
yes/no unit stat (`hero=1`, Italian `eroe=1`), as MONSTER is; a unit never given it is not a
HERO. The heroic actions (7.1, L287-301) are a HERO's only: Heroic Recovery and Heroic
Leadership named on another unit are refused in words. Lines refer to
../shared/seeds/001_3302d92f440b0a0b.txt."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.game.stat_names import stat_name
from rules_core.systems.aos import turns
from tests.helpers import say
from tests.i18n_check import foreign_words

ANN = {"user": "ann", "name": "Ann"}
BOB = {"user": "bob", "name": "Bob"}
PA = Player(user_id="a", name="Ann")
PB = Player(user_id="b", name="Bob")


def hero_game() -> GameState:
    state = GameState(system="aos", name="t", organiser="a", players=[PA, PB], order=["a", "b"])
    state = tr.add_unit(state, "Lord", PA, {"wounds": 6, "bravery": 7, "hero": 1})
    return tr.add_unit(state, "Guards", PA, {"models": 5, "wounds": 1, "bravery": 6})


def test_L283_a_heroic_action_is_a_heros_only() -> None:
    state = hero_game()
    turns.may_heroic_unit(state, tr.find_unit(state, "Lord"))  # a HERO: accepted
    with pytest.raises(UserError) as refused:
        turns.may_heroic_unit(state, tr.find_unit(state, "Guards"))
    assert refused.value.key == "aos.not_hero"
    assert refused.value.params["unit"] == "Guards"


def test_L283_hero_answers_to_its_italian_name() -> None:
    assert stat_name("aos", "eroe") == "hero"
    assert stat_name("aos", "hero") == "hero"


async def test_L283_heroic_recovery_of_a_unit_not_a_hero_is_refused_in_words(app: App) -> None:
    """/aos check recovery … apply healed any unit its owner named: the bot had no HERO."""
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/game join", **BOB)).ok
    assert (await say(app, "/unit add Guards models=5 wounds=2 bravery=7", **ANN)).ok
    assert (await say(app, "/unit damage Guards 1", **ANN)).ok
    refused = await say(app, "/aos check recovery target=Guards apply dice=3,3,5", **ANN)
    assert refused.error is not None and refused.error.code == "aos.not_hero"
    text = plain.render(refused)
    assert "Guards is not a HERO" in text and "/unit set Guards hero=1" in text
    lead = await say(app, "/aos check leadership target=Guards dice=5", **ANN)
    assert lead.error is not None and lead.error.code == "aos.not_hero"
    history = await say(app, "/roll history 5")
    assert history.data is not None and history.data["rolls"] == []  # no refused roll
    it = await say(app, "/aos prova recupero bersaglio=Guards applica dadi=3,3,5", lang="it", **ANN)
    assert it.error is not None and it.error.code == "aos.not_hero"
    assert "Guards non è un EROE" in plain.render(it) and "eroe=1" in plain.render(it)
    assert not foreign_words("it", plain.render(it), allow=("Guards",))
    # The keyword given, Italian or English: the heroic action is carried out.
    assert (await say(app, "/unita imposta Guards eroe=1", lang="it", **ANN)).ok
    done = await say(app, "/aos check recovery target=Guards apply dice=3,3,5", **ANN)
    assert done.ok and done.data is not None, done.error
    assert done.data["outcome"]["healed"] == 3  # D3 = 3 rolled, 1 wound to heal (L595)
    status = await say(app, "/game status")
    assert status.data is not None and status.data["state"]["units"][0]["damage"] == 0


async def test_L283_the_hero_keyword_is_on_the_units_line(app: App) -> None:
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/unit add Lord wounds=6 save=3 bravery=7 hero=1 monster=1", **ANN)).ok
    assert (await say(app, "/unit add Guards models=5 wounds=1 bravery=6", **ANN)).ok
    en = plain.render(await say(app, "/game status", **ANN))
    lord = next(line for line in en.splitlines() if "Lord" in line)
    assert "HERO" in lord and "MONSTER" in lord
    guards = next(line for line in en.splitlines() if "Guards" in line)
    assert "HERO" not in guards
    it = plain.render(await say(app, "/partita stato", lang="it", **ANN))
    lord_it = next(line for line in it.splitlines() if "Lord" in line)
    assert "EROE" in lord_it and "MOSTRO" in lord_it
    assert not foreign_words("it", it, allow=("Lord", "Guards"))


async def test_L301_the_reply_says_the_wounds_healed_not_the_d3_rolled(app: App) -> None:
    """Heroic Recovery heals wounds allocated to the HERO (L301) on the model being worn down
    (14.4, L595): an unwounded HERO's reply said 'Heals 2 wounds' and healed none."""
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/unit add Lord wounds=6 bravery=9 hero=1", **ANN)).ok
    whole = plain.render(await say(app, "/aos check recovery target=Lord dice=1,3,4", **ANN))
    assert "Heals 0 wounds" in whole and "Heals 2" not in whole
    assert "Lord has no wounds to heal" in whole
    assert (await say(app, "/unit damage Lord 1", **ANN)).ok
    one = await say(app, "/aos prova recupero bersaglio=Lord dadi=1,3,4", lang="it", **ANN)
    text = plain.render(one)
    assert "Cura 1 ferita" in text and "Lord ha solo 1 ferita da curare" in text


def test_L265_a_named_issuer_is_told_by_its_keywords() -> None:
    """6.1 (L263-267): who issues a command and to how far. With the HERO keyword known, a named
    issuer that is a HERO is told its 12"; one that is neither a HERO nor the General issues it
    only as a TOTEM (18") or to its own unit. The reply listed every case for every issuer."""
    state = hero_game()
    hell = turns.find_command("unleash hell")
    lord, guards = tr.find_unit(state, "Lord"), tr.find_unit(state, "Guards")
    assert turns.table_checks(hell, lord, "Guards")[0] == (
        "aos.table_hero",
        {"unit": "Lord", "inches": 12},
    )
    assert turns.table_checks(hell, guards, "Lord")[0] == (
        "aos.table_totem",
        {"unit": "Guards", "inches": 18},
    )
    assert turns.table_checks(hell, guards, "Guards")[0][0] == "aos.table_check.unleash_hell"


async def test_L265_the_command_reply_names_the_heros_12_inches(app: App) -> None:
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/unit add Lord wounds=6 hero=1", **ANN)).ok
    assert (await say(app, "/unit add Guards models=5 wounds=1", **ANN)).ok
    assert (await say(app, "/res add cp 2", **ANN)).ok
    line = "/aos command rally unit=Guards by=Lord"
    text = plain.render(await say(app, line, **ANN))
    assert 'Lord, a HERO, issues it to a unit wholly within 12" of it' in text
    assert (await say(app, "/undo", **ANN)).ok  # one Rally a phase: the same one, in Italian
    it = plain.render(
        await say(app, "/aos comando chiamata a raccolta unita=Lord da=Guards", lang="it", **ANN)
    )
    assert "Guards non è un EROE né il Generale" in it
