"""WARMACHINE rules: golden cases from the digest's section 6 (rulebook lines cited), exact odds
against brute-force enumeration, and property tests."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import Condition, GameState, Player
from rules_core.game.transitions import add_unit, damage, end_turn, heal
from rules_core.systems.wm import checks, grid
from rules_core.systems.wm.attack import effective_defense, judge, resolve_attack
from rules_core.systems.wm.models import MODS, AttackRequest
from rules_core.systems.wm.odds import attack_odds, check_pass_chance

S = DiceSource.given


def req(**kw: object) -> AttackRequest:
    return AttackRequest.model_validate({"pow": 10, "arm": 15, **kw})


# --- golden cases (digest §6) ------------------------------------------------------------------


def test_g1_d3_from_d6() -> None:  # L145-147
    assert [checks.d3(f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]


def test_g2_charge_damage_is_boosted_once() -> None:  # L171-175
    r = req(type="melee", skill=7, defense=12, pow=12, str_=10, arm=18, mods={"charge"})
    res = resolve_attack(r, S([6, 5, 1, 2, 3]))
    assert res.steps[-1].dice == [1, 2, 3]  # 3d6 + P+S: one extra die
    with pytest.raises(UserError) as err:
        resolve_attack(r.model_copy(update={"boost": "damage"}), S([6, 5, 1, 2, 3, 4]))
    assert err.value.key == "wm.double_boost"


def test_g5_stationary_with_cover_and_the_def_floor() -> None:  # L603-608
    assert effective_defense(req(type="ranged", defense=14, mods={"stationary", "cover"}))[0] == 9
    assert (
        effective_defense(req(type="ranged", defense=14, mods={"stationary"}, def_mod=-2))[0] == 5
    )


def test_g6_roll_modifiers_are_not_floored() -> None:  # L609-615: 2d6 + 3 - 4 = 2d6 - 1
    res = resolve_attack(req(type="ranged", skill=3, defense=5, hit_mod=-4), S([1, 3]))
    assert res.outcome.attack_total == 3 and not res.outcome.hit


def test_g7_lowest_base_def_wins() -> None:  # L633-639: stationary (5) with a base DEF 7 rule
    r = req(type="ranged", defense=13, mods={"stationary", "movement_crippled"})
    assert effective_defense(r)[0] == 5
    assert effective_defense(req(type="ranged", defense=13, mods={"movement_crippled"}))[0] == 7


def test_g14_g41_checks() -> None:  # L2041-2043 Repair [9]; L5386-5387 CMD 9
    assert checks.resolve_check(9, S([4, 5]))[1].pass_
    assert not checks.resolve_check(9, S([5, 5]))[1].pass_
    assert check_pass_chance(9) == Fraction(30, 36)


def test_g17_thrown_deviation_capped() -> None:  # L2538-2553
    _, out = checks.resolve_deviation(Fraction(11, 2), True, S([3, 6]))
    assert (out.direction, out.rolled, out.distance, out.capped) == (3, 3, 2.75, True)


def test_g19_aimed_boosted_shot_into_melee() -> None:  # L2968-2983: 3d6 + RAT + 2 - 4
    r = req(type="ranged", skill=6, defense=13, boost="hit", mods={"aim", "in_melee"})
    res = resolve_attack(r, S([4, 4, 3, 1, 1]))
    assert res.steps[1].dice == [4, 4, 3] and res.outcome.attack_total == 11 + 6 + 2 - 4
    assert res.outcome.hit and res.outcome.critical  # two 4s on a hit
    cover = r.model_copy(update={"mods": frozenset({"aim", "in_melee", "cover"})})
    assert effective_defense(cover)[0] == 17  # Stryker in cover: +4 DEF


def test_g21_g22_deviation() -> None:  # L3087-3104, L3106-3110
    _, out = checks.resolve_deviation(Fraction(11), False, S([5, 4]))
    assert (out.direction, out.distance, out.capped) == (5, 4.0, False)
    for face in (3, 4, 5, 6):
        _, out = checks.resolve_deviation(Fraction(5), False, S([1, face]))
        assert out.distance == 2.5 and out.capped


def test_g24_g25_combined_attacks() -> None:  # L3302-3310, L3352-3360
    r = req(type="melee", skill=6, defense=13, pow=11, str_=6, arm=18, combined=4)
    res = resolve_attack(r, S([3, 4, 2, 5]))
    assert res.outcome.attack_total == 7 + 6 + 4 and res.outcome.damage_total == 7 + 17 + 4
    two = resolve_attack(r.model_copy(update={"combined": 2}), S([3, 4, 2, 5]))
    assert two.outcome.attack_total == 15
    ranged = req(type="ranged", skill=6, defense=13, pow=12, arm=20, combined=3)
    assert resolve_attack(ranged, S([3, 4, 2, 5])).outcome.attack_total == 7 + 6 + 3
    with pytest.raises(UserError) as raised:
        resolve_attack(ranged.model_copy(update={"mods": frozenset({"in_melee"})}), S([1, 2]))
    assert raised.value.key == "wm.combined_in_melee"


def test_L3338_L3352_a_combined_attack_counts_only_the_models_that_contribute() -> None:
    """A code audit: combined=1 was refused, yet two Long Gunners with one out of range add +1
    (a participant that would miss automatically adds nothing but still gives up its attack,
    L3338-3349; G25, L3352-3360: four declared, one out of range, +3). combined=N counts the
    models that contribute, the primary attacker included."""
    ranged = req(type="ranged", skill=6, defense=13, pow=12, arm=20, combined=1)
    res = resolve_attack(ranged, S([3, 4, 2, 5]))
    assert res.outcome.attack_total == 7 + 6 + 1 and res.outcome.damage_total == 7 + 12 + 1
    g25 = resolve_attack(ranged.model_copy(update={"combined": 3}), S([3, 4, 2, 5]))
    assert g25.outcome.attack_total == 7 + 6 + 3


def test_g26_falling_dice() -> None:  # L3392-3395
    assert [checks.fall_dice(Fraction(h)) for h in (3, 5, 7)] == [2, 3, 4]
    assert checks.fall_dice(Fraction(6)) == 3 and checks.fall_dice(Fraction(13, 2)) == 4
    _, out = checks.resolve_fall(Fraction(5), 14, S([1, 2, 3]))
    assert out.damage_total == 16 and out.damage == 2


def test_g31_g32_cover_replaces_concealment() -> None:  # L4019-4038, L2882-2897
    both = req(type="ranged", defense=13, mods={"cover", "concealment"})
    assert effective_defense(both)[0] == 17
    assert effective_defense(req(type="magic", defense=13, mods={"concealment"}))[0] == 15
    # no cover in melee (L2190-2193: intervening terrain instead)
    with pytest.raises(UserError) as raised:
        resolve_attack(req(type="melee", defense=13, mods={"cover"}), S([3, 3]))
    assert raised.value.key == "wm.not_melee"
    assert effective_defense(req(type="melee", defense=13, mods={"intervening"}))[0] == 15


def test_g40_magic_ability() -> None:  # L5297-5302: 2d6 + 7
    res = resolve_attack(req(type="magic", skill=7, defense=14), S([3, 4, 1, 1]))
    assert res.outcome.attack_total == 14 and res.outcome.hit


def test_blast_half_pow_rounded_up() -> None:  # L3001-3004, L131-136: POW 13 -> 2d6 + 7
    res = resolve_attack(req(pow=13, arm=12, blast=True), S([2, 3]))
    assert res.outcome.damage_total == 12 and res.outcome.damage == 0
    assert res.outcome.attack_total is None and res.outcome.hit
    boosted = resolve_attack(req(pow=13, arm=12, blast=True, boost="damage"), S([2, 3, 6]))
    assert boosted.outcome.damage == 6  # each blast roll may be boosted (L3003-3004)


def test_all_ones_miss_all_sixes_hit_and_one_die() -> None:  # L2171-2177
    assert judge([1, 1], 30, 5) == (False, False)
    assert judge([6, 6], 12, 30) == (True, True)
    assert judge([6], 6, 30) == (False, False)  # one die: no automatic hit
    assert judge([1], 20, 5) == (False, False)
    assert judge([2, 5, 2], 20, 14) == (True, True)  # any pair of three dice


def test_knocked_down_melee_autohit_and_roll_anyway() -> None:  # L3435-3438, L3200-3206
    r = req(type="melee", skill=5, defense=14, pow=12, str_=10, arm=18, mods={"knocked_down"})
    res = resolve_attack(r, S([3, 4]))  # no attack dice: straight to damage
    assert res.outcome.auto_hit and res.outcome.damage_total == 29
    anyway = r.model_copy(update={"mods": frozenset({"knocked_down", "roll_anyway"})})
    res = resolve_attack(anyway, S([1, 1]))
    assert not res.outcome.hit  # the roll decides once made
    ranged = req(type="ranged", skill=5, defense=14, mods={"knocked_down"})
    assert resolve_attack(ranged, S([1, 1])).outcome.defense == 5  # base DEF 5, no auto-hit


def test_free_strike_and_crippled_weapon() -> None:  # L2149-2162, L3740-3742
    r = req(type="melee", skill=6, defense=12, pow=12, arm=16, mods={"free_strike"})
    res = resolve_attack(r, S([2, 3, 1, 1, 1]))
    assert res.outcome.attack_total == 13 and len(res.steps[-1].dice) == 3
    crippled = req(type="melee", skill=6, defense=12, pow=12, arm=16, mods={"crippled"})
    res = resolve_attack(crippled, S([6, 1]))
    assert len(res.steps[1].dice) == 1 and len(res.steps[-1].dice) == 1
    with pytest.raises(UserError) as raised:
        resolve_attack(req(type="melee", mods={"free_strike", "backstrike"}), S([1, 2]))
    assert raised.value.key == "wm.free_strike_backstrike"
    with pytest.raises(UserError) as raised:
        resolve_attack(req(type="magic", mods={"aim"}), S([1, 2]))
    assert raised.value.key == "wm.aim_ranged_only"


# --- exact odds against brute force --------------------------------------------------------------


class Rolls:
    """An attack written out from the rulebook for the oracle, independently of `plan` and
    `judge`: the dice, what is added to them, and the numbers to reach."""

    def __init__(
        self, hit_dice: int, to_hit: int, defense: int, damage_dice: int, dmg: int, arm: int
    ) -> None:
        self.hit_dice, self.to_hit, self.defense = hit_dice, to_hit, defense
        self.damage_dice, self.dmg, self.arm = damage_dice, dmg, arm


def brute(r: Rolls, auto: bool = False) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    """Every ordered sequence of attack and damage faces, judged by the rules themselves: all
    1s miss, all 6s on two or more dice hit, else the total must reach DEF (L2171-2177); a hit
    with two equal dice is a critical (L3943-3946); damage = roll + POW (+STR) - ARM, never
    below 0 (L3615-3625). Returns (damage distribution, P(hit), P(critical))."""
    dist: dict[int, Fraction] = {}
    hits = crits = Fraction(0)
    attack_rolls = [()] if auto else list(product(range(1, 7), repeat=r.hit_dice))
    damage_rolls = list(product(range(1, 7), repeat=r.damage_dice))
    for faces in attack_rolls:
        if auto:
            hit, crit = True, False
        elif all(f == 1 for f in faces):
            hit, crit = False, False
        else:
            six = len(faces) >= 2 and all(f == 6 for f in faces)
            hit = six or sum(faces) + r.to_hit >= r.defense
            crit = hit and len(set(faces)) < len(faces)
        p = Fraction(1, len(attack_rolls))
        hits += p * hit
        crits += p * crit
        for dmg_faces in damage_rolls:
            dmg = max(0, sum(dmg_faces) + r.dmg - r.arm) if hit else 0
            dist[dmg] = dist.get(dmg, Fraction(0)) + p / len(damage_rolls)
    return dist, hits, crits


@pytest.mark.parametrize(
    "kw,rolls",
    [
        # MAT 6 vs DEF 14: 2d6+6; P+S 15 vs ARM 17
        (
            {"type": "melee", "skill": 6, "defense": 14, "pow": 10, "str_": 5, "arm": 17},
            Rolls(2, 6, 14, 2, 15, 17),
        ),
        # boosted attack roll: 3d6+5 vs DEF 13; POW 10 vs ARM 14 (ranged: no STR)
        (
            {"type": "ranged", "skill": 5, "defense": 13, "pow": 10, "arm": 14, "boost": "hit"},
            Rolls(3, 5, 13, 2, 10, 14),
        ),
        # a charge boosts the damage roll: 3d6 + P+S 8 vs ARM 12 (L1820-1834)
        (
            {"type": "melee", "skill": 4, "defense": 16, "pow": 8, "arm": 12, "mods": {"charge"}},
            Rolls(2, 4, 16, 3, 8, 12),
        ),
        # crippled weapon: one die fewer on both rolls (L3740-3742)
        (
            {
                "type": "magic",
                "skill": 7,
                "defense": 12,
                "pow": 12,
                "arm": 16,
                "mods": {"crippled"},
            },
            Rolls(1, 7, 12, 1, 12, 16),
        ),
        # a single die: all 1s still miss, but a 6 alone is no automatic hit
        (
            {"type": "magic", "skill": 2, "defense": 9, "pow": 5, "arm": 3, "mods": {"crippled"}},
            Rolls(1, 2, 9, 1, 5, 3),
        ),
        # cover (+4 DEF, L2899-2904) and aim (+2, L2786-2790): 2d6+6+2 vs DEF 12+4
        (
            {
                "type": "ranged",
                "skill": 6,
                "defense": 12,
                "pow": 11,
                "arm": 13,
                "mods": {"cover", "aim"},
            },
            Rolls(2, 8, 16, 2, 11, 13),
        ),
    ],
)
def test_odds_match_brute_force(kw: dict[str, object], rolls: Rolls) -> None:
    odds = attack_odds(AttackRequest.model_validate(kw))
    dist, p_hit, p_crit = brute(rolls)
    assert odds.distribution.as_fractions() == {v: p for v, p in sorted(dist.items()) if p}
    assert odds.p_hit == p_hit and odds.p_critical == p_crit
    assert odds.p_damage == 1 - dist.get(0, Fraction(0))


def test_odds_of_an_automatic_hit_and_blast() -> None:
    r = req(type="melee", skill=5, defense=14, pow=10, arm=12, mods={"stationary"})
    odds = attack_odds(r)
    dist, _, _ = brute(Rolls(0, 0, 0, 2, 10, 12), auto=True)
    assert odds.p_hit == 1 and odds.distribution.as_fractions() == dist
    # blast: 2d6 + half POW rounded up (13 -> 7) vs ARM 12, no attack roll (L3001-3004)
    blast = attack_odds(req(pow=13, arm=12, blast=True))
    dist, _, _ = brute(Rolls(0, 0, 0, 2, 7, 12), auto=True)
    assert blast.p_critical == 0 and blast.distribution.as_fractions() == dist


def test_check_pass_chance_counts_the_36_rolls() -> None:
    for value in range(1, 14):
        ways = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b <= value)
        assert check_pass_chance(value) == Fraction(ways, 36)


# --- properties --------------------------------------------------------------------------------

mods_st = st.frozensets(st.sampled_from(MODS), max_size=5)
request_st = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["melee", "ranged", "magic"]),
        "skill": st.integers(0, 20),
        "defense": st.integers(1, 30),
        "pow": st.integers(0, 40),
        "str_": st.integers(0, 20),
        "arm": st.integers(0, 40),
        "boost": st.sampled_from(["none", "hit", "damage", "both"]),
        "mods": mods_st,
        "combined": st.integers(0, 5),
        "extra_hit_dice": st.integers(0, 2),
        "extra_damage_dice": st.integers(0, 2),
        "blast": st.booleans(),
        "hit_mod": st.integers(-20, 20),
        "def_mod": st.integers(-20, 20),
        "dmg_mod": st.integers(-20, 20),
    }
)


@settings(max_examples=150, deadline=None)
@given(request_st, st.integers(0, 2**32))
def test_a_seeded_attack_lies_in_the_support_of_its_odds(kw: dict[str, object], seed: int) -> None:
    try:
        r = AttackRequest.model_validate(kw)
        res = resolve_attack(r, DiceSource.seeded(seed))
    except UserError:
        return
    odds = attack_odds(r)
    assert odds.distribution.probability(res.outcome.damage) > 0
    assert odds.distribution.missing == 0
    if res.outcome.critical:
        assert odds.p_critical > 0
    if res.outcome.hit:
        assert res.outcome.damage_total is not None
    else:
        assert res.outcome.damage == 0 and res.outcome.damage_total is None


@given(st.text(max_size=80))
def test_grid_parser_result_or_user_error(text: str) -> None:
    try:
        g = grid.parse_grid(text)
    except UserError as err:
        assert err.key == "wm.bad_grid"
        return
    assert len(g.columns) == 6 and g.boxes >= 1


@given(st.text(max_size=20))
def test_inches_parser_result_or_user_error(text: str) -> None:
    try:
        value = checks.parse_inches(text, "distance", 120)
    except UserError:
        return
    assert 0 < value <= 120


def test_mods_parser_property() -> None:
    from rules_core.systems.wm.transitions import parse_mods

    @given(st.text(max_size=60))
    def inner(text: str) -> None:
        try:
            assert parse_mods(text) <= set(MODS)
        except UserError as err:
            assert err.key == "wm.bad_mod"

    inner()


# --- damage grid and turn bookkeeping --------------------------------------------------------

JACK = "......|..L..M|...MC.|...MC.|..R..M|......"


def test_grid_fills_down_then_right_and_wraps() -> None:  # L3648-3661
    g = grid.parse_grid("..|..|..|..|..|.M")
    g, marked = grid.apply_damage(g, 5, 6)
    assert marked == [(5, 0), (5, 1), (0, 0), (0, 1), (1, 0)]
    assert g.crippled() == ["M"]
    g, marked = grid.apply_damage(g, 99, 3)
    assert g.destroyed and len(g.marks) == g.boxes  # never more damage than boxes
    g, healed = grid.heal(g, 2, column=6)
    assert healed == 2 and g.crippled() == []  # one box healed restores the system


def test_italian_letters_are_the_same_systems() -> None:  # L3702-3711, digest §8.5
    g = grid.parse_grid("S|D|T|C|M|A")
    assert sorted(g.systems()) == ["A", "C", "H", "L", "M", "R"]


def state_with_units() -> GameState:
    state = GameState(system="wm", name="t", organiser="a")
    state.players = [Player(user_id="a", name="Ann"), Player(user_id="b", name="Bob")]
    state.order = ["a", "b"]
    state = add_unit(state, "Kreoss", state.players[0], {"def": 16, "arm": 15, "focus": 7})
    state = add_unit(state, "Crusader", state.players[0], {"def": 12, "arm": 18}, {"grid": JACK})
    state = add_unit(state, "Defender", state.players[1], {"def": 12, "arm": 18}, {"grid": JACK})
    state = add_unit(state, "Trencher", state.players[1], {"def": 13, "arm": 13})
    return state


def test_units_grid_damage_and_heal_through_the_game() -> None:
    state = state_with_units()
    assert state.resources["unit:kreoss"]["focus"] == 7  # starts with FOCUS (L1395-1403)
    notes: list[tuple[str, dict[str, object]]] = []
    state = damage(state, "Defender", 9, dice=S([2]), notes=notes)
    defender = state.units[2]
    assert defender.damage == 9 and notes[0][1]["column"] == 2
    assert ("wm.note.crippled_L", {"unit": "Defender", "system": "L"}) in notes
    state = heal(state, "Defender", 3)
    assert state.units[2].damage == 6
    state = damage(state, "Trencher", 4)
    assert state.units[3].destroyed  # 1 box: one damage point disables (L3635-3638)
    with pytest.raises(UserError) as raised:
        damage(state, "Kreoss", 1, column=2)
    assert raised.value.key == "wm.column_needs_grid"


def test_g30_maintenance_fire_and_corrosion() -> None:  # L3970-3985, L3986-3999
    state = state_with_units()
    state.units[2].conditions = [Condition(name="fire"), Condition(name="corrosione")]
    state.resources["unit:defender"] = {"focus": 2}
    notes: list[tuple[str, dict[str, object]]] = []
    # Bob's turn: fire d6 5 stays, corrosion d6 1 expires; fire 2d6 [6, 4] + 12 = 22 vs 18
    # -> 4 damage from column 3 (d6).
    new = end_turn(state, dice=S([5, 1, 6, 4, 3]), notes=notes)
    defender = new.units[2]
    assert new.current == "b" and defender.damage == 4
    assert [c.name for c in defender.conditions] == ["fire"]
    assert new.resources["unit:defender"]["focus"] == 0  # all focus removed (L1467)
    keys = [k for k, _ in notes]
    assert keys[:3] == ["wm.note.maintenance", "wm.note.fire_stays", "wm.note.corrosion_expired"]
    assert (
        "wm.note.fire",
        {"unit": "Defender", "dice": [6, 4], "total": 22, "arm": 18, "n": 4},
    ) in notes
    # Next Bob turn: fire rolls 1 and goes out with no damage; Kreoss (Ann) refilled on hers.
    new.resources["unit:kreoss"]["focus"] = 1
    again = end_turn(new, dice=S([]), notes=[])
    assert again.current == "a" and again.resources["unit:kreoss"]["focus"] == 7
    last = end_turn(again, dice=S([1]), notes=[])
    assert last.units[2].conditions == [] and last.units[2].damage == 4


def test_L843_L880_maintenance_fire_meets_the_shield() -> None:
    """A code audit: fire in the Maintenance Phase rolled against the bare ARM of a shielded
    warjack. Fire does not come from the back arc, so its shield's +2 counts (L843-846,
    L880-883): 2d6 [6, 6] + 12 = 24 against ARM 18 + 2 is 4 damage, not 6."""
    state = state_with_units()
    state.units[2].conditions = [Condition(name="fire")]
    state.units[2].extra["shields"] = {"L": 1}
    notes: list[tuple[str, dict[str, object]]] = []
    new = end_turn(state, dice=S([5, 6, 6, 3]), notes=notes)
    assert new.units[2].damage == 4
    assert (
        "wm.note.fire",
        {"unit": "Defender", "dice": [6, 6], "total": 24, "arm": 20, "n": 4},
    ) in notes


def test_every_key_built_at_run_time_exists_in_both_languages() -> None:
    from bot import i18n
    from rules_core.systems.wm.models import Mod
    from rules_core.systems.wm.settings import CHOICES, direction_key
    from rules_core.systems.wm.system import KNOWN_SYSTEMS

    keys = [f"wm.note.crippled_{s}" for s in KNOWN_SYSTEMS]
    keys += [f"wm.note.{k}_{w}" for k in ("fire", "corrosion") for w in ("expired", "stays")]
    keys += [
        f"wm.dir.{direction_key(d, lay)}"
        for d in range(1, 7)
        for lay in CHOICES["deviation_layout"]
    ]
    keys += [f"wm.setting.{name}" for name in CHOICES]
    keys += [f"wm.skill.{t}" for t in ("melee", "ranged", "magic")]
    mod_names = {"def", "base_def_5", "base_def_7", "def_mod", "def_floor", "hit_mod", "pow"}
    mod_names |= {"str", "half_pow", "dmg_mod", "fall_pow", "combined"}
    mod_names |= set(Mod.__args__) - {"charge", "knocked_down", "stationary", "crippled"}  # type: ignore[attr-defined]
    mod_names -= {"roll_anyway", "movement_crippled"}
    keys += [f"wm.mod.{m}" for m in mod_names]
    steps = ("defense", "attack", "damage", "blast", "fall", "check", "direction", "distance")
    keys += [f"wm.step.{s}" for s in (*steps, "distance_d3")]
    keys += [f"wm.result.{r}" for r in ("hit", "critical", "miss", "pass", "fail")]
    keys += [f"wm.verdict.{v}" for v in ("miss", "deviate")]
    # Counted messages are plural tables: `other` is the form every language has.
    keys += [f"wm.verdict.{v}.other" for v in ("hit", "critical", "blast", "fall")]
    missing = [(lang, k) for k in keys for lang in i18n.LANGS if not i18n.has(k, lang)]
    assert missing == []
