"""C5 rules: golden cases from the digest's section 6 (seed offsets @N cited), exact odds
against brute-force enumeration, and property tests."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.systems.c5 import tables
from rules_core.systems.c5.attack import (
    MeleeRequest,
    ShootRequest,
    resolve_melee,
    resolve_shoot,
    shoot_difficulty,
    shooting_wound,
)
from rules_core.systems.c5.checks import (
    may_pass,
    resolve_mana,
    resolve_opposed,
    resolve_test,
    temporary_faith,
)
from rules_core.systems.c5.models import C5Settings, WoundRequest
from rules_core.systems.c5.models import TestRequest as TReq
from rules_core.systems.c5.odds import melee_odds, p_success, shoot_odds, wound_odds
from rules_core.systems.c5.odds import test_odds as odds_of_test
from rules_core.systems.c5.wound import effective_str, resolve_wound

DEFAULT = C5Settings()


def run(value: int, faces: list[int], **kw: object) -> tuple[int, bool, bool]:
    _, out = resolve_test(TReq(value=value, **kw), DiceSource.given(faces))  # type: ignore[arg-type]
    return out.total, out.success, out.failed


# --- §6.1 characteristic tests (C5 natural-1 rule, @4060, examples @5455) -------------------


def test_t01_t02_t03_seed_examples() -> None:
    assert run(5, [1, 3]) == (2, True, False)  # T01 @5455: "l'attacco riesce con 2"
    assert run(5, [6, 1, 3]) == (2, True, False)  # T02: the 6 before the 1 is ignored
    assert run(5, [1, 5])[2] is True  # T03: reroll 5 -> failure


def test_t04_rozzo_rerolls_fives() -> None:
    # T04 @6254: ATT 6 with Rozzo, 5 then 1 then 2: the rule gives 6 - 2 = 4 (seed prints 3).
    assert run(6, [5, 1, 2], reroll=frozenset({5})) == (4, True, False)


def test_t05_to_t10() -> None:
    assert run(5, [1, 6])[2] is True  # T05
    assert run(2, [1, 2]) == (0, False, True)  # T06: final 0 fails
    assert run(3, [1, 2], mod=-1) == (0, False, True)  # T07: penalty inside the final
    assert run(5, [4]) == (9, True, False)  # T08
    assert run(5, [6, 4]) == (15, True, False)  # T09: open-ended 6 [BG]
    assert run(5, [1], one_ok=True) == (6, True, False)  # T10: Fine lama-like
    assert run(5, [1, 4], diff=4) == (1, False, False)  # too low, not auto-failed


def test_t11_zone_artillery_plain_one() -> None:
    assert run(5, [1], plain_one=True)[2] is True  # T11 @40747: no negative reroll


def test_closed_chain_without_open_ended() -> None:
    step, out = resolve_test(TReq(value=5), DiceSource.given([6]), open_ended=False)
    assert out.total == 11 and step.dice == [6]


# --- §6.2 caps (@2104, Cypher @3715, Red Troll @4728, Baikemono @5069) -----------------------


def strength(**kw: object) -> int:
    req = WoundRequest(res=0, **kw)  # type: ignore[arg-type]
    return effective_str(req)[0]


def test_caps() -> None:
    assert strength(str_=16) == 15  # C01: 13 + 3 mutagen
    assert strength(str_=16, penalty=1) == 15  # C02: the excess fills the Light wound
    assert strength(str_=16, penalty=2) == 14  # C03
    assert strength(str_=18, str_uncapped=True, str_printed=16) == 16  # C04
    assert strength(str_=17, penalty=1, str_uncapped=True, str_printed=16) == 16  # C05
    assert strength(str_=16, penalty=1, str_uncapped=True, str_printed=16) == 15  # C06
    assert strength(str_=16, master=2) == 16  # C07: 5 + 9 + 2
    assert strength(str_=19, master=2) == 17  # C08
    assert strength(str_=25, artillery=True) == 25  # artillery is not capped


# --- §6.3 / 6.4 wound table and wound rolls (@130057, @2104) ---------------------------------


@pytest.mark.parametrize(
    ("row", "r", "expected"),
    [
        (1, -5, tables.NULLA),  # W01
        (1, -3, tables.NULLA),  # W02
        (1, -2, tables.STORDITO),  # W03
        (1, 3, tables.STORDITO),  # W04
        (1, 4, 1),  # W05
        (1, 12, 2),  # W06
        (1, 18, 3),  # W07
        (1, 25, 3),
        (2, 2, 1),  # W08
        (2, 8, 2),
        (2, 14, 3),
        (2, 18, 4),
        (3, -1, tables.STORDITO),  # W09
        (3, 0, 1),
        (3, 4, 1),  # W10: split cell
        (3, 5, 2),  # W11
        (3, 10, 3),  # W12
        (3, 14, 4),
        (3, 18, 5),
        (4, -10, 1),  # W13
        (4, 2, 2),
        (4, 6, 3),
        (4, 18, 6),
        (5, 0, 2),  # W14
        (5, 4, 3),
        (5, 6, 4),
        (5, 10, 5),
        (5, 14, 6),
        (5, 30, 6),
    ],
)
def test_wound_table(row: int, r: int, expected: int) -> None:
    assert tables.cell(row, tables.band_of(r), r) == expected


def test_minus_three_setting() -> None:
    assert tables.band_of(-3) == 0 and tables.band_of(-3, minus_three="second") == 1


def wound(faces: list[int], **kw: object) -> tuple[int | None, int, bool, bool]:
    _, out = resolve_wound(WoundRequest(**kw), DiceSource.given(faces))  # type: ignore[arg-type]
    return out.location, out.wounds, out.stunned, out.exceptional


def test_full_wound_rolls() -> None:
    assert wound([2, 5], str_=7, res=6) == (2, 1, False, False)  # R01
    assert wound([5, 2], str_=7, res=6) == (2, 1, False, False)  # order of the dice is free
    assert wound([1, 3], str_=5, res=6) == (1, 0, True, False)  # R02
    assert wound([4, 4], str_=10, res=5) == (4, 3, False, True)  # R03
    assert wound([6, 6], str_=5, res=5) == (5, 4, False, True)  # R07: Head row, R 6
    assert wound([6, 6], str_=3, res=9) == (5, 3, False, True)  # R08: raised to 3
    assert wound([5, 6], str_=7, res=8) == (5, 3, False, False)  # R09
    assert wound([5, 6], str_=7, res=8, hardboned=True)[1] == 2  # R10
    assert wound([5, 6], str_=7, res=8, scourge=True)[1] == 4  # R11
    assert wound([5, 6], str_=7, res=8, scourge=True, hardboned=True)[1] == 3  # R12
    assert wound([1, 6], str_=15, res=2, scourge=True)[1] == 3  # R13: last band stays
    assert wound([1, 2], str_=1, res=9, hardboned=True)[:3] == (1, 0, False)  # R14: Nulla
    assert wound([3, 5], str_=0, res=0)[1] == 2  # R21: symbiotic 0 vs 0


def test_scourge_into_the_split_cell() -> None:
    # Row 3, R 3 (band 2/3) read one band worse lands in the split 4/5 cell's "4" half.
    assert wound([3, 3], str_=0, res=1, scourge=True)[1] == 1  # R 2 reads as 4
    assert wound([3, 3], str_=0, res=0, scourge=True)[1] == 2  # R 3 reads as 5
    assert wound([3, 3], str_=1, res=0, scourge=True)[1] == 2  # R 4 -> reads as 6 -> 2


# --- §6.5 health ----------------------------------------------------------------------------


def test_health_and_penalties() -> None:
    assert tables.wounds_for(2, False) == 4  # H01 medium
    assert tables.wounds_for(2, True) == 5  # H03 Abel il Collerico @50842
    assert tables.wounds_for(3, True) == 6 and tables.wounds_for(6, True) == 8  # H04 cap
    assert [tables.penalty(w, False) for w in (0, 1, 2, 3, 5)] == [0, 1, 2, 3, 3]  # H05
    assert tables.penalty(0, True) == 1 and tables.penalty(2, True) == 2  # H06
    assert tables.state_key(2, 4) == "serious" and tables.state_key(4, 4) == "killed"  # H01/H02


# --- §6.6 turn, resources -------------------------------------------------------------------


def test_pass_rule() -> None:
    assert may_pass(5, 6) and not may_pass(6, 6)  # G01, G02 @12044, @16499


@pytest.mark.parametrize(
    ("rank", "power", "die", "gems"),
    [(2, 4, 5, 5), (3, 6, 5, 7), (1, 2, 2, 3), (4, 9, 1, 0), (1, -3, 2, 1), (4, 30, 6, 12)],
)
def test_mana_table(rank: int, power: int, die: int, gems: int) -> None:
    # G19-G22 @130449
    _, out = resolve_mana(rank, power, DiceSource.given([die]))
    assert out.gems == gems


def test_mana_recupero_and_rank() -> None:
    assert resolve_mana(2, 4, DiceSource.given([5]), recovery=2)[1].gems == 7
    with pytest.raises(UserError) as raised:
        resolve_mana(5, 4, DiceSource.given([5]))
    assert raised.value.key == "c5.bad_rank"


def test_faith() -> None:
    assert temporary_faith(1, 3, 7).ft == 6  # G26 Devoto
    assert temporary_faith(2, 3, 5).ft == 6  # G27 Zelota
    assert temporary_faith(3, 4, 4, believer=2).ft == 10  # G28 Decano
    assert temporary_faith(1, 3, 2, consecrated=1, piety=2, unspent=5).ft == 3 + 1 + 2


def test_opposed() -> None:
    steps, out = resolve_opposed(TReq(value=4), TReq(value=3), DiceSource.given([3, 4]))
    assert out.winner == "tie" and out.total_a == 7 == out.total_b and len(steps) == 2
    _, out = resolve_opposed(TReq(value=9), TReq(value=0), DiceSource.given([1, 6, 2]))
    assert out.winner == "b" and out.failed_a


# --- melee and shooting chains -------------------------------------------------------------


def test_melee_chain() -> None:
    req = MeleeRequest(
        attack=TReq(value=5),
        defence=TReq(value=4),
        wound=WoundRequest(str_=7, res=6),
    )
    steps, out = resolve_melee(req, DiceSource.given([4, 2, 2, 5]), DEFAULT)
    assert [s.name for s in steps] == ["attack", "defence", "wound"]
    assert out.hit and out.total == 9 and out.defence_total == 6 and out.wounds == 1
    steps, out = resolve_melee(req, DiceSource.given([4, 5]), DEFAULT)
    assert out.parried and not out.hit and len(steps) == 2  # 9 reached: parried


def test_shoot_chain() -> None:
    req = ShootRequest(test=TReq(value=4), wound=WoundRequest(str_=6, res=5), range="medium")
    steps, out = resolve_shoot(req, DiceSource.given([6, 2, 3, 4]), DEFAULT)
    assert steps[0].target == 10 and out.total == 12 and out.hit
    mira = req.model_copy(update={"mira": True})
    steps, out = resolve_shoot(mira, DiceSource.given([6, 2, 3, 4]), DEFAULT)
    # G08: Mira with printed TIR 4 at medium range: STR 6 + 4 - 1 = 9
    assert steps[1].modifiers[1].value == 3 and out.wounds >= 1
    fixed = req.model_copy(update={"fire": "assault", "printed": True, "diff_mod": 5})
    steps, _ = resolve_shoot(fixed, DiceSource.given([1, 2]), DEFAULT)
    assert steps[0].target == 4  # G11: printed assault fire, no modifier


# --- odds against brute force ----------------------------------------------------------------


def brute_test(req: TReq, open_ended: bool, depth: int) -> Fraction:
    """Every sequence of faces up to `depth` rolls; chains longer than that are dropped."""
    again = {6} if open_ended else set()
    again |= set(req.reroll)
    total = Fraction(0)
    base = req.value + req.mod

    def walk(prefix: list[int], p: Fraction, kept: int) -> None:
        nonlocal total
        if len(prefix) >= depth:
            return
        for f in range(1, 7):
            q = p / 6
            if f == 1 and not req.one_ok:
                for s in range(1, 7):
                    t = base - s
                    if t > 0 and s < 5 and (req.diff is None or t >= req.diff):
                        total += q / 6
            elif f in again:
                walk([*prefix, f], q, kept + f)
            elif req.diff is None or base + kept + f >= req.diff:
                total += q

    walk([], Fraction(1), 0)
    return total


@pytest.mark.parametrize(
    ("value", "diff", "reroll"),
    [(5, 9, ()), (3, 12, ()), (6, 20, (5,)), (2, 3, ()), (0, 5, (4,)), (4, None, ())],
)
def test_p_success_matches_enumeration(
    value: int, diff: int | None, reroll: tuple[int, ...]
) -> None:
    req = TReq(value=value, diff=diff, reroll=frozenset(reroll))
    exact = p_success(req)
    brute = brute_test(req, True, 12)
    # the enumeration misses only chains longer than 12 rolls: at most (2/6)^12
    assert 0 <= exact - brute < Fraction(1, 3**12)
    closed = p_success(req, open_ended=False) - brute_test(req, False, 12)
    assert 0 <= closed < Fraction(1, 6**12)


def test_test_odds_distribution_sums_to_one() -> None:
    odds = odds_of_test(TReq(value=5, diff=9))
    shown = sum(odds.distribution.as_fractions().values())
    assert shown + odds.distribution.missing == 1 and odds.tail == float(1 - shown)
    assert 0 < odds.tail < 1e-15
    assert odds.p_success == Fraction(7, 15)


@pytest.mark.parametrize(
    ("s", "r", "flag"),
    [
        (7, 6, {}),
        (3, 9, {"hardboned": True}),
        (15, 2, {"scourge": True}),
        (6, 7, {"effects": frozenset({"sacred", "feroce", "vulnerabile"})}),
        (9, 12, {"effects": frozenset({"spada_ascia", "etereo"})}),
    ],
)
def test_wound_odds_match_enumeration(s: int, r: int, flag: dict[str, object]) -> None:
    req = WoundRequest(str_=s, res=r, **flag)  # type: ignore[arg-type]
    odds = wound_odds(req, DEFAULT)
    counts: dict[int, int] = {}
    stunned = 0
    for a, b in itertools.product(range(1, 7), repeat=2):
        _, out = resolve_wound(req, DiceSource.given([a, b]))
        counts[out.wounds] = counts.get(out.wounds, 0) + 1
        stunned += out.stunned
    assert odds.wounds.as_fractions() == {k: Fraction(v, 36) for k, v in sorted(counts.items())}
    assert odds.p_stunned == Fraction(stunned, 36)


def test_melee_odds_match_enumeration_without_open_end() -> None:
    """With open_ended=no every chain is at most 2 dice: the whole melee can be enumerated."""
    closed = C5Settings(open_ended="no")
    req = MeleeRequest(
        attack=TReq(value=4), defence=TReq(value=3), wound=WoundRequest(str_=6, res=5)
    )
    odds = melee_odds(req, closed)
    counts: dict[int, Fraction] = {}
    for dice in itertools.product(range(1, 7), repeat=6):
        src = DiceSource.given(list(dice))
        _, out = resolve_melee(req, src, closed)
        used = len(src.consumed)
        if dice[used:] != (1,) * (6 - used):  # count each prefix once
            continue
        p = Fraction(1, 6**used)
        counts[out.wounds] = counts.get(out.wounds, Fraction(0)) + p
    assert sum(counts.values()) == 1
    assert odds.wounds.as_fractions() == dict(sorted(counts.items()))


def test_shoot_odds_hit() -> None:
    req = ShootRequest(test=TReq(value=4), wound=WoundRequest(str_=6, res=5))
    odds = shoot_odds(req, DEFAULT)
    assert odds.p_hit == p_success(TReq(value=4, diff=7))
    assert sum(odds.wounds.as_fractions().values()) == 1


# --- properties -----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    value=st.integers(0, 12),
    mod=st.integers(-5, 5),
    diff=st.integers(0, 20),
    seed=st.integers(0, 10**6),
)
def test_seeded_test_lies_in_the_support(value: int, mod: int, diff: int, seed: int) -> None:
    req = TReq(value=value, mod=mod, diff=diff)
    _, out = resolve_test(req, DiceSource.seeded(seed))
    odds = odds_of_test(req)
    assert odds.distribution.probability(out.total) > 0


@settings(max_examples=60, deadline=None)
@given(
    s=st.integers(0, 20),
    r=st.integers(0, 20),
    scourge=st.booleans(),
    hardboned=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_seeded_wound_lies_in_the_support(
    s: int, r: int, scourge: bool, hardboned: bool, seed: int
) -> None:
    req = WoundRequest(str_=s, res=r, scourge=scourge, hardboned=hardboned)
    _, out = resolve_wound(req, DiceSource.seeded(seed))
    assert wound_odds(req, DEFAULT).wounds.probability(out.wounds) > 0


# --- more §6 goldens: Mira, altitude, penalty abilities, health ------------------------------


@pytest.mark.parametrize(("band", "strength"), [("short", 10), ("medium", 9), ("long", 8)])
def test_g08_mira_by_range(band: str, strength: int) -> None:
    # G08 @89109: printed TIR 4, weapon STR 6: +4, -1 at medium, -2 at long
    req = ShootRequest(
        test=TReq(value=4),
        wound=WoundRequest(str_=6, res=0),
        range=band,
        mira=True,  # type: ignore[arg-type]
    )
    assert shooting_wound(req).str_ == strength


def test_g09_mira_printed_on_a_character_ignores_range() -> None:
    req = ShootRequest(
        test=TReq(value=4), wound=WoundRequest(str_=6, res=0), range="long", mira_printed=True
    )
    assert shooting_wound(req).str_ == 10


def test_g10_altitude_two_levels() -> None:
    req = ShootRequest(test=TReq(value=4), wound=WoundRequest(str_=6, res=0), altitude=2)
    diff, mods = shoot_difficulty(req, DEFAULT)
    assert diff == 7 + 4 and ("altitude", 4) in [(m.name, m.value) for m in mods]  # G10 @20741


def test_h07_h08_posseduto_and_robustezza() -> None:
    pos = [tables.penalty(w, False, posseduto=True) for w in (1, 2, 3)]
    assert pos == [0, 1, 2] and tables.penalty(1, True, posseduto=True) == 1  # H07 @96501
    rob = [tables.penalty(1, False, robustezza=True), tables.penalty(0, True, robustezza=True)]
    assert rob == [0, 0]  # H08
    assert tables.penalty(2, False, robustezza=True) == 2
    assert tables.penalty(1, True, robustezza=True) == 0
    assert tables.state_key(3, 5) == "critical"  # H11: "inflicts a Critical wound" = 3 wounds


def test_shoot_odds_match_enumeration_without_open_end() -> None:
    """open_ended=no: a shot is at most 2 test dice + 2 wound dice, every sequence enumerable;
    zone artillery's plain 1 and the altitude included."""
    closed = C5Settings(open_ended="no")
    for extra in ({}, {"zone": True}, {"range": "medium", "altitude": 1}):
        req = ShootRequest(
            test=TReq(value=5),
            wound=WoundRequest(str_=7, res=5),
            **extra,  # type: ignore[arg-type]
        )
        odds = shoot_odds(req, closed)
        counts: dict[int, Fraction] = {}
        for dice in itertools.product(range(1, 7), repeat=5):
            src = DiceSource.given(list(dice))
            _, out = resolve_shoot(req, src, closed)
            used = len(src.consumed)
            if dice[used:] != (1,) * (5 - used):  # count each prefix once
                continue
            counts[out.wounds] = counts.get(out.wounds, Fraction(0)) + Fraction(1, 6**used)
        assert sum(counts.values()) == 1
        assert odds.wounds.as_fractions() == {k: v for k, v in sorted(counts.items()) if v}


