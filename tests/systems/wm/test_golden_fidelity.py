"""WARMACHINE Mk II fidelity (issue 22), golden cases from the Italian rulebook transcript
(`Lnnnn` = line of ../shared/seeds/000_a386fedfef0f54d6.txt), tested without the bot."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import Condition, GameState, Player
from rules_core.game.transitions import add_unit, damage, end_turn, next_phase
from rules_core.systems.wm import grid
from rules_core.systems.wm import transitions as wt
from rules_core.systems.wm.attack import resolve_attack
from rules_core.systems.wm.odds import attack_odds
from rules_core.systems.wm.settings import WmSettings

S = DiceSource.given
JACK = "......|..L..M|...MC.|...MC.|..R..M|......"


def game() -> GameState:
    state = GameState(system="wm", name="t", organiser="a")
    state.players = [Player(user_id="a", name="Ann"), Player(user_id="b", name="Bob")]
    state.order = ["a", "b"]
    state = add_unit(state, "Stryker", state.players[0], {"def": 16, "arm": 15, "focus": 6})
    state = add_unit(state, "Lancer", state.players[0], {"def": 12, "arm": 18}, {"grid": JACK})
    state = add_unit(state, "Trenchers", state.players[1], {"def": 13, "arm": 13, "models": 10})
    return add_unit(
        state, "Knights", state.players[1], {"def": 12, "arm": 17, "boxes": 8, "models": 3}
    )


# --- damage to troopers is per model (L3633-3643, L3759-3766) --------------------------------


def test_L3635_two_damage_on_one_box_troopers_disables_one_model() -> None:
    notes: list[tuple[str, dict[str, object]]] = []
    state = damage(game(), "Trenchers", 2, notes=notes)
    unit = state.units[2]
    assert unit.models_left == 9 and not unit.destroyed
    assert ("wm.note.model_damage", {"unit": "Trenchers", "model": 1, "n": 1, "lost": 1}) in notes


def test_L3764_a_15_damage_hit_disables_one_model_the_rest_is_lost() -> None:
    state = damage(game(), "Trenchers", 15)
    assert state.units[2].models_left == 9


def test_L3764_17_damage_on_8_box_troopers_disables_one_and_wounds_none() -> None:
    notes: list[tuple[str, dict[str, object]]] = []
    state = damage(game(), "Knights", 17, notes=notes)
    knights = state.units[3]
    assert knights.models_left == 2 and knights.damage == 8
    assert knights.extra["model_damage"] == [8, 0, 0]
    assert ("wm.note.model_damage", {"unit": "Knights", "model": 1, "n": 8, "lost": 9}) in notes
    assert ("wm.note.model_disabled", {"unit": "Knights", "model": 1}) in notes


def test_L3637_a_wounded_model_takes_the_next_hit_unless_one_is_named() -> None:
    state = damage(game(), "Knights", 3)
    state = damage(state, "Knights", 2)
    assert state.units[3].extra["model_damage"] == [5, 0, 0]  # picked: the wounded one
    named = wt.apply_damage(state, "Knights", 4, None, model=3)
    assert named.state.units[3].extra["model_damage"] == [5, 0, 4]
    with pytest.raises(UserError) as raised:
        wt.apply_damage(state, "Knights", 1, None, model=4)
    assert raised.value.key == "wm.no_such_model"


# --- Power Field: +1 ARM per focus left on a warcaster (L4475-4478) ---------------------------


def test_L4477_power_field_stryker_with_3_focus_has_arm_18() -> None:
    state = game()
    state.resources["unit:stryker"]["focus"] = 3
    stryker = state.units[0]
    req = wt.attack_request(
        wt.AttackInput(skill=7, pow=12, str_=10),
        stryker,
        WmSettings(),
        wt.power_field(state, stryker),
    )
    res = resolve_attack(req, S([4, 5, 3, 3]))
    dmg = next(s for s in res.steps if s.name == "damage")
    assert dmg.target == 18 and res.outcome.damage == 12 + 10 + 6 - 18
    assert (
        attack_odds(req).p_damage
        == attack_odds(req.model_copy(update={"arm": 18, "focus_arm": 0})).p_damage
    )


def test_power_field_is_for_warcasters_only() -> None:
    state = game()
    state.resources["unit:lancer"] = {"focus": 3}  # allocated focus: no Power Field
    assert wt.power_field(state, state.units[1]) == 0


# --- healing a grid by column or system (L3859-3866, L3757-3758) -----------------------------


def test_L3757_healing_one_box_of_a_crippled_system_uncripples_it() -> None:
    g = grid.parse_grid(JACK)
    g, _ = grid.apply_damage(g, 36, 1)
    assert "M" in g.crippled()
    by_system, n = grid.heal(g, 1, system="M")
    assert n == 1 and "M" not in by_system.crippled() and "C" in by_system.crippled()
    by_column, n = grid.heal(g, 3, column=4)
    assert n == 3 and len(by_column.marks) == len(g.marks) - 3
    assert "M" not in by_column.crippled()  # column 4 bottom up: hull, Cortex, then its M box


def test_heal_by_system_on_an_undamaged_system_heals_nothing() -> None:
    g = grid.parse_grid(JACK)
    g, n = grid.heal(g, 1, system="C")
    assert n == 0
    with pytest.raises(UserError) as raised:
        grid.heal(g, 1, system="G")  # this grid has no field generator
    assert raised.value.key == "wm.no_such_system"


# --- focus allocation only in the controller's Control Phase (L4418-4421) -------------------


def test_L4420_focus_is_allocated_only_in_your_control_phase() -> None:
    state = game()  # Ann's turn, Maintenance Phase
    with pytest.raises(UserError) as raised:
        wt.allocate_focus(state, "Lancer", None, 1)
    assert raised.value.key == "wm.allocate_control_phase"
    state = next_phase(state)  # Control
    assert wt.allocate_focus(state, "Lancer", None, 1).has == 1


# --- feat once per game, not after running (L920-929, L4444-4453) ---------------------------


def test_L4452_feat_once_per_game() -> None:
    state = game()
    done = wt.use_feat(state, "Stryker")
    assert done.state.units[0].extra["feat_used"] is True
    with pytest.raises(UserError) as raised:
        wt.use_feat(done.state, "Stryker")
    assert raised.value.key == "wm.feat_used"
    with pytest.raises(UserError) as raised:
        wt.use_feat(state, "Lancer")
    assert raised.value.key == "wm.feat_casters_only"


def test_L4447_no_feat_in_an_activation_the_caster_ran() -> None:
    state = game()
    state.units[0].conditions = [Condition(name="ran", until="end-of-turn")]
    with pytest.raises(UserError) as raised:
        wt.use_feat(state, "Stryker")
    assert raised.value.key == "wm.feat_after_run"


# --- Stealth, spray, shield and buckler (L720-725, L3126-3146, L840-846, L877-883) -----------


def test_L720_stealth_ranged_from_more_than_5_inches_misses() -> None:
    req = wt.attack_request(
        wt.AttackInput(type="ranged", skill=6, defense=13, pow=10, arm=14, mods="stealth"),
        None,
        WmSettings(),
    )
    res = resolve_attack(req, S([]))
    assert not res.outcome.hit and res.steps[-1].outcome == "auto_miss"
    assert attack_odds(req).p_hit == 0
    melee = wt.attack_request(
        wt.AttackInput(skill=6, defense=13, pow=10, arm=14, mods="stealth"), None, WmSettings()
    )
    assert resolve_attack(melee, S([6, 5, 1, 1])).outcome.hit  # melee ignores Stealth


def test_L3146_a_spray_ignores_stealth_cover_and_the_in_melee_penalty() -> None:
    req = wt.attack_request(
        wt.AttackInput(
            type="ranged", skill=6, defense=13, pow=10, arm=14, mods="spray,stealth,cover,in_melee"
        ),
        None,
        WmSettings(),
    )
    res = resolve_attack(req, S([4, 3, 1, 1]))
    assert res.outcome.defense == 13 and res.outcome.attack_total == 13 and res.outcome.hit


def test_L877_shield_and_buckler_add_arm_lost_from_the_back_arc() -> None:
    front = wt.attack_request(
        wt.AttackInput(skill=6, defense=12, pow=12, arm=18, shield_arm=3),
        None,
        WmSettings(),
    )
    assert resolve_attack(front, S([4, 4, 3, 3])).steps[-1].target == 21
    back = wt.attack_request(
        wt.AttackInput(skill=6, defense=12, pow=12, arm=18, shield_arm=3, mods="backstrike"),
        None,
        WmSettings(),
    )
    assert resolve_attack(back, S([4, 4, 3, 3])).steps[-1].target == 18


def test_L3750_a_shield_is_lost_while_its_arm_is_crippled() -> None:
    state = game()
    lancer = state.units[1]
    g = grid.parse_grid(JACK)
    g, _ = grid.apply_damage(g, 3, 2)  # column 2: two hull boxes, then the L box
    lancer.extra["grid"] = g.model_dump(mode="json")
    lancer.extra["shields"] = {"L": 1}
    assert wt.shield_arm(lancer, back=False) == 0
    lancer.extra["shields"] = {"R": 1}
    assert wt.shield_arm(lancer, back=False) == 2


# --- knocked down: stands up in its controller's next turn (L3443-3456) ---------------------


def test_L3443_knocked_down_clears_at_its_controllers_next_turn() -> None:
    state = game()
    state.units[2].conditions = [Condition(name="knocked_down")]  # Bob's Trenchers, on Ann's turn
    notes: list[tuple[str, dict[str, object]]] = []
    state = end_turn(state, dice=S([]), notes=notes)  # Bob's turn begins
    assert state.units[2].conditions == []
    assert ("wm.note.stands_up", {"unit": "Trenchers"}) in notes


# --- a blast takes the direct hit's critical effect (L3947-3950) ----------------------------


def test_L3949_blast_models_take_a_direct_hits_critical_effect() -> None:
    assert wt.wanted_effects(None, "fire", hit=True, critical=False, direct_critical=True) == (
        "fire",
    )
    assert wt.wanted_effects(None, "fire", hit=True, critical=False) == ()


# --- the first player: a d6 each, the highest chooses (L1298-1301; G11 L1355-1362) -----------


def test_G11_rolloff_order_of_choosing() -> None:
    players = ["davide", "simone", "aldo", "giacomo"]
    order, throws = wt.choosing_order(players, S([6, 5, 5, 3, 4, 2]))
    assert order == ["davide", "simone", "aldo", "giacomo"]
    assert throws == [
        [("davide", 6), ("simone", 5), ("aldo", 5), ("giacomo", 3)],
        [("simone", 4), ("aldo", 2)],
    ]
    assert Fraction(1) == 1


# --- worked examples (digest section 6) ------------------------------------------------------


def test_G20_a_retargeted_shot_at_a_stealth_model_beyond_5_inches_misses() -> None:
    """L2993-3040: the missed shot's random new target, Deneghra, has Stealth and is more than
    5" from the Charger: an automatic miss, with no dice rolled and no damage."""
    req = wt.attack_request(
        wt.AttackInput(type="ranged", skill=5, defense=16, pow=12, arm=15, mods="occultato"),
        None,
        WmSettings(),
    )
    res = resolve_attack(req, S([]))
    assert (res.outcome.hit, res.outcome.damage, res.outcome.damage_total) == (False, 0, None)


def test_G29_a_continuous_fire_weapon_sets_fire_on_a_hit() -> None:
    """L3940-3942: the Repenter's Flamethrower (Continuous Effect: Fire) sets fire on any hit,
    even one that does no damage."""
    assert wt.wanted_effects("fire", None, hit=True, critical=False) == ("fire",)
    done = wt.apply_damage(game(), "Lancer", 0, None, ("fire",))
    assert done.changed and [c.name for c in done.state.units[1].conditions] == ["fire"]
