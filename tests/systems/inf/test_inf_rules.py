"""Infinity rules core: golden cases from the digest's section 6 (rulebook lines cited as
L123 = ../shared/seeds/003_27b81155ce3a4b9f.txt line 123), exact odds against brute-force
enumeration of every die face, and properties of seeded resolutions."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import Unit
from rules_core.systems.inf import orders, tables
from rules_core.systems.inf.attack import half_up, resolve_attack
from rules_core.systems.inf.models import AMMO, AttackRequest, InfSettings, Side
from rules_core.systems.inf.odds import attack_odds, roll_odds
from rules_core.systems.inf.rolls import (
    evaluate,
    failure_margin,
    ftf_distribution,
    resolve_ftf,
    resolve_roll,
)

S = InfSettings()


def given_dice(*faces: int) -> DiceSource:
    return DiceSource.given(list(faces))


# --- dice basics ------------------------------------------------------------------------------


def test_g01_critical_on_the_modified_attribute() -> None:  # L380-382
    _, out = resolve_roll(10, -3, 1, given_dice(7))
    assert (out.target, out.successes, out.criticals) == (7, 1, 1)
    _, out = resolve_roll(10, -3, 1, given_dice(8))
    assert (out.successes, out.criticals) == (0, 0)


def test_g02_targets_above_20_widen_the_critical() -> None:  # L386-390
    assert evaluate(19, 19).critical and evaluate(20, 20).critical
    assert [evaluate(f, 22).critical for f in (17, 18, 19, 20)] == [False, True, True, True]
    assert evaluate(17, 22).success and evaluate(17, 22).value == 19
    assert all(evaluate(f, 22).success for f in range(1, 21))


def test_g03_failure_margin() -> None:  # L393-394
    assert failure_margin(16, 14) == 2
    steps, _ = resolve_roll(14, 0, 1, given_dice(16))
    assert steps[0].detail["cf"] == 2


def test_g04_automatic_failure_rolls_no_dice() -> None:  # L397-398
    source = given_dice()
    steps, out = resolve_roll(11, -12, 3, source)
    assert (out.target, out.successes) == (-1, 0)
    assert steps[0].outcome == "auto_fail" and source.consumed == []


def test_g05_normal_roll_in_cover() -> None:  # L407-409
    _, out = resolve_roll(12, -3, 1, given_dice(9))
    assert (out.target, out.successes) == (9, 1)


# --- face to face -----------------------------------------------------------------------------


def test_g06_dodge_wins_with_the_higher_success() -> None:  # L445-453
    _, out, _, _ = resolve_ftf(11, 0, 1, 10, 0, 1, given_dice(3, 8))
    assert (out.active_hits, out.reactive_hits) == (0, 1)


def test_g07_split_burst_against_two_zhanshi() -> None:  # L454-469
    # Silva (target 12) 2 dice on Wen Liu: [16 miss, 6]; WL rolls 8 -> WL wins, Silva saves once
    req = AttackRequest(
        active=Side(attr=12, burst=2, dam=13, arm=1),
        target=Side(attr=11, dam=13, arm=1),
    )
    _, out = resolve_attack(req, given_dice(16, 6, 8, 20), S)
    assert (out.active_hits, out.reactive_hits, out.active_wounds) == (0, 1, 0)
    # 2 dice on Jang Qi: [11, 10]; JQ rolls 3 -> JQ makes 2 ARM rolls
    _, out = resolve_attack(req, given_dice(11, 10, 3, 1, 1), S)
    assert (out.active_hits, out.reactive_hits, out.target_wounds) == (2, 0, 2)


def test_g09_burst_against_a_single_aro_die() -> None:  # L872-885
    # Wen Liu BS 11 at 15 cm (MOD 0) [7, 15 miss] vs Estevez 12+3: rolls 13 -> Estevez hits
    _, out, _, _ = resolve_ftf(11, 0, 2, 12, 3, 1, given_dice(7, 15, 13))
    assert (out.active_hits, out.reactive_hits) == (0, 1)
    # [9, 5] vs Angus dodging with PH 10: rolls 4 -> two hits, two ARM rolls
    _, out, _, _ = resolve_ftf(11, 0, 2, 10, 0, 1, given_dice(9, 5, 4))
    assert (out.active_hits, out.reactive_hits) == (2, 0)


def test_g10_total_reaction_best_against_best() -> None:  # L2663-2674
    # Yaokong HMG B4 target 14 [2, 14c, 13, 20]; Angus B3 target 15 [3, 17, 12]
    req = AttackRequest(
        active=Side(attr=11, mod=3, burst=4, dam=13),
        target=Side(attr=12, mod=3, burst=3, arm=1, w=1),
    )
    steps, out = resolve_attack(req, given_dice(2, 14, 13, 20, 3, 17, 12, 15), S)
    assert (out.active_hits, out.active_criticals, out.reactive_hits) == (2, 1, 0)
    # 1 direct wound (the critical) + 1 ARM roll for the 13
    names = [s.name for s in steps[2:]]
    assert names == ["critical", "arm_save"]
    assert out.target_wounds == 1  # the 15 + 1 beats Damage 13


def test_tie_goes_to_the_higher_modified_attribute() -> None:  # L427-431
    _, out, _, _ = resolve_ftf(12, 0, 1, 10, 0, 1, given_dice(8, 8))
    assert (out.active_hits, out.reactive_hits) == (1, 0)
    _, out, _, _ = resolve_ftf(10, 0, 1, 10, 2, 1, given_dice(8, 8))
    assert (out.active_hits, out.reactive_hits) == (0, 1)
    _, out, _, _ = resolve_ftf(10, 0, 1, 10, 0, 1, given_dice(8, 8))  # equal: both fail
    assert (out.active_hits, out.reactive_hits) == (0, 0)


def test_critical_beats_a_higher_success_and_higher_critical_wins() -> None:  # L422-426
    _, out, _, _ = resolve_ftf(5, 0, 1, 15, 0, 1, given_dice(5, 14))
    assert (out.active_hits, out.active_criticals) == (1, 1)
    _, out, _, _ = resolve_ftf(5, 0, 1, 15, 0, 1, given_dice(5, 15))
    assert (out.active_hits, out.reactive_hits, out.reactive_criticals) == (0, 1, 1)


# --- damage and ammunition --------------------------------------------------------------------


def one_hit(ammo: str, dam: int, target: Side, *faces: int, **kw: str) -> object:
    req = AttackRequest(
        active=Side(attr=15, burst=1, dam=dam, ammo=ammo), target=target, opposed=False
    )
    settings_ = InfSettings.model_validate(kw) if kw else S
    _, out = resolve_attack(req, given_dice(*faces), settings_)
    return out


def test_g22_arm_roll_must_exceed_the_damage() -> None:  # L1338-1341
    out = one_hit("N", 13, Side(attr=0, arm=1), 5, 13)
    assert out.target_wounds == 0  # type: ignore[attr-defined]
    out = one_hit("N", 13, Side(attr=0, arm=1), 5, 12)
    assert out.target_wounds == 1  # type: ignore[attr-defined]


def test_g24_two_failed_rolls_kill_a_one_wound_model() -> None:  # L2682-2684, L1390-1393
    out = one_hit("DA", 13, Side(attr=0, arm=1, w=1), 5, 2, 3)
    assert (out.target_wounds, out.target_state) == (2, "dead")  # type: ignore[attr-defined]
    out = one_hit("DA", 13, Side(attr=0, arm=1, w=1), 5, 2, 18)
    assert (out.target_wounds, out.target_state) == (1, "unconscious")  # type: ignore[attr-defined]


def test_saves_per_ammunition() -> None:  # digest §3.7, other computable rules
    arm0 = Side(attr=0, arm=0, w=3)
    cases = {"N": 1, "AP": 1, "DA": 2, "EXP": 3, "AP+DA": 2, "AP+EXP": 3, "PLASMA": 2}
    for ammo, saves in cases.items():
        source = given_dice(1, *([20] * saves))
        req = AttackRequest(active=Side(attr=15, dam=13, ammo=ammo), target=arm0, opposed=False)
        steps, _ = resolve_attack(req, source, S)
        assert len(steps) - 1 == saves, ammo
    # criticals: DA = wound + 1 roll (L2918-2920), EXP = wound + 2 rolls (L3030-3032)
    for ammo, rolls in (("DA", 1), ("EXP", 2), ("N", 0), ("PLASMA", 1)):
        req = AttackRequest(active=Side(attr=15, dam=13, ammo=ammo), target=arm0, opposed=False)
        steps, out = resolve_attack(req, given_dice(15, *([20] * rolls)), S)
        assert next(s.name for s in steps[1:]) == "critical"
        assert len(steps) - 2 == rolls and out.target_wounds == 1, ammo


def test_ap_halves_arm_rounding_up_not_the_cover() -> None:  # L2905-2910
    assert half_up(5, False) == 3 and half_up(1, False) == 1 and half_up(0, False) == 0
    assert half_up(0, True) == 1
    req = AttackRequest(
        active=Side(attr=15, dam=13, ammo="AP"),
        target=Side(attr=0, arm=5, cover=True),
        opposed=False,
    )
    steps, _ = resolve_attack(req, given_dice(1, 7), S)
    assert steps[1].total == 7 + 3 + 3  # ARM 5 -> 3, cover +3 kept
    assert steps[0].target == 12  # the shooter's -3 for cover


def test_shock_kills_one_wound_models_only() -> None:  # L3114-3120
    out = one_hit("SHOCK", 13, Side(attr=0, arm=1, w=1), 5, 2)
    assert out.target_state == "dead"  # type: ignore[attr-defined]
    out = one_hit("SHOCK", 13, Side(attr=0, arm=1, w=2), 5, 2)
    assert out.target_state == "ok"  # type: ignore[attr-defined]
    out = one_hit("SHOCK", 13, Side(attr=0, arm=1, w=1, structure=True), 5, 2)
    assert out.target_state == "unconscious"  # type: ignore[attr-defined]
    out = one_hit("SHOCK", 13, Side(attr=0, arm=1, w=1), 15)  # a critical
    assert out.target_state == "dead"  # type: ignore[attr-defined]
    out = one_hit("SHOCK", 13, Side(attr=0, arm=1, w=1), 15, shock_crit_kills="no")
    assert out.target_state == "unconscious"  # type: ignore[attr-defined]


def test_fire_burns_until_a_save_or_death() -> None:  # L3047-3050
    out = one_hit("FIRE", 13, Side(attr=0, arm=0, w=2), 5, 2, 3, 20)
    assert (out.target_wounds, out.target_state) == (2, "unconscious")  # type: ignore[attr-defined]
    out = one_hit("FIRE", 13, Side(attr=0, arm=0, w=1), 5, 2, 3)  # dead after 2: stops
    assert (out.target_wounds, out.target_state) == (2, "dead")  # type: ignore[attr-defined]


def test_mono_em_nano_adh() -> None:
    # L3056-3060 Monofilament: ARM 0 against 12, a failure kills whatever the W
    out = one_hit("MONO", 12, Side(attr=0, arm=8, w=3), 5, 12)
    assert out.target_state == "dead"  # type: ignore[attr-defined]
    out = one_hit("MONO", 12, Side(attr=0, arm=8, w=3), 5, 13)
    assert out.target_state == "ok"  # type: ignore[attr-defined]
    # L2921-2931 E/M: BTS roll, failure disables (HI: immobilised), no wound, Guts for humans
    out = one_hit("EM", 13, Side(attr=0, bts=3), 5, 2)
    assert (out.target_wounds, out.target_disabled, out.guts_roll) == (0, True, True)  # type: ignore[attr-defined]
    out = one_hit("EM", 13, Side(attr=0, bts=3, heavy=True), 5, 2)
    assert (out.target_immobilized, out.guts_roll) == (True, False)  # type: ignore[attr-defined]
    # L3066-3071 Nanotech: BTS roll, failure is a wound
    out = one_hit("NANO", 13, Side(attr=0, arm=9, bts=6), 5, 7)
    assert out.target_wounds == 1  # type: ignore[attr-defined]
    # L2894-2897 ADH: PH-6, failure immobilises and no Guts roll
    out = one_hit("ADH", 0, Side(attr=0, ph=10), 5, 5)
    assert (out.target_immobilized, out.guts_roll) == (True, False)  # type: ignore[attr-defined]
    out = one_hit("ADH", 0, Side(attr=0, ph=10), 5, 4)
    assert (out.target_immobilized, out.guts_roll) == (False, True)  # type: ignore[attr-defined]
    with pytest.raises(UserError) as raised:
        one_hit("ADH", 0, Side(attr=0), 5, 4)
    assert raised.value.key == "inf.adh_needs_ph"


# --- the full combat example L1485-1570 -------------------------------------------------------


def test_combat_example_c1_to_c3() -> None:
    # C1: Angus (in cover) shoots back at 30 cm: 12+3 = 15, B3 [16, 19, 7]; Wen Liu 11+3-3 = 11
    # rolls 9 -> WL wins, Angus takes 1 hit. C2: DAM 13 vs ARM 1 + cover 3, rolls 17 -> saved.
    req = AttackRequest(
        active=Side(attr=12, mod=3, burst=3, dam=13, arm=1, cover=True),
        target=Side(attr=11, mod=3, dam=13, arm=1),
    )
    steps, out = resolve_attack(req, given_dice(16, 19, 7, 9, 17), S)
    assert steps[1].target == 11 and steps[0].target == 15
    assert (out.active_hits, out.reactive_hits, out.active_wounds) == (0, 1, 0)
    assert steps[2].total == 17 + 1 + 3 and steps[2].outcome == "pass"
    assert out.active_guts_roll  # C3: Guts roll or fall back 5 cm
    # d20 >= 10 saves (C2; the book's "more than 10" is off by one, digest §8.2)
    _, out = resolve_attack(req, given_dice(16, 19, 7, 9, 10), S)
    assert out.active_wounds == 0
    _, out = resolve_attack(req, given_dice(16, 19, 7, 9, 9), S)
    assert out.active_wounds == 1


def test_combat_example_c5_to_c11() -> None:
    # C5: Shenru from TO, Normal roll 14+3 = 17, B3 [18, 20, 18]: all miss
    _, roll = resolve_roll(14, 3, 3, given_dice(18, 20, 18))
    assert roll.successes == 0
    # C6: Angus 12+3-6 = 9 rolls 8: hit; C7: Shenru DAM 13 vs ARM 5 rolls 17: saved, Guts due
    out2 = one_hit("N", 13, Side(attr=0, arm=5), 8, 17)
    assert out2.target_wounds == 0 and out2.guts_roll  # type: ignore[attr-defined]
    # C8: the charge: Shenru CC 16 vs Angus BS 9; Angus 8, Shenru 10 -> Shenru wins
    # C9: Angus saves DAM 14 vs ARM 1 with a 16; no Guts in CC
    req = AttackRequest(
        active=Side(attr=16, dam=14, ammo="SHOCK"), target=Side(attr=9, arm=1), cc=True
    )
    _, out = resolve_attack(req, given_dice(10, 8, 16), S)
    assert (out.active_hits, out.target_wounds, out.guts_roll) == (1, 0, False)
    # C10-C11: CC 13 rolls 12 vs Shenru CC 16 rolls 14: Shenru hits, Angus gets the Defence
    # Bonus: 14 - 1 - 3 -> needs more than 10, rolls 2: fails; Shock -> Dead
    req = AttackRequest(
        active=Side(attr=16, dam=14, ammo="SHOCK"), target=Side(attr=13, arm=1), cc=True
    )
    steps, out = resolve_attack(req, given_dice(14, 12, 2), S)
    assert [m.name for m in steps[2].modifiers] == ["arm", "defence_bonus"]
    assert steps[2].total == 2 + 1 + 3
    assert (out.target_wounds, out.target_state) == (1, "dead")


# --- orders, retreat, initiative, weapons -----------------------------------------------------


def unit(name: str, **stats: int) -> Unit:
    w = stats.setdefault("w", 1)
    damage = stats.pop("damage", 0)
    return Unit(
        name=name, owner="u", owner_name="u", stats=stats, wounds_per_model=w + 1, damage=damage
    )


def test_g11_orders_by_combat_group() -> None:  # L532-545
    army = [unit(f"M{i}", lt=int(i == 0), group=1 if i < 10 else 2) for i in range(12)]
    pool = orders.count_pool(army, retreat_rule="ge")
    assert pool.groups == {1: 10, 2: 2} and pool.lieutenant == 1
    pool = orders.count_pool(army[:7], retreat_rule="ge")
    assert pool.groups == {1: 7}


def test_unconscious_irregular_and_loss_of_lieutenant() -> None:  # L1388, L1795, L1460
    army = [unit("LT", lt=1), unit("A", damage=1), unit("B", irr=1), unit("C")]
    pool = orders.count_pool(army, retreat_rule="ge")
    assert pool.groups == {1: 2} and pool.irregular == {"B": 1} and pool.lieutenant == 1
    army[0] = unit("LT", lt=1, damage=1)
    pool = orders.count_pool(army, retreat_rule="ge")
    assert pool.loss_of_lieutenant and pool.groups == {1: 2} and pool.irregular == {}


def test_retreat_threshold_setting() -> None:  # L1452-1453 vs L3977-3978, L2601
    assert orders.in_retreat(180, 300, morat=False, rule="ge")
    assert not orders.in_retreat(180, 300, morat=False, rule="gt")
    assert not orders.in_retreat(200, 300, morat=True, rule="ge")
    assert orders.in_retreat(225, 300, morat=True, rule="ge")
    army = [unit("LT", lt=1, pts=40), unit("A", pts=60, damage=2)]
    assert orders.count_pool(army, retreat_rule="ge").retreat
    assert orders.count_pool(army, retreat_rule="ge").lieutenant == 0  # L1456-1457


def test_initiative_examples() -> None:
    # I-2 (L777-802): PanO WIP 12 rolls 7, Yu Jing WIP 13 rolls 11 -> Yu Jing wins
    _, out = orders.resolve_initiative(12, 0, 13, 0, given_dice(7, 11), "ftf")
    assert out.winner == "opponent"
    # I-1 (L754-766): 7 vs 18 with WIP 12 each: the sum method gives Fabio, the F2F rule Marco
    _, out = orders.resolve_initiative(12, 0, 12, 0, given_dice(7, 18), "sum")
    assert out.winner == "opponent"
    _, out = orders.resolve_initiative(12, 0, 12, 0, given_dice(7, 18), "ftf")
    assert out.winner == "player"


def test_rifle_bands_and_coordinated_burst() -> None:  # L2859-2865, L1300-1301
    rifle = tables.RIFLE
    assert [tables.range_mod(rifle, d) for d in (0, 20, 21, 35, 40, 50, 70, 120)] == [
        0,
        0,
        3,
        3,
        3,
        -3,
        -6,
        -6,
    ]
    with pytest.raises(UserError) as raised:
        tables.range_mod(rifle, 121)
    assert raised.value.key == "inf.out_of_range"
    assert [tables.coordinated_burst(b) for b in (1, 3, 4, 5)] == [1, 2, 2, 3]
    hmg = tables.make_weapon("HMG", "20:0,40:+3,60:-3,120:-6", 15, 4, "N")
    assert tables.range_mod(hmg, 15) == 0  # L874
    for bad in ("", "20", "40:0,20:3", "20:+13", "x:y"):
        with pytest.raises(UserError) as raised:
            tables.parse_bands(bad)
        assert raised.value.key == ("inf.bands_order" if bad == "40:0,20:3" else "inf.bad_bands")


# --- exact odds against brute force -----------------------------------------------------------


def enumerate_attack(
    req: AttackRequest, settings_: InfSettings
) -> dict[str, dict[object, Fraction]]:
    """Every sequence of die faces the resolution can consume, each with its probability:
    grow the given faces one die at a time until the resolution completes."""
    # Sequences counted per length (each has probability 20^-length), summed as fractions once
    # at the end: the same sums, without a Fraction addition per sequence.
    counts: dict[tuple[str, object, int], int] = {}

    def add(name: str, value: object, length: int) -> None:
        key = (name, value, length)
        counts[key] = counts.get(key, 0) + 1

    stack: list[list[int]] = [[]]
    while stack:
        prefix = stack.pop()
        try:
            _, res = resolve_attack(req, DiceSource.given(prefix), settings_)
        except UserError as err:
            assert err.key.startswith("dice.not_enough")
            stack.extend([*prefix, f] for f in range(1, 21))
            continue
        add("wounds", res.target_wounds, len(prefix))
        add("hit", res.active_hits > 0, len(prefix))
        add("dead", res.target_state == "dead", len(prefix))
        add("back", res.reactive_hits > 0, len(prefix))
    out: dict[str, dict[object, Fraction]] = {"wounds": {}, "hit": {}, "dead": {}, "back": {}}
    for (name, value, length), count in counts.items():
        out[name][value] = out[name].get(value, Fraction(0)) + Fraction(count, 20**length)
    return out


CASES: list[tuple[str, Callable[[], AttackRequest], InfSettings]] = [
    (
        "ftf-DA",
        lambda: AttackRequest(
            active=Side(attr=13, burst=1, dam=13, ammo="DA"), target=Side(attr=11, arm=2, w=1)
        ),
        S,
    ),
    (
        "normal-fire",
        lambda: AttackRequest(
            active=Side(attr=21, burst=1, dam=14, ammo="FIRE"),
            target=Side(attr=0, arm=3, w=2),
            opposed=False,
        ),
        S,
    ),
    (
        "cc-shock-back",
        lambda: AttackRequest(
            active=Side(attr=14, dam=12, ammo="SHOCK", arm=1),
            target=Side(attr=13, dam=13, arm=1),
            cc=True,
        ),
        S,
    ),
    (
        "normal-plasma",
        lambda: AttackRequest(
            active=Side(attr=12, dam=14, ammo="PLASMA"),
            target=Side(attr=0, bts=3, arm=4, w=2, cover=True),
            opposed=False,
        ),
        S,
    ),
    (
        "normal-burst2-range",
        lambda: AttackRequest(
            active=Side(attr=13, burst=2, dam=13, range=-3),
            target=Side(attr=0, arm=2, w=1, cover=True),
            opposed=False,
        ),
        S,
    ),
]


@pytest.mark.parametrize(("name", "make", "settings_"), CASES, ids=[c[0] for c in CASES])
def test_attack_odds_match_enumeration(
    name: str, make: Callable[[], AttackRequest], settings_: InfSettings
) -> None:
    req = make()
    brute = enumerate_attack(req, settings_)
    odds = attack_odds(req, settings_)
    assert odds.target.wounds.as_fractions() == brute["wounds"]
    assert odds.target.p_hit == brute["hit"].get(True, 0)
    assert odds.target.p_dead == brute["dead"].get(True, 0)
    assert odds.active.p_hit == brute["back"].get(True, 0)


FTF_CASES = [
    (12, 2, 15, 1),
    (22, 2, 9, 2),
    (0, 2, 11, 2),
    (10, 1, None, 1),
    (14, 3, 14, 1),
    (12, 1, 12, 2),  # equal attributes: a tie cancels both
    (23, 2, 21, 1),  # both above 20: criticals from 20 up
    (9, 2, 0, 1),  # the reactive side cannot succeed
]


def d20(face: int, target: int) -> tuple[bool, bool, int]:
    """One die written out from the rulebook for the oracle, apart from `rolls.evaluate`:
    (success, critical, compared value). A face up to the target succeeds, equal to it is a
    critical (L362-382); above 20 the excess is added and the value capped at 20, criticals
    from 20 up (L383-390)."""
    if target <= 20:
        return face <= target, face == target, face
    value = face + target - 20
    return True, value >= 20, min(value, 20)


Rolled = tuple[bool, bool, int]  # success, critical, compared value


def oracle_hits(
    side: list[Rolled], target: int, other: list[Rolled], other_target: int
) -> list[bool]:
    """Whether each die of `side` that hits is a critical: a success hits when it beats the
    other side's best success (or there is none)."""
    best = max(((c, v) for ok, c, v in other if ok), default=None)
    out = []
    for ok, crit, value in side:
        if not ok:
            continue
        if (
            best is None
            or (crit, value) > best
            or ((crit, value) == best and target > other_target)
        ):
            out.append(crit)
    return out


