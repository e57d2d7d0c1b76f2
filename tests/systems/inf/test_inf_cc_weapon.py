"""A close combat attack is made with a CC weapon and the CC value (p. 30, L1885-1886: the
Close Combat Attack uses CC weapons; a weapon with no range bands is one, L3153-3157). Walking
as a new player, `/inf attack attacker=Zhanshi1 target=Angus cc` attacked with the Zhanshi's
Rifle (the first weapon of its loadout): Burst 3, DAM 13 in close combat. Now the loadout's
first CC weapon is used; a named ranged weapon, or a loadout with no CC weapon, is refused in
one sentence. Lines refer to ../shared/seeds/003_27b81155ce3a4b9f.txt."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.inf.request import AttackOptions, build_request

PA, PB = Player(user_id="a", name="Ann"), Player(user_id="b", name="Bob")
PROFILE = {"cc": 13, "bs": 11, "ph": 10, "wip": 12, "arm": 1, "bts": 0, "w": 1, "type": 1}


def two(loadout: list[str]) -> tuple[GameState, str]:
    state = GameState(system="inf", name="t", organiser="a", players=[PA, PB], order=["a", "b"])
    state = tr.add_unit(state, "Zhanshi", PA, dict(PROFILE))
    state = tr.add_unit(state, "Angus", PB, dict(PROFILE))
    tr.find_unit(state, "Zhanshi").extra["weapons"] = loadout
    return state, "Zhanshi"


def test_L1885_a_cc_attack_takes_the_loadouts_cc_weapon() -> None:
    state, name = two(["Rifle", "CC Weapon"])
    req, _ = build_request(
        AttackOptions(cc=True, vs=13),
        tr.find_unit(state, name),
        tr.find_unit(state, "Angus"),
        {},
    )
    assert (req.active.burst, req.active.dam, req.active.attr) == (1, 10, 13)  # PH 10, CC 13


def test_L1885_a_ranged_weapon_is_refused_in_close_combat() -> None:
    state, name = two(["Rifle"])
    attacker, target = tr.find_unit(state, name), tr.find_unit(state, "Angus")
    with pytest.raises(UserError) as none:
        build_request(AttackOptions(cc=True, vs=13), attacker, target, {})
    assert none.value.key == "inf.no_cc_weapon"
    with pytest.raises(UserError) as named:
        build_request(AttackOptions(cc=True, vs=13, weapon="Rifle"), attacker, target, {})
    assert named.value.key == "inf.cc_needs_cc_weapon"
    # a Damage typed is the players' own CC weapon: taken as given
    req, _ = build_request(AttackOptions(cc=True, vs=13, dam=12), attacker, target, {})
    assert req.active.dam == 12 and req.cc


async def test_L1885_the_refusal_says_how_in_words(app: App) -> None:
    from tests.helpers import say

    assert (await say(app, "/game new inf T", user="ann", name="Ann")).ok
    assert (await say(app, "/game join", user="bob", name="Bob")).ok
    line = "/unit add Zhanshi cc=13 bs=11 ph=10 wip=12 arm=1 bts=0 w=1 type=1"
    assert (await say(app, line, user="ann")).ok
    assert (await say(app, "/inf loadout Zhanshi weapons=Rifle", user="ann")).ok
    line = "/unit add Angus cc=17 bs=12 ph=13 wip=13 arm=1 bts=0 w=1 type=1"
    assert (await say(app, line, user="bob")).ok
    out = await say(app, "/inf attack attacker=Zhanshi target=Angus cc vs=17", user="ann")
    assert out.error is not None and out.error.code == "inf.no_cc_weapon"
    assert "Zhanshi has no CC weapon" in plain.render(out)
    assert (await say(app, "/inf loadout Zhanshi weapons=Rifle,Knife", user="ann")).ok
    ok = await say(
        app, "/inf attack attacker=Zhanshi target=Angus cc vs=17 dice=3,20,15", user="ann"
    )
    assert ok.ok, ok.error
    assert "Knife" in plain.render(ok) and "B1" in plain.render(ok)
