"""C5 state rules without the bot: rules_core.systems.c5.transitions and .requests.

Each test builds a GameState by hand and checks the new state and the notes a change returns
(the input state is never modified)."""

from __future__ import annotations

import pytest

from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.c5 import requests as rq
from rules_core.systems.c5 import transitions as c5tr
from rules_core.systems.c5.system import is_routed, is_stunned

ANN = Player(user_id="A", name="Ann")
BOB = Player(user_id="B", name="Bob")


def game(**stats: int) -> GameState:
    """Ann's medium fighter Abel (4 wounds, @1361) and Bob's Orc, in the strategic phase."""
    state = GameState(system="c5", name="t", organiser="A", players=[ANN, BOB], order=["A", "B"])
    state = tr.add_unit(state, "Abel", ANN, {"att": 5, "str": 7, "def": 4, "res": 6, **stats})
    return tr.add_unit(state, "Orc", BOB, {"att": 4, "str": 8, "def": 3, "res": 7, "cou": 4})


def test_H01_H02_wounds_then_death_as_state() -> None:
    """@8449 (digest H01, H02): a medium fighter with 2 wounds is Grave (-2); 2 more kill it."""
    state = game()
    hurt, notes = c5tr.wound(state, "Abel", 2, stunned=False)
    assert tr.find_unit(hurt, "Abel").damage == 2
    assert notes == [("c5.note.state.serious", {"unit": "Abel", "penalty": 2})]
    assert tr.find_unit(state, "Abel").damage == 0  # the input is untouched
    dead, notes = c5tr.wound(hurt, "Abel", 2, stunned=True)
    assert tr.find_unit(dead, "Abel").destroyed
    assert notes == [("c5.note.killed", {"unit": "Abel"})]  # no Stordito on a dead fighter
    assert not is_stunned(tr.find_unit(dead, "Abel"))


def test_stunned_without_wounds_marks_stordito_until_the_end_of_the_round() -> None:
    new, notes = c5tr.wound(game(), "orc", 0, stunned=True)
    orc = tr.find_unit(new, "Orc")
    assert is_stunned(orc) and orc.conditions[0].until == "end-of-round"
    assert notes == [("c5.note.stunned", {"unit": "Orc"})]


def test_rout_once_and_rally_removes_either_spelling() -> None:
    state = game()
    routed = c5tr.rout(state, "Orc")
    assert is_routed(tr.find_unit(routed, "Orc"))
    assert c5tr.rout(routed, "Orc") == routed  # already in Rotta: no second condition
    italian = tr.add_condition(state, "Orc", "in rotta", "permanent")
    for st in (routed, italian):
        assert not is_routed(tr.find_unit(c5tr.rally(st, "Orc"), "Orc"))
    assert c5tr.rally(state, "Orc") == state


def test_H09_H10_recover_heals_to_capacity_and_refuses_the_unhurt() -> None:
    """Digest H09: healing never goes above the capacity; H10: no wound, no healing."""
    hurt, _ = c5tr.wound(game(), "Abel", 1, stunned=False)
    healed, _ = c5tr.recover(hurt, "Abel", "rigenerazione", 2)
    assert tr.find_unit(healed, "Abel").damage == 0
    with pytest.raises(UserError) as err:
        c5tr.recover(healed, "Abel", "guarigione", 1)
    assert err.value.key == "c5.heal_unhurt"
    lost, notes = c5tr.recover(game(), "Abel", "effimero", 2)  # Effimero/X loses wounds
    assert tr.find_unit(lost, "Abel").damage == 2 and notes[0][0] == "c5.note.state.serious"


def test_recovery_wounds_typed_unit_or_most_possible() -> None:
    hurt, _ = c5tr.wound(game(), "Abel", 3, stunned=False)
    assert c5tr.recovery_wounds(None, 2, 8) == 2
    assert c5tr.recovery_wounds(tr.find_unit(hurt, "Abel"), None, 8) == 3
    assert c5tr.recovery_wounds(None, None, 8) == 8


def test_mages_pools_and_mana() -> None:
    state = game(pow=4, rank=2)
    assert [u.name for u in c5tr.mages(state, "A", False)] == ["Abel"]
    with pytest.raises(UserError) as err:
        c5tr.mages(state, "B", False)
    assert err.value.key == "c5.no_mages"
    new = c5tr.add_mana(state, {"Abel": 5})
    new = c5tr.add_mana(new, {"Abel": 2})
    assert c5tr.pool(new, "Abel", "mana") == 7 and c5tr.pool(state, "Abel", "mana") == 0
    faith, have = c5tr.change_pool(new, "abel", "ft", "set", 6)
    assert have == 6 and c5tr.pool(faith, "Abel", "ft") == 6


def test_G01_G02_pass_only_with_fewer_cards_in_activation() -> None:
    """@16499 (digest G01, G02): mine 5 vs 6 may pass; 6 vs 6 may not; activation only."""
    state = game()
    with pytest.raises(UserError) as err:
        c5tr.check_pass(state, 5, 6)
    assert err.value.key == "c5.pass_not_activation"
    state.phase = 1  # activation
    with pytest.raises(UserError) as err:
        c5tr.check_pass(state, 6, 6)
    assert err.value.key == "c5.pass_refused"
    c5tr.check_pass(state, 5, 6)


def test_requests_read_cards_with_wound_penalties() -> None:
    """@10224: the attacker's penalty on ATT and on his melee wound roll, the defender's on
    DIF; a shot takes the weapon's STR (wstr) and no wound-roll penalty."""
    state, _ = c5tr.wound(game(wstr=6, aim=3), "Abel", 1, stunned=False)
    state, _ = c5tr.wound(state, "Orc", 2, stunned=False)
    abel, orc = tr.find_unit(state, "Abel"), tr.find_unit(state, "Orc")
    melee = rq.melee_request({"parry": True}, abel, orc)
    assert (melee.attack.value, melee.attack.mod) == (5, -1)
    assert melee.defence is not None and (melee.defence.value, melee.defence.mod) == (3, -2)
    assert (melee.wound.str_, melee.wound.res, melee.wound.penalty) == (7, 7, 1)
    shot = rq.shoot_request({}, abel, orc)
    assert (shot.test.value, shot.test.mod, shot.wound.str_, shot.wound.penalty) == (3, -1, 6, 0)
    with pytest.raises(UserError) as err:
        rq.melee_request({"parry": True}, abel, None)
    assert err.value.key == "c5.missing_stat"


def test_C04_printed_strength_above_fifteen_lifts_the_cap() -> None:
    """@2104, Red Troll @4728 (digest C04): a card value above 15 is its own cap."""
    state = game(str=16)
    req = rq.wound_request(
        {}, tr.find_unit(state, "Abel"), tr.find_unit(state, "Orc"), melee=True, mod_option="mod"
    )
    assert (req.str_, req.str_printed, req.str_uncapped) == (16, 16, True)


def test_rally_value_is_the_better_of_cou_and_dis() -> None:
    """@15362: COR or DIS, the player's choice; from the card, the better one."""
    state = game(cou=3, dis=5)
    assert rq.rally_value({}, tr.find_unit(state, "Abel")) == 5
    assert rq.rally_value({"value": 2}, tr.find_unit(state, "Abel")) == 2
    assert rq.rally_request({}, 5).diff == 8
