"""Exact odds of Infinity rolls and attacks: the full distribution, never a simulation.

The Face to Face part comes from `rolls.ftf_distribution` (conditioning on the other side's
best success makes the dice independent). Each hit's saves are the same `hit_program` that
`attack.resolve_attack` runs with dice, here run as maps over exact distributions of the
defender's tally (wounds, killed, a save passed, disabled, immobilised). The order of the
hits does not change any reported number (sums, and FIRE's chain stops at death, which is a
cap on the running sum), so criticals are processed first.

FIRE's repeat-until-save chain (L3044-3055) ends when the model is dead (more wounds than W),
so the chain is finite and computed exactly, with no truncation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from rules_core.dice.distribution import Distribution
from rules_core.systems.inf.attack import (
    DEFENCE_BONUS,
    Direct,
    Fire,
    Op,
    Save,
    coup_de_grace,
    death_limit,
    hit_program,
    tie_values,
)
from rules_core.systems.inf.models import AttackRequest, InfSettings, Side
from rules_core.systems.inf.rolls import (
    FtfKey,
    Outcome,
    best_distribution,
    die_distribution,
    ftf_distribution,
    hit_counts,
)

# (wounds, killed, passed a save, disabled, immobilised)
TState = tuple[int, bool, bool, bool, bool]
START: TState = (0, False, False, False, False)
Step = TState | Distribution[TState]  # where one operation takes a tally


def _dead(s: TState, prior: int, limit: int) -> bool:
    """Dead: killed outright, or more wounds than `limit` (attack.death_limit)."""
    return s[1] or prior + s[0] > limit


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


def _save(passes: int, passed: TState, failed: TState) -> Distribution[TState]:
    """`passed` on `passes` of the 20 faces, else `failed`."""
    weights = {passed: passes}
    weights[failed] = weights.get(failed, 0) + 20 - passes
    return Distribution(weights, total=20)


def run_ops(
    dist: Distribution[TState], ops: list[Op], prior: int, w: int, em: bool
) -> Distribution[TState]:
    for op in ops:
        dist = dist.map(_op_step(op, prior, w, em))
    return dist


def _op_step(op: Op, prior: int, w: int, em: bool) -> Callable[[TState], Step]:
    """What one operation of a hit does to a tally."""
    if isinstance(op, Direct):
        effect = op.effect
        return lambda s: _fail(s, effect, em)
    if isinstance(op, Save):
        passes, on_fail = op.p_pass(), op.on_fail
        return lambda s: _save(passes, _passed(s), _fail(s, on_fail, em))
    return _fire_chain(op, prior, w, em)


def _fire_chain(op: Fire, prior: int, w: int, em: bool) -> Callable[[TState], Step]:
    """The FIRE chain from a tally: ARM rolls until one passes or the model is dead, each
    failure a wound (a critical starts it with a wound)."""
    passes = op.save.p_pass()
    memo: dict[TState, Distribution[TState]] = {}

    def rounds(s: TState) -> Distribution[TState]:
        if _dead(s, prior, w):
            return Distribution.constant(s)
        if s not in memo:
            again = _fail(s, "wound", em)

            def then(t: TState) -> Step:
                return rounds(t) if t == again else t

            memo[s] = _save(passes, _passed(s), again).map(then)
        return memo[s]

    def start(s: TState) -> Step:
        lead = op.lead_wound and not _dead(s, prior, w)
        return rounds(_fail(s, "wound", em) if lead else s)

    return start


def side_tally(
    shooter: Side,
    defender: Side,
    crits: int,
    normals: int,
    settings: InfSettings,
    bonus: int,
    ranged: bool = True,
) -> Distribution[TState]:
    dist: Distribution[TState] = Distribution.constant(START)
    em = shooter.ammo in ("EM", "PLASMA")
    dam = shooter.dam or 0
    for critical, count in ((True, crits), (False, normals)):
        ops = hit_program(shooter.ammo, dam, critical, defender, settings, bonus, ranged)
        for _ in range(count):
            dist = run_ops(dist, ops, defender.wounds, death_limit(defender, settings), em)
    return dist


class SideResult(NamedTuple):
    """What one side ends the attack with."""

    wounds: int
    hit: bool
    dead: bool
    unconscious: bool
    guts: bool
    disabled: bool
    immobilized: bool


@dataclass
class SideOdds:
    wounds: Distribution
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
    ftf: Distribution[FtfKey]


def _state_of(s: TState, prior: int, w: int, limit: int) -> str:
    if _dead(s, prior, limit):
        return "dead"
    return "unconscious" if prior + s[0] == w else "ok"


def _result(s: TState, defender: Side, em: bool, cc: bool, hit: bool, limit: int) -> SideResult:
    state = _state_of(s, defender.wounds, defender.w, limit)
    # L1352-1367, L2883-2886, L2896-2897 (as attack.guts_due)
    guts = not cc and state == "ok" and not s[4] and (s[2] or (em and not defender.heavy))
    return SideResult(s[0], hit, state == "dead", state == "unconscious", guts, s[3], s[4])


def _untouched(defender: Side, limit: int) -> SideResult:
    state = _state_of(START, defender.wounds, defender.w, limit)
    return SideResult(0, False, state == "dead", state == "unconscious", False, False, False)


def _odds(results: Distribution[SideResult]) -> SideOdds:
    return SideOdds(
        wounds=results.map(lambda r: r.wounds),
        p_hit=results.chance(lambda r: r.hit),
        p_dead=results.chance(lambda r: r.dead),
        p_unconscious=results.chance(lambda r: r.unconscious),
        p_guts=results.chance(lambda r: r.guts),
        p_disabled=results.chance(lambda r: r.disabled),
        p_immobilized=results.chance(lambda r: r.immobilized),
    )


def _coup_de_grace_odds(req: AttackRequest, settings: InfSettings) -> AttackOdds:
    """L1384-1385: no roll, the Unconscious target dies."""
    a = req.active
    dead = SideResult(1, True, True, False, False, False, False)
    return AttackOdds(
        target=_odds(Distribution.constant(dead)),
        active=_odds(Distribution.constant(_untouched(a, death_limit(a, settings)))),
        ftf=Distribution.constant(("active", 0, 1)),
    )


def attack_odds(req: AttackRequest, settings: InfSettings) -> AttackOdds:
    if coup_de_grace(req):
        return _coup_de_grace_odds(req, settings)
    a, t = req.active, req.target
    a_target, t_target = req.targets()
    ties = tie_values(req, settings, (a_target, t_target))
    ftf = ftf_distribution(a_target, a.burst, t_target if req.opposed else None, t.burst, ties)

    def hit_side(case: FtfKey) -> Distribution[SideResult] | SideResult:
        """What the side that was hit in `case` ends with."""
        who, crits, normals = case
        shooter, defender = (a, t) if who == "active" else (t, a)
        melee = req.cc if who == "active" else req.reactive_in_cc
        limit = death_limit(defender, settings)
        em = shooter.ammo in ("EM", "PLASMA")
        if shooter.dam is None and shooter.ammo != "ADH":  # no weapon: nothing to save
            return _untouched(defender, limit)._replace(hit=True)

        # a charger that survives the reactive shot goes on into contact, no Guts roll (L1171-1173)
        no_guts = melee or (who == "reactive" and req.cc)

        def tally(bonus: int) -> Distribution[SideResult]:
            dist = side_tally(shooter, defender, crits, normals, settings, bonus, not melee)
            return dist.map(lambda s: _result(s, defender, em, no_guts, True, limit))

        if req.both_cc and req.opposed and shooter.ammo != "MONO":
            # split by whether the loser also succeeded (L1125-1128 Defence Bonus)
            p_bonus = _p_loser_success(req, who, crits, normals, a_target, t_target, ties)
            return Distribution.mixture([(p_bonus, tally(DEFENCE_BONUS)), (1 - p_bonus, tally(0))])
        return tally(0)

    def side(me: Side, hit_by: str) -> Distribution[SideResult]:
        """`me`'s results: hit in the cases where the `hit_by` side hits, untouched else."""
        limit = death_limit(me, settings)
        return ftf.map(lambda case: hit_side(case) if case[0] == hit_by else _untouched(me, limit))

    return AttackOdds(target=_odds(side(t, "active")), active=_odds(side(a, "reactive")), ftf=ftf)


