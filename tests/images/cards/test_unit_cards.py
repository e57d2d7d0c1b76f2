"""Unit status cards of Age of Sigmar, Infinity, Confrontation and WoW: the facts are the
stored unit's (health, models left, the game's state for its wounds, conditions, the Action
Bar), in the chat's language with the books' terms; the picture decodes at its size (golden
images: tests/images/golden.py, cases from tests/images/cards/samples.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.app import App
from bot.images.cards import unit as unit_image
from bot.images.cards.facts import UnitCard, unit_card
from bot.images.render import picture
from rules_core.game.models import Unit
from rules_core.systems import get_system
from tests.helpers import say
from tests.i18n_check import foreign_words

GAMES = {
    "aos": (
        "/unit add Liberators models=5 wounds=2 save=4 bravery=6",
        "/unit damage Liberators 3",
        "/unit cond Liberators add caricato",
    ),
    "inf": ("/unit add Fusilier cc=13 bs=12 ph=10 arm=1 bts=0 w=1", "/unit damage Fusilier 1"),
    "c5": (
        "/unit add Abel att=5 str=7 def=4 res=6 ini=4 size=2 warrior=1",
        "/unit damage Abel 2",
        "/unit cond Abel add stordito",
    ),
    "wow": (
        "/unit add Jaina health=8 armor=1 resist=2",
        "/wow card add Jaina card=Fireball cost=3 power=4 type=magical",
        "/unit damage Jaina 3",
    ),
}
NAMES = {"aos": "Liberators", "inf": "Fusilier", "c5": "Abel", "wow": "Jaina"}


async def stored(app: App, system: str, lang: str) -> Unit:
    chat = f"console:{system}-{lang}"
    assert (await say(app, f"/game new {system}", chat=chat, lang=lang)).ok
    for line in GAMES[system]:
        assert (reply := await say(app, line, chat=chat, lang=lang)).ok, (line, reply.error)
    reply = await say(app, f"/unit show {NAMES[system]}", chat=chat, lang=lang)
    return Unit.model_validate(reply.data["unit"])  # type: ignore[index]


def card_words(card: UnitCard) -> str:
    return " ".join(
        [
            card.owner,
            card.health_label,
            card.states_title,
            card.conditions_title,
            card.lines_title or "",
            card.models or "",
            *card.states,
            *card.conditions,
            *card.lines,
            *(s.label for s in card.stats),
        ]
    )


@pytest.mark.parametrize("system", list(GAMES))
@pytest.mark.parametrize("lang", ["it", "en"])
async def test_facts_are_the_stored_unit(app: App, system: str, lang: str) -> None:
    unit = await stored(app, system, lang)
    card = unit_card(unit, system, lang)  # type: ignore[arg-type]
    assert (card.left, card.most) == get_system(system).health(unit)
    assert card.name == unit.name
    assert len(card.conditions) == len(unit.conditions)
    assert foreign_words(lang, card_words(card), allow=[unit.name, "Fireball", "Ada", "u1"]) == []  # type: ignore[arg-type]
    png = picture(unit_image.render_unit_card, card, lang)  # type: ignore[arg-type]
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == unit_image.size(card)


async def test_each_games_own_terms(app: App) -> None:
    aos = unit_card(await stored(app, "aos", "it"), "aos", "it")
    assert (aos.left, aos.most, aos.models) == (7, 10, "4/5 modelli")
    assert [s.label for s in aos.stats] == ["salvezza", "coraggio"]
    assert aos.conditions == ["ha caricato (questo turno)"]
    inf = unit_card(await stored(app, "inf", "it"), "inf", "it")
    assert inf.states == ["Incosciente"] and (inf.left, inf.most) == (0, 1)
    c5 = unit_card(await stored(app, "c5", "it"), "c5", "it")
    assert c5.states[0] == "Ferita Grave" and c5.states[1].startswith("penalità -")
    c5_en = unit_card(await stored(app, "c5", "en"), "c5", "en")
    assert c5_en.states[0] == "Serious Wound"
    wow = unit_card(await stored(app, "wow", "it"), "wow", "it")
    assert wow.health_label == "Salute" and (wow.left, wow.most) == (5, 8)
    assert wow.lines_title == "Barra delle azioni" and wow.lines == ["✔ Fireball · pronta"]


def test_destroyed_unit_says_so() -> None:
    unit = Unit(name="Guards", owner="u", owner_name="Ada", models=2, wounds_per_model=2, damage=4)
    assert unit_card(unit, "aos", "it").states == ["fuori gioco"]
    assert unit_card(unit, "aos", "en").states == ["destroyed"]