# --- §6.4 effects after the table (digest §3.5.3 step 7) ------------------------------------


def fx(
    faces: list[int], *effects: str, melee: bool = True, nothing: bool = False, **kw: int
) -> int:
    req = WoundRequest(effects=frozenset(effects), melee=melee, **kw)  # type: ignore[arg-type]
    _, out = resolve_wound(req, DiceSource.given(faces), sacred_on_nothing=nothing)
    return out.wounds if out.result == "wounds" else {"stunned": 0, "no_effect": -1}[out.result]


def test_r04_to_r06_sacred_and_spada_ascia() -> None:
    assert fx([4, 4], str_=10, res=5) == 3  # R03
    assert fx([4, 4], "sacred", str_=10, res=5) == 5  # R04: +2 on an exceptional wound
    assert fx([4, 4], "sacred", "sacred_armour", str_=10, res=5) == 3  # R05: they cancel
    assert fx([4, 4], "spada_ascia", str_=10, res=5) == 4  # R06: +1 on 3 or more
    assert fx([4, 4], str_=0, res=5) == 1  # row 4, R -1: 1 wound, exceptional
    assert fx([4, 4], "sacred_armour", str_=0, res=5) == -1  # armour takes it to nothing
    assert fx([2, 5], "sacred", str_=7, res=6) == 1  # not exceptional: unchanged