def _p_loser_success(
    req: AttackRequest,
    who: str,
    crits: int,
    normals: int,
    a_target: int,
    t_target: int,
    ties: tuple[int, int],
) -> Fraction:
    """P(the side that was hit rolled at least one success | the F2F case), by enumerating the
    joint case (small: close combat is B1 against B1 in practice, any burst is exact)."""
    a, t = req.active, req.target
    if who == "active":
        hit_t, hit_b, lose_t, lose_b = a_target, a.burst, t_target, t.burst
        tie = ties
    else:
        hit_t, hit_b, lose_t, lose_b = t_target, t.burst, a_target, a.burst
        tie = (ties[1], ties[0])
    if lose_t <= 0:
        return Fraction(0)

    def hits_given(lb: Outcome) -> Distribution[tuple[bool, tuple[int, int]]]:
        def tag(cn: tuple[int, int]) -> tuple[bool, tuple[int, int]]:
            return (lb is not None, cn)

        return hit_counts(hit_t, hit_b, lb, lose_t, tie).map(tag)

    case = (
        best_distribution(lose_t, lose_b).map(hits_given).where(lambda x: x[1] == (crits, normals))
    )
    total = case.chance(lambda x: True)
    return case.chance(lambda x: x[0]) / total if total else Fraction(0)


