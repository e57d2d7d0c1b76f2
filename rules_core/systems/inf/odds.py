"""Exact odds of Infinity rolls and attacks: the full distribution, never a simulation.

The Face to Face part comes from `rolls.ftf_distribution` (conditioning on the other side's
best success makes the dice independent). Each hit's saves are the same `hit_program` that
`attack.resolve_attack` runs with dice, here run over exact probabilities (Fractions) on the
defender's tally (wounds, killed, a save passed, disabled, immobilised). The order of the
hits does not change any reported number (sums, and FIRE's chain stops at death, which is a
cap on the running sum), so criticals are processed first.

FIRE's repeat-until-save chain (L3044-3055) ends when the model is dead (more wounds than W),
so the chain is finite and computed exactly, with no truncation.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules_core.systems.inf.attack import (
    DEFENCE_BONUS,
    Direct,
    Fire,
    Op,
    Save,
    hit_program,
)
from rules_core.systems.inf.models import AttackRequest, InfSettings, Side
from rules_core.systems.inf.rolls import (
    FtfKey,
    best_distribution,
    die_distribution,
    ftf_distribution,
    hit_counts,
)

# (wounds, killed, passed a save, disabled, immobilised)
TState = tuple[int, bool, bool, bool, bool]
Dist = dict[TState, Fraction]


def _add(d: Dist, k: TState, p: Fraction) -> None:
    if p:
        d[k] = d.get(k, Fraction(0)) + p


def _dead(s: TState, prior: int, w: int) -> bool:
    return s[1] or prior + s[0] > w


def _fail(s: TState, effect: str, em: bool) -> TState:
    wounds, killed, passed, disabled, immob = s
    if effect in ("wound", "shock"):
        wounds += 1
    if effect in ("shock", "kill"):
        killed = True
        if effect == "kill":
            wounds += 1
    if effect == "disable":
        disabled = True
    if effect == "immobilize":
        immob = True
        disabled = disabled or em
    return (wounds, killed, passed, disabled, immob)


def _passed(s: TState) -> TState:
    return (s[0], s[1], True, s[3], s[4])


def run_ops(dist: Dist, ops: list[Op], prior: int, w: int, em: bool) -> Dist:
    for op in ops:
        nxt: Dist = {}
        if isinstance(op, Direct):
            for s, p in dist.items():
                _add(nxt, _fail(s, op.effect, em), p)
        elif isinstance(op, Save):
            q = Fraction(op.p_pass(), 20)
            for s, p in dist.items():
                _add(nxt, _passed(s), p * q)
                _add(nxt, _fail(s, op.on_fail, em), p * (1 - q))
        else:
            assert isinstance(op, Fire)
            q = Fraction(op.save.p_pass(), 20)
            pending: Dist = {}
            for s, p in dist.items():
                lead = op.lead_wound and not _dead(s, prior, w)
                _add(pending, _fail(s, "wound", em) if lead else s, p)
            while pending:  # each round either stops (a pass, or dead) or adds a wound
                again: Dist = {}
                for s, p in pending.items():
                    if _dead(s, prior, w):
                        _add(nxt, s, p)
                        continue
                    _add(nxt, _passed(s), p * q)
                    _add(again, _fail(s, "wound", em), p * (1 - q))
                pending = again
        dist = nxt
    return dist


def side_tally(
    shooter: Side, defender: Side, crits: int, normals: int, settings: InfSettings, bonus: int
) -> Dist:
    dist: Dist = {(0, False, False, False, False): Fraction(1)}
    em = shooter.ammo in ("EM", "PLASMA")
    dam = shooter.dam or 0
    for critical, count in ((True, crits), (False, normals)):
        ops = hit_program(shooter.ammo, dam, critical, defender, settings, bonus)
        for _ in range(count):
            dist = run_ops(dist, ops, defender.wounds, defender.w, em)
    return dist


@dataclass
class SideOdds:
    wounds: dict[int, Fraction]
    p_hit: Fraction
    p_dead: Fraction
    p_unconscious: Fraction
    p_guts: Fraction
    p_disabled: Fraction
    p_immobilized: Fraction


@dataclass
class AttackOdds:
    target: SideOdds
    active: SideOdds
    ftf: dict[FtfKey, Fraction]


def _empty() -> SideOdds:
    z = Fraction(0)
    return SideOdds({}, z, z, z, z, z, z)


def _state_of(s: TState, prior: int, w: int) -> str:
    if _dead(s, prior, w):
        return "dead"
    return "unconscious" if prior + s[0] == w else "ok"


def _accumulate(
    odds: SideOdds, dist: Dist, p: Fraction, defender: Side, em: bool, cc: bool
) -> None:
    for s, q in dist.items():
        pq = p * q
        odds.wounds[s[0]] = odds.wounds.get(s[0], Fraction(0)) + pq
        state = _state_of(s, defender.wounds, defender.w)
        if state == "dead":
            odds.p_dead += pq
        elif state == "unconscious":
            odds.p_unconscious += pq
        if s[3]:
            odds.p_disabled += pq
        if s[4]:
            odds.p_immobilized += pq
        # L1352-1367, L2883-2886, L2896-2897 (as attack.guts_due)
        if not cc and state == "ok" and not s[4] and (s[2] or (em and not defender.heavy)):
            odds.p_guts += pq


def _no_hit_state(odds: SideOdds, p: Fraction, defender: Side) -> None:
    odds.wounds[0] = odds.wounds.get(0, Fraction(0)) + p
    state = _state_of((0, False, False, False, False), defender.wounds, defender.w)
    if state == "dead":
        odds.p_dead += p
    elif state == "unconscious":
        odds.p_unconscious += p


def attack_odds(req: AttackRequest, settings: InfSettings) -> AttackOdds:
    a, t = req.active, req.target
    a_target, t_target = a.target_vs(t), t.target_vs(a)
    ftf = ftf_distribution(a_target, a.burst, t_target if req.opposed else None, t.burst)
    target, active = _empty(), _empty()
    for (who, crits, normals), p in ftf.items():
        if who == "none":
            _no_hit_state(target, p, t)
            _no_hit_state(active, p, a)
            continue
        if who == "active":
            shooter, defender, odds, other, other_profile = a, t, target, active, a
        else:
            shooter, defender, odds, other, other_profile = t, a, active, target, t
        odds.p_hit += p
        _no_hit_state(other, p, other_profile)
        wounding = shooter.dam is not None or shooter.ammo == "ADH"
        if not wounding:
            _no_hit_state(odds, p, defender)
            continue
        em = shooter.ammo in ("EM", "PLASMA")
        if req.cc and req.opposed and shooter.ammo != "MONO":
            # split by whether the loser also succeeded (L1125-1128 Defence Bonus)
            p_loser_any = _p_loser_success(req, who, crits, normals, a_target, t_target)
            for bonus, share in ((DEFENCE_BONUS, p_loser_any), (0, 1 - p_loser_any)):
                if share:
                    dist = side_tally(shooter, defender, crits, normals, settings, bonus)
                    _accumulate(odds, dist, p * share, defender, em, req.cc)
        else:
            dist = side_tally(shooter, defender, crits, normals, settings, 0)
            _accumulate(odds, dist, p, defender, em, req.cc)
    return AttackOdds(target=target, active=active, ftf=ftf)


def _p_loser_success(
    req: AttackRequest, who: str, crits: int, normals: int, a_target: int, t_target: int
) -> Fraction:
    """P(the side that was hit rolled at least one success | the F2F case), by enumerating the
    joint case (small: close combat is B1 against B1 in practice, any burst is exact)."""
    a, t = req.active, req.target
    if who == "active":
        hit_t, hit_b, lose_t, lose_b = a_target, a.burst, t_target, t.burst
    else:
        hit_t, hit_b, lose_t, lose_b = t_target, t.burst, a_target, a.burst
    if lose_t <= 0:
        return Fraction(0)
    total = Fraction(0)
    with_success = Fraction(0)
    for lb, pl in best_distribution(lose_t, lose_b).items():
        q = hit_counts(hit_t, hit_b, lb, lose_t).get((crits, normals), Fraction(0))
        total += pl * q
        if lb is not None:
            with_success += pl * q
    return with_success / total if total else Fraction(0)


def roll_odds(attr: int, mod: int, burst: int) -> tuple[dict[int, Fraction], Fraction]:
    """Distribution of successes of a Normal roll, and P(at least one critical)."""
    target = attr + mod
    per = die_distribution(target)
    p_succ = sum((p for k, p in per.items() if k is not None), Fraction(0))
    p_crit = sum((p for k, p in per.items() if k is not None and k[0]), Fraction(0))
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(burst):
        nxt: dict[int, Fraction] = {}
        for n, p in dist.items():
            for dn, q in ((1, p_succ), (0, 1 - p_succ)):
                if q:
                    nxt[n + dn] = nxt.get(n + dn, Fraction(0)) + p * q
        dist = nxt
    return dist, 1 - (1 - p_crit) ** burst
