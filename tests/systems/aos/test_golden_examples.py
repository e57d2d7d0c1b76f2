"""Worked examples of the Age of Sigmar digest (section 6), computed by rules_core: the test
names carry the example ids. Lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt."""

from __future__ import annotations

from rules_core.dice import DiceSource
from rules_core.systems.aos import battlefield as bf
from rules_core.systems.aos import checks
from rules_core.systems.aos.attack import clamp_roll_mod, hit_passes
from rules_core.systems.aos.values import DiceValue, d3, improve_rend, parse_dice_value


def test_E3_contesting_models_of_the_stormcast_example() -> None:
    # L753: Lord-Celestant on Stardrake (MONSTER: 5), Knight-Arcanum (Wounds 5+: 2), 5 others.
    stormcast = [
        bf.Contender(models=1, wounds=16, monster=True),
        bf.Contender(models=1, wounds=5),
        bf.Contender(models=5, wounds=2),
    ]
    assert bf.contest_count(stormcast) == 12


def test_R44_more_contesting_models_gain_control() -> None:
    # L741-745: 1 MONSTER + 3 models of Wounds 1 = 8 against 2 of Wounds 5 + 3 of Wounds 1 = 7.
    friendly = [bf.Contender(models=1, wounds=12, monster=True), bf.Contender(models=3)]
    enemy = [bf.Contender(models=2, wounds=5), bf.Contender(models=3)]
    assert bf.contest_count(friendly) == 8 and bf.contest_count(enemy) == 7
    assert bf.gains_control(friendly, enemy) and not bf.gains_control(enemy, friendly)
    assert not bf.gains_control(enemy, enemy)  # a tie gains nothing


def test_E4_R15_rend_improved_and_worsened() -> None:
    # L983: Rend -1 improved by 1 is -2; worsened by 1 it is "-" (0), and stays "-" (R15).
    assert improve_rend(1, 1) == 2 and improve_rend(1, -1) == 0 and improve_rend(0, -1) == 0


def test_E5_random_characteristics() -> None:
    # L987: a Move of 2D6 and a Damage of D3 are random characteristics.
    assert parse_dice_value("2D6", "move") == DiceValue(count=2, sides=6)
    assert parse_dice_value("D3", "damage") == DiceValue(count=1, sides=3)


def test_E8_12_inches_apart_is_within_12() -> None:
    # L141, and the charge range (11.0, L427): 12" is within 12", 12.1" is not.
    assert checks.charge(DiceSource.given([1, 1]), distance=12).outcome["in_range"]
    assert not checks.charge(DiceSource.given([]), distance=12.1).outcome["in_range"]


def test_E9_target_number_3_plus() -> None:
    # L147: 3+ succeeds on 3-6 and fails on 1-2.
    assert [hit_passes(face, 3, 0) for face in range(1, 7)] == [False, False] + [True] * 4


def test_R1_d3_is_a_halved_d6() -> None:
    assert [d3(face) for face in range(1, 7)] == [1, 1, 2, 2, 3, 3]  # L149


def test_R2_a_double_is_read_before_modifiers() -> None:
    # L149: (4, 4) with +1 is still a double.
    assert checks.charge(DiceSource.given([4, 4]), mod=1).outcome["double"]
    assert checks.cast(5, DiceSource.given([4, 4]), mod=1).outcome["double"]


def test_R3_R4_R5_modifier_sums_are_clamped() -> None:
    # L131, L537: +1 +1 -1 = +1 (R3); +1 +1 +1 -> +1 (R4); -1 -1 -1 -> -1 (R5).
    assert clamp_roll_mod(1 + 1 - 1) == 1
    assert clamp_roll_mod(3) == 1 and clamp_roll_mod(-3) == -1


def test_R25_heroic_leadership_fails_on_3_with_the_general_alive() -> None:
    out = checks.leadership(DiceSource.given([3])).outcome  # L289
    assert out == {"total": 3, "cp": 0}


def test_R32_at_the_double_adds_6_inches() -> None:
    assert bf.at_the_double_move(5) == 11  # L335 (the unit has run: test_golden_fidelity)