def test_r15_to_r17_feroce_vulnerabile_etereo() -> None:
    assert fx([1, 3], "feroce", str_=5, res=6) == 1  # R15: Stordito -> 1 in melee
    assert fx([1, 3], "feroce", str_=5, res=6, melee=False) == 0  # not on shots
    assert fx([2, 5], "vulnerabile", str_=9, res=6) == 3  # R16: 2 -> 3
    assert fx([1, 3], "vulnerabile", str_=5, res=6) == 0  # Stordito unchanged
    assert fx([2, 5], "etereo", str_=7, res=6) == -1  # R17: 1 -> 0
    assert fx([4, 6], str_=7, res=7) == 3  # row 4, R 6: 3 wounds
    assert fx([4, 6], "etereo", str_=7, res=7) == 2  # R17: 3 -> 2


def test_c09_etereo_res_at_most_ten() -> None:
    from rules_core.systems.c5.wound import effective_res

    assert effective_res(WoundRequest(str_=0, res=12, effects=frozenset({"etereo"}))) == 10


def test_sacred_on_nothing_setting() -> None:
    # row 1, exceptional (1,1), R 1 + 0 - 5 = -4: Nulla; the [AMBIG] setting decides
    assert fx([1, 1], "sacred", str_=0, res=5) == -1
    assert fx([1, 1], "sacred", str_=0, res=5, nothing=True) == 2