def ftf_oracle(a: int, b: int, r: int | None, rb: int) -> dict[tuple[str, int, int], Fraction]:
    """Every roll of both bursts judged as L414-431 and L2653-2674 say: a critical beats a
    normal success, then the higher value; a tie goes to the higher modified attribute, else
    neither; every success that beats the other side's best success hits. A target of 0 or
    less rolls no dice (L395-398); `r` None: nobody opposes."""
    dice_a = b if a > 0 else 0
    dice_r = rb if r is not None and r > 0 else 0
    counts: dict[tuple[str, int, int], Fraction] = {}
    for faces in product(range(1, 21), repeat=dice_a + dice_r):
        mine = [d20(f, a) for f in faces[:dice_a]]
        theirs = [d20(f, r or 0) for f in faces[dice_a:]]

        a_hits = oracle_hits(mine, a, theirs if r is not None else [], r or 0)
        r_hits = oracle_hits(theirs, r or 0, mine, a) if r is not None else []
        assert not (a_hits and r_hits)  # only one side can ever hit
        if a_hits:
            k = ("active", sum(a_hits), len(a_hits) - sum(a_hits))
        elif r_hits:
            k = ("reactive", sum(r_hits), len(r_hits) - sum(r_hits))
        else:
            k = ("none", 0, 0)
        counts[k] = counts.get(k, Fraction(0)) + Fraction(1, 20 ** (dice_a + dice_r))
    return counts


