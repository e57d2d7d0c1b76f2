"""Worked examples of the Infinity digest's section 6 not reproduced elsewhere, each named by
its id (L123 = ../shared/seeds/003_27b81155ce3a4b9f.txt line 123). The examples the book
tells without dice get dice chosen to give the outcome it states."""

from __future__ import annotations

from rules_core.dice import DiceSource
from rules_core.systems.inf import orders, tables
from rules_core.systems.inf.attack import resolve_attack
from rules_core.systems.inf.models import AttackRequest, InfSettings, Side
from rules_core.systems.inf.rolls import resolve_ftf, resolve_roll

S = InfSettings()


def dice(*faces: int) -> DiceSource:
    return DiceSource.given(list(faces))


def test_G08_all_of_the_burst_on_one_target_and_a_normal_roll() -> None:  # L470-478
    # Silva (12) puts all of B4 on Wen Liu: an opposed roll, 4 dice against 1
    _, out, _, _ = resolve_ftf(12, 0, 4, 11, 0, 1, dice(16, 6, 11, 10, 8))
    assert (out.active_hits, out.reactive_hits) == (2, 0)  # 11 and 10 beat WL's 8
    # Jang Qi, not targeted, shoots with a Normal roll against his own BS
    _, jq = resolve_roll(11, 0, 1, dice(3))
    assert jq.successes == 1


def test_I1_initiative_example_sums_the_dice() -> None:  # L754-766 against L737-739
    _, out = orders.resolve_initiative(12, 0, 12, 0, dice(7, 18), "sum")
    assert out.winner == "opponent"  # Fabio, as the example says (setting initiative=sum)
    _, out = orders.resolve_initiative(12, 0, 12, 0, dice(7, 18), "ftf")
    assert out.winner == "player"  # the rule's opposed roll: Marco


def test_I2_initiative_opposed_wip() -> None:  # L777-802
    steps, out = orders.resolve_initiative(12, 0, 13, 0, dice(7, 11), "ftf")
    assert out.winner == "opponent" and [s.dice for s in steps] == [[7], [11]]


def test_G14_return_fire_leaves_wen_liu_unconscious() -> None:  # L695-706
    # Angus wins the opposed BS roll; Wen Liu (W 1) fails his ARM roll: 1 wound, Unconscious
    req = AttackRequest(
        active=Side(attr=11, dam=13, arm=1, w=1), target=Side(attr=12, dam=13, arm=1, w=1)
    )
    _, out = resolve_attack(req, dice(4, 9, 5), S)
    assert (out.reactive_hits, out.active_wounds, out.active_state) == (1, 1, "unconscious")


def test_G17_shot_into_close_combat_misses_by_3() -> None:  # L1045-1054
    # Angus 12 +3 range -6 = 9 rolls 12: a miss with a failure margin of 3 (at most 6: the
    # shot hits Silva, engaged with the target; the bot reports the margin)
    steps, out = resolve_roll(12, 3 - 6, 1, dice(12))
    assert (out.target, out.successes, steps[0].detail["cf"]) == (9, 0, 3)


def test_G26_em_grenade_on_three_models() -> None:  # L3000-3015 (Damage not stated: 12)
    def em(target: Side, face: int) -> tuple[bool, bool, bool]:
        req = AttackRequest(active=Side(attr=15, dam=12, ammo="EM"), target=target, opposed=False)
        _, out = resolve_attack(req, dice(5, face), S)
        return out.target_disabled, out.target_immobilized, out.guts_roll

    # Wen Liu, BTS 0 +3 (touching the barricade), fails: DIS and a Guts roll
    assert em(Side(attr=0, bts=0, cover=True), 4) == (True, False, True)
    # Jang Qi, +3 from the cover the blast crosses, passes: a Guts roll
    assert em(Side(attr=0, bts=0, cover=True), 15) == (False, False, True)
    # Wu Shenru, HI inside a building, +3, fails: IMM, no Guts
    hi = Side(attr=0, bts=3, cover=True, heavy=True)
    assert em(hi, 2)[1:] == (True, False)


def test_C2_cover_save_needs_10_or_more() -> None:  # L1502-1507 (the text's "more than 10")
    req = AttackRequest(
        active=Side(attr=11, dam=13), target=Side(attr=0, arm=1, cover=True), opposed=False
    )
    for face, wounds in ((17, 0), (10, 0), (9, 1)):
        _, out = resolve_attack(req, dice(5, face), S)
        assert out.target_wounds == wounds, face


def test_C4_discover_against_camouflage_fails() -> None:  # L1515-1527
    _, out = resolve_roll(12, 3 - 6, 1, dice(11))
    assert (out.target, out.successes) == (9, 0)


def test_C6_C7_aro_hit_saved_and_guts_held() -> None:  # L1536-1547
    _, hit = resolve_roll(12, 3 - 6, 1, dice(8))
    assert (hit.target, hit.successes) == (9, 1)
    req = AttackRequest(active=Side(attr=9, dam=13), target=Side(attr=0, arm=5), opposed=False)
    steps, out = resolve_attack(req, dice(8, 17), S)
    assert steps[1].total == 22 and out.target_wounds == 0 and out.guts_roll
    _, guts = resolve_roll(14, 0, 1, dice(3))  # WIP 14 rolls 3: holds
    assert guts.successes == 1


def test_C10_both_cc_rolls_succeed_defence_bonus() -> None:  # L1560-1566
    # Angus CC 13 (no TO MOD in CC) rolls 12; Shenru CC 16 rolls 14: Shenru hits, Angus +3 ARM
    req = AttackRequest(
        active=Side(attr=16, dam=14, ammo="SHOCK"), target=Side(attr=13, arm=1, w=1), cc=True
    )
    steps, out = resolve_attack(req, dice(14, 12, 11), S)
    assert (out.active_hits, out.reactive_hits) == (1, 0)
    assert [m.name for m in steps[2].modifiers] == ["arm", "defence_bonus"]
    assert out.target_wounds == 0  # 11 + 1 + 3 > 14
    assert tables.MOVE[1] == (10, 10)  # C3's fall back is half of MOV 10