def test_r19_r20_devozione_martire_are_plain_rolls() -> None:
    # Devozione/X: 2 gems -> STR 10 vs RES 0; Martire/X: 3 FT -> STR 15 vs RES 0 (@67002, @86654)
    assert fx([2, 3], str_=10, res=0) == 2  # row 2, R 13: band 12/13 -> 2
    assert fx([2, 3], str_=15, res=0) == 4  # row 2, R 18: band >=18 -> 4


@pytest.mark.parametrize(("a", "b"), [(4, 3), (2, 2), (0, 6)])
def test_opposed_odds_match_enumeration(a: int, b: int) -> None:
    from rules_core.systems.c5.odds import opposed_odds

    odds = opposed_odds(TReq(value=a), TReq(value=b), open_ended=False)
    counts = {"a": Fraction(0), "tie": Fraction(0), "b": Fraction(0)}
    for dice in itertools.product(range(1, 7), repeat=4):
        src = DiceSource.given(list(dice))
        _, out = resolve_opposed(TReq(value=a), TReq(value=b), src, open_ended=False)
        used = len(src.consumed)
        if dice[used:] != (1,) * (4 - used):  # count each prefix once
            continue
        counts[out.winner] += Fraction(1, 6**used)
    assert sum(counts.values()) == 1
    winner = odds.winner.as_fractions()
    assert {"a": winner.get(1, 0), "tie": winner.get(0, 0), "b": winner.get(-1, 0)} == counts
    assert (odds.p_a, odds.p_tie, odds.p_b) == tuple(float(p) for p in counts.values())


