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
