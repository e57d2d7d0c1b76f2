"""Infinity's state rules in rules_core, without the bot: requests built from options and units,
attacks applied to the game, Orders counted and spent, Retreat!, weapons and loadouts. Rulebook
lines as in test_inf_rules (L123 = ../shared/seeds/003_27b81155ce3a4b9f.txt line 123)."""

from __future__ import annotations

import pytest

from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.inf import tables
from rules_core.systems.inf import transitions as inf_tr
from rules_core.systems.inf.models import AttackOutcome
from rules_core.systems.inf.request import AttackOptions, build_request, roll_attribute

ALICE = Player(user_id="alice", name="Alice")
BOB = Player(user_id="bob", name="Bob")


def game() -> GameState:
    state = GameState(system="inf", name="g", organiser="alice")
    state = tr.join(state, "alice", "Alice", None)
    state = tr.join(state, "bob", "Bob", None)
    state = tr.add_unit(
        state, "Angus", ALICE, {"bs": 12, "cc": 13, "ph": 10, "arm": 1, "w": 1, "lt": 1, "pts": 10}
    )
    state = tr.add_unit(state, "Silva", ALICE, {"bs": 12, "arm": 1, "w": 1, "pts": 10})
    state = tr.add_unit(
        state, "WenLiu", BOB, {"bs": 11, "cc": 14, "ph": 10, "arm": 1, "bts": 3, "lt": 1}
    )
    return tr.add_unit(state, "JangQi", BOB, {"bs": 11, "arm": 1, "irr": 1, "pts": 12})


def error_key(call: object) -> str:
    with pytest.raises(UserError) as raised:
        call()  # type: ignore[operator]
    return raised.value.key


def outcome(**kw: object) -> AttackOutcome:
    base: dict[str, object] = {
        "active_hits": 1,
        "active_criticals": 0,
        "reactive_hits": 0,
        "reactive_criticals": 0,
        "target_wounds": 0,
        "active_wounds": 0,
        "target_state": "ok",
        "active_state": "ok",
        "guts_roll": False,
        "active_guts_roll": False,
        "target_disabled": False,
        "target_immobilized": False,
        "active_disabled": False,
        "active_immobilized": False,
    }
    return AttackOutcome.model_validate(base | kw)


# --- requests ------------------------------------------------------------------------------------


def test_request_reads_the_units_and_the_loadout() -> None:
    state = game()
    state, found = inf_tr.equip(state, "Angus", ["fucile"])
    assert found == ["Fucile"]  # a book weapon keeps the name in the player's language
    angus, wen = tr.find_unit(state, "Angus"), tr.find_unit(state, "WenLiu")
    req, notes = build_request(AttackOptions(distance=30, vs=11), angus, wen, {})
    # BS 12 +3 at 20-40 cm (L2862); Damage 13 B3 from the Rifle (L2845-2865)
    assert (req.active.attr, req.active.range, req.active.dam, req.active.burst) == (12, 3, 13, 3)
    # BTS, W and ARM from the unit (BTS saves as +|BTS|, L1344-1348)
    assert (req.target.bts, req.target.arm, req.target.w) == (3, 1, 1)
    assert [key for key, _ in notes] == ["inf.note_weapon", "inf.note_range"]
    assert req.opposed


def test_request_cc_uses_cc_and_mono_forces_damage_12() -> None:  # L3058-3060
    angus = tr.find_unit(game(), "Angus")
    req, notes = build_request(AttackOptions(cc=True, dam=14, ammo="monofilo"), angus, None, {})
    assert (req.active.attr, req.active.dam, req.active.ammo) == (13, 12, "MONO")
    assert ("inf.note_mono", {}) in notes


def test_request_refusals() -> None:
    assert error_key(lambda: build_request(AttackOptions(dam=13), None, None, {})) == (
        "inf.missing_stat"
    )
    assert error_key(lambda: build_request(AttackOptions(attr=12), None, None, {})) == (
        "inf.missing_dam"
    )
    assert error_key(
        lambda: build_request(AttackOptions(attr=12, distance=30), None, None, {})
    ) == ("inf.distance_needs_weapon")
    assert error_key(lambda: build_request(AttackOptions(attr=12, ammo="ADH"), None, None, {})) == (
        "inf.adh_needs_ph"
    )
    assert error_key(
        lambda: build_request(AttackOptions(attr=12, dam=13, vs_dam=13), None, None, {})
    ) == ("inf.vs_dam_needs_vs")
    assert roll_attribute(None, tr.find_unit(game(), "WenLiu"), "ph") == 10
    assert error_key(lambda: roll_attribute(None, None, None)) == "inf.missing_stat"


