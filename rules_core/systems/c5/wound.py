"""The wound roll ("Tiro per Ferire", digest §3.5): 2d6, the lower die picks the row of the C5
wound table (@130057), the higher die + STR - RES picks the column."""

from __future__ import annotations

from rules_core.dice import DiceSource
from rules_core.steps import Modifier, Step
from rules_core.systems.c5 import tables
from rules_core.systems.c5.models import WoundOutcome, WoundRequest


def capped(value: int, *, uncapped: bool, printed: int | None, extra: int = 0) -> int:
    """@2104: the value used is at most 15 (15 + X for Colpo da Maestro/X); bonuses above the
    cap only fill maluses, which `min` of the final value does exactly (Cypher @3715). A value
    printed above 15 on the card (Red Troll @4728) is capped at that printed value instead."""
    if uncapped:
        return value if printed is None else min(value, max(tables.CAP, printed))
    return min(value, tables.CAP + extra)


def effective_str(req: WoundRequest, melee_penalty: str = "str") -> tuple[int, list[Modifier]]:
    mods = [Modifier(name="str", value=req.str_)]
    value = req.str_
    if req.penalty and melee_penalty == "str":  # the Cypher example treats it as a STR malus
        mods.append(Modifier(name="penalty", value=-req.penalty))
        value -= req.penalty
    if req.artillery:  # @2104: artillery shots are exempt from the cap
        return value, mods
    if req.master is not None:
        return capped(value, uncapped=False, printed=None, extra=req.master), mods
    return capped(value, uncapped=req.str_uncapped, printed=req.str_printed), mods


ETEREO_RES = 10  # @71422: an Etereo fighter's RES never counts above 10

# Effects read after the table (digest §3.5.3 step 7; the seed gives no order [AMBIG], this is
# the digest's): Feroce (melee: Stordito -> 1 wound), sacred weapon +2 / sacred armour -2 on an
# exceptional wound (@41847; they cancel), Spada-Ascia +1 on 3 or more (@41662), Vulnerabile +1
# on a wound (Stordito unchanged), Etereo -1 per hit (@71422).
EFFECTS = ("feroce", "sacred", "sacred_armour", "spada_ascia", "vulnerabile", "etereo")


def effective_res(req: WoundRequest) -> int:
    res = min(req.res, ETEREO_RES) if "etereo" in req.effects else req.res
    if req.artillery:  # @2104: artillery wound rolls are exempt from the cap
        return res
    return capped(res, uncapped=req.res_uncapped, printed=req.res_printed)


def after_table(value: int, exceptional: bool, req: WoundRequest, sacred_on_nothing: bool) -> int:
    """The table's cell (NULLA, STORDITO or wounds) after the effects in EFFECTS."""
    e = req.effects
    if "feroce" in e and req.melee and value == tables.STORDITO:
        value = 1
    bonus = 2 * (("sacred" in e) - ("sacred_armour" in e))
    if exceptional and bonus:
        if value >= 1:
            value = max(0, value + bonus) or tables.NULLA
        elif bonus > 0 and sacred_on_nothing:  # [AMBIG] §8.2-12, the sacred_on_nothing setting
            value = bonus
    if "spada_ascia" in e and value >= 3:
        value += 1
    if "vulnerabile" in e and value >= 1:
        value += 1
    if "etereo" in e:  # Immunity/Stunned, and each wound one less (@71426)
        if value == tables.STORDITO:
            value = tables.NULLA
        elif value >= 1:
            value = value - 1 or tables.NULLA
    return value


def shift(req: WoundRequest) -> int:
    """Flagello/X reads one line more severe (@74286), Ossoduro one less (@95428); together
    they cancel."""
    return (1 if req.scourge else 0) - (1 if req.hardboned else 0)


def read_table(
    low: int,
    high: int,
    strength: int,
    resilience: int,
    req: WoundRequest,
    settings_minus3: str,
    melee_penalty: str = "str",
    sacred_on_nothing: bool = False,
) -> WoundOutcome:
    """The table lookup for two dice already rolled (no dice source: the odds use it too)."""
    exceptional = low == high  # @41847: both dice show the same face
    double_six = low == 6 and high == 6
    row = tables.HEAD_ROW if double_six else min(low, tables.HEAD_ROW)
    r = high + strength - resilience + req.mod
    if req.penalty and melee_penalty == "result":
        r -= req.penalty
    moved = shift(req)
    band = max(0, min(tables.BANDS - 1, tables.band_of(r, minus_three=settings_minus3) + moved))
    value = tables.cell(row, band, r + 2 * moved)
    if double_six:  # @2104: at least three wounds, read in the Testa row
        value = max(tables.DOUBLE_SIX_MIN, value)
    value = after_table(value, exceptional, req, sacred_on_nothing)
    if value == tables.NULLA:
        wounds, stunned, result = 0, False, "no_effect"
    elif value == tables.STORDITO:
        wounds, stunned, result = 0, True, "stunned"
    else:
        wounds, stunned, result = value, False, "wounds"
    return WoundOutcome(
        location=row,
        column=band,
        wounds=wounds,
        stunned=stunned,
        exceptional=exceptional,
        result=result,
        r=r,
        str_used=strength,
        res_used=resilience,
    )


def resolve_wound(
    req: WoundRequest,
    source: DiceSource,
    *,
    minus_three: str = "first",
    melee_penalty: str = "str",
    sacred_on_nothing: bool = False,
) -> tuple[Step, WoundOutcome]:
    """Roll 2d6 and read the table; no natural-1 rule here (@4060: not on wound rolls)."""
    dice = [source.roll(6), source.roll(6)]
    low, high = min(dice), max(dice)
    strength, mods = effective_str(req, melee_penalty)
    resilience = effective_res(req)
    out = read_table(
        low, high, strength, resilience, req, minus_three, melee_penalty, sacred_on_nothing
    )
    if strength != sum(m.value for m in mods):
        mods.append(Modifier(name="cap", value=strength - sum(m.value for m in mods)))
    mods.append(Modifier(name="res", value=-resilience))
    if req.mod:
        mods.append(Modifier(name="mod", value=req.mod))
    if req.penalty and melee_penalty == "result":
        mods.append(Modifier(name="penalty", value=-req.penalty))
    step = Step(
        name="wound",
        dice=dice,
        modifiers=mods,
        total=out.r,
        outcome=out.result,
        detail={
            "row": out.location,
            "column": out.column,
            "shift": shift(req),
            "exceptional": out.exceptional,
            "wounds": out.wounds,
            "effects": ",".join(sorted(req.effects)) or None,
        },
    )
    return step, out
