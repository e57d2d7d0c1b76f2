"""Golden tests: the worked examples of the digest's section 6 (ids in the test names), each
computed by rules_core alone. Book passages are cited by the digest's seed offsets (@N); ids
already named by tests in test_c5_rules.py, test_c5_transitions.py and test_golden_melee.py
are not repeated here. Examples the bot can't compute: uncomputable_examples.py."""

from __future__ import annotations

import pytest

from rules_core.dice import DiceSource
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.c5 import tables
from rules_core.systems.c5 import transitions as c5tr
from rules_core.systems.c5.attack import ShootRequest, shoot_difficulty, shoot_test_request
from rules_core.systems.c5.checks import resolve_mana, resolve_test, temporary_faith
from rules_core.systems.c5.models import C5Settings, WoundRequest
from rules_core.systems.c5.models import TestRequest as TReq
from rules_core.systems.c5.wound import effective_str, resolve_wound

DEFAULT = C5Settings()


def final(value: int, faces: list[int], **kw: object) -> tuple[int, bool, bool]:
    """(final result, success, failed by the natural-1 rule) of a test (@4060)."""
    req = TReq.model_validate({"value": value, **kw})
    _, out = resolve_test(req, DiceSource.given(faces))
    return out.total, out.success, out.failed


def wounds(faces: list[int], **kw: object) -> tuple[int | None, int, str]:
    """(table row, wounds, result) of a wound roll (@130057, lower die = row [BG])."""
    req = WoundRequest.model_validate(kw)
    _, out = resolve_wound(req, DiceSource.given(faces))
    return out.location, out.wounds, out.result


def strength(**kw: object) -> int:
    """The STR a wound roll uses after the wound penalty and the cap (@2104)."""
    value, _ = effective_str(WoundRequest.model_validate({"res": 0, **kw}))
    return value


# --- 6.1 characteristic tests (@4060, examples @5455) --------------------------------------


def test_T06_a_final_result_of_zero_fails() -> None:
    assert final(2, [1, 2]) == (0, False, True)


def test_T07_the_wound_penalty_counts_in_the_final_result() -> None:
    assert final(3, [1, 2], mod=-1) == (0, False, True)  # Light wound -1 (@10224)


def test_T08_plain_test() -> None:
    assert final(5, [4]) == (9, True, False)


def test_T09_an_open_ended_six_is_rolled_again() -> None:
    assert final(5, [6, 4]) == (15, True, False)  # [BG] setting open_ended


# --- 6.2 caps (@2104) -----------------------------------------------------------------------


def test_C01_mutagen_strength_capped_at_fifteen() -> None:
    assert strength(str_=13 + 3) == 15  # Cypher Lukhan @3715


def test_C02_the_excess_absorbs_a_light_wound() -> None:
    assert strength(str_=16, penalty=1) == 15


def test_C03_two_wounds_bite_below_the_cap() -> None:
    assert strength(str_=16, penalty=2) == 14


def test_C05_printed_sixteen_malus_and_bonus() -> None:
    assert strength(str_=16 - 1 + 2, str_uncapped=True, str_printed=16) == 16  # Red Troll @4728


def test_C06_printed_sixteen_malus_only() -> None:
    assert strength(str_=16, penalty=1, str_uncapped=True, str_printed=16) == 15


def test_C07_master_strike_strength() -> None:
    assert strength(str_=5 + 9 + 2, master=2) == 16  # Baikemono @5069: cap 17


def test_C08_master_strike_capped_at_fifteen_plus_x() -> None:
    assert strength(str_=5 + 12 + 2, master=2) == 17


# --- 6.3 wound table (@130057) --------------------------------------------------------------

NULLA, STORDITO = tables.NULLA, tables.STORDITO


def cell(row: int, r: int) -> int:
    return tables.cell(row, tables.band_of(r), r)


def test_W01_row1_r_minus5_nothing() -> None:
    assert cell(1, -5) == NULLA


def test_W02_row1_r_minus3_nothing_by_default() -> None:
    assert cell(1, -3) == NULLA  # "<-3" read as <= -3: setting minus_three=first


def test_W03_row1_r_minus2_stunned() -> None:
    assert cell(1, -2) == STORDITO


def test_W04_row1_r_3_stunned() -> None:
    assert cell(1, 3) == STORDITO


def test_W05_row1_r_4_one() -> None:
    assert cell(1, 4) == 1


def test_W06_row1_r_12_two() -> None:
    assert cell(1, 12) == 2


def test_W07_row1_r_18_and_25_three() -> None:
    assert cell(1, 18) == 3 == cell(1, 25)


def test_W08_row2() -> None:
    assert [cell(2, r) for r in (2, 8, 14, 18)] == [1, 2, 3, 4]


def test_W09_row3_minus1_and_0() -> None:
    assert [cell(3, -1), cell(3, 0)] == [STORDITO, 1]


def test_W10_row3_split_cell_r_4() -> None:
    assert cell(3, 4) == 1


def test_W11_row3_split_cell_r_5() -> None:
    assert cell(3, 5) == 2


def test_W12_row3() -> None:
    assert [cell(3, r) for r in (10, 14, 18)] == [3, 4, 5]


def test_W13_row4() -> None:
    assert [cell(4, r) for r in (-10, 2, 6, 18)] == [1, 2, 3, 6]


def test_W14_head_row() -> None:
    assert [cell(5, r) for r in (0, 4, 6, 10, 14, 30)] == [2, 3, 4, 5, 6, 6]


