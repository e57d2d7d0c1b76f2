"""Missile and melee weapons (13.0, L497: missile weapons make shooting attacks, melee weapons
combat attacks; 13.1.1, L505; 13.1.2, L513): the bot let a unit shoot its sword in the
shooting phase and fight with its crossbow in the combat phase. A stored weapon whose Range is
more than 3" is a missile weapon, any other a melee weapon (the bot keeps no weapon tables);
an applied attack with the wrong kind for the phase is refused before any die, and a unit with
several weapons attacks with the phase's only one of the right kind when none is named. Lines
refer to ../shared/seeds/001_3302d92f440b0a0b.txt."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.aos import transitions as aos_tr
from rules_core.systems.aos.system import is_missile, make_weapon, set_weapon
from tests.helpers import say

ANN = {"user": "ann", "name": "Ann"}
BOB = {"user": "bob", "name": "Bob"}
PA, PB = Player(user_id="a", name="Ann"), Player(user_id="b", name="Bob")
FIELDS = {"attacks": "2", "hit": "3", "wound": "3"}


def test_L497_a_weapon_of_range_over_3_inches_is_a_missile_weapon() -> None:
    assert is_missile(make_weapon("Crossbow", {**FIELDS, "range": "18"})) is True
    assert is_missile(make_weapon("Cannon", {**FIELDS, "range": "6-48"})) is True
    assert is_missile(make_weapon("Sword", {**FIELDS, "range": "1"})) is False
    assert is_missile(make_weapon("Claws", {**FIELDS, "range": '3"'})) is False
    assert is_missile(make_weapon("Breath", {**FIELDS, "range": "@reach"})) is None


def judicators() -> GameState:
    state = GameState(system="aos", name="t", organiser="a", players=[PA, PB], order=["a", "b"])
    state = tr.add_unit(state, "Judicators", PA, {"models": 5, "wounds": 2, "save": 4})
    unit = tr.find_unit(state, "Judicators")
    set_weapon(unit, make_weapon("Crossbow", {**FIELDS, "range": "18"}), "Crossbow")
    set_weapon(unit, make_weapon("Gladius", {**FIELDS, "range": "1"}), "Gladius")
    return state


def at_phase(state: GameState, phase: int) -> GameState:
    new = state.clone()
    new.phase = phase
    return new


def test_L505_L513_the_phase_takes_its_kind_of_weapon() -> None:
    state = judicators()
    unit = tr.find_unit(state, "Judicators")
    shooting, combat = at_phase(state, 2), at_phase(state, 4)
    aos_tr.may_use_weapon(shooting, unit, "Crossbow")
    aos_tr.may_use_weapon(combat, unit, "Gladius")
    with pytest.raises(UserError) as shot:
        aos_tr.may_use_weapon(shooting, unit, "Gladius")
    assert shot.value.key == "aos.melee_weapon_shot"
    with pytest.raises(UserError) as fought:
        aos_tr.may_use_weapon(combat, unit, "Crossbow")
    assert fought.value.key == "aos.missile_weapon_fight"
    assert aos_tr.phase_weapon(shooting, unit) == "Crossbow"
    assert aos_tr.phase_weapon(combat, unit) == "Gladius"
    assert aos_tr.phase_weapon(state, unit) is None  # the hero phase: the player names it


async def walk(app: App) -> None:
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/game join", **BOB)).ok
    roster = (
        "/army add\n"
        "Lord save=3+ wounds=6 | Runeblade: range=1 attacks=4 hit=3+ wound=3+ rend=-1 damage=1\n"
        "5x Judicators save=4+ wounds=2 | Crossbow: range=18 attacks=3 hit=3+ wound=4+ damage=1"
        " | Gladius: range=1 attacks=1 hit=3+ wound=4+ damage=1"
    )
    assert (await say(app, roster, **ANN)).ok, "army"
    assert (await say(app, "/unit add Gutrippaz models=10 wounds=1 save=5", **BOB)).ok


async def test_L497_a_sword_is_not_shot_nor_a_crossbow_fought_with(app: App) -> None:
    await walk(app)
    for _ in range(2):
        assert (await say(app, "/phase next", **ANN)).ok  # shooting
    sword = await say(app, "/aos attack attacker=Lord target=Gutrippaz apply", **ANN)
    assert sword.error is not None and sword.error.code == "aos.melee_weapon_shot"
    assert "Runeblade" in plain.render(sword) and "melee weapon" in plain.render(sword)
    history = await say(app, "/roll history 5")
    assert history.data is not None and history.data["rolls"] == []  # refused before a die
    ones = " dice=" + ",".join(["1"] * 15)
    shot = await say(app, "/aos attack attacker=Judicators target=Gutrippaz apply" + ones, **ANN)
    assert shot.ok and shot.data is not None, shot.error
    assert shot.data["weapon"] == "Crossbow"  # the only missile weapon, none named
    for _ in range(2):
        assert (await say(app, "/phase next", **ANN)).ok  # combat
    line = "/aos attack attacker=Judicators target=Gutrippaz weapon=Crossbow apply"
    bow = await say(app, line, **ANN)
    assert bow.error is not None and bow.error.code == "aos.missile_weapon_fight"
    it = await say(app, line.replace("attack ", "attacco "), lang="it", **ANN)
    assert "arma da tiro" in plain.render(it)
    five = " dice=1,1,1,1,1"  # 5 models, the Gladius's 1 attack each
    fight = await say(app, "/aos attack attacker=Judicators target=Gutrippaz apply" + five, **ANN)
    assert fight.ok and fight.data is not None, fight.error
    assert fight.data["weapon"] == "Gladius"
