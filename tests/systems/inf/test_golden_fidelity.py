"""Infinity fidelity, round 2 (issue 23): golden tests citing the Italian rulebook transcript
(L123 = ../shared/seeds/003_27b81155ce3a4b9f.txt line 123; C8 etc. = the digest's section 6).
Each reproduces the book's example where it has one; the rules the book leaves open are named
settings, tested at both values."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.inf import transitions as inf_tr
from rules_core.systems.inf.attack import resolve_attack
from rules_core.systems.inf.models import AttackRequest, InfSettings, Side, update_settings
from rules_core.systems.inf.odds import attack_odds
from rules_core.systems.inf.request import AttackOptions, build_request
from tests.helpers import say
from tests.systems.inf.test_inf_rules import enumerate_attack

S = InfSettings()
ALICE = Player(user_id="alice", name="Alice")
BOB = Player(user_id="bob", name="Bob")


def dice(*faces: int) -> DiceSource:
    return DiceSource.given(list(faces))


def game() -> GameState:
    state = GameState(system="inf", name="g", organiser="alice")
    state = tr.join(state, "alice", "Alice", None)
    state = tr.join(state, "bob", "Bob", None)
    state = tr.add_unit(state, "Angus", ALICE, {"bs": 12, "cc": 13, "ph": 10, "arm": 1, "lt": 1})
    state = tr.add_unit(state, "Silva", ALICE, {"bs": 12, "cc": 13, "arm": 1})
    return tr.add_unit(state, "WenLiu", BOB, {"bs": 11, "cc": 14, "ph": 10, "arm": 1, "lt": 1})


def key_of(call: object) -> str:
    with pytest.raises(UserError) as raised:
        call()  # type: ignore[operator]
    return raised.value.key


# --- states: Unconscious and Dead models (L1374-1389) -------------------------------------------


def test_L1378_an_unconscious_model_may_be_given_the_order_for_its_automedikit() -> None:
    # L1378-1379: an Unconscious model takes no action but Regeneration or the AutoMediKit,
    # and the AutoMediKit costs 1 Order (L3510-3511): its Order can be given; a Dead one's not
    state = tr.damage(game(), "Silva", 1)  # W 1: Unconscious
    _, spent, notes = inf_tr.spend_orders(state, "Silva", 1, lieutenant=False)
    assert spent.pools == ["orders"]
    assert ("inf.note.unconscious_order", {"unit": "Silva"}) in notes
    dead = tr.damage(state, "Silva", 1)
    assert key_of(lambda: inf_tr.spend_orders(dead, "Silva", 1, lieutenant=False)) == (
        "inf.cannot_act"
    )
    # a healthy model spends from the pool with no such note
    _, spent, notes = inf_tr.spend_orders(state, "Angus", 1, lieutenant=False)
    assert spent.pools == ["orders"] and not [n for n in notes if "unconscious" in n[0]]


def test_unconscious_model_neither_attacks_nor_reacts() -> None:  # L1374-1389
    state = tr.damage(game(), "Silva", 1)
    silva, wen = tr.find_unit(state, "Silva"), tr.find_unit(state, "WenLiu")
    assert key_of(lambda: build_request(AttackOptions(dam=13), silva, wen, {})) == (
        "inf.cannot_act"
    )
    assert key_of(lambda: build_request(AttackOptions(dam=13, vs=12), wen, silva, {})) == (
        "inf.cannot_react"
    )
    # shooting an Unconscious model is resolved normally (L1386-1388): one more wound kills
    req, _ = build_request(AttackOptions(dam=13), wen, silva, {})
    _, out = resolve_attack(req, dice(5, 3), S)
    assert out.target_state == "dead"


def test_coup_de_grace_kills_an_unconscious_model_in_cc_with_no_roll() -> None:  # L1384-1385
    req = AttackRequest(
        active=Side(attr=14, dam=14), target=Side(attr=0, arm=5, w=1, wounds=1), cc=True
    )
    source = dice()
    steps, out = resolve_attack(req, source, S)
    assert source.consumed == [] and [s.name for s in steps] == ["coup_de_grace"]
    assert (out.target_state, out.active_hits) == ("dead", 1)
    odds = attack_odds(req, S)
    assert odds.target.p_dead == 1 and odds.target.p_hit == 1


# --- close combat: the charge (C8-C9) and cover (L897-908) ---------------------------------------


def test_C8_C9_charge_against_a_shot_gives_no_defence_bonus() -> None:  # L1549-1559
    # Shenru charges (CC 16) into Angus's ARO shot (BS 9): Angus 8, Shenru 10 -> Shenru wins.
    # Angus saves DAM 14 with ARM 1, needing more than 13: his shot was no CC roll, so no
    # Defence Bonus (L1125-1128 is for two CC rolls), and no Guts roll (hit in CC, L1244-1246).
    req = AttackRequest(
        active=Side(attr=16, dam=14, ammo="SHOCK"),
        target=Side(attr=9, arm=1, w=1),
        cc=True,
        reactive_cc=False,
    )
    steps, out = resolve_attack(req, dice(10, 8, 16), S)
    assert [m.name for m in steps[2].modifiers] == ["arm"] and steps[2].total == 17
    assert (out.target_wounds, out.guts_roll) == (0, False)
    _, out = resolve_attack(req, dice(10, 8, 13), S)  # 13 + 1 is not more than 14: Shock kills
    assert out.target_state == "dead"
    # the two CC rolls of C10-C11 still give the bonus
    both = req.model_copy(update={"reactive_cc": True})
    steps, _ = resolve_attack(both, dice(10, 8, 13), S)
    assert [m.name for m in steps[2].modifiers] == ["arm", "defence_bonus"]


def test_L1171_a_charger_that_survives_the_shot_makes_no_guts_roll() -> None:
    # A code audit: the charger that passed its ARM roll against the ARO shot was told to make
    # a Guts roll; it goes on into contact without one (L1171-1173), in the odds too.
    req = AttackRequest(
        active=Side(attr=16, dam=14, ammo="SHOCK", arm=5),
        target=Side(attr=9, dam=13),
        cc=True,
        reactive_cc=False,
    )
    _, out = resolve_attack(req, dice(5, 8, 17), S)  # Angus hits (8), Shenru saves (17+5 > 13)
    assert (out.reactive_hits, out.active_wounds, out.active_guts_roll) == (1, 0, False)
    assert attack_odds(req, S).active.p_guts == 0
    # a shot at a model that isn't charging still asks for Guts
    shot = req.model_copy(update={"cc": False, "reactive_cc": None})
    _, out = resolve_attack(shot, dice(5, 8, 17), S)
    assert out.active_guts_roll is True


def test_L374_L904_the_shooters_cover_doesnt_touch_the_targets_dodge() -> None:
    # A code audit: a Dodge (PH 10) against a shooter in partial cover was rolled against 7.
    req = AttackRequest(active=Side(attr=11, dam=13, cover=True), target=Side(attr=10, arm=1))
    assert req.targets() == (11, 10)
    steps, _ = resolve_attack(req, dice(15, 9), S)
    assert steps[1].target == 10 and "cover" not in [m.name for m in steps[1].modifiers if m.value]
    # the covered shooter's ARO shot back still takes it
    shot = req.model_copy(update={"target": Side(attr=10, dam=13, arm=1)})
    assert shot.targets() == (11, 7)


async def test_L374_L904_hits_only_odds_leave_the_dodge_alone(app: App) -> None:
    # /inf odds with no weapon gives the hits alone (odds.hit_odds): a Dodge (no vs_dam=)
    # against a shooter in partial cover is rolled at PH 10, not 7; a shot back gets the -3
    dodge = await say(app, "/inf odds attr=11 vs=10 my_cover")
    assert dodge.ok, dodge.error
    assert "Face to Face: 11 vs 10" in (dodge.title or "") + plain.render(dodge)
    back = await say(app, "/inf odds attr=11 vs=10 vs_dam=13 my_cover")
    assert back.ok, back.error
    assert "Face to Face: 11 vs 7" in (back.title or "") + plain.render(back)


def test_cover_applies_to_ranged_attacks_only() -> None:  # L897-908
    req = AttackRequest(
        active=Side(attr=14, dam=14), target=Side(attr=0, arm=1, cover=True), cc=True, opposed=False
    )
    steps, _ = resolve_attack(req, dice(5, 10), S)
    assert steps[0].target == 14 and [m.value for m in steps[0].modifiers if m.name == "cover"] in (
        [],
        [0],
    )
    assert [m.name for m in steps[1].modifiers] == ["arm"]
    assert (
        attack_odds(req, S).target.p_hit
        == attack_odds(req.model_copy(update={"target": Side(attr=0, arm=1)}), S).target.p_hit
    )
    # the charged model's ARO shot still suffers the charger's cover
    charge = AttackRequest(
        active=Side(attr=16, dam=14, cover=True, arm=1),
        target=Side(attr=12, dam=13),
        cc=True,
        reactive_cc=False,
    )
    steps, _ = resolve_attack(charge, dice(20, 5, 12), S)
    assert steps[1].target == 9


# --- settings for what the book leaves open -----------------------------------------------------


def test_em_critical_setting() -> None:  # L894-895 against L2921-2931
    req = AttackRequest(
        active=Side(attr=12, dam=13, ammo="EM"), target=Side(attr=0, bts=9), opposed=False
    )
    _, out = resolve_attack(req, dice(12), S)  # default: a critical is a failed BTS roll
    assert out.target_disabled
    roll = update_settings(S, {"em_crit": "roll"})
    _, out = resolve_attack(req, dice(12, 10), roll)  # 10 + 9 > 13: saved
    assert not out.target_disabled


def test_adh_critical_setting() -> None:  # L894-895 against L2891-2897
    req = AttackRequest(active=Side(attr=12, ammo="ADH"), target=Side(attr=0, ph=14), opposed=False)
    _, out = resolve_attack(req, dice(12), S)
    assert out.target_immobilized
    _, out = resolve_attack(req, dice(12, 3), update_settings(S, {"adh_crit": "roll"}))
    assert not out.target_immobilized  # 3 <= 14 - 6


def test_dodge_tie_setting() -> None:  # L427-431 (modified attribute) against L2005-2007
    # BS 9 against a Dodge of PH 10 -2 = 8: both roll 7.
    req = AttackRequest(
        active=Side(attr=9, dam=13), target=Side(attr=10, mod=-2, arm=0), opposed=True
    )
    _, out = resolve_attack(req, dice(7, 7, 1), S)  # modified 9 > 8: the shot hits
    assert (out.active_hits, out.reactive_hits) == (1, 0)
    base = update_settings(S, {"dodge_tie": "base"})
    _, out = resolve_attack(req, dice(7, 7), base)  # attributes 9 < 10: the Dodge wins
    assert (out.active_hits, out.reactive_hits) == (0, 1)
    assert attack_odds(req, base).target.p_hit < attack_odds(req, S).target.p_hit
    # a shot answered by a shot keeps the modified attributes
    shots = req.model_copy(update={"target": Side(attr=10, mod=-2, dam=13)})
    _, out = resolve_attack(shots, dice(7, 7, 1), base)
    assert (out.active_hits, out.reactive_hits) == (1, 0)


def test_remote_under_em_setting() -> None:  # L2879, L2925 (IMM) against L2966-2968 (DIS)
    rem = Side(attr=0, bts=0, heavy=True, remote=True)
    req = AttackRequest(active=Side(attr=12, dam=13, ammo="EM"), target=rem, opposed=False)
    _, out = resolve_attack(req, dice(5, 1), S)
    assert out.target_immobilized
    _, out = resolve_attack(req, dice(5, 1), update_settings(S, {"rem_em": "dis"}))
    assert (out.target_immobilized, out.target_disabled) == (False, True)


def test_structure_setting() -> None:  # L1399-1402 (like W) against L1403-1407 (destroyed)
    tag = Side(attr=0, arm=0, w=2, structure=True)
    req = AttackRequest(active=Side(attr=12, dam=13, ammo="DA"), target=tag, opposed=False)
    _, out = resolve_attack(req, dice(5, 1, 1), S)
    assert out.target_state == "unconscious"
    destroyed = update_settings(S, {"structure": "destroyed"})
    _, out = resolve_attack(req, dice(5, 1, 1), destroyed)
    assert out.target_state == "dead"
    assert attack_odds(req, destroyed).target.p_unconscious == 0


# --- through the commands ------------------------------------------------------------------------


async def test_commands_charge_coup_de_grace_and_out_of_action(app: App) -> None:
    for user, text in (
        ("alice", "/game new inf"),
        ("bob", "/game join"),
        ("alice", "/unit add Shenru cc=16 bs=14 ph=14 arm=5 w=1 lt=1"),
        ("bob", "/unit add Angus cc=13 bs=12 ph=10 arm=1 w=1 lt=1"),
        ("bob", "/unit add Silva cc=13 bs=12 arm=1 w=1"),
    ):
        assert (await say(app, text, user=user)).ok, text
    # C8-C9 (L1549-1559): the charge against Angus's shot (BS 9): no Defence Bonus
    charge = await say(
        app,
        "/inf attack attacker=Shenru target=Angus charge dam=14 ammo=SHOCK vs=9 dice=10,8,16",
        user="alice",
    )
    assert charge.ok, charge.error
    assert charge.data is not None
    save = charge.data["steps"][2]
    assert [m["name"] for m in save["modifiers"]] == ["arm"] and save["total"] == 17
    assert charge.data["outcome"]["guts_roll"] is False
    # Silva falls Unconscious: her Order is only for Regeneration or an AutoMediKit
    # (L1378-1379), and she cannot react (L1374-1389)
    assert (await say(app, "/unit damage Silva 1", user="bob")).ok
    assert (await say(app, "/turn end", user="alice")).ok  # bob's Orders: in his turn
    assert (await say(app, "/inf orders recount", user="bob")).ok
    given = await say(app, "/inf orders spend unit=Silva", user="bob")
    assert given.ok, given.error
    assert "Regeneration or AutoMediKit" in plain.render(given)
    react = await say(app, "/inf attack attacker=Shenru target=Silva dam=13 vs=12", user="alice")
    assert react.error is not None and react.error.code == "inf.cannot_react"
    # Coup de grâce (L1384-1385): a CC attack kills her with no roll
    coup = await say(app, "/inf attack attacker=Shenru target=Silva cc dam=14 apply", user="alice")
    assert coup.ok, coup.error
    assert coup.data is not None and coup.data["outcome"]["target_state"] == "dead"
    assert [s["name"] for s in coup.data["steps"]] == ["coup_de_grace"]
    assert "coup de grâce" in plain.render(coup).lower()
    it = await say(
        app,
        "/inf attacco attacker=Shenru target=Angus cc dam=14 dice=3,15",
        user="alice",
        lang="it",
    )
    assert it.ok, it.error


ODDS_CASES = [
    (
        "charge-shock",
        AttackRequest(
            active=Side(attr=16, dam=14, ammo="SHOCK", cover=True, arm=1),
            target=Side(attr=9, dam=13, arm=1, w=1, cover=True),
            cc=True,
            reactive_cc=False,
        ),
        S,
    ),
    (
        "dodge-tie-base",
        AttackRequest(active=Side(attr=9, burst=2, dam=13), target=Side(attr=10, mod=-2)),
        update_settings(S, {"dodge_tie": "base"}),
    ),
    (
        "cc-dodge-base",
        AttackRequest(active=Side(attr=12, dam=13), target=Side(attr=13, mod=-1, arm=1), cc=True),
        update_settings(S, {"dodge_tie": "base"}),
    ),
    (
        "structure-destroyed-da",
        AttackRequest(
            active=Side(attr=14, dam=14, ammo="DA"),
            target=Side(attr=0, arm=2, w=2, wounds=1, structure=True),
            opposed=False,
        ),
        update_settings(S, {"structure": "destroyed"}),
    ),
    (
        "em-crit-roll-remote-dis",
        AttackRequest(
            active=Side(attr=15, burst=2, dam=13, ammo="EM"),
            target=Side(attr=0, bts=3, heavy=True, remote=True),
            opposed=False,
        ),
        update_settings(S, {"em_crit": "roll", "rem_em": "dis"}),
    ),
    (
        "coup-de-grace",
        AttackRequest(active=Side(attr=14, dam=14), target=Side(attr=0, w=1, wounds=1), cc=True),
        S,
    ),
]


@pytest.mark.parametrize(("name", "req", "settings_"), ODDS_CASES, ids=[c[0] for c in ODDS_CASES])
def test_new_rules_odds_match_enumeration(
    name: str, req: AttackRequest, settings_: InfSettings
) -> None:
    brute = enumerate_attack(req, settings_)
    odds = attack_odds(req, settings_)
    assert odds.target.wounds.as_fractions() == brute["wounds"]
    assert odds.target.p_hit == brute["hit"].get(True, 0)
    assert odds.target.p_dead == brute["dead"].get(True, 0)
    assert odds.active.p_hit == brute["back"].get(True, 0)


# --- Loss of Lieutenant (L1460-1471) --------------------------------------------------------


def test_L1463_loss_of_lieutenant_orders_are_any_models_not_group_1s() -> None:
    # L1463-1466: with no active Lieutenant the turn has 2 Orders, which may name a new one:
    # nothing ties them to a combat group, so a player whose models are all in group 2 uses them
    state = game()
    state = tr.add_unit(state, "Fusilier", ALICE, {"bs": 11, "arm": 1, "group": 2})
    state = tr.damage(state, "Angus", 1)  # the Lieutenant Unconscious
    state = tr.damage(state, "Silva", 2)  # Dead
    state, _ = inf_tr.count_orders(state, "alice")
    state, spent, _ = inf_tr.spend_orders(state, "Fusilier", 1, lieutenant=False)
    assert spent.pools == ["loss_of_lt"]
    state, _, _ = inf_tr.spend_orders(state, "Fusilier", 1, lieutenant=False)
    assert key_of(lambda: inf_tr.spend_orders(state, "Fusilier", 1, lieutenant=False)) == (
        "inf.not_enough_orders"
    )
    # a new turn with a Lieutenant again (Bob's turn, then Alice's): the groups' pools as usual
    state = tr.end_turn(tr.end_turn(tr.heal(state, "Angus", 1)))
    _, spent, _ = inf_tr.spend_orders(state, "Fusilier", 1, lieutenant=False)
    assert spent.pools == ["orders2"]