# --- attacks applied -----------------------------------------------------------------------------


def test_apply_attack_wounds_kills_and_marks() -> None:
    state = game()
    new, notes = inf_tr.apply_attack(state, None, "WenLiu", outcome(target_wounds=1))
    wen = tr.find_unit(new, "WenLiu")
    assert wen.damage == 1 and ("inf.note.unconscious", {"unit": "WenLiu"}) in notes  # L1374
    # a Shock kill is applied as W+1 wounds: Dead and removed (L3114-3115, L1390-1393)
    new, _ = inf_tr.apply_attack(
        state, None, "WenLiu", outcome(target_wounds=1, target_state="dead")
    )
    assert tr.find_unit(new, "WenLiu").destroyed
    # E/M on a model: DIS, no wound (L2921-2931); hit back: the attacker is marked too
    new, _ = inf_tr.apply_attack(
        state,
        "Angus",
        "WenLiu",
        outcome(target_disabled=True, reactive_hits=1, active_immobilized=True),
    )
    assert [c.name for c in tr.find_unit(new, "WenLiu").conditions] == ["dis"]
    assert [c.name for c in tr.find_unit(new, "Angus").conditions] == ["imm"]
    assert state == game()  # pure: the input is unchanged
    assert not inf_tr.touches_target(outcome()) and not inf_tr.touches_attacker(outcome())


# --- Orders, Retreat! ----------------------------------------------------------------------------


def test_orders_counted_on_the_first_turn_and_spent() -> None:  # L529-537, L719-734, L1795
    state = game()
    new, spent, notes = inf_tr.spend_orders(state, "Angus", 1, lieutenant=True)
    assert spent.pools == ["lt"] and notes[0][0] == "inf.note.orders"
    assert inf_tr.pools_of(new, "alice") == inf_tr.Pools(
        groups={"orders": 2, "orders2": 0, "orders3": 0}, lt=0, irregular={}
    )
    new, spent, notes = inf_tr.spend_orders(new, "Silva", 2, lieutenant=False)
    assert spent.pools == ["orders"] and notes == []  # already counted this turn
    assert inf_tr.pools_of(new, "alice").groups["orders"] == 0
    assert error_key(lambda: inf_tr.spend_orders(new, "Silva", 1, lieutenant=True)) == (
        "inf.not_lieutenant"
    )
    # Bob's Orders are his turn's (L488-491, L1223): not while Alice's runs
    assert error_key(lambda: inf_tr.spend_orders(new, "JangQi", 1, lieutenant=False)) == (
        "inf.orders_in_owners_turn"
    )
    # Bob's Irregular JangQi spends its own Order first (L1795-1803)
    his_turn = state.clone()
    his_turn.turn = 1  # the order is Alice, Bob
    bob, _ = inf_tr.count_orders(his_turn, "bob")
    after, spent, _ = inf_tr.spend_orders(bob, "JangQi", 2, lieutenant=False)
    assert spent.pools == ["order", "orders"]
    assert inf_tr.pools_of(after, "bob").irregular == {"JangQi": 0}


def test_retreat_rows_count_unconscious_as_lost() -> None:  # L1388-1389, L1452-1453
    state = tr.damage(game(), "JangQi", 1)
    rows = {r.player: r for r in inf_tr.retreat_rows(state, False, "ge")}
    assert (rows["Bob"].lost, rows["Bob"].total, rows["Bob"].retreat) == (12, 12, True)
    assert (rows["Alice"].lost, rows["Alice"].limit) == (0, 60)
    assert inf_tr.retreat_row(None, 180, 300, False, "gt").retreat is False
    assert inf_tr.retreat_row(None, 225, 300, True, "ge").limit == 75  # Morat, L2601-2603
    assert error_key(lambda: inf_tr.retreat_row(None, 1, 0, False, "ge")) == (
        "inf.retreat_needs_both"
    )


