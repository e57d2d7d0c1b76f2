"""The combat phase's fights in rules_core, without the bot (rules_core.systems.aos.fights):
who fought, whose pick is next, a second fight refused, and the commands the book times by the
pick of a unit or the start of a phase. Lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt."""

from __future__ import annotations

import pytest

from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player, Unit
from rules_core.systems.aos import fights, turns
from rules_core.systems.aos import transitions as aos_tr

ANN = Player(user_id="a", name="Ann")
BOB = Player(user_id="b", name="Bob")


def game(phase: str = "combat") -> GameState:
    state = GameState(system="aos", name="t", organiser="a", players=[ANN, BOB], order=["a", "b"])
    for name, owner in (("Vindictors", ANN), ("Liberators", ANN), ("Gutrippaz", BOB)):
        state = tr.add_unit(state, name, owner, {"models": 5, "wounds": 2, "save": 4})
    state.phase = turns.PHASES.index(phase)
    return state


def unit(state: GameState, name: str) -> Unit:
    return tr.find_unit(state, name)


def strike(state: GameState, attacker: str, target: str, weapon: str = "Sword") -> GameState:
    shot = aos_tr.Shot(unit=attacker, weapon=weapon, models=5, target=target)
    return aos_tr.attack_wounds(state, target, 1, attacker, shot)


def test_L447_L455_the_active_player_picks_first_then_the_pick_alternates() -> None:
    state = game()
    first = fights.next_pick(state)
    assert first is not None and first.player == "a"  # the player whose turn it is (L447)
    state = strike(state, "Vindictors", "Gutrippaz")
    assert fights.fought(state) == ["vindictors"]
    pick = fights.next_pick(state)
    assert pick is not None and pick.player == "b" and pick.waiting == ["Gutrippaz"]
    state = strike(state, "Gutrippaz", "Vindictors")
    pick = fights.next_pick(state)
    assert pick is not None and pick.player == "a" and pick.waiting == ["Liberators"]


def test_L459_a_side_with_no_unit_left_passes_and_both_passing_ends_the_phase() -> None:
    state = fights.record_fight(game(), unit(game(), "Gutrippaz"))
    pick = fights.next_pick(state)  # Bob fought; Ann has two units that haven't
    assert pick is not None and pick.player == "a" and pick.passes is None
    state = fights.record_fight(state, unit(state, "Vindictors"))
    pick = fights.next_pick(state)  # Bob's only unit fought: he passes, Ann picks again
    assert pick is not None and pick.player == "a" and pick.passes == "b"
    state = fights.record_fight(state, unit(state, "Liberators"))
    over = fights.next_pick(state)
    assert over is not None and over.player is None  # both pass: the phase ends


def test_L451_a_unit_that_fought_is_refused_a_second_fight() -> None:
    state = strike(game(), "Vindictors", "Gutrippaz")
    state = strike(state, "Vindictors", "Gutrippaz", weapon="Shield")  # the same fight
    state = strike(state, "Gutrippaz", "Vindictors")
    with pytest.raises(UserError) as err:
        strike(state, "Vindictors", "Gutrippaz", weapon="Axe")
    assert err.value.key == "aos.already_fought"
    with pytest.raises(UserError) as err:
        fights.record_fight(state, unit(state, "Vindictors"))
    assert err.value.key == "aos.already_fought"


def test_L467_each_model_attacks_once_with_each_weapon_in_a_fight() -> None:
    state = strike(game(), "Vindictors", "Gutrippaz")
    with pytest.raises(UserError) as err:
        strike(state, "Vindictors", "Gutrippaz")
    assert err.value.key == "aos.already_fought_weapon"


def test_L195_an_ability_lets_a_unit_fight_again_but_never_a_third_time() -> None:
    state = strike(game(), "Vindictors", "Gutrippaz")
    with pytest.raises(UserError) as err:
        fights.record_fight(game(), unit(game(), "Vindictors"), again=True)
    assert err.value.key == "aos.again_first_fight"
    state = fights.record_fight(state, unit(state, "Vindictors"), again=True)
    state = strike(state, "Vindictors", "Gutrippaz")  # its weapons again, in the new fight
    assert fights.fights_of(state, "Vindictors") == 2
    with pytest.raises(UserError) as err:
        fights.record_fight(state, unit(state, "Vindictors"), again=True)
    assert err.value.key == "aos.fought_twice"


