"""A pool a game keeps per unit (WARMACHINE's focus, Confrontation's mana) spent without
naming the unit: `/risorse spendi focus 1` drew on an empty pool of the player's ("Non hai
abbastanza focus: ne hai 0") while their warcaster had 7, and `/risorse` named the warcaster
in lower case ("stryker: focus 7")."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player, Unit
from tests.helpers import say

CHAT = "console:pools"
STRYKER = "/unita aggiungi Stryker focus=7 VEL=6 FOR=6 MAT=7 DAT=6 DIF=16 ARM=15 CMD=9 caselle=17"
SORSCHA = "/unita aggiungi Sorscha focus=8 VEL=6 FOR=6 MAT=6 DAT=5 DIF=15 ARM=14 CMD=8 caselle=16"


def wm_state(*casters: str) -> GameState:
    state = GameState(
        system="wm", name="t", organiser="1", players=[Player(user_id="1", name="Ann")]
    )
    state.units = [Unit(name=n, owner="1", owner_name="Ann", stats={"focus": 7}) for n in casters]
    state.resources = {f"unit:{n.lower()}": {"focus": 7} for n in casters}
    return state


def test_the_one_unit_holding_the_pool_is_the_one_meant() -> None:
    assert tr.resource_key(wm_state("Stryker"), "1", None, "focus") == "unit:stryker"
    # Of two holders, the one with focus left is the one a spend draws on.
    state = wm_state("Stryker", "Ironclad")
    state.resources["unit:ironclad"]["focus"] = 0
    assert tr.resource_key(state, "1", None, "focus", spend=True) == "unit:stryker"
    # A pool kept per player stays the player's.
    aos = GameState(system="aos", name="t", organiser="1", players=[Player(user_id="1", name="A")])
    assert tr.resource_key(aos, "1", None, "cp") == "player:1"


def test_two_units_holding_the_pool_are_asked_which() -> None:
    with pytest.raises(UserError) as err:
        tr.resource_key(wm_state("Stryker", "Sorscha"), "1", None, "focus")
    assert err.value.key == "game.which_unit_pool"
    assert err.value.params["units"] == "Stryker, Sorscha"


def test_no_unit_holding_the_pool_is_said() -> None:
    with pytest.raises(UserError) as err:
        tr.resource_key(wm_state(), "1", None, "focus")
    assert err.value.key == "game.no_unit_pool"


async def test_spending_focus_without_naming_the_warcaster(app: App) -> None:
    await say(app, "/partita nuova wm", chat=CHAT, lang="it")
    await say(app, STRYKER, chat=CHAT, lang="it")
    spent = await say(app, "/risorse spendi focus 1", chat=CHAT, lang="it")
    assert spent.error is None, spent.error
    assert spent.data is not None and spent.data["value"] == 6
    assert plain.render(spent).startswith("Stryker: focus ora 6")  # whose pool it drew on
    shown = plain.render(await say(app, "/risorse", chat=CHAT, lang="it"))
    assert "Stryker: focus 6" in shown and "stryker" not in shown
    await say(app, SORSCHA, chat=CHAT, lang="it")
    which = await say(app, "/risorse spendi focus 1", chat=CHAT, lang="it")
    assert which.error is not None and which.error.code == "game.which_unit_pool"
    assert "Stryker" in which.error.message and "Sorscha" in which.error.message
    assert "unità=" in which.error.message
