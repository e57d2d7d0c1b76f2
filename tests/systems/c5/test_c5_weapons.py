"""Issue 25 item 6 for Confrontation: attacks take the weapon and the stats from the units
stored in the game (`/c5 shoot unit=… weapon=… target=…`), typed options override them.
A ranged weapon carries its own STR (digest §9); melee blows use the fighter's STR unless the
weapon prints one."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.c5 import requests as rq
from tests.helpers import say

CHAT = "console:c5weapons"


def archer() -> tuple[GameState, Player]:
    ann = Player(user_id="A", name="Ann")
    state = GameState(system="c5", name="t", organiser="A", players=[ann], order=["A"])
    state = tr.add_unit(state, "Archer", ann, {"aim": 4, "wstr": 5, "att": 3, "str": 3, "res": 5})
    unit = state.units[0]
    unit.extra["roster"] = {
        "weapons": [
            {"name": "Arco lungo", "values": {"str": "7", "range": "40"}},
            {"name": "Pugnale", "values": {}},
        ]
    }
    return state, ann


def test_the_stored_weapon_gives_the_shots_strength() -> None:
    state, _ = archer()
    unit = state.units[0]
    shot = rq.shoot_request({"weapon": "arco"}, unit, unit)
    assert shot.wound.str_ == 7 and shot.test.value == 4
    assert rq.shoot_request({"weapon": "Arco lungo", "str": 9}, unit, unit).wound.str_ == 9
    blow = rq.melee_request({"weapon": "pugnale"}, unit, unit)  # no STR printed: the card's
    assert blow.wound.str_ == 3
    with pytest.raises(UserError) as err:
        rq.shoot_request({"weapon": "spada"}, unit, unit)
    assert err.value.key == "c5.no_weapon" and "Arco lungo, Pugnale" in err.value.params["valid"]
    with pytest.raises(UserError) as err:
        rq.shoot_request({"weapon": "arco", "aim": 4, "res": 5}, None, None)
    assert err.value.key == "c5.weapon_needs_attacker"


async def test_an_attack_takes_everything_from_the_stored_units(app: App) -> None:
    assert (await say(app, "/game new c5 Bows", user="ann", chat=CHAT)).ok
    assert (await say(app, "/game join", user="bob", chat=CHAT)).ok
    army = "/army add\nArcher aim=4 res=5 | Arco lungo: str=7 gittata=40"
    added = await say(app, army, user="ann", chat=CHAT)
    assert added.ok, plain.render(added)
    assert (await say(app, "/unit add Orc res=6", user="bob", chat=CHAT)).ok
    # TIR 4 + die 5 = 9 vs 7 (short); wound dice 3,6: row 3, R 6 + 7 - 6 = 7 -> 2 wounds
    shot = await say(
        app,
        "/c5 shoot unit=Archer weapon=arco target=Orc apply dice=5,3,6",
        user="ann",
        chat=CHAT,
    )
    assert shot.ok, plain.render(shot)
    assert shot.data is not None and shot.data["steps"][1]["modifiers"][0]["value"] == 7
    assert shot.data["applied"] == {"unit": "Orc", "wounds": 2, "stunned": False}
    # str= overrides the stored weapon: R 6 + 3 - 6 = 3 -> row 3, band 2/3 -> 1 wound
    typed = await say(
        app, "/c5 shoot unit=Archer weapon=arco str=3 target=Orc dice=5,3,6", user="ann", chat=CHAT
    )
    assert typed.data is not None and typed.data["outcome"]["wounds"] == 1
    missing = await say(
        app, "/c5 shoot unit=Archer weapon=spada target=Orc dice=5,3,6", user="ann", chat=CHAT
    )
    assert missing.error is not None and missing.error.code == "c5.no_weapon"
    assert "Arco lungo" in plain.render(missing)