def test_retreat_rule_is_copied_into_the_game() -> None:
    assert inf_tr.keep_retreat_rule(game(), "gt").extra["inf"]["retreat"] == "gt"


# --- weapons -------------------------------------------------------------------------------------


def test_weapons_added_removed_and_equipped() -> None:
    hmg = tables.make_weapon("HMG", "20:0,40:+3,60:-3,120:-6", 15, 4, "N")
    state = inf_tr.add_weapon(game(), hmg)
    assert inf_tr.custom_weapons(state)["hmg"]["dam"] == 15
    state, found = inf_tr.equip(state, "Angus", ["hmg", "Rifle"])
    assert found == ["HMG", "Rifle"]
    assert error_key(lambda: inf_tr.equip(state, "Angus", [])) == "inf.bad_loadout"
    assert error_key(lambda: inf_tr.equip(state, "Angus", ["Laser"])) == "inf.unknown_weapon"
    assert error_key(lambda: inf_tr.refuse_builtin("Fucile")) == "inf.builtin_weapon"
    state = inf_tr.remove_weapon(state, "HMG")
    assert inf_tr.custom_weapons(state) == {}
    assert error_key(lambda: inf_tr.remove_weapon(state, "HMG")) == "inf.unknown_weapon"


def test_a_recount_mid_turn_gives_no_spent_order_back() -> None:  # L576-578
    # the pool is counted at the start of the player's turn; a model lost during it takes its
    # Order away only from the turns that follow: a recount in the turn changes nothing
    state, _ = inf_tr.count_first_turn(game())  # Alice's turn: 2 Orders, Lieutenant 1
    state, _, _ = inf_tr.spend_orders(state, "Silva", 2, lieutenant=False)
    state = tr.damage(state, "Silva", 2)  # Dead in an ARO
    again, notes = inf_tr.count_orders(state, "alice")
    assert inf_tr.pools_of(again, "alice").groups["orders"] == 0
    assert inf_tr.pools_of(again, "alice").lt == 1
    assert [k for k, _ in notes] == ["inf.note.counted_at_turn_start"]
    # Bob's Orders are counted when his turn starts: asking now counts nothing, and leaves
    # Alice's count of this turn standing (it used to be taken as not done, and refilled)
    again, notes = inf_tr.count_orders(state, "bob")
    assert [k for k, _ in notes] == ["inf.note.counted_in_own_turn"]
    assert again == state
    assert error_key(lambda: inf_tr.spend_orders(again, "Angus", 1, lieutenant=False)) == (
        "inf.not_enough_orders"
    )
    # the next turn of Alice's counts again: Silva's Order is gone, Angus's is there
    state = tr.end_turn(tr.end_turn(state))
    assert inf_tr.pools_of(state, "alice").groups["orders"] == 1


def test_a_new_lieutenant_costs_2_orders_in_the_players_turn() -> None:  # L1460-1477
    state, _ = inf_tr.count_first_turn(game())  # Alice: 2 Orders (Angus, Silva), Lieutenant 1
    state = tr.damage(state, "Angus", 2)  # the Lieutenant Dead in an ARO
    # lt=1 typed on a model costs nothing: refused once the Orders are counted
    assert error_key(lambda: tr.set_stats(state, "Silva", {"lt": 1})) == "inf.lieutenant_by_hand"
    assert error_key(lambda: tr.add_unit(state, "Fusco", ALICE, {"bs": 11, "lt": 1})) == (
        "inf.lieutenant_by_hand"
    )
    named_state, named, _ = inf_tr.name_lieutenant(state, "Silva")
    assert (named.unit, named.pool, named.orders) == ("Silva", "orders", 2)
    assert named.replaced == ["Angus"]
    pools = inf_tr.pools_of(named_state, "alice")
    assert pools.groups["orders"] == 0 and pools.lt == 0  # its Special Order: next turn
    assert inf_tr.active_lieutenant(named_state, "alice") is not None
    assert error_key(lambda: inf_tr.name_lieutenant(named_state, "Silva")) == (
        "inf.lieutenant_standing"
    )
    # the next turn of Alice's: Silva's Orders and her Special Order, no Loss of Lieutenant
    after = tr.end_turn(tr.end_turn(named_state))
    assert inf_tr.pools_of(after, "alice").lt == 1
    # with one Order spent first, 2 are not there: nothing is spent, nobody named
    short, _, _ = inf_tr.spend_orders(state, "Silva", 1, lieutenant=False)
    assert error_key(lambda: inf_tr.name_lieutenant(short, "Silva")) == "inf.not_enough_orders"


