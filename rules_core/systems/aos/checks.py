"""The other rolls of the game: battleshock, casting, unbinding, chanting, charge, run and the
priority roll-off. Each returns the steps and an outcome dict (field names are public).

Rulebook lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.systems.aos.models import Step
from rules_core.systems.aos.values import d3


class Check(BaseModel):
    steps: list[Step]
    outcome: dict[str, Any]


def battleshock(bravery: int, slain: int, source: DiceSource, mod: int = 0) -> Check:
    """15.1 (L613): D6 + models slain this turn (+ modifiers); above Bravery the test fails and
    the difference flees. E1 (L635): Bravery 5, 2 slain, a 3 -> 5, not above 5: nobody flees."""
    face = source.roll(6)
    total = face + slain + mod
    fled = max(0, total - bravery)
    step = Step(
        name="battleshock",
        dice=[face],
        final=[face],
        modifier=slain + mod,
        target=bravery,
        total=total,
        outcome="fled" if fled else "passed",
    )
    return Check(steps=[step], outcome={"roll": total, "die": face, "fled": fled})


def cast(value: int, source: DiceSource, mod: int = 0) -> Check:
    """19.1 (L775-779): 2D6 (+ modifiers) >= casting value; an unmodified 2 is a miscast: not
    cast, the caster suffers D3 mortal wounds (D3 = a D6 halved, L149)."""
    faces = [source.roll(6), source.roll(6)]
    total = sum(faces) + mod
    miscast = sum(faces) == 2
    done = not miscast and total >= value
    steps = [
        Step(
            name="cast",
            dice=faces,
            final=faces,
            modifier=mod,
            target=value,
            total=total,
            outcome="miscast" if miscast else ("cast" if done else "not_cast"),
        )
    ]
    mortal = 0
    if miscast:
        face = source.roll(6)
        mortal = d3(face)
        steps.append(
            Step(name="miscast", dice=[face], final=[face], total=mortal, outcome="mortal_wounds")
        )
    return Check(
        steps=steps,
        outcome={
            "total": total,
            "cast": done,
            "miscast": miscast,
            "mortal_wounds": mortal,
            "double": faces[0] == faces[1],
        },
    )


def unbind(casting_roll: int, source: DiceSource, mod: int = 0) -> Check:
    """19.1.2 (L783): 2D6 (+ modifiers) must beat the casting roll (strictly greater)."""
    faces = [source.roll(6), source.roll(6)]
    total = sum(faces) + mod
    done = total > casting_roll
    step = Step(
        name="unbind",
        dice=faces,
        final=faces,
        modifier=mod,
        target=casting_roll + 1,
        total=total,
        outcome="unbound" if done else "not_unbound",
    )
    return Check(steps=[step], outcome={"total": total, "unbound": done})


def pray(value: int, source: DiceSource, mod: int = 0) -> Check:
    """20.1 (L857-861): D6 (+ modifiers) >= answer value; an unmodified 1 is divine wrath: not
    answered and the priest suffers 1 mortal wound."""
    face = source.roll(6)
    total = face + mod
    wrath = face == 1
    answered = not wrath and total >= value
    step = Step(
        name="pray",
        dice=[face],
        final=[face],
        modifier=mod,
        target=value,
        total=total,
        outcome="wrath" if wrath else ("answered" if answered else "not_answered"),
    )
    return Check(
        steps=[step],
        outcome={
            "total": total,
            "answered": answered,
            "wrath": wrath,
            "mortal_wounds": 1 if wrath else 0,
        },
    )


def charge(source: DiceSource, mod: int = 0, distance: float | None = None) -> Check:
    """11.1 (L431): 2D6 inches; the first model must end within 1/2" of an enemy, so a gap of
    `distance` inches is reached when the roll is at least distance - 1/2."""
    faces = [source.roll(6), source.roll(6)]
    total = sum(faces) + mod
    outcome: dict[str, Any] = {"total": total, "double": faces[0] == faces[1]}
    label = "inches"
    if distance is not None:
        outcome["reaches"] = total + 0.5 >= distance
        label = "reaches" if outcome["reaches"] else "short"
    step = Step(name="charge", dice=faces, final=faces, modifier=mod, total=total, outcome=label)
    return Check(steps=[step], outcome=outcome)


def run(source: DiceSource, move: int | None = None, mod: int = 0) -> Check:
    """8.3 (L327): add a D6 to Move for the phase; the unit can't shoot or charge later."""
    face = source.roll(6)
    bonus = face + mod
    outcome: dict[str, Any] = {"roll": bonus}
    if move is not None:
        outcome["move"] = move + bonus
    step = Step(name="run", dice=[face], final=[face], modifier=mod, total=bonus, outcome="inches")
    return Check(steps=[step], outcome=outcome)


def priority(source: DiceSource, tie_winner: int | None, first_round: bool = True) -> Check:
    """4.1 (L235-239): a roll-off, never re-rolled or modified (L153). On a tie nobody rolls
    again: in the first round the player who finished deploying first has priority, later the
    player who had the first turn of the previous round. `tie_winner` is 0 or 1 (who that is);
    the outcome's `winner` is 0 or 1, or None on a tie with nobody named."""
    faces = [source.roll(6), source.roll(6)]
    tie = faces[0] == faces[1]
    if not tie:
        winner: int | None = 0 if faces[0] > faces[1] else 1
        label = "won"
    else:
        winner = tie_winner
        label = "tie_deployed" if first_round else "tie_previous"
    step = Step(name="priority", dice=faces, final=faces, total=max(faces), outcome=label)
    return Check(steps=[step], outcome={"rolls": faces, "tie": tie, "winner": winner})


def ward(mortal_wounds: int, value: int, source: DiceSource) -> Step:
    """14.3 (L589-591): one ward roll per wound or mortal wound; each success negates it."""
    faces = [source.roll(6) for _ in range(mortal_wounds)]
    negated = sum(1 for f in faces if f >= value)
    return Step(
        name="ward", dice=faces, final=faces, target=value, total=negated, outcome="negated"
    )


def check_tie_winner(value: int | None) -> int | None:
    if value is not None and value not in (0, 1):
        raise UserError("aos.bad_tie")
    return value
