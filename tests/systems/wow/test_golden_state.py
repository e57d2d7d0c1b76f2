"""WoW Miniatures state rules from issue 23, each checked against the Italian rulebook
(comprehensive rules numbers cited; digest section 6 ids in the test names where the case is
one of its examples)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player, ScoreEntry
from rules_core.systems.base import Note
from rules_core.systems.wow import pool
from rules_core.systems.wow import system as wow
from rules_core.systems.wow import transitions as wt
from rules_core.systems.wow.attack import AttackRequest, attack_odds, resolve_heal
from rules_core.systems.wow.settings import WowSettings

ANN = Player(user_id="A", name="Ann")
BOB = Player(user_id="B", name="Bob")


def game(**settings: str) -> GameState:
    state = GameState(system="wow", name="t", organiser="A", players=[ANN, BOB], order=["A", "B"])
    state = wow.with_settings(state, WowSettings.model_validate(settings), replace=True)
    state = tr.add_unit(state, "Jaina", ANN, {"health": 8, "honor": 10})
    return tr.add_unit(state, "Thrall", BOB, {"health": 6, "honor": 10})


def at_master(state: GameState, master: int, **personal: int) -> GameState:
    clocks = wow.clocks_of(state)
    clocks.master = master
    clocks.personal.update(personal)
    return wow.with_clocks(state, clocks)


# --- 402: heal, Health increase and decrease ---------------------------------------------------


def test_E6_heal_reports_the_health_actually_restored() -> None:
    """402.2 (E6): Health 8 takes 2, a heal of 3 restores 2 (capped at Max Health), not 3."""
    state = tr.damage(game(), "Jaina", 2)
    jaina = tr.find_unit(state, "Jaina")
    req = wt.heal_request(power=3, rerolls=0, crit=None, card=None, target=jaina)
    res = resolve_heal(req, DiceSource.given([5, 6, 7]))
    assert res.outcome.successes == 3 and res.outcome.healed == 2
    done = wt.apply_result(state, WowSettings(), "Jaina", res.outcome.healed, heal=True)
    assert tr.find_unit(done.state, "Jaina").wounds_left == 8


def test_D4_health_decrease_lowers_current_and_max_and_is_not_damage() -> None:
    """402.3a/c (D4): printed 6 at full, Health -2: current 4, Max 4, not damaged; a heal
    can't go above 4."""
    done = wt.change_health(game(), "Thrall", -2)
    thrall = tr.find_unit(done.state, "Thrall")
    assert (thrall.wounds_left, thrall.max_wounds, thrall.damage) == (4, 4, 0)
    healed = wt.restore_health(tr.damage(done.state, "Thrall", 1), "Thrall", 5)
    assert tr.find_unit(healed, "Thrall").wounds_left == 4


def test_D4b_health_increase_raises_current_and_max() -> None:
    """402.3b/c (D4b): Health 3 of 6, Health +2: current 5, Max 8."""
    state = tr.damage(game(), "Thrall", 3)
    thrall = tr.find_unit(wt.change_health(state, "Thrall", 2).state, "Thrall")
    assert (thrall.wounds_left, thrall.max_wounds) == (5, 8)


def test_destruction_by_a_health_decrease_scores_the_kill() -> None:
    """402.3a + 403.2c: a decrease to 0 destroys the character, which scores 4 VP."""
    state = tr.damage(game(), "Thrall", 4)  # 2 of 6 left
    done = wt.change_health(state, "Thrall", -2)
    assert tr.find_unit(done.state, "Thrall").destroyed
    assert done.state.score() == {"A": 4, "B": 0}
    assert ("wow.kill_vp", {"unit": "Thrall", "vp": 4, "player": "Ann"}) in done.notes


def test_a_decrease_below_zero_keeps_the_unit_valid() -> None:
    done = wt.change_health(game(), "Thrall", -20)
    thrall = tr.find_unit(done.state, "Thrall")
    assert thrall.destroyed and thrall.models_left == 0