def test_a_turn_begun_without_lieutenant_names_one_with_its_2_orders() -> None:  # L1463-1467
    state = game()
    state = tr.add_unit(state, "Drone", ALICE, {"bs": 11, "type": 7})
    state = tr.add_unit(state, "Merc", ALICE, {"bs": 11, "irr": 1})
    state = tr.damage(state, "Angus", 1)  # Unconscious before Alice's turn
    state, _ = inf_tr.count_first_turn(state)
    assert error_key(lambda: inf_tr.name_lieutenant(state, "Angus")) == (
        "inf.lieutenant_not_active"
    )
    assert error_key(lambda: inf_tr.name_lieutenant(state, "Drone")) == "inf.lieutenant_not_rem"
    assert error_key(lambda: inf_tr.name_lieutenant(state, "Merc")) == (
        "inf.lieutenant_not_irregular"
    )
    # Bob's models are named in Bob's turn only
    assert error_key(lambda: inf_tr.name_lieutenant(state, "JangQi")) == ("inf.lieutenant_standing")
    bob_less = tr.damage(state, "WenLiu", 2)
    assert error_key(lambda: inf_tr.name_lieutenant(bob_less, "JangQi")) == (
        "inf.lieutenant_in_own_turn"
    )
    new, named, _ = inf_tr.name_lieutenant(state, "Silva")
    assert named.pool == "loss_of_lt" and inf_tr.pools_of(new, "alice").groups["orders"] == 0


def test_a_saved_roster_carries_the_loadout_as_it_is_now() -> None:
    from rules_core.game import roster as rs

    roster = rs.parse_text(
        "Fusilier bs=12 w=1 | HMG: dam=15 burst=4 bands=20:0,40:+3 | Rifle", "inf"
    )
    state, _ = rs.add_roster(game(), roster, ALICE)
    assert rs.from_unit(tr.find_unit(state, "Fusilier"), state).weapons == roster.units[0].weapons
    # after the import: a Flamethrower (a direct template) and a Pistol join, the HMG leaves
    flame = tables.make_weapon("Flamethrower", None, 14, 1, "FIRE", "direct")
    pistol = tables.make_weapon("Pistol", "20:+3,40:0", 11, 2, None)
    state = inf_tr.add_weapon(inf_tr.add_weapon(state, flame), pistol)
    state, _ = inf_tr.equip(state, "Fusilier", ["Rifle", "Pistol", "Flamethrower"])
    back = rs.from_unit(tr.find_unit(state, "Fusilier"), state)
    assert [w.name for w in back.weapons] == ["Rifle", "Pistol", "Flamethrower"]
    assert back.weapons[2].values["template"] == "direct"
    # read back into another game: the same loadout, the same profiles
    again, _ = rs.add_roster(game(), rs.parse_text(rs.to_text(back), "inf"), ALICE)
    unit = tr.find_unit(again, "Fusilier")
    assert unit.extra["weapons"] == ["Rifle", "Pistol", "Flamethrower"]
    for made in (flame, pistol):
        assert tables.find_weapon(made.name, inf_tr.custom_weapons(again)) == made
    # the HMG's profile changed in the game (/inf weapon add again): saved as it is now
    state = inf_tr.add_weapon(state, tables.make_weapon("HMG", "20:0,40:+3", 16, 4, None))
    state, _ = inf_tr.equip(state, "Fusilier", ["HMG"])
    (hmg,) = rs.from_unit(tr.find_unit(state, "Fusilier"), state).weapons
    assert hmg.values == {"dam": "16", "burst": "4", "ammo": "N", "bands": "20:0,40:+3"}


