"""Quoted multi-word values as players type them (issue 25, item 3): "…", “…”, «…» and '…',
alone or after `key=`; an apostrophe inside a word is never a quote."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.commands import build_registry
from bot.commands.registry import tokenize
from tests.helpers import say

CARD_FORMS = [
    'card="Lightning Shield"',
    "card=“Lightning Shield”",
    "card=«Lightning Shield»",
    "card='Lightning Shield'",
    "carta=«Lightning Shield»",
]


@pytest.mark.parametrize("form", CARD_FORMS)
def test_key_with_a_quoted_value(form: str) -> None:
    spec, opts = build_registry().resolve(f"/wow attack power=3 {form} defense=1")
    assert spec.name == "wow attack"
    assert opts["card"] == "Lightning Shield"
    assert opts["power"] == 3 and opts["defense"] == 1


@pytest.mark.parametrize(
    "quoted",
    ["«Scudo del fulmine»", "“Scudo del fulmine”", "'Scudo del fulmine'", '"Scudo del fulmine"'],
)
def test_a_quoted_positional_is_one_value(quoted: str) -> None:
    _, opts = build_registry().resolve(f"/game new gen {quoted}")
    assert opts["name"] == "Scudo del fulmine"


def test_apostrophes_inside_words_are_not_quotes() -> None:
    assert [t.text for t in tokenize("l'arma dell'eroe")] == ["l'arma", "dell'eroe"]
    # An Italian elision inside single quotes: only a quote followed by a space closes.
    (tok,) = tokenize("'Lega d'inverno'")
    assert tok.text == "Lega d'inverno" and tok.quoted
    # An opening quote never closed stays a word as typed.
    assert [t.text for t in tokenize("«Scudo del")] == ["«Scudo", "del"]


async def test_italian_quotes_name_a_game_and_a_unit(app: App) -> None:
    reply = await say(app, "/game new gen «Lega di primavera»", user="1", name="Ann")
    assert reply.error is None and reply.title == "Lega di primavera"
    reply = await say(app, "/unit add «Gigante di ferro» wounds=12", user="1", name="Ann")
    assert reply.error is None and reply.data
    assert reply.data["unit"]["name"] == "Gigante di ferro"