def test_respawn_restores_the_printed_health() -> None:
    """403.2b: a respawning character's Health goes back to the printed value, undoing any
    402.3 decrease it had."""
    state = wt.change_health(game(battleground="yes"), "Thrall", -2).state
    state = tr.damage(state, "Thrall", 4)
    assert tr.find_unit(state, "Thrall").destroyed
    state = at_master(state, wow.clocks_of(state).personal["thrall"])
    state = wow.act(state, tr.find_unit(state, "Thrall"), 1, [])
    thrall = tr.find_unit(state, "Thrall")
    assert (thrall.wounds_left, thrall.max_wounds) == (6, 6)


# --- 403.1: respawn is the default --------------------------------------------------------------


def test_battleground_respawn_is_the_default_and_permanent_death_a_setting() -> None:
    """403.1: a destroyed character respawns before its next turn unless the scenario says
    otherwise; `battleground=no` is that other scenario."""
    assert WowSettings().battleground == "yes"
    dead = tr.damage(game(), "Thrall", 6)
    assert wow.clocks_of(dead).respawn == ["thrall"]
    final = tr.damage(game(battleground="no"), "Thrall", 6)
    assert wow.clocks_of(final).respawn == []


# --- 407.1a: targets ----------------------------------------------------------------------------


def test_attacks_cannot_target_allies_and_heals_cannot_target_enemies() -> None:
    """407.1a: attacks and debuffs can't target allies; buffs and heals can't target enemies."""
    state = tr.add_unit(game(), "Anduin", ANN, {"health": 6})
    jaina, anduin, thrall = (tr.find_unit(state, n) for n in ("Jaina", "Anduin", "Thrall"))
    wt.check_target(state, jaina, thrall, heal=False)
    wt.check_target(state, anduin, jaina, heal=True)
    with pytest.raises(UserError) as err:
        wt.check_target(state, jaina, anduin, heal=False)
    assert err.value.key == "wow.target_ally"
    with pytest.raises(UserError) as err:
        wt.check_target(state, anduin, thrall, heal=True)
    assert err.value.key == "wow.target_enemy"
    with pytest.raises(UserError) as err:
        wt.apply_result(state, WowSettings(), "Anduin", 2, heal=False, actor="Jaina")
    assert err.value.key == "wow.target_ally"


def test_teammates_are_allies() -> None:
    """407.1a with sides: a teammate's character is an ally."""
    state = game()
    state.players[1] = Player(user_id="B", name="Bob", side="Horde")
    state.players[0] = Player(user_id="A", name="Ann", side="Horde")
    with pytest.raises(UserError) as err:
        wt.check_target(
            state, tr.find_unit(state, "Jaina"), tr.find_unit(state, "Thrall"), heal=False
        )
    assert err.value.key == "wow.target_ally"


# --- 408 and 304: the clocks and pets -----------------------------------------------------------


def test_a_character_added_mid_game_joins_at_the_master_clock() -> None:
    """408: every Personal Clock is 0-9 ahead of the Master Clock; a newcomer starts level
    with it, not at 1 (which would be 6 ahead at MC 5)."""
    state = at_master(game(), 5, jaina=5, thrall=7)
    state = tr.add_unit(state, "Rexxar", ANN, {"health": 7})
    assert wow.clocks_of(state).personal["rexxar"] == 5


def test_E12_a_pet_summoned_in_its_masters_turn_takes_the_masters_clock() -> None:
    """304.2 (E12, 700.2b): Call Fury costs 3; Fury's clock equals its master's after paying."""
    state = at_master(game(), 3, jaina=3, thrall=4)
    state = wow.start(state, tr.find_unit(state, "Jaina"), [])  # Jaina's turn begins
    wow.pay(state, tr.find_unit(state, "Jaina"), 3, [])  # Call Fury's cost: PC 6
    state = tr.add_unit(state, "Fury", ANN, {"health": 2, "pet": 1})
    assert wow.clocks_of(state).personal["fury"] == 6
    assert wow.master_of(state, tr.find_unit(state, "Fury")) == "jaina"


