"""A whole WARMACHINE turn walked as two new players (Italian and English): the conditions the
game knows have one name each and read in the reader's language, and focus pays for boosts
and a warjack's charge as it does for a power attack."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.systems import get_system
from tests.helpers import say

GRID = "......|..L..M|...MC.|...MC.|..R..M|......"


async def game(app: App, chat: str, lang: str = "en") -> None:
    for text, user in (("/game new wm", "ann"), ("/game join", "bob")):
        assert (await say(app, text, user=user, chat=chat, lang=lang)).ok
    for text, user in (
        (f"/unit add Ironclad mat=7 str=11 def=12 arm=18 base=50 grid={GRID}", "ann"),
        ("/unit add Stryker mat=7 str=6 def=16 arm=15 focus=6", "ann"),
        (f"/unit add Juggernaut mat=7 str=12 def=12 arm=20 base=50 grid={GRID}", "bob"),
    ):
        assert (await say(app, text, user=user, chat=chat, lang=lang)).ok, text


# --- the conditions WARMACHINE knows: one canonical name, the reader's words ------------------


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("atterrato", "knocked_down"),
        ("knocked down", "knocked_down"),
        ("immobilizzato", "stationary"),
        ("fuoco", "fire"),
        ("corrosione", "corrosion"),
        ("corsa", "ran"),
    ],
)
def test_L3430_L3530_L3955_the_conditions_wm_knows_have_one_name(
    typed: str, canonical: str
) -> None:
    known = get_system("wm").condition(typed)
    assert known is not None and known.name == canonical


async def test_a_knocked_down_warjack_reads_atterrato_once(app: App) -> None:
    """Walking: a head-butt knocked the Juggernaut down and its line read '· knocked_down' on
    an Italian screen; adding 'atterrato' by hand then showed both, two names of one state."""
    chat = "console:wm-walk-turn-down"
    await game(app, chat, "it")
    butt = await say(
        app,
        "/wm forza testata mischia=7 forza=11 bersaglio=Juggernaut applica dadi=5,6,1,1",
        user="ann",
        chat=chat,
        lang="it",
    )
    assert butt.ok, plain.render(butt)
    added = await say(
        app, "/unita condizione Juggernaut aggiungi atterrato", user="bob", chat=chat, lang="it"
    )
    assert added.ok, plain.render(added)
    text = plain.render(added)
    assert "knocked" not in text and text.count("atterrato") == 1, text
    english = plain.render(await say(app, "/unit show Juggernaut", chat=chat, lang="en"))
    assert "knocked down" in english and "knocked_down" not in english, english
