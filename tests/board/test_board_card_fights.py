"""The board card (bot/images/board_card.py) shows what the text board shows under the round
and turn: Age of Sigmar's fights of the combat phase and whose pick is next
(rules_core.systems.aos.fights, /game status), in the chat's language. The picture showed none
of it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.app import App
from bot.images import board_card as bc
from bot.render import plain
from rules_core.game.models import GameState
from tests.helpers import say
from tests.i18n_check import foreign_words

ANN = {"user": "ann", "name": "Ann"}
BOB = {"user": "bob", "name": "Bob"}
ONES = " dice=" + ",".join(["1"] * 10)  # every hit roll fails


async def combat(app: App, lang: str) -> GameState:
    """Ann's Vindictors have fought in her combat phase; Bob's Gutrippaz haven't."""
    assert (await say(app, "/game new aos T", lang=lang, **ANN)).ok
    assert (await say(app, "/game join", lang=lang, **BOB)).ok
    for line in (
        "/unit add Vindictors models=5 wounds=2 save=4",
        "/aos weapon Vindictors Stormspear range=2 attacks=2 hit=3 wound=3 rend=-1 damage=1",
    ):
        assert (await say(app, line, **ANN)).ok
    assert (await say(app, "/unit add Gutrippaz models=10 wounds=1 save=5", **BOB)).ok
    line = "/aos weapon Gutrippaz Spear range=2 attacks=1 hit=4 wound=4 rend=0 damage=1"
    assert (await say(app, line, **BOB)).ok
    for _ in range(4):
        assert (await say(app, "/phase next", **ANN)).ok
    attack = "/aos attack attacker=Vindictors target=Gutrippaz apply" + ONES
    assert (await say(app, attack, **ANN)).ok
    status = await say(app, "/game status", lang=lang)
    assert status.data is not None
    return GameState.model_validate(status.data["state"])


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_L447_L459_the_fights_and_the_next_pick_are_on_the_card(app: App, lang: str) -> None:
    state = await combat(app, lang)
    card = bc.board_facts(state, lang)  # type: ignore[arg-type]
    text = plain.render(await say(app, "/game status", lang=lang))
    for line in card.notes:  # the text board's own lines
        assert line in text
    if lang == "en":
        assert card.notes == [
            "Fought this phase: Vindictors.",
            "Next to pick a unit to fight: Bob. Bob's units that have not fought yet: Gutrippaz.",
        ]
    else:
        assert card.notes[0] == "Ha combattuto in questa fase: Vindictors."
        assert card.notes[1].startswith("Sceglie la prossima unità per combattere: Bob.")
        assert not foreign_words(
            "it", card.alt, ("Ann", "Bob", "Vindictors", "Gutrippaz", "Age", "Sigmar")
        )
    assert "\n".join(card.notes) in card.alt
    assert len(bc.note_rows(card)) == 3  # a sentence a row: the waiting units are not cut off
    image = Image.open(io.BytesIO(bc.render_board_card(card, lang)))  # type: ignore[arg-type]
    assert image.size == bc.size(card)


async def test_outside_the_combat_phase_the_card_has_no_fight_lines(app: App) -> None:
    assert (await say(app, "/game new aos T", **ANN)).ok
    status = await say(app, "/game status")
    assert status.data is not None
    card = bc.board_facts(GameState.model_validate(status.data["state"]), "en")
    assert card.notes == []


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_a_game_named_after_its_system_is_named_once_on_the_card(app: App, lang: str) -> None:
    """`/game new aos` names the game after its system: the card's band read 'Age of Sigmar 3 ·
    Age of Sigmar 3'."""
    assert (await say(app, "/game new aos", lang=lang, **ANN)).ok
    status = await say(app, "/game status", lang=lang)
    assert status.data is not None
    card = bc.board_facts(GameState.model_validate(status.data["state"]), lang)  # type: ignore[arg-type]
    assert bc.band_text(card) == "Age of Sigmar 3"
    assert card.alt.splitlines()[0] == "Age of Sigmar 3"
    named = card.model_copy(update={"title": "Friday"})
    assert bc.band_text(named) == "Friday · Age of Sigmar 3"