# --- §6.5 maintenance: Rigenerazione, Effimero, Guarigione ----------------------------------


def recover(ability: str, x: int, wounds: int, faces: list[int]) -> tuple[int, int, int]:
    from rules_core.systems.c5.checks import resolve_recovery

    src = DiceSource.given(faces)
    _, out = resolve_recovery(ability, x, wounds, src)
    return out.healed, out.lost, len(src.consumed)


def test_h12_rigenerazione() -> None:
    assert recover("rigenerazione", 4, 2, [5, 2]) == (1, 0, 2)  # H12: heal 1
    assert recover("rigenerazione", 4, 2, [4, 6]) == (2, 0, 2)  # heal 2
    assert recover("rigenerazione", 4, 2, [3]) == (0, 0, 1)  # none, no second roll
    assert recover("rigenerazione", 4, 1, [6]) == (1, 0, 1)  # unwounded: no second roll
    with pytest.raises(UserError) as raised:
        recover("rigenerazione", 4, 0, [6])
    assert raised.value.key == "c5.nothing_to_heal"


def test_h13_effimero_and_guarigione() -> None:
    assert recover("effimero", 5, 0, [5, 6]) == (0, 2, 2)  # H13: lose 2
    assert recover("effimero", 5, 0, [5, 1]) == (0, 1, 2)  # lose 1
    assert recover("effimero", 5, 0, [2]) == (0, 0, 1)  # none
    assert recover("guarigione", 3, 2, [3]) == (1, 0, 1)  # one roll only


def test_free_fire_keeps_the_shooters_wound_penalty() -> None:
    # A code audit: reaction fire dropped the shooter's wound penalty with the other modifiers:
    # TIR 4 with two wounds (-2), die 3 scored 7 against 7, a hit. No modifier changes the
    # difficulty of free fire (@106657, @109072), but the penalty falls on the result (@10224).
    test = TReq(value=4, mod=-2 - 1)  # the -2 penalty and a typed -1 that free fire ignores
    req = ShootRequest(test=test, wound=WoundRequest(str_=6, res=5), fire="reaction", penalty=2)
    _, out = resolve_shoot(req, DiceSource.given([3]), DEFAULT)
    assert (out.total, out.hit) == (5, False)


def test_etereo_is_immune_to_stunned() -> None:
    # A code audit: a "Stordito" cell still stunned an Etereo target (Immunity/Stunned, @71426).
    assert wound([1, 2], str_=5, res=8, effects={"etereo"}) == (1, 0, False, False)
    assert wound([1, 3], str_=5, res=6)[2] is True  # the same cell stuns anyone else
