"""The one step model (rules_core/steps.py) that every game's resolution returns."""

from __future__ import annotations

from rules_core.dice import DiceSource
from rules_core.steps import CAP, Modifier, Step, net_modifiers
from rules_core.systems.aos import attack as aos_attack
from rules_core.systems.aos.models import AttackRequest as AosRequest
from rules_core.systems.aos.values import DiceValue
from rules_core.systems.c5.checks import resolve_test
from rules_core.systems.c5.models import TestRequest as C5Test
from rules_core.systems.inf.rolls import resolve_roll
from rules_core.systems.wm import attack as wm_attack
from rules_core.systems.wm.models import AttackRequest as WmRequest
from rules_core.systems.wow import attack as wow_attack


def test_net_modifiers_keep_the_cap_apart() -> None:
    assert net_modifiers(0) == []
    assert net_modifiers(-2) == [Modifier(name="mod", value=-2)]
    capped = Step(name="hit", modifiers=net_modifiers(1, asked=3))
    assert capped.modifiers == [Modifier(name="mod", value=3), Modifier(name=CAP, value=-2)]
    assert (capped.modifier, capped.modifier_asked) == (1, 3)
    assert net_modifiers(1, asked=1) == [Modifier(name="mod", value=1)]
    # A cap that brings a modifier all the way back to 0 still shows what was asked.
    assert Step(name="x", modifiers=net_modifiers(0, asked=-2)).modifier_asked == -2


def test_first_rolls_are_the_dice_before_the_rerolls() -> None:
    step = Step(name="hit", dice=[1, 5, 2, 6, 3], rerolled=[0, 2], final=[6, 5, 3])
    assert step.first_rolls == [1, 5, 2]
    assert Step(name="hit", dice=[4, 4]).first_rolls == [4, 4]


def test_detail_int() -> None:
    step = Step(name="wound", detail={"row": 3, "column": None, "side": "target"})
    assert step.detail_int("row") == 3
    assert step.detail_int("column") == 0 and step.detail_int("missing") == 0


def test_every_game_returns_the_same_step_type_and_shape() -> None:
    wm = wm_attack.resolve_attack(
        WmRequest(skill=6, defense=12, pow=12, arm=15), DiceSource.given([6, 6, 3, 3, 3])
    ).steps
    aos = aos_attack.resolve_attack(
        AosRequest(
            attacks=DiceValue(plus=2), hit=3, wound=3, save=4, hit_mod=2, reroll_hit="failed"
        ),
        DiceSource.given([1, 5, 6, 4, 4, 2, 3]),
    ).steps
    wow = wow_attack.resolve_attack(
        wow_attack.AttackRequest(power=3, defense=1, reroll_attack=1),
        DiceSource.given([2, 7, 10, 9, 5]),
    ).steps
    inf, _ = resolve_roll(12, -3, 2, DiceSource.given([4, 15]))
    c5_step, _ = resolve_test(C5Test(value=4, diff=7), DiceSource.given([5]))
    keys = set(Step.model_fields)
    for step in [*wm, *aos, *wow, *inf, c5_step]:
        assert type(step) is Step
        assert set(step.model_dump()) == keys
    # Re-rolls read alike everywhere: every face in rolling order, the re-rolls last.
    assert aos[0].rerolled == [0] and aos[0].dice == [1, 5, 6] and aos[0].final == [6, 5]
    assert aos[0].modifier == 1 and aos[0].modifier_asked == 2
    assert wow[0].rerolled == [0] and wow[0].dice == [2, 7, 10, 9]
    assert wow[0].first_rolls == [2, 7, 10] and wow[0].final == [9, 7, 10]
