"""Attack sequence: golden cases from the digest (section 6, rulebook lines cited), the odds
against brute-force enumeration of every die sequence, and property tests."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.systems.aos.attack import allocate, resolve_attack
from rules_core.systems.aos.models import AttackRequest, Settings
from rules_core.systems.aos.odds import attack_odds, slain_odds
from rules_core.systems.aos.values import (
    DiceValue,
    On6,
    parse_dice_value,
    parse_on6,
    parse_rend,
    parse_reroll,
    parse_save,
)
from tests.systems.aos import aos_brute


def req(**kw: object) -> AttackRequest:
    base: dict[str, object] = {"attacks": DiceValue(plus=1), "hit": 3, "wound": 3}
    base.update(kw)
    return AttackRequest.model_validate(base)


def hits(r: AttackRequest, faces: list[int]) -> int:
    return resolve_attack(r, DiceSource.given(faces)).outcome.hits


def test_r6_r7_unmodified_one_and_six_on_hit_rolls() -> None:
    # L537: to hit 3+, +1: 2,3,6 hit, the 1 never does (R6); -1: only the 6 (R7).
    four = DiceValue(plus=4)
    faces = [1, 2, 3, 6] + [1] * 4  # wound rolls all fail
    assert hits(req(attacks=four, hit_mod=1), faces[:7]) == 3
    assert hits(req(attacks=four, hit_mod=-1), faces[:5]) == 1


def test_r3_to_r5_modifier_total_is_clamped() -> None:
    # L131: the sum is clamped to +-1: +2 behaves as +1 (a 2 hits on 3+), -3 as -1.
    res = resolve_attack(req(hit_mod=2), DiceSource.given([2, 1]))
    assert res.outcome.hits == 1 and res.steps[0].modifier == 1
    assert res.steps[0].modifier_asked == 2
    res = resolve_attack(req(hit=3, hit_mod=-3), DiceSource.given([4, 1]))
    assert res.outcome.hits == 1  # 4 - 1 = 3: still a hit (clamped to -1)


def test_r8_wound_modifier() -> None:
    # L543: to wound 4+ with +1, a 3 wounds.
    res = resolve_attack(req(wound=4, wound_mod=1, save=7), DiceSource.given([6, 3]))
    assert res.outcome.wounds == 1 and res.outcome.unsaved == 1


def save_result(save: int, rend: int, mod: int, face: int, cap: str = "with_rend") -> int:
    r = req(save=save, rend=rend, save_mod=mod)
    return resolve_attack(r, DiceSource.given([6, 6, face]), Settings(save_cap=cap)).outcome.unsaved


def test_r9_to_r14_saves() -> None:
    assert save_result(4, 3, 0, 6) == 1  # R9: 6-3 = 3 < 4, no automatic 6 (L547, L549)
    assert save_result(4, 1, 2, 3) == 0  # R10: -1 +1 +1 -> net +1: 4, saved (L131 + L547)
    assert save_result(4, 0, 2, 2) == 1  # R11: +2 capped at +1: 3 < 4, fails
    assert save_result(2, 0, 1, 1) == 1  # R12: an unmodified 1 fails
    assert save_result(7, 0, 1, 6) == 0  # R14: save "-" with +1: 6+1 = 7, saved (L964)
    # R13: save "-" without modifiers: no roll at all, the wound goes through.
    res = resolve_attack(req(save=7), DiceSource.given([6, 6]))
    assert res.outcome.unsaved == 1 and res.steps[2].outcome == "no_save"


def test_save_cap_setting() -> None:
    # Rend -1 with +2 of bonuses: with_rend -> min(+1, +1) = +1; bonus_only -> +1 - 1 = 0.
    assert save_result(4, 1, 2, 3, "with_rend") == 0
    assert save_result(4, 1, 2, 3, "bonus_only") == 1


def test_r16_r17_allocation_with_carry_over() -> None:
    # L557/L579: 3 unsaved attacks of Damage 2 vs 3 models of 3 wounds: 6 wounds, 2 slain.
    r = req(attacks=DiceValue(plus=3), damage=DiceValue(plus=2), models=3, wounds_per_model=3)
    out = resolve_attack(r, DiceSource.given([6, 6, 6, 6, 6, 6])).outcome
    assert (out.damage, out.models_slain, out.damage_lost) == (6, 2, 0)
    # R17: 10 damage vs 2 models of 3 wounds: destroyed, 4 lost.
    assert allocate(10, 2, 3, 0) == (2, 4, 6)
    # A wounded model takes the next wounds first: 1 already on a 2-wound model, 1 more slays it.
    assert allocate(1, 3, 2, 1) == (1, 0, 2)


def test_r18_ward_per_wound() -> None:
    # L591: 4 wounds, ward 5+, dice 5,1,6,2 -> 2 negated, 2 allocated.
    r = req(attacks=DiceValue(plus=2), damage=DiceValue(plus=2), ward=5)
    out = resolve_attack(r, DiceSource.given([6, 6, 6, 6, 5, 1, 6, 2])).outcome
    assert (out.ward_saved, out.damage) == (2, 2)


def test_r19_random_damage_per_attack() -> None:
    # L1001: each unsaved attack rolls its own D3 (a halved D6, L149): 1,4,6 -> 1+2+3.
    r = req(attacks=DiceValue(plus=3), damage=DiceValue(count=1, sides=3))
    res = resolve_attack(r, DiceSource.given([6, 6, 6, 6, 6, 6, 1, 4, 6]))
    assert res.outcome.damage == 6 and res.steps[-1].dice == [1, 4, 6]


def test_rerolls_happen_once_before_modifiers() -> None:
    # L157: re-roll once. Re-roll failed hits on 4+: 1,3 fail and are rolled again (2 and 1):
    # no second re-roll of the 1.
    r = req(attacks=DiceValue(plus=2), hit=4, reroll_hit="failed")
    res = resolve_attack(r, DiceSource.given([1, 3, 2, 1]))
    assert res.outcome.hits == 0 and res.steps[0].rerolled == [0, 1]
    # "ones" re-rolls only unmodified 1s.
    res = resolve_attack(
        req(attacks=DiceValue(plus=2), hit=4, reroll_hit="ones"), DiceSource.given([1, 3, 5, 1])
    )
    assert res.outcome.hits == 1 and res.steps[0].rerolled == [0]


def test_on6_abilities() -> None:
    two = DiceValue(plus=2)
    # extra_hit: a 6 scores two hits, each rolls to wound.
    out = resolve_attack(
        req(attacks=two, on6_hit=On6(kind="extra_hit")), DiceSource.given([6, 3, 3, 3, 3])
    ).outcome
    assert out.hits == 3 and out.wounds == 3
    # auto_wound: no wound roll for the 6.
    out = resolve_attack(
        req(attacks=two, on6_hit=On6(kind="auto_wound")), DiceSource.given([6, 2, 6])
    ).outcome
    assert out.wounds == 1 and out.unsaved == 1
    # mortal:2 on a hit 6: 2 mortal wounds, no wound or save roll for it.
    out = resolve_attack(
        req(attacks=two, on6_hit=On6(kind="mortal", amount=2), save=3),
        DiceSource.given([6, 4, 4, 3]),
    ).outcome
    assert (out.mortal_wounds, out.unsaved, out.damage) == (2, 0, 2)
    # rend:2 on a wound 6: that wound is saved at Rend -2.
    out = resolve_attack(
        req(attacks=two, on6_wound=On6(kind="rend", amount=2), save=4),
        DiceSource.given([4, 4, 6, 3, 4, 5]),
    ).outcome
    assert out.unsaved == 1  # 4 vs 4+ saved; 5 - 2 = 3 fails


def test_r50_expected_damage() -> None:
    # 10 Stormspear attacks 3+/3+/-1/1 vs 4+: 10 x 8/27; with +2 bonus (net +1 cap) 10 x 4/27.
    r = req(attacks=DiceValue(plus=10), rend=1, save=4)
    mean = sum(v * p for v, p in attack_odds(r).as_fractions().items())
    assert mean == 10 * Fraction(8, 27)
    r = req(attacks=DiceValue(plus=10), rend=1, save=4, save_mod=2)
    mean = sum(v * p for v, p in attack_odds(r).as_fractions().items())
    assert mean == 10 * Fraction(4, 9) * Fraction(2, 6)


BRUTE_CASES = [
    # an unmodified 6 hits and wounds even when the -1 cap puts it below the number (L537)
    req(attacks=DiceValue(plus=2), hit=6, wound=6, hit_mod=-1, wound_mod=-3, save=7),
    req(attacks=DiceValue(count=1, sides=3), attack_rolls=2, hit=4, wound=4, save=5, ward=6),
    req(attacks=DiceValue(plus=2), hit=3, wound=5, damage=DiceValue(count=1, sides=6), ward=4),
    req(attacks=DiceValue(plus=2), hit=4, wound=3, rend=1, save=4),
    req(attacks=DiceValue(count=1, sides=3), hit=3, wound=4, save=7),
    req(
        hit=4,
        wound=4,
        save=3,
        reroll_hit="failed",
        reroll_wound="failed",
        reroll_save="ones",
        damage=DiceValue(count=1, sides=3),
    ),
    req(hit=4, reroll_hit="failed", damage=DiceValue(plus=2), save=5, ward=5),
    req(
        on6_hit=On6(kind="extra_hit"),
        on6_wound=On6(kind="rend", amount=2),
        save=4,
        save_mod=1,
        rend=1,
    ),
    req(
        attacks=DiceValue(plus=2),
        hit=4,
        on6_hit=On6(kind="auto_wound"),
        on6_wound=On6(kind="mortal", amount=2),
        save=7,
        hit_mod=-1,
        wound_mod=1,
    ),
    req(
        hit=2,
        on6_hit=On6(kind="mortal", amount=3),
        save=7,
        save_mod=1,
        damage=DiceValue(count=1, sides=6),
        models=3,
        wounds_per_model=2,
        wounds_taken=1,
    ),
]


@pytest.mark.parametrize("case", BRUTE_CASES)
@pytest.mark.parametrize("cap", ["with_rend", "bonus_only"])
def test_odds_match_brute_force(case: AttackRequest, cap: str) -> None:
    """Against every die of every attack enumerated by an oracle written from the rulebook
    (aos_brute), not by the resolver or the odds code: exactly equal."""
    s = Settings(save_cap=cap)
    brute = aos_brute.attack_damage(case, s)
    exact = attack_odds(case, s)
    assert exact.as_fractions() == brute
    if case.wounds_per_model is not None:
        slain = slain_odds(case, exact)
        assert slain is not None and slain.as_fractions() == aos_brute.slain(case, brute)


requests = st.builds(
    AttackRequest,
    attacks=st.sampled_from(
        [DiceValue(plus=n) for n in range(0, 5)]
        + [DiceValue(count=1, sides=3), DiceValue(count=2, sides=6)]
    ),
    hit=st.integers(2, 6),
    wound=st.integers(2, 6),
    rend=st.integers(0, 3),
    damage=st.sampled_from([DiceValue(plus=1), DiceValue(plus=2), DiceValue(count=1, sides=3)]),
    save=st.integers(2, 7),
    ward=st.none() | st.integers(4, 6),
    hit_mod=st.integers(-2, 2),
    wound_mod=st.integers(-2, 2),
    save_mod=st.integers(-2, 2),
    reroll_hit=st.sampled_from(["none", "ones", "failed"]),
    reroll_wound=st.sampled_from(["none", "ones", "failed"]),
    reroll_save=st.sampled_from(["none", "ones", "failed"]),
    on6_hit=st.sampled_from(
        [On6(), On6(kind="extra_hit"), On6(kind="auto_wound"), On6(kind="mortal", amount=1)]
    ),
    on6_wound=st.sampled_from([On6(), On6(kind="mortal", amount=2), On6(kind="rend", amount=3)]),
    models=st.just(5),
    wounds_per_model=st.none() | st.integers(1, 4),
)


@settings(max_examples=80, deadline=None)
@given(r=requests, seed=st.integers(0, 2**32))
def test_a_seeded_resolution_lies_in_the_support(r: AttackRequest, seed: int) -> None:
    out = resolve_attack(r, DiceSource.seeded(seed)).outcome
    dist = attack_odds(r)
    assert dist.probability(out.damage) > 0
    assert dist.missing == 0 and sum(dist.as_fractions().values()) == 1
    if r.wounds_per_model is not None:
        slain = slain_odds(r, dist)
        assert slain is not None and slain.probability(out.models_slain or 0) > 0


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=12))
def test_value_parsers_give_a_value_or_a_user_error(text: str) -> None:
    """Any text is a value within the option's bounds, or one of the parser's own errors."""
    checks: list[tuple[Callable[[str], object], set[str], Callable[[Any], bool]]] = [
        (
            lambda t: parse_dice_value(t, "attacks"),
            {"aos.bad_dice_value", "aos.value_range"},
            lambda v: v.count <= 2 and v.sides in (3, 6) and 0 <= v.plus <= 200 and v.max >= 0,
        ),
        (parse_save, {"aos.bad_target"}, lambda v: 1 <= v <= 7),
        (parse_rend, {"aos.bad_rend", "aos.value_range"}, lambda v: 0 <= v <= 6),
        (
            lambda t: parse_reroll(t, "reroll_hit"),
            {"aos.bad_reroll"},
            lambda v: v in ("none", "ones", "failed"),
        ),
        (
            lambda t: parse_on6(t, "on6_hit", ("extra_hit", "auto_wound", "mortal")),
            {"aos.bad_on6", "aos.value_range"},
            lambda v: v.kind in ("none", "extra_hit", "auto_wound", "mortal"),
        ),
        (
            lambda t: parse_on6(t, "on6_wound", ("mortal", "rend")),
            {"aos.bad_on6", "aos.value_range"},
            lambda v: v.kind in ("none", "mortal", "rend") and 0 <= v.amount <= 6,
        ),
    ]
    for parse, keys, valid in checks:
        try:
            value = parse(text)
        except UserError as err:
            assert err.key in keys, (text, err.key)
            continue
        assert valid(value), (text, value)


def test_value_parsers() -> None:
    assert parse_dice_value("2D6", "attacks") == DiceValue(count=2, sides=6)
    assert parse_dice_value("d3+1", "damage") == DiceValue(count=1, sides=3, plus=1)
    assert parse_dice_value("4", "attacks") == DiceValue(plus=4)
    assert parse_save("-") == 7 and parse_save("4+") == 4
    assert parse_rend("-2") == 2 and parse_rend("-") == 0  # E4/R15: never worse than "-"
    assert parse_on6("mortal:2", "on6_hit", ("mortal",)) == On6(kind="mortal", amount=2)
    for bad in ("3D6", "D4", "0D6", "-1"):
        with pytest.raises(UserError) as raised:
            parse_dice_value(bad, "attacks")
        assert raised.value.key == "aos.bad_dice_value"
    with pytest.raises(UserError) as raised:
        parse_on6("rend:2", "on6_hit", ("extra_hit", "auto_wound", "mortal"))
    assert raised.value.key == "aos.bad_on6"
    with pytest.raises(UserError) as raised:
        parse_on6("mortal", "on6_hit", ("mortal",))
    assert raised.value.key == "aos.bad_on6"
