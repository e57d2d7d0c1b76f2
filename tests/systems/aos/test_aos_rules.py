"""Battleshock, magic, prayers, charge, run, priority, damage tables and command points:
golden cases from the digest (section 6; rulebook lines cited)."""

from __future__ import annotations

import pytest

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import GameState, Player, Unit
from rules_core.systems.aos import checks
from rules_core.systems.aos.system import (
    make_weapon,
    parse_table,
    resolved_weapon,
    set_table,
    set_weapon,
    table_row,
)
from rules_core.systems.aos.turns import (
    aos_state,
    apply_priority,
    find_command,
    grant_hero_cp,
    tie_winner,
    use_command,
    with_aos,
)


def test_e1_battleshock_example() -> None:
    # L635: Gutrippaz, Bravery 5, 2 slain, a 3: 5 is not above 5, nobody flees.
    out = checks.battleshock(5, 2, DiceSource.given([3])).outcome
    assert out["roll"] == 5 and out["fled"] == 0


def test_r21_r22_battleshock() -> None:
    assert checks.battleshock(6, 4, DiceSource.given([5])).outcome["fled"] == 3  # L613
    assert checks.battleshock(10, 1, DiceSource.given([6])).outcome["fled"] == 0
    assert checks.battleshock(6, 4, DiceSource.given([5]), mod=-1).outcome["fled"] == 2


def test_r34_r35_cast_and_miscast() -> None:
    out = checks.cast(5, DiceSource.given([2, 3])).outcome  # L775: 5 >= 5
    assert out["cast"] and not out["miscast"]
    # L779: an unmodified 2 miscasts even with +1, D3 mortal wounds (a 5 -> 3).
    out = checks.cast(2, DiceSource.given([1, 1, 5]), mod=1).outcome
    assert out == {"total": 3, "cast": False, "miscast": True, "mortal_wounds": 3, "double": True}


def test_r36_unbind_must_beat_the_casting_roll() -> None:
    assert not checks.unbind(7, DiceSource.given([3, 4])).outcome["unbound"]  # L783
    assert checks.unbind(7, DiceSource.given([4, 4])).outcome["unbound"]


def test_r38_prayers() -> None:
    assert checks.pray(4, DiceSource.given([4])).outcome["answered"]  # L857
    out = checks.pray(2, DiceSource.given([1]), mod=2).outcome  # L861: unmodified 1
    assert out["wrath"] and not out["answered"] and out["mortal_wounds"] == 1


def test_r31_r33_run_and_charge() -> None:
    assert checks.run(DiceSource.given([4]), move=5).outcome["move"] == 9  # L327
    out = checks.charge(DiceSource.given([3, 4]), distance=7.4).outcome  # L431: 7 >= 6.9
    assert out["total"] == 7 and out["reaches"]
    assert not checks.charge(DiceSource.given([3, 3]), distance=7.4).outcome["reaches"]


def test_r29_r30_priority_ties() -> None:
    out = checks.priority(DiceSource.given([4, 2]), None).outcome
    assert out["winner"] == 0 and not out["tie"]
    out = checks.priority(DiceSource.given([3, 3]), 1).outcome  # L239: no re-roll
    assert out["tie"] and out["winner"] == 1


def game() -> GameState:
    return GameState(
        system="aos",
        name="t",
        organiser="a",
        players=[Player(user_id="a", name="A"), Player(user_id="b", name="B")],
        order=["a", "b"],
    )


def test_r28_r29_r30_priority_in_the_game() -> None:
    state = game()
    state = with_aos(state, aos_state(state).model_copy(update={"deployed_first": "b"}))
    assert tie_winner(state, aos_state(state)) == "b"  # R29: round 1, deployed first
    new = apply_priority(state, "b", winner_goes_first=True)
    assert new.order == ["b", "a"]
    assert new.resources["player:b"]["cp"] == 1 and new.resources["player:a"]["cp"] == 2
    with pytest.raises(UserError) as raised:
        apply_priority(new, "a", winner_goes_first=True)  # once per round
    assert raised.value.key == "aos.priority_done"
    new.round = 2
    assert tie_winner(new, aos_state(new)) == "b"  # R30: first turn of the previous round
    second = apply_priority(new, "b", winner_goes_first=False)
    assert second.order == ["a", "b"]


def test_hero_phase_cp_each_or_own() -> None:
    state = apply_priority(game(), "a", winner_goes_first=True)
    each, granted = grant_hero_cp(state, "each")
    assert granted == {"a": 1, "b": 1}
    assert each.resources["player:a"]["cp"] == 2 and each.resources["player:b"]["cp"] == 3
    with pytest.raises(UserError) as raised:
        grant_hero_cp(each, "each")  # once per hero phase
    assert raised.value.key == "aos.hero_cp_done"
    own, granted = grant_hero_cp(state, "own")
    assert granted == {"a": 1} and own.resources["player:b"]["cp"] == 2
    # A slain General brings nothing.
    state.units.append(
        Unit(
            name="Lord",
            owner="b",
            owner_name="B",
            stats={"general": 1},
            damage=5,
            wounds_per_model=5,
        )
    )
    _, granted = grant_hero_cp(state, "each")
    assert granted == {"a": 1, "b": 0}


