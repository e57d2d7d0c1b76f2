"""Characteristic tests with the C5 natural-1 rule, opposed tests, fear and rally tests, mana
recovery, temporary faith and the pass rule."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.steps import Modifier, Step
from rules_core.systems.c5 import tables
from rules_core.systems.c5.models import TestOutcome, TestRequest

MAX_CHAIN = 200  # a rerolled chain this long only comes from a broken dice list


def explode_faces(req: TestRequest, open_ended: bool) -> frozenset[int]:
    """Faces that are kept and rolled again: 6 (C3 background, §2.1; the `open_ended` setting)
    and the faces an ability lets you reroll (§2.3, e.g. Rozzo's 5, @102429 and @6254)."""
    faces = set(req.reroll)
    if open_ended:
        faces.add(6)
    return frozenset(faces)


def resolve_test(
    req: TestRequest, source: DiceSource, *, open_ended: bool = True, name: str = "test"
) -> tuple[Step, TestOutcome]:
    """d6 + value + mod. @4060 (digest §2.2): a natural 1 is no longer an automatic failure:
    the die is rolled once more and that face is subtracted; everything rolled before the 1
    (rerolled 6s or ability faces) is ignored; the test fails when the result is 0 or less or
    when the subtracted face is 5 or 6. Examples @5455 (ATT 5: 1,3 -> 2; 6,1,3 -> 2; 1,5 ->
    failure), Rozzo @6254."""
    again = explode_faces(req, open_ended)
    dice: list[int] = []
    kept = 0
    base = req.value + req.mod
    mods = [Modifier(name=req.stat or "value", value=req.value)] + (
        [Modifier(name="mod", value=req.mod)] if req.mod else []
    )
    for _ in range(MAX_CHAIN):
        face = source.roll(6)
        dice.append(face)
        if face == 1 and req.plain_one:  # zone artillery: a plain failure (@40747)
            out = TestOutcome(total=base + 1, success=False, natural_one=False, failed=True)
            break
        if face == 1 and not req.one_ok:
            second = source.roll(6)
            dice.append(second)
            total = base - second
            failed = total <= 0 or second >= 5
            success = not failed and (req.diff is None or total >= req.diff)
            out = TestOutcome(
                total=total, success=success, natural_one=True, failed=failed, reroll=second
            )
            break
        kept += face
        if face in again:
            continue
        total = base + kept
        out = TestOutcome(
            total=total,
            success=req.diff is None or total >= req.diff,
            natural_one=False,
            failed=False,
        )
        break
    else:
        raise UserError("c5.chain_too_long", limit=MAX_CHAIN)
    verdict = "fail_natural_one" if out.failed else "success" if out.success else "fail"
    step = Step(
        name=name,
        dice=dice,
        modifiers=mods,
        target=req.diff,
        total=out.total,
        outcome=verdict,
        detail={"natural_one": out.natural_one, "reroll": out.reroll},
    )
    return step, out


class OpposedOutcome(BaseModel):
    winner: str  # "a", "b" or "tie"
    total_a: int
    total_b: int
    failed_a: bool
    failed_b: bool


def resolve_opposed(
    a: TestRequest, b: TestRequest, source: DiceSource, *, open_ended: bool = True
) -> tuple[list[Step], OpposedOutcome]:
    """Two tests, the higher final result wins (§2.1); a test failed by the natural-1 rule
    loses to one that did not fail; equal results (or both failed) are a tie."""
    sa, oa = resolve_test(a, source, open_ended=open_ended, name="test_a")
    sb, ob = resolve_test(b, source, open_ended=open_ended, name="test_b")
    key_a = (0 if oa.failed else 1, oa.total if not oa.failed else 0)
    key_b = (0 if ob.failed else 1, ob.total if not ob.failed else 0)
    winner = "a" if key_a > key_b else "b" if key_b > key_a else "tie"
    return [sa, sb], OpposedOutcome(
        winner=winner, total_a=oa.total, total_b=ob.total, failed_a=oa.failed, failed_b=ob.failed
    )


class ManaOutcome(BaseModel):
    total: int
    natural_one: bool
    gems: int
    recovery: int
    rank: int


def resolve_mana(
    rank: int, power: int, source: DiceSource, *, recovery: int = 0, explode: bool = False
) -> tuple[Step, ManaOutcome]:
    """@130449 (digest §3.3.1): POT + 1d6 read on the mage's rank row; a natural 1 recovers
    nothing. Recupero/X (@97326) adds X gems. Whether a 6 is rerolled here is not stated: the
    `mana_explode` setting (default no)."""
    if not 1 <= rank <= 4:
        raise UserError("c5.bad_rank")
    dice = [source.roll(6)]
    natural_one = dice[0] == 1
    while explode and dice[-1] == 6 and len(dice) < MAX_CHAIN:
        dice.append(source.roll(6))
        if dice[-1] == 1:  # a 1 after a 6 counts as the natural 1 of the roll
            natural_one = True
            break
    total = power + sum(dice)
    gems = tables.mana_gems(rank, total, natural_one)
    gems += recovery
    column = "1" if natural_one else tables.MANA_COLUMNS[tables.mana_band(total) + 1]
    step = Step(
        name="mana",
        dice=dice,
        modifiers=[Modifier(name="pow", value=power)],
        total=total,
        outcome=str(gems),
        detail={"rank": rank, "column": column},
    )
    return step, ManaOutcome(
        total=total, natural_one=natural_one, gems=gems, recovery=recovery, rank=rank
    )


class FaithOutcome(BaseModel):
    ft: int
    aspects: int
    from_followers: int
    believer: int
    consecrated: int
    kept: int


def temporary_faith(
    rank: int,
    aspects: int,
    followers: int,
    *,
    believer: int = 0,
    consecrated: int = 0,
    piety: int = 0,
    unspent: int = 0,
) -> FaithOutcome:
    """@21515 (digest §3.4): FT = the sum of the printed Aspects (relics included) + the
    followers in the aura (Devoto: 1 per incomplete 3, Zelota: per incomplete 2, Decano and
    Avatar: 1 each); a Consecrated follower counts as one more follower (@30247); Credente/X
    adds X instead of counting as a follower; Pietà/X keeps up to X unspent FT (@49896)."""
    if not 1 <= rank <= 4:
        raise UserError("c5.bad_rank")
    followers_ft = tables.faith_from_followers(rank, followers + consecrated)
    kept = min(piety, unspent)
    ft = aspects + followers_ft + believer + kept
    return FaithOutcome(
        ft=ft,
        aspects=aspects,
        from_followers=followers_ft,
        believer=believer,
        consecrated=consecrated,
        kept=kept,
    )


def may_pass(mine: int, theirs: int) -> bool:
    """@16499: on your lead you may pass when the opponent has more cards still to activate
    than you (reserves included)."""
    return theirs > mine


class RecoveryOutcome(BaseModel):
    ability: str
    x: int
    healed: int  # wounds healed (Guarigione, Rigenerazione)
    lost: int  # wounds lost (Effimero)


RECOVERY = ("rigenerazione", "guarigione", "effimero")


def resolve_recovery(
    ability: str, x: int, wounds: int, source: DiceSource
) -> tuple[Step, RecoveryOutcome]:
    """Maintenance phase (digest §3.6): a plain d6 against X, no natural-1 rule and no reroll.
    Guarigione/X (@79741): one roll, heals 1 on X or more. Rigenerazione/X (@99096): heals 1 on
    X or more and then rolls once more, at most 2. Effimero/X (@68825): the same two rolls, each
    success losing a wound (a success is a roll of X or more, as for Rigenerazione: [AMBIG]
    §8.2-14). Healing stops when no wound is left (`wounds` = wounds suffered)."""
    if ability not in RECOVERY:
        raise UserError("c5.bad_recovery", valid=", ".join(RECOVERY))
    if ability != "effimero" and wounds <= 0:
        raise UserError("c5.nothing_to_heal")
    dice: list[int] = []
    hits = 0
    for _ in range(1 if ability == "guarigione" else 2):
        if ability != "effimero" and hits >= wounds:
            break
        face = source.roll(6)
        dice.append(face)
        if face < x:
            break
        hits += 1
    healed = hits if ability != "effimero" else 0
    step = Step(
        name=ability,
        dice=dice,
        target=x,
        total=hits,
        outcome="success" if hits else "fail",
        detail={"healed": healed, "lost": hits - healed},
    )
    return step, RecoveryOutcome(ability=ability, x=x, healed=healed, lost=hits - healed)


def rally_contact_outcome() -> dict[str, Any]:
    """@15362: a routed fighter in base contact with a frightening enemy fails its rally test
    automatically; no die is rolled."""
    return {"total": None, "success": False, "natural_one": False, "failed": True}
