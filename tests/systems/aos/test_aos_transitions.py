"""The state rules of rules_core.systems.aos.transitions and requests, without the bot: each
takes a game state (or units) and the players' input and returns the new state or the numbers
to write. Rulebook lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt."""

from __future__ import annotations

import pytest

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.aos import checks
from rules_core.systems.aos import transitions as aos_tr
from rules_core.systems.aos.models import Settings
from rules_core.systems.aos.requests import AttackInput, build_attack
from rules_core.systems.aos.system import make_weapon, set_weapon

ANN = Player(user_id="a", name="Ann")
BOB = Player(user_id="b", name="Bob")


def game() -> GameState:
    state = GameState(system="aos", name="t", organiser="a", players=[ANN, BOB], order=["a", "b"])
    state = tr.add_unit(state, "Vindictors", ANN, {"models": 5, "wounds": 2, "save": 4})
    state = tr.add_unit(
        state, "Gutrippaz", BOB, {"models": 10, "wounds": 1, "save": 5, "bravery": 5, "ward": 6}
    )
    unit = tr.find_unit(state, "Vindictors")
    # E11 (L941-942): Stormspear 2" 2 attacks 3+/3+ Rend -1 Damage 1.
    weapon = make_weapon(
        "Stormspear",
        {"range": "2", "attacks": "2", "hit": "3", "wound": "3", "rend": "-1", "damage": "1"},
    )
    set_weapon(unit, weapon, weapon.name)
    return state


def test_e11_attack_built_from_stored_units() -> None:
    state = game()
    built = build_attack(
        AttackInput(),
        tr.find_unit(state, "Vindictors"),
        tr.find_unit(state, "Gutrippaz"),
        Settings(),
    )
    req = built.request
    assert (req.attacks.plus, req.hit, req.wound, req.rend, req.damage.plus) == (2, 3, 3, 1, 1)
    assert req.attack_rolls == 5  # one Attacks value per model (L989)
    assert (req.save, req.ward, req.models, req.wounds_per_model) == (5, 6, 10, 1)
    assert built.source == {"attacker": "Vindictors", "weapon": "Stormspear", "target": "Gutrippaz"}


def test_typed_options_override_the_stored_profile() -> None:
    state = game()
    built = build_attack(
        AttackInput(hit="4", save="3", models=3, wounds_per_model=2),
        tr.find_unit(tr.damage(state, "Gutrippaz", 2), "Vindictors"),
        tr.find_unit(tr.damage(state, "Gutrippaz", 2), "Gutrippaz"),
        Settings(),
    )
    req = built.request
    assert (req.hit, req.save, req.models, req.wounds_per_model) == (4, 3, 3, 2)
    assert req.wounds_taken == 0  # a typed unit size is a fresh unit


def test_random_attacks_per_unit_setting() -> None:
    state = game()
    attacker = tr.find_unit(state, "Vindictors")
    per_model = build_attack(AttackInput(attacks="D3"), attacker, None, Settings())
    per_unit = build_attack(
        AttackInput(attacks="D3"), attacker, None, Settings(random_attacks="per_unit")
    )
    assert per_model.request.attack_rolls == 5 and per_unit.request.attack_rolls == 1


def test_weapon_needs_an_attacker_and_missing_values_are_named() -> None:
    with pytest.raises(UserError) as raised:
        build_attack(AttackInput(weapon="Stormspear", attacks="2"), None, None, Settings())
    assert raised.value.key == "aos.weapon_needs_attacker"
    with pytest.raises(UserError) as raised:
        build_attack(AttackInput(attacks="2", hit="3"), None, None, Settings())
    assert raised.value.key == "aos.missing_option" and raised.value.params["option"] == "wound"


def test_live_unit_refuses_a_destroyed_unit() -> None:
    state = tr.damage(game(), "Gutrippaz", 10)
    with pytest.raises(UserError) as raised:
        aos_tr.live(tr.find_unit(state, "Gutrippaz"))
    assert raised.value.key == "aos.unit_destroyed"