def roll_odds(attr: int, mod: int, burst: int) -> tuple[Distribution, Fraction]:
    """Distribution of successes of a Normal roll, and P(at least one critical)."""
    per = die_distribution(attr + mod)
    successes = per.map(lambda k: int(k is not None)).repeat(burst)
    p_crit = per.chance(lambda k: k is not None and k[0])
    return successes, 1 - (1 - p_crit) ** burst


@dataclass(frozen=True)
class HitOdds:
    """The hits of the active side alone (no weapon): /inf roll's or /inf ftf's twin."""

    hits: dict[int, Fraction]
    p_hit: Fraction
    p_critical: Fraction
    p_back: Fraction  # the reactive side hits (0 with no `vs`)
    target: int  # the active side's modified attribute
    vs_target: int | None  # the reactive side's, None when nobody opposes


def hit_odds(
    attr: int,
    mod: int,
    burst: int,
    vs: int | None,
    vs_mod: int,
    vs_burst: int,
    cover: bool,
    my_cover: bool,
    cc: bool = False,
    vs_cc: bool = False,
    vs_shoots: bool = False,
) -> HitOdds:
    """Partial cover is -3 to the roll of whoever shoots at the covered side (L897-908); a
    close-combat roll (`cc` for the active side, `vs_cc` for the reactive one) ignores it, and
    so does a reactive side that does not shoot back (`vs_shoots` False: a Dodge, a PH roll,
    L374, L904)."""
    cover = cover and not cc
    my_cover = my_cover and not vs_cc and vs_shoots
    cover_mod = 3 if cover else 0
    a_target = attr + mod - cover_mod
    if vs is None:
        successes, p_crit = roll_odds(attr, mod - cover_mod, burst)
        weights = successes.as_fractions()
        return HitOdds(
            weights, 1 - weights.get(0, Fraction(0)), p_crit, Fraction(0), a_target, None
        )
    r_target = vs + vs_mod - (3 if my_cover else 0)
    ftf = ftf_distribution(a_target, burst, r_target, vs_burst)
    weights = {}
    p_back = Fraction(0)
    p_crit = Fraction(0)
    for (who, c, n), p in ftf.as_fractions().items():
        k = c + n if who == "active" else 0
        weights[k] = weights.get(k, Fraction(0)) + p
        if who == "reactive":
            p_back += p
        if who == "active" and c:
            p_crit += p
    return HitOdds(weights, 1 - weights.get(0, Fraction(0)), p_crit, p_back, a_target, r_target)