def test_linking_a_pet_sets_its_clock_and_replaces_the_players_old_pet() -> None:
    """304.1: a player with a Pet who summons another loses the old one; 304.2: the new
    Pet's clock is its master's."""
    state = at_master(game(), 3, jaina=5, thrall=3)
    state = tr.add_unit(state, "Wolf", ANN, {"health": 2, "pet": 1})
    state = wt.link_pet(state, "Wolf", "Jaina").state
    assert wow.clocks_of(state).personal["wolf"] == 5
    state = tr.add_unit(state, "Imp", ANN, {"health": 2, "pet": 1})
    done = wt.link_pet(state, "Imp", "Jaina")
    assert [u.name for u in done.state.units] == ["Jaina", "Thrall", "Imp"]
    assert ("wow.pet_replaced", {"pet": "Wolf", "new": "Imp"}) in done.notes
    with pytest.raises(UserError) as err:
        wt.link_pet(done.state, "Thrall", "Jaina")
    assert err.value.key == "wow.not_a_pet"


def test_one_pet_per_master_is_a_setting() -> None:
    """304.1's "that player" (digest 8.2 reads it as per character): `pet_limit=master`."""
    state = tr.add_unit(game(pet_limit="master"), "Rexxar", ANN, {"health": 7})
    state = tr.add_unit(state, "Wolf", ANN, {"health": 2, "pet": 1})
    state = wt.link_pet(state, "Wolf", "Jaina").state
    state = tr.add_unit(state, "Imp", ANN, {"health": 2, "pet": 1})
    state = wt.link_pet(state, "Imp", "Rexxar").state
    assert {u.name for u in state.units} == {"Jaina", "Thrall", "Rexxar", "Wolf", "Imp"}


def test_a_pet_leaves_play_when_its_master_is_destroyed() -> None:
    """304.2, 403.2a: the master's Pets are removed from play (not destroyed: no VP)."""
    state = tr.add_unit(game(), "Wolf", ANN, {"health": 2, "pet": 1})
    state = wt.link_pet(state, "Wolf", "Jaina").state
    notes: list[Note] = []
    state = tr.damage(state, "Jaina", 8, notes=notes)
    assert "Wolf" not in [u.name for u in state.units]
    assert "wolf" not in wow.clocks_of(state).personal
    assert ("wow.pet_removed", {"pet": "Wolf", "unit": "Jaina"}) in notes
    assert state.score() == {"A": 0, "B": 4}


def test_set_clock_corrects_a_figure() -> None:
    state = at_master(game(), 4, jaina=4, thrall=4)
    done = wt.set_clock(state, "Thrall", 9)
    assert (done.before, done.after) == (4, 9)
    assert wow.clocks_of(done.state).personal["thrall"] == 9


def test_D8_forced_tick_up_by_twelve_stops_nine_ahead() -> None:
    """408.2a (D8): MC 3, PC 3, "tick up 12": exactly 9 ahead, PC 2."""
    done = wt.force_clock(at_master(game(), 3, thrall=3), "Thrall", 12)
    assert done.after == 2


def test_D9_forced_tick_down_stops_at_the_master_clock() -> None:
    """408.2a (D9): MC 3, PC 5, "tick down 5": PC 3."""
    done = wt.force_clock(at_master(game(), 3, thrall=5), "Thrall", -5)
    assert done.after == 3


# --- 502.1 and 102.1: VP locations and the win -------------------------------------------------


def test_D12_vp_locations_score_for_non_pets_at_the_end_of_tick_five() -> None:
    """502.1 (D12), 304.2: two non-Pet figures by a VP location score 2 VP; the Pet none."""
    state = tr.add_unit(game(), "Rexxar", ANN, {"health": 7})
    state = tr.add_unit(state, "Wolf", ANN, {"health": 2, "pet": 1})
    state = at_master(state, 5, jaina=6, thrall=6, rexxar=6, wolf=6)
    done = wt.end_tick(state, ["Jaina", "Rexxar", "Wolf"])
    assert done.state.score() == {"A": 2, "B": 0}
    assert ("wow.vp_pet", {"unit": "Wolf"}) in done.notes
    assert done.report.ended == 5 and wow.clocks_of(done.state).master == 6


def test_vp_locations_only_score_at_the_end_of_ticks_five_and_ten() -> None:
    state = at_master(game(), 4, jaina=5, thrall=5)
    with pytest.raises(UserError) as err:
        wt.end_tick(state, ["Jaina"])
    assert err.value.key == "wow.vp_not_now"