def test_own_attack_lets_the_attacking_player_write_wounds() -> None:
    # 12.0 (L445-467): both players fight in every combat phase.
    state = game()
    ours = tr.find_unit(state, "Vindictors")
    assert aos_tr.own_attack(state, ours, "a")
    assert not aos_tr.own_attack(state, ours, "b")
    assert not aos_tr.own_attack(state, None, "a")


def test_r16_r17_wounds_carry_over_and_excess_is_lost() -> None:
    state = tr.add_unit(game(), "Liberators", ANN, {"models": 3, "wounds": 3})
    after = aos_tr.wound(state, "Liberators", 6)  # R16 (L557, L579)
    assert tr.find_unit(after, "Liberators").models_left == 1
    two = tr.add_unit(game(), "Pair", ANN, {"models": 2, "wounds": 3})
    unit = tr.find_unit(aos_tr.wound(two, "Pair", 10), "Pair")  # R17: 4 lost
    assert unit.destroyed and unit.damage == 6


def test_r21_battleshock_flees_no_more_than_are_left() -> None:
    state = tr.damage(game(), "Gutrippaz", 8)  # 2 left
    unit = tr.find_unit(state, "Gutrippaz")
    check = aos_tr.battleshock(5, 8, DiceSource.given([6]), unit=unit)
    assert check.outcome["fled"] == 2
    assert tr.find_unit(aos_tr.flee(state, "Gutrippaz", 2), "Gutrippaz").destroyed


def test_l613_fled_models_are_not_slain_and_the_wounded_one_flees_first() -> None:
    # A code audit: fleeing models were stored as wounds, so a Rally rolled for them and could
    # return them (it rolls for slain models only, L309, L587; a fled model is removed, L613),
    # and the wounded model always stayed (the owner picks who flees).
    state = tr.damage(game(), "Gutrippaz", 2)  # 10 models W1: 2 slain
    fled = aos_tr.flee(state, "Gutrippaz", 3)
    unit = tr.find_unit(fled, "Gutrippaz")
    assert (unit.models_left, aos_tr.slain_models(unit)) == (5, 2)
    healing = aos_tr.rally(unit, 5, DiceSource.given([6] * 5))
    assert healing.check.outcome["returned"] == 2  # never the 3 that fled
    pair = tr.add_unit(game(), "Orruks", ANN, {"models": 5, "wounds": 2})
    hurt = tr.damage(pair, "Orruks", 3)  # 1 slain, 1 wounded
    orruks = tr.find_unit(aos_tr.flee(hurt, "Orruks", 2), "Orruks")
    assert (orruks.models_left, orruks.damage) == (2, 6)  # the wounded one fled: none left hurt


def test_r18_ward_rolls_on_mortal_wounds() -> None:
    unit = tr.find_unit(game(), "Gutrippaz")  # ward 6+
    check = checks.cast(5, DiceSource.given([1, 1, 5]))  # miscast: D3 from a 5 = 3
    assert check.outcome["mortal_wounds"] == 3
    warded = aos_tr.ward_mortal(check, unit, DiceSource.given([6, 2, 6]))
    assert warded.outcome["ward_saved"] == 2 and warded.outcome["damage"] == 1
    assert warded.steps[-1].name == "ward"
    assert aos_tr.ward_mortal(check, None, DiceSource.given([])) is check


def test_r27_rally_returns_only_slain_models() -> None:
    state = tr.damage(game(), "Gutrippaz", 1)  # one slain
    unit = tr.find_unit(state, "Gutrippaz")
    healing = aos_tr.rally(unit, 4, DiceSource.given([6, 2, 6, 5]))
    assert healing.check.outcome["returned"] == 1 and healing.heal == 1


def test_r26_recovery_heals_only_the_wounded_model() -> None:
    state = tr.damage(game(), "Vindictors", 3)  # one slain, one wound on the next
    unit = tr.find_unit(state, "Vindictors")
    healing = aos_tr.recovery(unit, 7, DiceSource.given([1, 2, 6]))  # 3 < 7, D3 = 3
    assert healing.check.outcome["healed"] == 3 and healing.heal == 1


