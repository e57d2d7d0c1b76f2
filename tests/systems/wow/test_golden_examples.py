"""Digest section 6 examples not covered elsewhere, each named with its id (rule numbers of
the Italian comprehensive rules cited)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.wow import system as wow
from rules_core.systems.wow import transitions as wt
from rules_core.systems.wow.attack import (
    AttackRequest,
    attack_odds,
    resolve_against,
    resolve_attack,
)
from rules_core.systems.wow.settings import WowSettings

ANN = Player(user_id="A", name="Ann")
BOB = Player(user_id="B", name="Bob")


def game() -> GameState:
    state = GameState(system="wow", name="t", organiser="A", players=[ANN, BOB], order=["A", "B"])
    state = tr.add_unit(state, "Hunter", ANN, {"health": 6})
    return tr.add_unit(state, "Paladin", BOB, {"health": 7, "armor": 3, "resist": 1})


def test_E9_an_attack_made_magical_is_defended_with_resist() -> None:
    """600.1c (E9): Arcane Shot turns the Hunter's physical attack magical, so the Paladin
    rolls Resist (1 die), not Armor (3). The React-legality half (Blessing of Protection,
    Counterspell) needs card texts the bot doesn't model."""
    paladin = tr.find_unit(game(), "Paladin")
    req = wt.attack_request(power=4, defense=None, kind="magical", crit=None, target=paladin)
    assert (req.type, req.defense) == ("magical", 1)
    res = resolve_attack(req, DiceSource.given([5, 6, 2, 1, 4]))
    assert res.steps[-2].name == "defense" and res.steps[-2].outcome == "magical"
    assert res.outcome.damage == 1


def test_E11_crit_effects_still_apply_to_a_destroyed_defender() -> None:
    """602.2 (E11): other crit effects resolve after damage, even when it destroyed the
    defender: "add a tick to the defender" still moves its clock (Battleground keeps a
    destroyed character's clock, 403.3)."""
    req = AttackRequest(power=3, defense=0, crit_effect=True)
    res = resolve_attack(req, DiceSource.given([10, 9, 9]))
    assert [s.name for s in res.steps][-2:] == ["damage", "crit_effect"]
    state = wow.with_settings(game(), WowSettings(battleground="yes"), replace=True)
    state = wt.apply_result(state, WowSettings(), "Paladin", 7, heal=False, actor="Hunter").state
    assert tr.find_unit(state, "Paladin").destroyed
    before = wow.clocks_of(state).personal["paladin"]
    assert wt.force_clock(state, "Paladin", 1).after == before + 1


def test_D18_a_buff_played_again_replaces_the_old_one() -> None:
    """301.2b (D18): buff X on a figure that already has X: only one X remains."""
    state = tr.add_condition(game(), "Paladin", "Devotion Aura", None)
    state = tr.add_condition(state, "Paladin", "devotion aura", None)
    assert [c.name for c in tr.find_unit(state, "Paladin").conditions] == ["devotion aura"]


def test_D20_three_crit_faces_trigger_a_crit_ability_once() -> None:
    """105.2 (D20): however many crits show, each crit ability triggers once."""
    req = AttackRequest(power=4, defense=0, crit_damage=2, crit_effect=True)
    res = resolve_attack(req, DiceSource.given([10, 10, 10, 1]))
    assert res.outcome.criticals == 3
    assert res.outcome.hits == 3 + 2  # three successes, +2 once
    assert [s.name for s in res.steps].count("crit_effect") == 1


def test_E10_cleave_from_elevation_one_roll_one_reroll_each_target_defends() -> None:
    """601.1b (E10): one attack roll for both targets, the elevation reroll taken once (not
    per target), then each target defends separately with its own dice."""
    req = AttackRequest(power=3, elevation=True)
    # attack 2, 5, 1 -> one reroll (the 2) -> 9; Armor 2 of the first: 4, 1; of the second: 1
    res = resolve_against(req, [2, 1], DiceSource.given([2, 5, 1, 9, 4, 1, 1]))
    attack = res.steps[0]
    assert attack.rerolled == [0] and attack.final == [9, 5, 1]
    assert [(o.hits, o.blocks, o.damage) for o in res.outcomes] == [(2, 1, 1), (2, 0, 2)]
    assert [s.name for s in res.steps].count("attack") == 1


def test_a_shared_roll_applies_to_every_target_and_refuses_one_twice() -> None:
    """407.1b: no target twice; 403.2c: each kill scores."""
    state = tr.add_unit(game(), "Mage", BOB, {"health": 2})
    done = wt.apply_results(
        state, WowSettings(), [("Paladin", 7), ("Mage", 1)], heal=False, actor="Hunter"
    )
    assert tr.find_unit(done.state, "Paladin").destroyed
    assert tr.find_unit(done.state, "Mage").wounds_left == 1
    assert done.state.score() == {"A": 4, "B": 0}
    with pytest.raises(UserError) as err:
        wt.apply_results(state, WowSettings(), [("Mage", 1), ("mage", 1)], heal=False)
    assert err.value.key == "wow.target_twice"


def test_shared_roll_odds_per_target_match_brute_force() -> None:
    """Each target's damage from one shared roll, enumerated over every face sequence, is
    the single attack's exact distribution against that target's dice (the marginal)."""
    req = AttackRequest(power=1, elevation=True, crit_damage=1)
    counts: list[Counter[int]] = [Counter(), Counter()]
    for faces in itertools.product(range(1, 11), repeat=4):
        res = resolve_against(req, [1, 1], DiceSource.given(list(faces)))
        for i, outcome in enumerate(res.outcomes):
            counts[i][outcome.damage] += 1
    single = attack_odds(req.model_copy(update={"defense": 1}))
    for count in counts:
        total = sum(count.values())
        assert {k: Fraction(v, total) for k, v in count.items()} == {
            k: single.chance(lambda x, k=k: x == k) for k in count
        }