def test_fights_are_the_combat_phases_and_reset_when_the_phase_moves_on() -> None:
    with pytest.raises(UserError) as err:
        fights.record_fight(game("shooting"), unit(game(), "Vindictors"))
    assert err.value.key == "aos.fight_not_combat"
    assert fights.next_pick(game("shooting")) is None
    state = strike(game(), "Vindictors", "Gutrippaz")
    later = tr.next_phase(state)  # battleshock
    assert fights.fought(later) == []
    again = state.clone()
    again.turn += 1  # the other player's combat phase
    assert fights.fought(again) == []
    pick = fights.next_pick(again)
    assert pick is not None and pick.player == "b"


def test_L567_all_out_attack_after_the_units_fight_is_refused() -> None:
    state = strike(game(), "Vindictors", "Gutrippaz")
    state.resources["player:a"] = {"cp": 2}
    ability = turns.find_command("all_out_attack")
    with pytest.raises(UserError) as err:
        turns.use_command(state, "a", ability, "Vindictors")
    assert err.value.key == "aos.command_after_fight"
    assert err.value.params["unit"] == "Vindictors"
    # Picked with /aos fight and no attack made yet: the command comes with the pick.
    picked = fights.record_fight(state, unit(state, "Liberators"))
    new, left = turns.use_command(picked, "a", ability, "Liberators")
    assert left == 1 and turns.phase_effects(new, "Liberators") == ["all_out_attack"]


def test_L309_L177_rally_comes_at_the_start_of_the_hero_phase() -> None:
    state = game("hero")
    state.resources["player:b"] = {"cp": 1}
    rally = turns.find_command("rally")
    new, _ = turns.use_command(state, "b", rally, "Gutrippaz")  # nothing else yet: accepted
    assert turns.aos_state(new).received == {"gutrippaz": "rally"}
    cast = aos_tr.attack_wounds(state, "Gutrippaz", 2, None)  # a spell's wounds, written
    with pytest.raises(UserError) as err:
        turns.use_command(cast, "b", rally, "Gutrippaz")
    assert err.value.key == "aos.command_not_at_start"
    assert err.value.params["phase"] == "hero"
    moved_on = tr.next_phase(tr.next_phase(cast))  # a later phase: wrong phase, as before
    with pytest.raises(UserError) as err:
        turns.use_command(moved_on, "b", rally, "Gutrippaz")
    assert err.value.key == "aos.wrong_phase"


def test_L625_inspiring_presence_comes_before_any_test_of_the_battleshock_phase() -> None:
    state = game("battleshock")
    state.resources["player:b"] = {"cp": 1}
    fled = aos_tr.flee(state, "Gutrippaz", 2)
    presence = turns.find_command("inspiring_presence")
    with pytest.raises(UserError) as err:
        turns.use_command(fled, "b", presence, "Gutrippaz")
    assert err.value.key == "aos.command_not_at_start"
    new, _ = turns.use_command(state, "b", presence, "Gutrippaz")
    assert turns.phase_effects(new, "Gutrippaz") == ["inspiring_presence"]


def test_L315_L335_a_unit_that_ran_or_retreated_neither_runs_again_nor_gets_at_the_double() -> None:
    """8.0 (L315): a unit is picked once per movement phase to move, run or retreat; At the
    Double (8.4, L335) is used as its run is declared, instead of the run roll. The bot let a
    unit that had run (its roll applied) or retreated receive it, and run again."""
    state = game("movement")
    state.resources["player:a"] = {"cp": 2}
    ran = aos_tr.run(state, "Vindictors")
    with pytest.raises(UserError) as err:
        aos_tr.run(ran, "Vindictors")
    assert err.value.key == "aos.already_ran"
    double = turns.find_command("at_the_double")
    with pytest.raises(UserError) as err:
        turns.use_command(ran, "a", double, "Vindictors")
    assert err.value.key == "aos.already_ran"
    retreated = state.clone()
    turns.mark(retreated, "Liberators", turns.RETREATED)
    with pytest.raises(UserError) as err:
        turns.use_command(retreated, "a", double, "Liberators")
    assert err.value.key == "aos.already_retreated"
    doubled, left = turns.use_command(state, "a", double, "Vindictors")
    assert left == 1
    with pytest.raises(UserError) as err:  # no run roll after At the Double (L335)
        aos_tr.run(doubled, "Vindictors")
    assert err.value.key == "aos.already_ran"