def test_r29_priority_tie_from_deployment() -> None:
    state, index = aos_tr.priority_tie(game(), "b", None)
    assert index == 1 and state.extra["aos"]["deployed_first"] == "b"
    _, named = aos_tr.priority_tie(game(), None, "a")
    assert named == 0
    later = game()
    later.round = 2
    with pytest.raises(UserError) as raised:
        aos_tr.priority_tie(later, "b", None)
    assert raised.value.key == "aos.deployed_round_one"


def test_slain_models_are_the_rally_dice() -> None:
    state = tr.damage(game(), "Gutrippaz", 3)  # 7.2 (L309): a D6 per slain model
    assert aos_tr.slain_models(tr.find_unit(state, "Gutrippaz")) == 3


def test_a_typed_profile_needs_no_stored_weapon() -> None:
    # A walk: Liberators added without weapons, the whole profile typed, and the bot asked
    # "Quale arma di Liberators? Indica arma= tra: -." The typed values are the weapon.
    state = tr.add_unit(game(), "Liberators", ANN, {"models": 5, "wounds": 2, "save": 4})
    liberators = tr.find_unit(state, "Liberators")
    built = build_attack(
        AttackInput(attacks="2", hit="3", wound="3", rend="1", damage="1"),
        liberators,
        tr.find_unit(state, "Gutrippaz"),
        Settings(),
    )
    req = built.request
    assert (req.attacks.plus, req.hit, req.wound, req.rend, req.damage.plus) == (2, 3, 3, 1, 1)
    assert req.attack_rolls == 5  # still one Attacks value per Liberator (L989)
    assert built.source == {"attacker": "Liberators", "target": "Gutrippaz"}
    # without a stored weapon, a value left out is named, not a weapon to pick among none
    with pytest.raises(UserError) as raised:
        build_attack(AttackInput(attacks="2", hit="3"), liberators, None, Settings())
    assert raised.value.key == "aos.missing_option" and raised.value.params["option"] == "wound"


def test_several_weapons_and_a_whole_typed_profile_need_no_choice() -> None:
    state = game()
    vindictors = tr.find_unit(state, "Vindictors")
    second = make_weapon(
        "Shield", {"range": "1", "attacks": "1", "hit": "4", "wound": "4", "damage": "1"}
    )
    set_weapon(vindictors, second, second.name)
    whole = AttackInput(attacks="3", hit="4", wound="4", rend="-", damage="2")
    assert build_attack(whole, vindictors, None, Settings()).request.damage.plus == 2
    # a profile typed in part would take the rest from a weapon: which one is still asked
    with pytest.raises(UserError) as raised:
        build_attack(AttackInput(attacks="3", hit="4", wound="4"), vindictors, None, Settings())
    assert raised.value.key == "aos.pick_weapon"
    assert raised.value.params["valid"] == "Stormspear, Shield"


def test_L401_L467_attacking_models_say_how_many_models_attack() -> None:
    """A code audit: with attacker= every model left attacked; a shooting unit need not shoot
    with all its models (L401), and in combat only the models within range attack (L467).
    attacking_models=N says how many; slain models never attack (they are not left)."""
    state = game()
    vindictors = tr.find_unit(state, "Vindictors")
    built = build_attack(AttackInput(attacking_models=2), vindictors, None, Settings())
    assert built.request.attack_rolls == 2  # 2 models x Attacks 2
    hurt = tr.damage(state, "Vindictors", 4)  # 2 of the 5 slain
    left = tr.find_unit(hurt, "Vindictors")
    assert build_attack(AttackInput(), left, None, Settings()).request.attack_rolls == 3
    with pytest.raises(UserError) as raised:
        build_attack(AttackInput(attacking_models=4), left, None, Settings())
    assert raised.value.key == "aos.attacking_models_left"
    assert raised.value.params == {"unit": "Vindictors", "n": 3}
    typed = AttackInput(attacks="2", hit="3", wound="3", attacking_models=4)
    assert build_attack(typed, None, None, Settings()).request.attack_rolls == 4
