"""What the /wm commands do to requests and game state (rules_core.systems.wm.transitions),
tested without the bot: the input state is never changed, and the notes explain the change."""

from __future__ import annotations

import pytest

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import Condition, GameState, Player
from rules_core.game.transitions import add_unit
from rules_core.systems.wm import transitions as wt
from rules_core.systems.wm.settings import WmSettings

JACK = "......|..L..M|...MC.|...MC.|..R..M|......"


def game() -> GameState:
    state = GameState(system="wm", name="t", organiser="a")
    state.players = [Player(user_id="a", name="Ann"), Player(user_id="b", name="Bob")]
    state.order = ["a", "b"]
    state = add_unit(state, "Stryker", state.players[0], {"def": 16, "arm": 15, "focus": 6})
    state = add_unit(state, "Ironclad", state.players[0], {"def": 12, "arm": 18}, {"grid": JACK})
    state = add_unit(state, "Defender", state.players[1], {"def": 12, "arm": 18}, {"grid": JACK})
    return add_unit(state, "Trencher", state.players[1], {"def": 13, "arm": 13})


def test_mod_names_in_both_languages() -> None:
    assert wt.parse_mods("carica, mira;Back-Strike") == {"charge", "aim", "backstrike"}
    with pytest.raises(UserError) as raised:
        wt.parse_mods("flying")
    assert raised.value.key == "wm.bad_mod"


def test_request_reads_the_target_and_its_state() -> None:  # L3435-3438, L3734-3738
    state = game()
    target = state.units[3]
    target.conditions = [Condition(name="atterrato")]
    req = wt.attack_request(wt.AttackInput(skill=6, pow=12), target, WmSettings())
    assert (req.defense, req.arm) == (13, 13) and req.mods == {"knocked_down"}
    given = wt.attack_request(
        wt.AttackInput(skill=6, pow=12, defense=9, arm=20), target, WmSettings()
    )
    assert (given.defense, given.arm) == (9, 20)  # options override the stored stats
    anyway = wt.attack_request(
        wt.AttackInput(skill=6, pow=12), target, WmSettings(roll_autohit="yes")
    )
    assert "roll_anyway" in anyway.mods


def test_request_needs_skill_def_and_arm_except_blast() -> None:  # L3001-3004
    for inp, key in (
        (wt.AttackInput(pow=12, defense=12, arm=18), "wm.missing_attacker_stat"),
        (wt.AttackInput(skill=6, pow=12, arm=18), "wm.missing_stat"),
        (wt.AttackInput(skill=6, pow=12, defense=12), "wm.missing_stat"),
    ):
        with pytest.raises(UserError) as raised:
            wt.attack_request(inp, None, WmSettings())
        assert raised.value.key == key
    blast = wt.attack_request(wt.AttackInput(pow=13, arm=14, blast=True), None, WmSettings())
    assert blast.blast and blast.skill == 0


def test_crippled_movement_declares_base_def_7() -> None:  # L3734-3738
    state = game()
    hit = wt.apply_damage(state, "Defender", 30, DiceSource.given([1]))
    assert "M" in wt.crippled_systems(hit.state.units[2])
    assert "movement_crippled" in wt.target_mods(hit.state.units[2])


def test_effects_on_hit_and_critical() -> None:  # L3940-3946
    assert wt.wanted_effects("fire", "corrosion", hit=True, critical=False) == ("fire",)
    assert wt.wanted_effects(None, "fire", hit=True, critical=True) == ("fire",)
    assert wt.wanted_effects("fire", None, hit=False, critical=False) == ()


def test_damage_and_one_effect_of_each_type() -> None:  # L3955-3956, example L3979
    state = game()
    done = wt.apply_damage(state, "Defender", 3, DiceSource.given([2]), ("fire",))
    assert done.changed and done.effects == ("fire",)
    assert done.state.units[2].damage == 3 and state.units[2].damage == 0  # input unchanged
    assert ("wm.note.fire_applied", {"unit": "Defender"}) in done.notes
    again = wt.apply_damage(done.state, "Defender", 0, DiceSource.given([]), ("fire",))
    assert not again.changed and again.effects == () and again.state is done.state


def test_allocate_focus_picks_the_only_caster() -> None:  # L1481-1482
    state = game()
    state.phase = 1  # Ann's Control Phase
    done = wt.allocate_focus(state, "Ironclad", None, 2)
    assert (done.caster, done.jack, done.left, done.has) == ("Stryker", "Ironclad", 4, 2)
    assert state.resources["unit:stryker"]["focus"] == 6  # input unchanged
    with pytest.raises(UserError) as raised:
        wt.allocate_focus(done.state, "Ironclad", "Stryker", 2)
    assert raised.value.key == "wm.allocation_cap"
    state.turn = 1  # Bob's Control Phase
    with pytest.raises(UserError) as raised:
        wt.allocate_focus(state, "Defender", None, 1)  # Bob has no caster
    assert raised.value.key == "wm.which_caster"