def test_E2_L493_strike_first_and_strike_last_order_the_fights() -> None:
    """12.4-12.5 (L469-483), example E2 (L493): the player whose turn it is has A and B
    striking first and C striking last, the opponent D striking first and E and F with
    neither: they fight A, D, B, E, F, C."""
    state = GameState(system="aos", name="t", organiser="a", players=[ANN, BOB], order=["a", "b"])
    for name, owner, strike in (
        ("A", ANN, "strikes_first"),
        ("B", ANN, "strikes_first"),
        ("C", ANN, "strikes_last"),
        ("D", BOB, "strikes_first"),
        ("E", BOB, None),
        ("F", BOB, None),
    ):
        state = tr.add_unit(state, name, owner, {"models": 1, "wounds": 1})
        if strike is not None:
            state = tr.add_condition(state, name, strike, None)
    state.phase = turns.PHASES.index("combat")
    order: list[str] = []
    while (pick := fights.next_pick(state)) is not None and pick.player is not None:
        name = pick.waiting[0]
        order.append(name)
        state = fights.record_fight(state, unit(state, name))
        if name == "B":  # Ann has C only, striking last: Bob picks E, then F
            after = fights.next_pick(state)
            assert after is not None and after.passes == "a" and after.later
    assert order == ["A", "D", "B", "E", "F", "C"]


def test_L475_strike_first_and_strike_last_on_one_unit_cancel_out() -> None:
    state = tr.add_condition(game(), "Gutrippaz", "attacca per primo", None)
    pick = fights.next_pick(state)
    assert pick is not None and pick.player == "b" and pick.group == fights.STRIKE_FIRST
    assert pick.passes == "a" and pick.later  # Ann's units fight after it
    both = tr.add_condition(state, "Gutrippaz", "strikes_last", None)
    pick = fights.next_pick(both)
    assert pick is not None and pick.player == "a" and pick.group == fights.NORMAL


def test_L283_a_heroic_action_at_the_start_of_the_hero_phase_once_per_player() -> None:
    """7.0-7.1 (L281-283): at the start of the hero phase each player may carry out 1 heroic
    action. Heroic Recovery's heal was applied in any phase and as often as it was typed."""
    state = game("hero")
    turns.may_heroic(state, "a")
    done = turns.record_heroic(state, "a")
    with pytest.raises(UserError) as err:
        turns.may_heroic(done, "a")
    assert err.value.key == "aos.heroic_done"
    turns.may_heroic(done, "b")  # the other player has their own
    late = aos_tr.attack_wounds(state, "Gutrippaz", 1, None)  # a spell's wounds, written
    with pytest.raises(UserError) as err:
        turns.may_heroic(late, "a")
    assert err.value.key == "aos.heroic_not_at_start"
    with pytest.raises(UserError) as err:
        turns.may_heroic(game("combat"), "a")
    assert err.value.key == "aos.heroic_not_hero_phase"
    next_turn = done.clone()
    next_turn.turn += 1  # the next hero phase: a new heroic action
    turns.may_heroic(next_turn, "a")


def test_L609_L625_a_unit_takes_one_battleshock_test_and_inspiring_presence_comes_first() -> None:
    """15.0-15.1 (L609-613): a unit takes its battleshock test once in the phase; Inspiring
    Presence (15.3, L625) is used at the start of the phase, before any test. A test passed
    with no model fleeing left no trace, so both went unchecked."""
    state = game("battleshock")
    state.resources["player:b"] = {"cp": 1}
    tested = turns.record_battleshock(state, "Gutrippaz")  # passed: nobody flees
    with pytest.raises(UserError) as err:
        turns.may_battleshock(tested, "Gutrippaz")
    assert err.value.key == "aos.battleshock_done"
    turns.may_battleshock(tested, "Vindictors")
    presence = turns.find_command("inspiring_presence")
    with pytest.raises(UserError) as err:
        turns.use_command(tested, "b", presence, "Gutrippaz")
    assert err.value.key == "aos.command_not_at_start"
    next_turn = tested.clone()
    next_turn.turn += 1
    turns.may_battleshock(next_turn, "Gutrippaz")  # the next battleshock phase