def test_commands_cost_and_limits() -> None:
    state = apply_priority(game(), "a", winner_goes_first=True)  # a: 1 CP, b: 2 CP
    rally = find_command("chiamata a raccolta")
    assert rally.id == "rally" and rally.cost == 1
    new, left = use_command(state, "b", rally, "Guards")
    assert left == 1
    with pytest.raises(UserError) as raised:
        use_command(new, "b", rally, "Others")  # same command twice in the phase
    assert raised.value.key == "aos.command_used"
    with pytest.raises(UserError) as raised:
        use_command(new, "a", rally, "Guards")  # the unit already received one
    assert raised.value.key == "aos.unit_received"
    new, left = use_command(new, "a", rally, "Wolves")  # per player: a may use it too
    assert left == 0
    with pytest.raises(UserError) as raised:
        use_command(state, "a", find_command("all-out attack"), None)  # not in the hero phase
    assert raised.value.key == "aos.wrong_phase"
    new.phase = 4
    with pytest.raises(UserError) as raised:
        use_command(new, "a", find_command("all out defence"), "Knights")  # no CP left
    assert raised.value.key == "game.not_enough"


def test_e6_damage_table_rows() -> None:
    rows = parse_table("0:move=12 5:move=11 9:move=10 13:move=8")
    assert [table_row(rows, n).values["move"] for n in (4, 5, 12, 13, 16)] == [
        "12",
        "11",
        "10",
        "8",
        "8",
    ]
    unit = Unit(name="Drake", owner="a", owner_name="A", wounds_per_model=16, damage=6)
    set_table(unit, parse_table("0:move=12,claws=6 5:move=11,claws=5"))
    set_weapon(unit, make_weapon("Claws", {"attacks": "@claws", "hit": "3", "wound": "3"}), "Claws")
    assert (
        resolved_weapon(
            unit, make_weapon("Claws", {"attacks": "@claws", "hit": "3", "wound": "3"})
        )["attacks"]
        == "5"
    )
    for bad, key in (
        ("", "aos.bad_table_rows"),
        ("1:move=2", "aos.bad_table_start"),
        ("0:move", "aos.bad_table"),
        ("0:move=1 0:move=2", "aos.bad_table_start"),
    ):
        with pytest.raises(UserError) as raised:
            parse_table(bad)
        assert raised.value.key == key


def test_e11_vindictor_stormspear_profile() -> None:
    # L941-942: Range 2", Attacks 2, 3+, 3+, Rend -1, Damage 1.
    w = make_weapon(
        "Stormspear",
        {"range": "2", "attacks": "2", "hit": "3", "wound": "3", "rend": "-1", "damage": "1"},
    )
    assert (w.attacks, w.hit, w.wound, w.rend, w.damage) == ("2", "3", "3", "-1", "1")


def test_command_limit_setting_shared() -> None:
    state = apply_priority(game(), "a", winner_goes_first=True)
    rally = find_command("rally")
    new, _ = use_command(state, "b", rally, "Guards", "shared")
    with pytest.raises(UserError) as raised:
        use_command(new, "a", rally, "Wolves", "shared")  # once per phase for both players
    assert raised.value.key == "aos.command_used"


def test_e9_r1_target_numbers_and_d3() -> None:
    from rules_core.systems.aos.attack import hit_passes
    from rules_core.systems.aos.values import d3

    assert [hit_passes(f, 3, 0) for f in range(1, 7)] == [False, False, True, True, True, True]
    assert [d3(f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]  # L149


def test_r2_double_is_read_before_modifiers() -> None:
    out = checks.cast(9, DiceSource.given([4, 4]), mod=1).outcome  # L149
    assert out["double"] and out["total"] == 9 and out["cast"]


def test_r27_rally() -> None:
    assert checks.rally(4, DiceSource.given([6, 2, 6, 5])).outcome["returned"] == 2  # L309


def test_r26_heroic_recovery() -> None:
    # L301, Bravery 7: 6 -> heal D3 (a 5 -> 3); 7 -> heal 1; 8 -> nothing.
    assert checks.recovery(7, DiceSource.given([3, 3, 5])).outcome["healed"] == 3
    assert checks.recovery(7, DiceSource.given([3, 4])).outcome["healed"] == 1
    assert checks.recovery(7, DiceSource.given([4, 4])).outcome["healed"] == 0


def test_r24_r25_heroic_leadership() -> None:
    assert checks.leadership(DiceSource.given([2]), general_slain=True).outcome["cp"] == 1
    assert checks.leadership(DiceSource.given([3])).outcome["cp"] == 0  # L289


def test_r37_r40_dispel_and_banish() -> None:
    assert not checks.dispel(6, DiceSource.given([3, 3])).outcome["dispelled"]  # L809
    assert checks.dispel(6, DiceSource.given([3, 4])).outcome["dispelled"]
    assert not checks.banish(4, DiceSource.given([4])).outcome["banished"]  # L887
    assert checks.banish(4, DiceSource.given([5])).outcome["banished"]