# --- 6.4 full wound rolls (@2104, @130057) --------------------------------------------------


def test_R01_str7_res6_dice_2_5() -> None:
    assert wounds([2, 5], str_=7, res=6) == (2, 1, "wounds")


def test_R02_str5_res6_dice_1_3_stunned() -> None:
    assert wounds([1, 3], str_=5, res=6) == (1, 0, "stunned")


def test_R03_double_four_exceptional() -> None:
    assert wounds([4, 4], str_=10, res=5) == (4, 3, "wounds")


def test_R05_sacred_weapon_and_armour_cancel() -> None:
    effects = frozenset({"sacred", "sacred_armour"})
    assert wounds([4, 4], str_=10, res=5, effects=effects)[1] == 3


def test_R07_double_six_head_row() -> None:
    assert wounds([6, 6], str_=5, res=5) == (5, 4, "wounds")


def test_R08_double_six_at_least_three() -> None:
    assert wounds([6, 6], str_=3, res=9) == (5, 3, "wounds")


def test_R09_row_five_and_six() -> None:
    assert wounds([5, 6], str_=7, res=8) == (5, 3, "wounds")


def test_R10_hardboned_one_band_lighter() -> None:
    assert wounds([5, 6], str_=7, res=8, hardboned=True)[1] == 2


def test_R11_scourge_one_band_heavier() -> None:
    assert wounds([5, 6], str_=7, res=8, scourge=True)[1] == 4


def test_R12_hardboned_and_scourge_cancel() -> None:
    assert wounds([5, 6], str_=7, res=8, scourge=True, hardboned=True)[1] == 3


def test_R13_scourge_on_the_last_band_stays() -> None:
    assert wounds([1, 6], str_=15, res=2, scourge=True)[1] == 3


def test_R14_hardboned_on_the_first_band_stays_nothing() -> None:
    assert wounds([1, 2], str_=1, res=9, hardboned=True) == (1, 0, "no_effect")


def test_R16_vulnerabile_adds_one_wound_not_to_stunned() -> None:
    vulnerable = frozenset({"vulnerabile"})
    assert wounds([2, 5], str_=9, res=6, effects=vulnerable)[1] == 3
    assert wounds([1, 3], str_=5, res=6, effects=vulnerable)[2] == "stunned"


def test_R21_symbiotic_weapon_rolls_zero_against_zero() -> None:
    assert wounds([3, 5], str_=0, res=0) == (3, 2, "wounds")


# --- 6.5 health (@1361, @10224, @8449) ------------------------------------------------------


def test_H03_abel_medium_warrior_character_five_wounds() -> None:
    assert tables.wounds_for(2, True) == 5  # @51107


def test_H04_large_and_gigantic_warrior_characters() -> None:
    assert (tables.wounds_for(3, True), tables.wounds_for(6, True)) == (6, 8)


def test_H05_penalty_by_wounds() -> None:
    assert [tables.penalty(w, False) for w in (0, 1, 2, 3, 5)] == [0, 1, 2, 3, 3]


def test_H06_stunned_does_not_stack() -> None:
    assert (tables.penalty(0, True), tables.penalty(2, True)) == (1, 2)


def test_H11_a_critical_wound_is_three_wounds() -> None:
    ann = Player(user_id="A", name="Ann")
    state = GameState(system="c5", name="t", organiser="A", players=[ann], order=["A"])
    state = tr.add_unit(state, "Abel", ann, {"size": 2, "warrior": 1})  # 5 wounds
    hurt, notes = c5tr.wound(state, "Abel", 3, stunned=False)
    assert notes == [("c5.note.state.critical", {"unit": "Abel", "penalty": 3})]
    assert tr.find_unit(hurt, "Abel").wounds_left == 2


# --- 6.6 shooting, mana, faith --------------------------------------------------------------


@pytest.mark.parametrize(("printed", "difficulty"), [(False, 7), (True, 4)])
def test_G11_assault_fire_fixed_difficulty(printed: bool, difficulty: int) -> None:
    """@105867: Tiro in Assalto at 7, 4 when printed, no other modifier."""
    req = ShootRequest(
        test=TReq(value=4, mod=-2),
        wound=WoundRequest(str_=6, res=5),
        fire="assault",
        printed=printed,
        range="long",
        altitude=2,
    )
    assert shoot_difficulty(req, DEFAULT)[0] == difficulty
    assert shoot_test_request(req, DEFAULT).mod == 0


def mana(rank: int, power: int, die: int) -> int:
    return resolve_mana(rank, power, DiceSource.given([die]))[1].gems  # @130449


def test_G19_adept_pow4_die5() -> None:
    assert mana(2, 4, 5) == 5


def test_G20_master_pow6_die5() -> None:
    assert mana(3, 6, 5) == 7


def test_G21_a_natural_one_recovers_nothing() -> None:
    assert [mana(rank, 6, 1) for rank in (1, 2, 3, 4)] == [0, 0, 0, 0]


def test_G22_initiate_pow2_die2() -> None:
    assert mana(1, 2, 2) == 3


def test_G26_devoto_aspects3_followers7() -> None:
    assert temporary_faith(1, 3, 7).ft == 6  # @21515


def test_G27_zelota_aspects3_followers5() -> None:
    assert temporary_faith(2, 3, 5).ft == 6


def test_G28_decano_with_a_credente() -> None:
    assert temporary_faith(3, 4, 4, believer=2).ft == 10