def test_the_vp_location_win_is_announced() -> None:
    """102.1: reaching the party's Honor total with location VP wins, and the tick says so."""
    state = tr.add_unit(game(), "Rexxar", ANN, {"health": 7, "honor": 0})
    state = at_master(state, 10, jaina=1, thrall=1, rexxar=1)
    state.score_log.append(ScoreEntry(user_id="A", points=9, reason="kills"))
    done = wt.end_tick(state, ["Jaina"])
    assert done.state.score()["A"] == 10
    assert done.notes[-1] == ("wow.win_reached", {"player": "Ann", "vp": 10, "honor": 10})


# --- 301.2c: effects that last until the end of a tick ----------------------------------------


def test_an_effect_until_the_end_of_tick_ten_goes_then_and_not_before() -> None:
    """301.2c: "at the end of tick 10 remove this buff" - it stays through ticks 8 and 9 and
    goes when tick 10 ends; an effect without a duration stays."""
    state = at_master(game(), 8, jaina=11 - 1, thrall=10)
    state = wt.add_effect(state, "Thrall", "Bloodlust", 10).state
    state = wt.add_effect(state, "Thrall", "Stealth", None).state
    for _ in (8, 9):
        state = wt.end_tick(state).state
        assert [c.name for c in tr.find_unit(state, "Thrall").conditions] == [
            "Bloodlust",
            "Stealth",
        ]
    state = wow.moved(state, tr.find_unit(state, "Jaina"))
    state = wow.moved(state, tr.find_unit(state, "Thrall"))
    done = wt.end_tick(state)
    assert [c.name for c in tr.find_unit(done.state, "Thrall").conditions] == ["Stealth"]
    assert ("wow.effect_expired", {"unit": "Thrall", "effect": "Bloodlust"}) in done.notes


def test_an_effect_played_again_replaces_the_old_one_and_its_duration() -> None:
    """301.2b (D18): the same buff again replaces the old one, with the new duration."""
    state = wt.add_effect(game(), "Thrall", "Bloodlust", 5).state
    state = wt.add_effect(state, "Thrall", "bloodlust", None).state
    thrall = tr.find_unit(state, "Thrall")
    assert [c.name for c in thrall.conditions] == ["bloodlust"]
    assert wt.effect_ends(thrall) == {}


# --- 105.3: rerolls that take successes --------------------------------------------------------


def test_forced_rerolls_take_successes_with_the_chosen_ones_at_once() -> None:
    """105.3: some effects force successes to be rerolled; forced and chosen rerolls happen
    together and a rerolled die is never rerolled again. By default the roller keeps its
    crits (plain successes go first); `forced_reroll=crits` takes crits first."""
    roll = pool.roll_pool(4, 1, DiceSource.given([2, 10, 6, 1, 9, 3]), forced=1)
    assert roll.rerolled == [0, 2] and roll.final == [9, 10, 3, 1]
    crits = pool.roll_pool(3, 0, DiceSource.given([10, 6, 1, 4]), forced=1, crits_first=True)
    assert crits.rerolled == [0] and crits.final == [4, 6, 1] and not crits.crit


@pytest.mark.parametrize(("rerolls", "forced", "crits_first"), [(1, 1, False), (0, 2, True)])
def test_forced_reroll_odds_match_brute_force(rerolls: int, forced: int, crits_first: bool) -> None:
    """The exact (successes, crit) distribution with forced rerolls against every face
    sequence of 2 dice rolled twice."""
    counts: Counter[tuple[int, bool]] = Counter()
    for faces in itertools.product(range(1, 11), repeat=4):
        roll = pool.roll_pool(2, rerolls, DiceSource.given(list(faces)), forced, crits_first)
        counts[(roll.successes, roll.crit)] += 1
    dist = pool.forced_pool_distribution(2, rerolls, forced, crits_first)
    assert {k: Fraction(v, 10**4) for k, v in counts.items()} == {
        k: dist.chance(lambda x, k=k: x == k) for k in counts
    }


def test_forced_defence_rerolls_reach_the_attack_odds() -> None:
    req = AttackRequest(power=2, defense=2, force_reroll_defense=1)
    assert attack_odds(req) != attack_odds(AttackRequest(power=2, defense=2))
    assert sum(attack_odds(req).probabilities.values()) == pytest.approx(1)
