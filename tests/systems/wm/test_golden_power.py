"""Warjack power attacks (digest §3.8, L2198-2686): golden cases from the book and exact odds
checked against an enumeration of every die face."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.systems.wm.power import PowerRequest, power_odds, resolve_power

S = DiceSource.given


def req(**kw: object) -> PowerRequest:
    return PowerRequest.model_validate({"skill": 7, "defense": 12, "str_": 11, "arm": 18, **kw})


def test_G16_slam_into_a_wall_adds_a_die_and_can_be_boosted() -> None:
    """L2425-2455: the Juggernaut slams the Crusader, which hits a wall: 3d6 + STR, boostable
    to 4d6 + STR; the slam roll is d6 inches and the Crusader is knocked down."""
    steps, out = resolve_power(req(kind="slam", contact=True), S([5, 4, 6, 2, 3, 4]))
    assert out.hit and out.moved and out.knocked_down and out.distance == 6
    assert steps[-1].dice == [2, 3, 4] and out.damage_total == 9 + 11
    _, boosted = resolve_power(
        req(kind="slam", contact=True, boost="damage"), S([5, 4, 6, 2, 3, 4, 1])
    )
    assert boosted.damage_total == 10 + 11


def test_L2366_slam_a_larger_base_minus_2_and_half_distance() -> None:
    steps, out = resolve_power(req(kind="slam", larger_base=True), S([5, 2, 5, 1, 1]))
    assert steps[0].total == 12 and out.hit and out.distance == 2.5


def test_L2369_a_slam_after_less_than_3_inches_only_damages() -> None:
    _, out = resolve_power(req(kind="slam", short_move=True), S([5, 4, 3, 3]))
    assert out.hit and not out.moved and not out.knocked_down and out.damage_total == 17


def test_L2322_headbutt_knocks_down_never_a_larger_base() -> None:
    _, out = resolve_power(req(kind="headbutt"), S([6, 1, 3, 3]))
    assert out.knocked_down and out.damage == 3 + 3 + 11 - 18 + 1
    with pytest.raises(UserError) as raised:
        resolve_power(req(kind="headbutt", larger_base=True), S([]))
    assert raised.value.key == "wm.power_larger_base"


def test_L2349_push_hits_automatically_ties_favour_the_pusher() -> None:
    _, out = resolve_power(req(kind="push", target_str=12), S([4, 3]))  # 4 + 11 = 3 + 12
    assert out.hit and out.moved and out.distance == 1 and out.damage_total is None
    _, resisted = resolve_power(req(kind="push", target_str=12), S([3, 3]))
    assert not resisted.moved


def test_L2493_throw_half_str_and_the_double_hand_throw_rolls_2d6() -> None:
    _, out = resolve_power(req(kind="throw", target_str=10), S([5, 4, 2, 3, 4, 4]))
    assert out.moved and out.distance == 5.5 and out.damage_total == 8 + 11
    _, broke = resolve_power(req(kind="throw", target_str=10), S([5, 4, 1, 6]))
    assert not broke.moved and broke.damage_total is None  # broke free: no damage
    _, double = resolve_power(req(kind="double_throw", target_str=10), S([5, 4, 3, 3, 6, 2, 2]))
    assert double.moved and double.damage_total == 4 + 11  # 3 + 3 + 11 = 17 >= 6 + 10
    _, held = resolve_power(req(kind="double_throw", target_str=10), S([5, 4, 1, 1, 6]))
    assert not held.moved  # 1 + 1 + 11 = 13 < 16: the target breaks free


def test_L2214_no_power_attack_on_a_charge() -> None:
    with pytest.raises(UserError) as raised:
        resolve_power(req(kind="slam", charge=True), S([]))
    assert raised.value.key == "wm.power_no_charge"


def brute(r: PowerRequest, dice: int) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    """Every sequence of `dice` faces through the resolver (unused faces ignored)."""
    dist: dict[int, Fraction] = {}
    p_hit = p_moved = Fraction(0)
    weight = Fraction(1, 6**dice)
    for faces in product(range(1, 7), repeat=dice):
        _, out = resolve_power(r, S(list(faces)))
        dist[out.damage] = dist.get(out.damage, Fraction(0)) + weight
        p_hit += weight if out.hit else 0
        p_moved += weight if out.moved else 0
    return dist, p_hit, p_moved


@pytest.mark.parametrize(
    ("kw", "dice"),
    [
        ({"kind": "headbutt", "arm": 14}, 4),
        ({"kind": "slam", "contact": True, "arm": 15}, 6),
        ({"kind": "push", "target_str": 10}, 2),
        ({"kind": "throw", "target_str": 12, "arm": 14}, 6),
        ({"kind": "headlock", "defense": 13}, 2),
    ],
)
def test_power_odds_match_an_enumeration(kw: dict[str, object], dice: int) -> None:
    r = req(**kw)
    dist, p_hit, p_moved = brute(r, dice)
    odds = power_odds(r)
    assert odds.p_hit == p_hit and odds.p_moved == p_moved
    assert {v: odds.distribution.probability(v) for v in dist} == dist


def test_L2201_who_may_make_which_power_attack() -> None:
    """L2201-2211: trample only for heavy warjacks and colossals (a light warjack has a 40 mm
    base, a heavy one 50 mm, L444-446); headlock and throw need an Open Fist not crippled, a
    double-hand throw two; trample reaches small bases only (L2651-2654)."""
    refusals = [
        (req(kind="trample", attacker_base=40), "wm.power_trample_light"),
        (req(kind="trample", attacker_base=50, target_base=40), "wm.power_trample_small"),
        (req(kind="headlock", open_fists=0), "wm.power_fists"),
        (req(kind="throw", open_fists=0), "wm.power_fists"),
        (req(kind="double_throw", open_fists=1), "wm.power_fists"),
        (req(kind="headbutt", collateral_arms=(13,)), "wm.power_collateral"),
        (req(kind="slam", trampled=((13, 13),)), "wm.power_trampled"),
        # Both bases known: the larger one is read from them (no larger_base flag needed).
        (req(kind="throw", attacker_base=40, target_base=50), "wm.power_larger_base"),
    ]
    for r, key in refusals:
        with pytest.raises(UserError) as raised:
            resolve_power(r, S([6] * 8))
        assert raised.value.key == key
    _, out = resolve_power(req(kind="trample", attacker_base=50, target_base=30), S([6, 1, 1, 1]))
    assert out.hit
    _, out = resolve_power(req(kind="throw", open_fists=1, target_str=10), S([6, 1, 6, 1, 1, 1]))
    assert out.moved
    steps, out = resolve_power(
        req(kind="slam", attacker_base=40, target_base=50), S([6, 4, 5, 1, 1])
    )
    assert steps[0].total == 6 + 4 + 7 - 2 and out.distance == 2.5  # L2366-2368


def test_G16_collateral_damage_is_its_own_roll() -> None:
    """G16, L2400-2414: the Temple Flameguard the slammed Crusader passes through is knocked
    down and takes its own damage roll, 2d6 + the Juggernaut's STR, never boosted, after the
    slam's damage roll (boosted here)."""
    steps, out = resolve_power(
        req(kind="slam", contact=True, boost="damage", collateral_arms=(13,)),
        S([5, 4, 6, 2, 3, 4, 1, 6, 5]),
    )
    assert [s.name for s in steps] == ["attack", "slam_distance", "damage", "collateral"]
    assert out.damage_total == 10 + 11  # 4d6 + STR: boosted, and the wall's extra die
    assert steps[-1].dice == [6, 5] and steps[-1].total == 22 and out.collateral == [9]
    _, missed = resolve_power(req(kind="slam", collateral_arms=(13,)), S([1, 2]))
    assert missed.collateral == []  # no slam, no collateral
    odds = power_odds(req(kind="slam", collateral_arms=(13, 20)))
    over = {a: Fraction(sum(1 for x, y in product(range(1, 7), repeat=2) if x + y + 11 > a), 36)
            for a in (13, 20)}  # fmt: skip
    assert odds.p_collateral == (odds.p_moved * over[13], odds.p_moved * over[20])