@pytest.mark.parametrize(("a", "b", "r", "rb"), FTF_CASES)
def test_ftf_distribution_matches_enumeration(a: int, b: int, r: int | None, rb: int) -> None:
    assert ftf_distribution(a, b, r, rb).as_fractions() == dict(
        sorted(ftf_oracle(a, b, r, rb).items())
    )


def test_roll_odds() -> None:
    dist, p_crit = roll_odds(12, -3, 2)
    assert dist.as_fractions() == {
        0: Fraction(121, 400),
        1: Fraction(2 * 9 * 11, 400),
        2: Fraction(81, 400),
    }
    assert p_crit == 1 - Fraction(19, 20) ** 2


# --- properties -------------------------------------------------------------------------------

side_st = st.builds(
    Side,
    attr=st.integers(0, 25),
    mod=st.integers(-12, 6),
    burst=st.integers(1, 3),
    dam=st.integers(10, 16),
    ammo=st.sampled_from([a for a in AMMO if a != "ADH"]),
    arm=st.integers(0, 8),
    bts=st.integers(0, 9),
    w=st.integers(1, 3),
    wounds=st.integers(0, 2),
    cover=st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(a=side_st, t=side_st, opposed=st.booleans(), cc=st.booleans(), seed=st.integers(0, 10**6))
def test_seeded_result_is_in_the_odds_support(
    a: Side, t: Side, opposed: bool, cc: bool, seed: int
) -> None:
    req = AttackRequest(active=a, target=t.model_copy(update={"burst": 1}), opposed=opposed, cc=cc)
    _, out = resolve_attack(req, DiceSource.seeded(seed), S)
    odds = attack_odds(req, S)
    assert odds.target.wounds.probability(out.target_wounds) > 0
    assert odds.active.wounds.probability(out.active_wounds) > 0
    assert sum(odds.target.wounds.as_fractions().values()) == 1
    assert sum(odds.active.wounds.as_fractions().values()) == 1
    assert sum(odds.ftf.as_fractions().values()) == 1


def test_g16_failure_margin_gives_the_scatter() -> None:  # L1031-1037
    # Light GL speculative: 12 - 6 = 6, rolls 9 -> CF 3 -> 18 cm towards the 9
    steps, out = resolve_roll(12, -6, 1, given_dice(9))
    assert out.successes == 0 and steps[0].detail["cf"] == 3


def test_g19_close_combat_defence_bonus() -> None:  # L1207-1214, L1125-1128
    req = AttackRequest(
        active=Side(attr=14, dam=10, arm=1), target=Side(attr=13, dam=10, arm=1), cc=True
    )
    steps, out = resolve_attack(req, given_dice(9, 7, 10), S)
    assert (out.active_hits, out.reactive_hits) == (1, 0)
    assert [m.name for m in steps[2].modifiers] == ["arm", "defence_bonus"]
    assert out.target_wounds == 0 and not out.guts_roll  # 10 + 1 + 3 > 10; no Guts in CC


def test_g20_one_against_three_must_beat_every_roll() -> None:  # L1225-1236, L1258-1260
    # Wu CC 16 rolls 12; three Fusiliers CC 13 +6 (two comrades) roll 20 (fail), 8, 10
    _, out, _, _ = resolve_ftf(16, 0, 1, 13, 6, 3, given_dice(12, 20, 8, 10))
    assert (out.active_hits, out.reactive_hits) == (1, 0)
    _, out, _, _ = resolve_ftf(16, 0, 1, 13, 6, 3, given_dice(12, 20, 8, 13))
    assert (out.active_hits, out.reactive_hits) == (0, 1)


def test_g21_coordinated_discover_targets() -> None:  # L1313-1330
    _, near = resolve_roll(12, -6 + 3, 1, given_dice(10))
    _, far = resolve_roll(12, -6, 1, given_dice(2))
    assert (near.target, near.successes) == (9, 0)
    assert (far.target, far.successes) == (6, 1)
