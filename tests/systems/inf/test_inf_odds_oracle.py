"""An independent oracle for Infinity's attack odds (`attack_odds`): every die face enumerated
with plain itertools and exact Fractions, the rules written out here from the rulebook (lines
L123 of ../shared/seeds/003_27b81155ce3a4b9f.txt) and the digest (§3.2, §3.6-3.9), never
calling the resolver or the odds code under test. The Face to Face judgement is the suite's
own oracle (`test_inf_rules.d20`, `oracle_hits`), itself written apart from `rolls`.

Both bursts are enumerated die by die; each side's hits then force their saves in rolling
order on a running tally, each save's d20 enumerated too (FIRE rolls again until a save
passes or the model is dead, so its chain is finite).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product

import pytest

from rules_core.systems.inf.models import AttackRequest, InfSettings, Side
from rules_core.systems.inf.odds import attack_odds
from tests.systems.inf.test_inf_rules import d20, oracle_hits

D20 = range(1, 21)
P20 = Fraction(1, 20)


@dataclass(frozen=True)
class Tally:
    """What has happened to one model so far in the order."""

    wounds: int = 0
    killed: bool = False  # SHOCK or MONO: dead whatever the wounds
    passed: bool = False  # survived a hit with a save: a Guts roll is due (L1352-1367)
    disabled: bool = False
    immobilized: bool = False

    def dead(self, side: Side) -> bool:
        return self.killed or side.wounds + self.wounds > side.w  # L1390-1393


Spread = dict[Tally, Fraction]


def passes(face: int, value: int, damage: int) -> bool:
    """An ARM or BTS roll: d20 + ARM (or BTS) must exceed the Damage (L1332-1348)."""
    return face + value > damage


def saves_of_hit(
    ammo: str, dam: int, critical: bool, defender: Side, bonus: int, ranged: bool
) -> tuple[list[tuple[str, int, int, str]], list[str]]:
    """The rolls one hit forces, each (kind, value, damage, effect of a failure), and the
    effects a critical applies with no roll (L894-895), per ammunition (digest §3.7)."""
    cover = 3 if defender.cover and ranged else 0  # L897-908
    arm = defender.arm
    if ammo.startswith("AP"):  # L2898-2910: halved rounding up, cover not halved
        arm = (arm + 1) // 2
    arm_roll = ("arm", arm + cover + bonus, dam, "wound")
    # L2921-2931, L2879-2886: E/M disables gear; HI, REM and TAG are also immobilised
    em_effect = "immobilize" if defender.heavy else "disable"
    bts_roll = ("bts", defender.bts + cover, dam, em_effect)
    base = ammo.split("+")[-1]
    if base in ("N", "AP"):
        return ([], ["wound"]) if critical else ([arm_roll], [])
    if base == "DA":  # L2911-2920: two ARM rolls; a critical is a wound and the other roll
        return ([arm_roll], ["wound"]) if critical else ([arm_roll, arm_roll], [])
    if base == "EXP":  # L3016-3032: three
        return ([arm_roll] * 2, ["wound"]) if critical else ([arm_roll] * 3, [])
    if base == "SHOCK":  # L3107-3120: a failure kills a 1-W model outright
        effect = "kill" if defender.w == 1 and not defender.structure else "wound"
        return ([], [effect]) if critical else ([(*arm_roll[:3], effect)], [])
    if base == "MONO":  # L3056-3065: ARM 0 (cover kept) against Damage 12, a failure kills
        return ([], ["kill"]) if critical else ([("arm", cover, 12, "kill")], [])
    if base == "NANO":  # L3066-3071: a BTS roll, a failure is a wound
        return ([], ["wound"]) if critical else ([(*bts_roll[:3], "wound")], [])
    if base == "EM":  # L2921-2931: a BTS roll, a failure disables, no wound
        return ([], [em_effect]) if critical else ([bts_roll], [])  # em_crit=fail
    if base == "PLASMA":  # L3094-3106: the ARM roll (wound) and the BTS roll (E/M)
        return ([bts_roll], ["wound"]) if critical else ([arm_roll, bts_roll], [])
    raise AssertionError(ammo)


def hurt(t: Tally, effect: str) -> Tally:
    if effect == "wound":
        return replace(t, wounds=t.wounds + 1)
    if effect == "kill":
        return replace(t, wounds=t.wounds + 1, killed=True)
    if effect == "immobilize":
        return replace(t, disabled=True, immobilized=True)
    return replace(t, disabled=True)


def after_hit(
    t: Tally, ammo: str, dam: int, critical: bool, defender: Side, bonus: int, ranged: bool
) -> Spread:
    out: Spread = {}
    if ammo == "FIRE":  # L3044-3055: a failure wounds and the model rolls again, until it
        # passes or is dead; a critical starts with a wound (fire_crit_burns=yes)
        arm = defender.arm + (3 if defender.cover and ranged else 0) + bonus

        def burn(state: Tally, p: Fraction) -> None:
            if state.dead(defender):
                out[state] = out.get(state, Fraction(0)) + p
                return
            for face in D20:
                if passes(face, arm, dam):
                    done = replace(state, passed=True)
                    out[done] = out.get(done, Fraction(0)) + p * P20
                else:
                    burn(hurt(state, "wound"), p * P20)

        # a fire on a model already dead does nothing, its critical's wound included
        burn(hurt(t, "wound") if critical and not t.dead(defender) else t, Fraction(1))
        return out
    rolls, direct = saves_of_hit(ammo, dam, critical, defender, bonus, ranged)
    for effect in direct:
        t = hurt(t, effect)
    for faces in product(D20, repeat=len(rolls)):
        state = t
        for face, (_, value, damage, effect) in zip(faces, rolls, strict=True):
            state = (
                replace(state, passed=True) if passes(face, value, damage) else hurt(state, effect)
            )
        out[state] = out.get(state, Fraction(0)) + P20 ** len(rolls)
    return out


@dataclass(frozen=True)
class Result:
    wounds: int
    hit: bool
    dead: bool
    unconscious: bool
    guts: bool
    disabled: bool
    immobilized: bool


def result(t: Tally, side: Side, hit: bool, em: bool, cc: bool) -> Result:
    dead = t.dead(side)
    unconscious = not dead and side.wounds + t.wounds == side.w  # L1368-1389
    ok = not dead and not unconscious
    # L1352-1367: one Guts roll after surviving a hit with a save, never in close combat
    # (L1244-1246); after E/M also when the BTS roll failed, for models other than HI/REM/TAG
    # (L2883-2884)
    guts = hit and not cc and ok and not t.immobilized and (t.passed or (em and not side.heavy))
    return Result(t.wounds, hit, dead, unconscious, guts, t.disabled, t.immobilized)


def oracle(req: AttackRequest) -> tuple[dict[Result, Fraction], dict[Result, Fraction]]:
    """(the target's results, the active model's results), each with its probability."""
    a, t = req.active, req.target
    cc = req.cc
    # L897-908: cover is -3 to the other side's shots; close combat ignores it
    a_target = a.attr + a.mod + a.range - (3 if t.cover and not cc else 0)
    t_target = t.attr + t.mod + t.range - (3 if a.cover and not cc else 0)
    a_dice = a.burst if a_target > 0 else 0  # L395-398: no dice on an automatic failure
    t_dice = t.burst if req.opposed and t_target > 0 else 0
    # Every roll of both bursts, judged die by die; what follows depends only on the hits
    # in rolling order (critical or not) and on whether the other side succeeded at all.
    judged: dict[tuple[tuple[bool, ...], tuple[bool, ...], bool, bool], int] = {}
    for faces in product(D20, repeat=a_dice + t_dice):
        mine = [d20(f, a_target) for f in faces[:a_dice]]
        theirs = [d20(f, t_target) for f in faces[a_dice:]]
        if req.opposed:
            a_hits = oracle_hits(mine, a_target, theirs, t_target)
            t_hits = oracle_hits(theirs, t_target, mine, a_target)
        else:
            a_hits, t_hits = [crit for ok, crit, _ in mine if ok], []
        key = (
            tuple(a_hits),
            tuple(t_hits),
            any(ok for ok, _, _ in theirs),
            any(ok for ok, _, _ in mine),
        )
        judged[key] = judged.get(key, 0) + 1
    targets: dict[Result, Fraction] = {}
    actives: dict[Result, Fraction] = {}
    memo: dict[tuple[int, Tally, bool, int], Spread] = {}
    for (a_hits, t_hits, t_ok, a_ok), count in judged.items():
        p = Fraction(count, 20 ** (a_dice + t_dice))
        for hits, shooter, defender, out, other_ok in (
            (a_hits, a, t, targets, t_ok),
            (t_hits, t, a, actives, a_ok),
        ):
            # L1125-1128: in close combat the loser who also succeeded gets +3 ARM
            bonus = 3 if cc and req.opposed and other_ok and shooter.ammo != "MONO" else 0
            spread: Spread = {Tally(): Fraction(1)}
            for critical in hits:
                nxt: Spread = {}
                for state, q in spread.items():
                    if shooter.dam is None:  # a Dodge: hits, nothing to save
                        nxt[state] = nxt.get(state, Fraction(0)) + q
                        continue
                    known = (id(defender), state, critical, bonus)
                    if known not in memo:  # the same hit on the same tally: enumerated once
                        memo[known] = after_hit(
                            state, shooter.ammo, shooter.dam, critical, defender, bonus, not cc
                        )
                    spent = memo[known]
                    for s2, q2 in spent.items():
                        nxt[s2] = nxt.get(s2, Fraction(0)) + q * q2
                spread = nxt
            em = shooter.ammo in ("EM", "PLASMA")
            for state, q in spread.items():
                r = result(state, defender, bool(hits), em, cc)
                out[r] = out.get(r, Fraction(0)) + p * q
    return targets, actives


def check(odds: object, results: dict[Result, Fraction]) -> None:
    def chance(name: str) -> Fraction:
        return sum((p for r, p in results.items() if getattr(r, name)), Fraction(0))

    wounds: dict[int, Fraction] = {}
    for r, p in results.items():
        wounds[r.wounds] = wounds.get(r.wounds, Fraction(0)) + p
    assert odds.wounds.as_fractions() == dict(sorted(wounds.items()))  # type: ignore[attr-defined]
    for name in ("hit", "dead", "unconscious", "guts", "disabled", "immobilized"):
        assert getattr(odds, f"p_{name}") == chance(name), name


CASES = {
    "ftf-N": AttackRequest(active=Side(attr=12, burst=3, dam=13), target=Side(attr=11, arm=1)),
    "ftf-both-shoot": AttackRequest(
        active=Side(attr=13, burst=2, dam=13, arm=2, w=2),
        target=Side(attr=12, dam=14, arm=1, w=1, wounds=0),
    ),
    "normal-DA-cover": AttackRequest(
        active=Side(attr=14, burst=2, dam=13, ammo="DA"),
        target=Side(attr=0, arm=2, w=2, cover=True),
        opposed=False,
    ),
    "AP-halves-ARM": AttackRequest(
        active=Side(attr=13, dam=14, ammo="AP"), target=Side(attr=10, arm=5, w=1)
    ),
    "EXP-two-wounds": AttackRequest(
        active=Side(attr=11, burst=2, dam=14, ammo="EXP"), target=Side(attr=11, arm=3, w=2)
    ),
    "SHOCK-kills": AttackRequest(
        active=Side(attr=15, dam=13, ammo="SHOCK"),
        target=Side(attr=12, arm=1, w=1),
    ),
    "FIRE-burns": AttackRequest(
        active=Side(attr=22, burst=2, dam=13, ammo="FIRE"),
        target=Side(attr=0, arm=2, w=2, wounds=1),
        opposed=False,
    ),
    "MONO-cover": AttackRequest(
        active=Side(attr=12, dam=15, ammo="MONO"),
        target=Side(attr=0, arm=6, w=3, cover=True),
        opposed=False,
    ),
    "NANO-BTS": AttackRequest(
        active=Side(attr=13, dam=12, ammo="NANO"), target=Side(attr=9, bts=3, w=1)
    ),
    "EM-disables": AttackRequest(
        active=Side(attr=14, burst=2, dam=13, ammo="EM"),
        target=Side(attr=0, bts=6, heavy=True),
        opposed=False,
    ),
    "PLASMA": AttackRequest(
        active=Side(attr=13, dam=14, ammo="PLASMA"), target=Side(attr=10, arm=2, bts=3, w=2)
    ),
    "dodge": AttackRequest(active=Side(attr=13, burst=3, dam=13), target=Side(attr=14, arm=2)),
    "cc-defence-bonus": AttackRequest(
        active=Side(attr=15, dam=14, arm=2),
        target=Side(attr=14, dam=13, arm=1, w=2),
        cc=True,
    ),
    "above-20": AttackRequest(
        active=Side(attr=23, dam=13), target=Side(attr=21, dam=13, arm=2, w=1)
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_attack_odds_match_the_oracle(name: str) -> None:
    req = CASES[name]
    odds = attack_odds(req, InfSettings())
    targets, actives = oracle(req)
    assert sum(targets.values()) == sum(actives.values()) == 1
    check(odds.target, targets)
    check(odds.active, actives)