def test_L2665_trample_rolls_against_each_model_contacted() -> None:
    """L2665-2669: after its move the trampler makes a melee attack roll against each small-based
    model it contacted; each one hit takes 2d6 + STR (boostable). Dice: the target's attack
    and damage, then each further model's."""
    r = req(kind="trample", arm=13, trampled=((12, 13), (14, 15)))
    steps, out = resolve_power(r, S([4, 4, 3, 3, 1, 3, 5, 6, 6, 6]))
    assert [s.name for s in steps] == ["attack", "damage", "attack", "attack", "damage"]
    assert out.hit and out.damage == 3 + 3 + 11 - 13 and not out.knocked_down
    assert [(t.hit, t.damage) for t in out.trampled] == [(False, 0), (True, 6 + 6 + 11 - 15)]
    odds = power_odds(r)
    assert odds.total is not None
    parts = []
    for defense, arm in ((12, 13), (12, 13), (14, 15)):
        single = req(kind="trample", defense=defense, arm=arm)
        dist, p_hit, _ = brute(single, 4)
        parts.append(dist)
        if (defense, arm) == (14, 15):
            assert odds.p_trampled[-1] == p_hit
    summed: dict[int, Fraction] = {0: Fraction(1)}
    for dist in parts:  # independent rolls: the total is their convolution
        nxt: dict[int, Fraction] = {}
        for a, pa in summed.items():
            for b, pb in dist.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + pa * pb
        summed = nxt
    assert {v: odds.total.probability(v) for v in summed} == summed


def test_L3440_a_knocked_down_model_is_slammed_where_it_lies() -> None:
    """A code audit: slam and push on a knocked-down model were refused, a head-butt on one was
    rolled. It can't be locked or moved by a slam (L3440-3441), but slam damage still applies
    (L2391-2394) and a melee attack on it hits automatically (L3437, L2194)."""
    steps, out = resolve_power(req(kind="slam", knocked_down=True), S([4, 5]))
    assert (out.hit, out.moved, out.damage_total) == (True, False, 4 + 5 + 11)
    assert [s.name for s in steps] == ["damage"]  # no attack roll, no slam distance
    _, butt = resolve_power(req(kind="headbutt", knocked_down=True), S([1, 1]))
    assert butt.hit and butt.damage_total == 1 + 1 + 11
    assert power_odds(req(kind="headbutt", knocked_down=True)).p_hit == 1
    with pytest.raises(UserError) as raised:
        resolve_power(req(kind="headlock", knocked_down=True), S([6, 6]))
    assert raised.value.key == "wm.power_knocked_down"


def test_L3531_a_stationary_model_is_hit_automatically() -> None:
    _, out = resolve_power(req(kind="headbutt", stationary=True), S([1, 1]))
    assert out.hit and out.damage_total == 13


def test_L2504_a_large_base_throws_a_small_one_an_inch_farther() -> None:
    _, out = resolve_power(
        req(kind="throw", attacker_base=50, target_base=30, target_str=1), S([6, 6, 6, 1, 1, 1])
    )
    assert out.moved and out.distance == 11 / 2 + 1
    _, same = resolve_power(
        req(kind="throw", attacker_base=50, target_base=40, target_str=1), S([6, 6, 6, 1, 1, 1])
    )
    assert same.distance == 11 / 2
