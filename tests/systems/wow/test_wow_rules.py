"""WoW Miniatures: golden cases from the digest's section 6 (rule numbers and transcript lines
cited), exact odds against brute-force enumeration, clocks and victory."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.systems.wow import clock, victory
from rules_core.systems.wow.attack import (
    AttackRequest,
    HealRequest,
    attack_odds,
    crit_chance,
    resolve_attack,
    resolve_heal,
)
from rules_core.systems.wow.pool import pool_distribution, roll_pool


@pytest.mark.parametrize(("face", "success"), [(1, False), (3, False), (4, True), (9, True)])
def test_d1_d1b_faces(face: int, success: bool) -> None:  # D1/D1b, 105.1 (L116-124)
    assert roll_pool(1, 0, DiceSource.given([face])).successes == int(success)


def test_d1c_ten_is_a_success_and_a_crit() -> None:  # D1c, 105.1
    roll = roll_pool(1, 0, DiceSource.given([10]))
    assert roll.successes == 1 and roll.crit


def test_d2_attack_with_a_crit() -> None:  # D2, 601-602
    req = AttackRequest(power=4, defense=2)
    res = resolve_attack(req, DiceSource.given([2, 5, 10, 7, 4, 1]))
    o = res.outcome
    assert (o.hits, o.criticals, o.blocks, o.damage) == (3, 1, 1, 2)


def test_d3_more_blocks_than_hits_is_zero_not_a_heal() -> None:  # D3, 602.1a, 104.2
    res = resolve_attack(AttackRequest(power=1, defense=3), DiceSource.given([5, 4, 6, 8]))
    assert (res.outcome.hits, res.outcome.blocks, res.outcome.damage) == (1, 3, 0)


def test_e2_rerolls_all_at_once_unused_lost() -> None:  # E2, 105.3 (L137)
    roll = roll_pool(3, 3, DiceSource.given([1, 2, 7, 3, 2]))
    assert roll.rerolled == [0, 1] and roll.final == [3, 2, 7] and roll.successes == 1


def test_e3_crit_judged_on_the_final_roll() -> None:  # E3, 105.3b (L150)
    roll = roll_pool(2, 1, DiceSource.given([2, 5, 10]))
    assert roll.crit and roll.final == [10, 5]


def test_crit_damage_adds_hits_before_blocks_once_per_roll() -> None:  # 601.1c, 105.2 (L128)
    req = AttackRequest(power=3, defense=2, crit_damage=2)
    res = resolve_attack(req, DiceSource.given([10, 10, 1, 4, 5]))
    assert res.outcome.criticals == 2
    assert res.outcome.hits == 4  # 2 successes + 2 from the crit, once
    assert res.outcome.damage == 2


def test_d21_defense_crit_is_only_a_block() -> None:  # D21, 601.2b (L951)
    res = resolve_attack(AttackRequest(power=2, defense=1), DiceSource.given([5, 6, 10]))
    assert res.outcome.blocks == 1 and res.outcome.damage == 1 and res.outcome.criticals == 0


def test_elevation_and_cover_each_give_one_reroll() -> None:  # 406.2a/b, 601.1b, 601.2a
    req = AttackRequest(power=2, defense=2, elevation=True, cover=True)
    res = resolve_attack(req, DiceSource.given([1, 2, 9, 3, 1, 8]))
    attack, defense = res.steps[0], res.steps[1]
    assert attack.final == [9, 2] and defense.final == [8, 1]
    assert res.outcome.damage == 0


def test_power_zero_still_resolves() -> None:  # 600.2 (L906)
    res = resolve_attack(AttackRequest(power=0, defense=2), DiceSource.given([4, 4]))
    assert res.outcome.hits == 0 and res.outcome.damage == 0


def test_e6_heal_never_above_max() -> None:  # E6, 402.2 (L494)
    res = resolve_heal(HealRequest(power=3, missing=2), DiceSource.given([5, 6, 7]))
    assert res.outcome.successes == 3 and res.outcome.healed == 2


def test_heal_crit_bonus() -> None:  # 402.2a (L498)
    res = resolve_heal(HealRequest(power=2, crit_heal=1), DiceSource.given([10, 2]))
    assert res.outcome.healed == 2 and res.outcome.critical


def pool_rolls(size: int, rerolls: int) -> Iterator[tuple[list[int], Fraction]]:
    """Every ordered roll of `size` d10 and, for its first `rerolls` failed dice (1-3, rule
    105.1b), every ordered reroll (105.3): the final faces and their probability."""
    for first in itertools.product(range(1, 11), repeat=size):
        failed = [i for i, f in enumerate(first) if f <= 3][:rerolls]
        for again in itertools.product(range(1, 11), repeat=len(failed)):
            final = list(first)
            for i, f in zip(failed, again, strict=True):
                final[i] = f
            yield final, Fraction(1, 10 ** (size + len(failed)))


def brute_force(req: AttackRequest) -> dict[int, Fraction]:
    """The rules written out, independently of the resolver: 4+ succeeds, the 10 (the 0 face)
    is a crit and adds crit damage to the hits once (601.1c), the defence dice block 4+
    (601.2), damage = hits - blocks, never below 0 (602.1)."""
    out: dict[int, Fraction] = {}
    defence = list(pool_rolls(req.defense, req.defense_rerolls))
    for attack, pa in pool_rolls(req.power, req.attack_rerolls):
        hits = sum(f >= 4 for f in attack) + (req.crit_damage if 10 in attack else 0)
        for block, pb in defence:
            damage = max(0, hits - sum(f >= 4 for f in block))
            out[damage] = out.get(damage, Fraction(0)) + pa * pb
    return dict(sorted(out.items()))


@pytest.mark.parametrize(
    "req",
    [
        AttackRequest(power=2, defense=1),
        AttackRequest(power=2, defense=1, crit_damage=1),
        AttackRequest(power=2, defense=1, elevation=True),
        AttackRequest(power=1, defense=2, cover=True, crit_damage=2),
        AttackRequest(power=3, defense=0, reroll_attack=1),
        AttackRequest(power=2, defense=2, reroll_attack=2, reroll_defense=1, crit_damage=1),
    ],
)
def test_odds_match_brute_force(req: AttackRequest) -> None:
    assert attack_odds(req).as_fractions() == brute_force(req)


def test_crit_chance_of_n_dice() -> None:  # digest §2.1: 1 - 0.9^N
    for n in range(1, 7):
        assert crit_chance(AttackRequest(power=n)) == 1 - Fraction(9, 10) ** n


def test_pool_distribution_sums_to_one() -> None:
    dist = pool_distribution(12, 3)
    assert dist.missing == 0 and sum(dist.as_fractions().values()) == 1


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 6),
    st.integers(0, 6),
    st.integers(0, 2),
    st.integers(0, 2),
    st.integers(0, 3),
    st.integers(0, 2**31),
)
def test_seeded_result_lies_in_the_odds_support(
    power: int, defense: int, ra: int, rd: int, crit: int, seed: int
) -> None:
    req = AttackRequest(
        power=power, defense=defense, reroll_attack=ra, reroll_defense=rd, crit_damage=crit
    )
    damage = resolve_attack(req, DiceSource.seeded(seed)).outcome.damage
    assert attack_odds(req).probability(damage) > 0


# --- clocks (408) ---


def test_d5_paying_wraps_past_ten() -> None:  # D5, 408.1c
    assert clock.pay(master=9, personal=9, cost=3) == 2


def test_d6_d6b_nine_ahead_is_legal_ten_is_not() -> None:  # D6/D6b, 408.2a
    assert clock.pay(3, 3, 9) == 2
    with pytest.raises(UserError) as err:
        clock.pay(3, 3, 10)
    assert err.value.key == "wow.too_far_ahead"


def test_d7_react_that_would_lap_is_illegal() -> None:  # D7, 408.2a
    with pytest.raises(UserError) as raised:
        clock.pay(3, 5, 8)
    assert raised.value.key == "wow.too_far_ahead"


def test_d8_forced_tick_up_stops_at_nine_ahead() -> None:  # D8, 408.2a
    assert clock.forced_tick_up(3, 3, 12) == 2


def test_d9_tick_down_stops_at_the_master_clock() -> None:  # D9, 408.2a
    assert clock.tick_down(3, 5, 5) == 3


def test_d10_only_moving_costs_one_tick() -> None:  # D10, 501.3b
    assert clock.end_of_turn(4, 4) == 5
    assert clock.end_of_turn(4, 6) == 6
    assert clock.end_of_turn(10, 10) == 1


def test_d15_respawn_moves_the_clock_two() -> None:  # D15, 403.2b
    assert clock.respawn_clock(master=4, personal=6) == 8


def test_d17_d17b_the_player_left_of_the_active_one_chooses() -> None:  # D17/D17b, 500.3c
    a1 = clock.Character(name="A1", owner="A", clock=2)
    b1 = clock.Character(name="B1", owner="B", clock=2)
    a2 = clock.Character(name="A2", owner="A", clock=2)
    assert clock.ready(2, [a1, b1]) == [a1, b1]
    assert clock.chooser([a1, b1], ["A", "B"], last_active="A") == "B"
    assert clock.chooser([a1, b1], ["A", "B"], last_active="B") == "A"
    assert clock.chooser([a1, a2], ["A", "B"], last_active="A") == "A"
    assert clock.chooser([a1, b1], ["A", "B"], last_active=None) == "A"  # 101.4


# --- victory (102, 403.2c) ---


def test_d13_kill_points() -> None:  # D13
    assert [victory.kill_vp(False, False), victory.kill_vp(True, False)] == [4, 8]
    assert victory.kill_vp(True, True) == 0


def test_d14_d14b_d14c_tie_breakers() -> None:  # D14, D14b, D14c: 102.1-102.2
    a = victory.Standing(player="A", vp=22, honor=20)
    b = victory.Standing(player="B", vp=21, honor=18)
    assert victory.winner([a, b]) == "B"
    a2 = victory.Standing(player="A", vp=22, honor=20)
    b2 = victory.Standing(player="B", vp=20, honor=18)
    assert victory.winner([a2, b2]) == "A"
    a3 = victory.Standing(player="A", vp=20, honor=18)
    b3 = victory.Standing(player="B", vp=20, honor=18)
    assert victory.winner([a3, b3]) is None
    assert victory.winner([victory.Standing(player="A", vp=3, honor=18)]) is None