def test_an_irregular_army_names_its_lieutenant_with_two_own_orders() -> None:  # L1800-1803
    state = GameState(system="inf", name="g", organiser="alice")
    state = tr.join(state, "alice", "Alice", None)
    for name, lt in (("Boss", 1), ("Merc", 0), ("Thug", 0)):
        state = tr.add_unit(state, name, ALICE, {"bs": 11, "w": 1, "irr": 1, "lt": lt})
    state, _ = inf_tr.count_first_turn(state)  # each its own Order, the Lieutenant's too
    state = tr.damage(state, "Boss", 2)  # the Irregular Lieutenant Dead
    new, named, _ = inf_tr.name_lieutenant(state, "Thug")
    assert (named.pool, named.payers) == ("order", ["Thug", "Merc"])
    assert inf_tr.pools_of(new, "alice").irregular == {"Boss": 1, "Merc": 0, "Thug": 0}
    # with one Order left among them, 2 are not there
    short, _, _ = inf_tr.spend_orders(state, "Merc", 1, lieutenant=False)
    assert error_key(lambda: inf_tr.name_lieutenant(short, "Thug")) == "inf.not_enough_orders"


def test_a_weapon_removed_from_the_game_leaves_every_loadout() -> None:
    hmg = tables.make_weapon("HMG", "20:0,40:+3,60:-3,120:-6", 15, 4, "N")
    armed, _ = inf_tr.equip(inf_tr.add_weapon(game(), hmg), "Angus", ["hmg", "Rifle"])
    state = inf_tr.remove_weapon(armed, "HMG")
    # else Angus's attacks would default to a weapon the game no longer knows
    assert tr.find_unit(state, "Angus").extra["weapons"] == ["Rifle"]
    assert [u.name for u in inf_tr.carriers(armed, "Hmg")] == ["Angus"]


def test_a_game_counted_before_the_mark_refuses_lt_by_hand_too() -> None:
    state, _ = inf_tr.count_first_turn(game())
    state.extra["inf"].pop("started")  # as a game stored before the mark was kept
    assert error_key(lambda: tr.set_stats(state, "Silva", {"lt": 1})) == "inf.lieutenant_by_hand"
    assert tr.set_stats(game(), "Silva", {"lt": 1})  # before any count: the army list's own


def test_antipodes_and_hungries_are_never_named_lieutenant() -> None:  # L1474-1476
    """Recovering command excludes REMs, Antipodes and Hungries always, and Irregular troops
    only in a regular army: in an army of Irregular models an Antipode (antipode=1, L2036) or a
    Gaki of the Hungries (hungries=1, L3450-3452) is still refused, a plain Irregular is not."""
    state = GameState(system="inf", name="g", organiser="alice")
    state = tr.join(state, "alice", "Alice", None)
    for name, stats in (
        ("Boss", {"lt": 1}),
        ("Pack", {"antipode": 1}),
        ("Gaki", {"hungries": 1}),
        ("Thug", {}),
    ):
        state = tr.add_unit(state, name, ALICE, {"bs": 11, "w": 1, "irr": 1, **stats})
    state, _ = inf_tr.count_first_turn(state)
    state = tr.damage(state, "Boss", 2)  # the Irregular Lieutenant Dead
    assert error_key(lambda: inf_tr.name_lieutenant(state, "Pack")) == (
        "inf.lieutenant_not_antipode"
    )
    assert error_key(lambda: inf_tr.name_lieutenant(state, "Gaki")) == (
        "inf.lieutenant_not_hungries"
    )
    _, named, _ = inf_tr.name_lieutenant(state, "Thug")  # the refusals spent nothing
    assert named.unit == "Thug" and named.payers == ["Thug", "Pack"]
    # in a regular army too, whatever their training: told apart from a plain Irregular
    regular = tr.add_unit(game(), "Pack", ALICE, {"bs": 11, "antipode": 1})
    regular = tr.add_unit(regular, "Preta", ALICE, {"bs": 11, "irr": 1, "hungries": 1})
    regular = tr.damage(regular, "Angus", 1)
    regular, _ = inf_tr.count_first_turn(regular)
    assert error_key(lambda: inf_tr.name_lieutenant(regular, "Pack")) == (
        "inf.lieutenant_not_antipode"
    )
    assert error_key(lambda: inf_tr.name_lieutenant(regular, "Preta")) == (
        "inf.lieutenant_not_hungries"
    )
