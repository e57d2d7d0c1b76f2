"""Skill and command checks, falling damage and deviation (digest §2.5, §2.4, §3.6, §3.8)."""

from __future__ import annotations

import math
from fractions import Fraction

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.steps import Modifier, Step
from rules_core.systems.wm.models import (
    CheckOutcome,
    DeviationOutcome,
    FallOutcome,
)

FALL_POW = 10  # L3415-3417: a fall of 3" or less is a POW 10 damage roll
MIN_FALL = 1  # L3412-3414: a model falls only onto a surface at least 1 full inch lower
MAX_HEIGHT = 60
MAX_DISTANCE = 120


def d3(face: int) -> int:
    """A d3 is a d6 halved, rounded up: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (L129-130, L142-147)."""
    return (face + 1) // 2


def resolve_check(value: int, source: DiceSource) -> tuple[list[Step], CheckOutcome]:
    """Skill or command check: 2d6, passed on a roll equal to or under the value
    (L2030-2043 skill, L5379-5387 command)."""
    source.require(2)
    faces = [source.roll(6), source.roll(6)]
    total = sum(faces)
    passed = total <= value
    step = Step(
        name="check", dice=faces, target=value, total=total, outcome="pass" if passed else "fail"
    )
    return [step], CheckOutcome(total=total, value=value, pass_=passed)


def parse_inches(text: str, option: str, limit: int) -> Fraction:
    """A measured distance in inches: `5`, `5.5`, `5,5` or `5 1/2`-free decimals only."""
    cleaned = text.strip().replace(",", ".").rstrip('"').removesuffix("in")
    try:
        value = Fraction(cleaned)
    except (ValueError, ZeroDivisionError):
        raise UserError("wm.bad_inches", option=option, value=text[:20]) from None
    if not 0 < value <= limit:
        raise UserError("wm.inches_range", option=option, limit=limit)
    return value


def fall_dice(height: Fraction) -> int:
    """2d6 for 3" or less, +1 die for each further 3" or part of 3" (L3415-3420;
    examples L3392-3395: 3" -> 2d6, 5" -> 3d6, 7" -> 4d6)."""
    return 2 + max(0, math.ceil((height - 3) / 3))


def resolve_fall(
    height: Fraction, arm: int | None, source: DiceSource
) -> tuple[list[Step], FallOutcome]:
    """The damage roll of a fall; under 1" there is no fall (L3412-3414): no dice, no damage,
    no knockdown (`fell` False)."""
    if height < MIN_FALL:
        return [], FallOutcome(
            height=float(height), fell=False, dice=0, damage_total=0, arm=arm, damage=None
        )
    dice = fall_dice(height)
    source.require(dice)
    faces = [source.roll(6) for _ in range(dice)]
    total = sum(faces) + FALL_POW
    damage = None if arm is None else max(0, total - arm)
    step = Step(
        name="fall",
        dice=faces,
        modifiers=[Modifier(name="fall_pow", value=FALL_POW)],
        target=arm,
        total=total,
        outcome="no_damage" if damage == 0 else "damage",
    )
    return [step], FallOutcome(
        height=float(height), dice=dice, damage_total=total, arm=arm, damage=damage
    )


def resolve_deviation(
    distance: Fraction, thrown: bool, source: DiceSource
) -> tuple[list[Step], DeviationOutcome]:
    """Direction d6 (1 = long, 4 = short, L3066-3069), distance d6 inches (d3 for a thrown
    model, L2508-2513), never more than half the distance to the intended point, exact
    (L3103-3110; example L2538-2553: d3 of 3 capped to 2.75")."""
    source.require(2)
    direction = source.roll(6)
    face = source.roll(6)
    rolled = d3(face) if thrown else face
    cap = distance / 2
    final = min(Fraction(rolled), cap)
    steps = [
        Step(name="direction", dice=[direction], total=direction, outcome=f"dir{direction}"),
        Step(
            name="distance_d3" if thrown else "distance",
            dice=[face],
            total=rolled,
            outcome="capped" if final < rolled else "ok",
        ),
    ]
    return steps, DeviationOutcome(
        direction=direction,
        rolled=rolled,
        distance=float(final),
        cap=float(cap),
        capped=final < rolled,
    )
