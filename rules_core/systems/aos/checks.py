"""The other rolls of the game: battleshock, casting, unbinding, chanting, charge, run and the
priority roll-off. Each returns the steps and an outcome dict (field names are public).

Rulebook lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.steps import Step, net_modifiers
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
        modifiers=net_modifiers(slain + mod),
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
            modifiers=net_modifiers(mod),
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
        modifiers=net_modifiers(mod),
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
        modifiers=net_modifiers(mod),
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


CHARGE_RANGE = 12.0  # 11.0 (L427): only a unit within 12" of an enemy may attempt a charge
ENGAGED = 3.0  # 11.0 (L405): ... and not one already within 3" of an enemy unit


def charge(source: DiceSource, mod: int = 0, distance: float | None = None) -> Check:
    """11.1 (L431): 2D6 inches; the first model must end within 1/2" of an enemy, so a gap of
    `distance` inches is reached when the roll is at least distance - 1/2. A unit farther than
    12" from the enemy, or within 3" of one (11.0, L405, L427), can't attempt the charge: no
    dice are rolled."""
    if distance is not None and distance > CHARGE_RANGE:
        step = Step(name="charge", target=int(CHARGE_RANGE), outcome="out_of_range")
        return Check(steps=[step], outcome={"in_range": False, "reaches": False})
    if distance is not None and distance <= ENGAGED:
        # 11.0 (L405): a unit within 3" of an enemy unit can't attempt a charge at all.
        step = Step(name="charge", target=int(ENGAGED), outcome="out_of_range")
        return Check(steps=[step], outcome={"in_range": False, "reaches": False, "too_close": True})
    faces = [source.roll(6), source.roll(6)]
    total = sum(faces) + mod
    outcome: dict[str, Any] = {"total": total, "double": faces[0] == faces[1]}
    label = "inches"
    if distance is not None:
        outcome["in_range"] = True
        outcome["reaches"] = total + 0.5 >= distance
        label = "reaches" if outcome["reaches"] else "short"
    step = Step(
        name="charge",
        dice=faces,
        final=faces,
        modifiers=net_modifiers(mod),
        total=total,
        outcome=label,
    )
    return Check(steps=[step], outcome=outcome)


def run(source: DiceSource, move: int | None = None, mod: int = 0) -> Check:
    """8.3 (L327): add a D6 to Move for the phase; the unit can't shoot or charge later."""
    face = source.roll(6)
    bonus = face + mod
    outcome: dict[str, Any] = {"roll": bonus}
    if move is not None:
        outcome["move"] = move + bonus
    step = Step(
        name="run",
        dice=[face],
        final=[face],
        modifiers=net_modifiers(mod),
        total=bonus,
        outcome="inches",
    )
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


def rally(slain: int, source: DiceSource) -> Check:
    """Rally (7.2, L307-309): a D6 for each slain model of the unit; each 6 returns one."""
    faces = [source.roll(6) for _ in range(slain)]
    returned = sum(1 for f in faces if f == 6)
    step = Step(name="rally", dice=faces, final=faces, target=6, total=returned, outcome="returned")
    return Check(steps=[step], outcome={"returned": returned})


def recovery(bravery: int, source: DiceSource) -> Check:
    """Heroic Recovery (7.1, L301): 2D6 below Bravery heals up to D3 wounds, equal heals 1,
    above heals nothing."""
    faces = [source.roll(6), source.roll(6)]
    total = sum(faces)
    steps = [
        Step(
            name="recovery",
            dice=faces,
            final=faces,
            target=bravery,
            total=total,
            outcome="below" if total < bravery else ("equal" if total == bravery else "above"),
        )
    ]
    healed = 0
    if total < bravery:
        face = source.roll(6)
        healed = d3(face)
        steps.append(Step(name="heal", dice=[face], final=[face], total=healed, outcome="healed"))
    elif total == bravery:
        healed = 1
    return Check(steps=steps, outcome={"total": total, "healed": healed})


def leadership(source: DiceSource, general_slain: bool = False) -> Check:
    """Heroic Leadership (7.1, L289): D6, +2 if your General has been slain; on 4+ the HERO
    gets 1 command point it alone can spend this turn."""
    face = source.roll(6)
    mod = 2 if general_slain else 0
    total = face + mod
    gained = 1 if total >= 4 else 0
    step = Step(
        name="leadership",
        dice=[face],
        final=[face],
        modifiers=net_modifiers(mod),
        target=4,
        total=total,
        outcome="gained" if gained else "failed",
    )
    return Check(steps=[step], outcome={"total": total, "cp": gained})


def dispel(value: int, source: DiceSource, mod: int = 0) -> Check:
    """Dispelling an endless spell (19.3.2, L807-809): 2D6 must beat the casting value."""
    faces = [source.roll(6), source.roll(6)]
    total = sum(faces) + mod
    done = total > value
    step = Step(
        name="dispel",
        dice=faces,
        final=faces,
        modifiers=net_modifiers(mod),
        target=value + 1,
        total=total,
        outcome="dispelled" if done else "not_dispelled",
    )
    return Check(steps=[step], outcome={"total": total, "dispelled": done})


def banish(value: int, source: DiceSource, mod: int = 0) -> Check:
    """Banishing an invocation (20.3.2, L885-887): D6 must beat the answer value."""
    face = source.roll(6)
    total = face + mod
    done = total > value
    step = Step(
        name="banish",
        dice=[face],
        final=[face],
        modifiers=net_modifiers(mod),
        target=value + 1,
        total=total,
        outcome="banished" if done else "not_banished",
    )
    return Check(steps=[step], outcome={"total": total, "banished": done})
