"""Each game's attack chain: our exact odds against the same distribution built in icepool.

Every case builds the distribution twice, once with the game's own odds code (caches emptied:
a cold computation) and once in icepool from the game's rules written here independently
(only the per-die judgements, e.g. what a face is worth, are taken from the game modules; how
dice combine into the distribution is icepool's). The two must agree to 1e-9, then both are
timed cold. A case where our code is slower than icepool shows a ratio below 1x.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

from bench.timing import median_time, table
from rules_core.dice.distribution import Distribution
from rules_core.systems.aos import odds as aos_odds
from rules_core.systems.aos.attack import clamp_roll_mod, hit_passes, save_modifier, save_passes
from rules_core.systems.aos.models import AttackRequest as AosRequest
from rules_core.systems.aos.models import Settings as AosSettings
from rules_core.systems.aos.values import DiceValue, On6
from rules_core.systems.inf import rolls as inf_rolls
from rules_core.systems.wm import odds as wm_odds
from rules_core.systems.wm.attack import judge, plan
from rules_core.systems.wm.models import AttackRequest as WmRequest
from rules_core.systems.wow import pool as wow_pool


def fresh(sides: int) -> Any:
    """A new icepool die (icepool caches results on its die objects; see dice_bench)."""
    return icepool.Die(range(1, sides + 1))


# --- Age of Sigmar: hit, wound, save, damage, ward; n attacks -------------------------------


def aos_icepool(req: AosRequest) -> Any:
    settings = AosSettings()

    def rolled(reroll: str, passes: Callable[[int], bool]) -> Any:
        die = fresh(6)
        if reroll == "ones":
            return die.reroll([1], depth=1)
        if reroll == "failed":
            return die.reroll([f for f in range(1, 7) if not passes(f)], depth=1)
        return die

    def damage_die() -> Any:
        dv = req.damage
        return (dv.count @ fresh(dv.sides) + dv.plus) if dv.count else icepool.Die([dv.plus])

    smod = save_modifier(req.save_mod, req.rend, settings)
    wmod, hmod = clamp_roll_mod(req.wound_mod), clamp_roll_mod(req.hit_mod)

    def saved(f: int) -> bool:
        return save_passes(f, req.save, smod)

    def wounds(f: int) -> bool:
        return hit_passes(f, req.wound, wmod)

    def hits(f: int) -> bool:
        return hit_passes(f, req.hit, hmod)

    per_wound = rolled(req.reroll_save, saved).map(saved).if_else(0, damage_die())
    per_hit = rolled(req.reroll_wound, wounds).map(wounds).if_else(per_wound, 0)
    hit = rolled(req.reroll_hit, hits)

    def on_hit(face: int) -> Any:
        if not hits(face):
            return 0
        if face == 6 and req.on6_hit.kind == "extra_hit":
            return per_hit + per_hit
        return per_hit

    per_attack = hit.map(on_hit)
    if req.ward is not None:
        ward_fails = icepool.Die({1: req.ward - 1, 0: 7 - req.ward})
        per_attack = per_attack.map(lambda points: points @ ward_fails)
    attacks = req.attacks
    if attacks.random:
        count = req.attack_rolls @ (attacks.count @ fresh(attacks.sides) + attacks.plus)
        return count @ per_attack
    return (attacks.plus * req.attack_rolls) @ per_attack


def aos_ours(req: AosRequest) -> Distribution:
    return aos_odds.attack_odds(req)


# --- WARMACHINE: 2d6 (or boosted 3d6) against DEF, then damage against ARM -----------------


def wm_icepool(req: WmRequest) -> Any:
    p = plan(req)
    damage = (p.damage_dice @ fresh(6) + p.damage_bonus - p.arm).map(lambda x: max(0, x))
    if not p.rolls_attack:
        return damage
    assert p.defense is not None
    defense = p.defense
    faces = fresh(6).pool(p.hit_dice).expand()
    hit = faces.map(lambda fs: judge(list(fs), sum(fs) + p.hit_bonus, defense)[0])
    return hit.if_else(damage, 0)


def wm_ours(req: WmRequest) -> Distribution:
    wm_odds.attack_roll.cache_clear()
    return wm_odds.attack_odds(req).distribution


# --- Infinity: Face to Face rolls of two bursts of d20 ---------------------------------------

SIDE_CODE = {"none": 0, "active": 1, "reactive": 2}


def ftf_code(side: str, crits: int, normals: int) -> int:
    return SIDE_CODE[side] * 10_000 + crits * 100 + normals


def inf_icepool(a_target: int, burst: int, r_target: int, vs_burst: int) -> Any:
    """Every sorted pair of bursts, judged die by die (each side's die against the other's
    best success, L414-431)."""

    def judge_ftf(a_faces: tuple[int, ...], r_faces: tuple[int, ...]) -> int:
        a = [inf_rolls.evaluate(f, a_target) for f in a_faces]
        r = [inf_rolls.evaluate(f, r_target) for f in r_faces]
        a_best, r_best = inf_rolls.best(a), inf_rolls.best(r)
        for side, dice, target, other, other_target in (
            ("active", a, a_target, r_best, r_target),
            ("reactive", r, r_target, a_best, a_target),
        ):
            won = [
                d
                for d in dice
                if d.success and inf_rolls.beats(inf_rolls.key(d), target, other, other_target)
            ]
            if won:
                crits = sum(1 for d in won if d.critical)
                return ftf_code(side, crits, len(won) - crits)
        return ftf_code("none", 0, 0)

    return icepool.map(judge_ftf, fresh(20).pool(burst).expand(), fresh(20).pool(vs_burst).expand())


def inf_ours(a_target: int, burst: int, r_target: int, vs_burst: int) -> Distribution:
    dist = inf_rolls.ftf_distribution(a_target, burst, r_target, vs_burst)
    return dist.map(lambda k: ftf_code(*k))


# --- World of Warcraft: d10 pools with a reroll budget ---------------------------------------


def wow_icepool(size: int, rerolls: int) -> Any:
    """First roll: counts of fails (1-3), plain successes (4-9) and crits (the 0 face) packed in
    one sum; then min(fails, budget) dice again. Outcome: successes * 2 + any crit."""
    first = fresh(10).map(lambda f: 1 if f <= 3 else (1_000 if f <= 9 else 1_000_000))
    again_die = fresh(10).map(lambda f: 0 if f <= 3 else (1 if f <= 9 else 1_001))

    def after(packed: int) -> Any:
        fails, hits, crits = packed % 1_000, packed // 1_000 % 1_000, packed // 1_000_000
        again = min(fails, rerolls)
        if again == 0:
            return (hits + crits) * 2 + (crits > 0)
        return (again @ again_die).map(
            lambda s: (hits + crits + s % 1_000) * 2 + (crits + s // 1_000 > 0)
        )

    return (size @ first).map(after)


def wow_ours(size: int, rerolls: int) -> Distribution:
    wow_pool.pool_distribution.cache_clear()
    dist = wow_pool.pool_distribution(size, rerolls)
    return dist.map(lambda k: k[0] * 2 + int(k[1]))


# --- the run ---------------------------------------------------------------------------------


@dataclass
class Case:
    game: str
    label: str
    ours: Callable[[], Distribution]
    theirs: Callable[[], Any]


def cases() -> list[Case]:
    aos_a = AosRequest(
        attacks=DiceValue(plus=10),
        hit=3,
        wound=3,
        rend=1,
        damage=DiceValue(count=1, sides=3),
        save=4,
        ward=6,
        reroll_hit="ones",
    )
    aos_b = AosRequest(
        attacks=DiceValue(count=2, sides=6),
        hit=4,
        wound=4,
        damage=DiceValue(plus=2),
        save=5,
        reroll_wound="failed",
        on6_hit=On6(kind="extra_hit"),
    )
    aos_c = AosRequest(
        attacks=DiceValue(count=1, sides=6, plus=1),
        attack_rolls=5,
        hit=3,
        wound=4,
        rend=2,
        damage=DiceValue(count=1, sides=6),
        save=3,
        ward=5,
    )
    wm_a = WmRequest(type="ranged", skill=6, defense=13, pow=12, arm=15)
    wm_b = WmRequest(type="melee", skill=7, defense=12, pow=12, str_=6, arm=18, boost="both")
    wm_c = WmRequest(type="ranged", skill=5, defense=14, pow=14, arm=16, blast=True)
    return [
        Case("AoS", "10 att 3+/3+ r1 D3 vs 4+ ward 6+, reroll 1s to hit", *_pair(aos_a)),
        Case("AoS", "2D6 att 4+/4+ -/2 vs 5+, 6s to hit = 2 hits", *_pair(aos_b)),
        Case("AoS", "5x(D6+1) att 3+/4+ r2 D6 vs 3+ ward 5+", *_pair(aos_c)),
        Case("Inf", "FtF BS 13 B3 vs 12 B1", *_inf(13, 3, 12, 1)),
        Case("Inf", "FtF BS 23 B2 vs 15 B2", *_inf(23, 2, 15, 2)),
        Case("Inf", "FtF BS 11 B4 vs 14 B1", *_inf(11, 4, 14, 1)),
        Case("WM", "RAT 6 vs DEF 13, POW 12 vs ARM 15", *_wm(wm_a)),
        Case("WM", "MAT 7 boosted hit+dmg, P+S 18 vs ARM 18", *_wm(wm_b)),
        Case("WM", "blast POW 14 vs ARM 16", *_wm(wm_c)),
        Case("WoW", "pool 6 d10, 2 rerolls", *_wow(6, 2)),
        Case("WoW", "pool 10 d10, 3 rerolls", *_wow(10, 3)),
        Case("WoW", "pool 16 d10, 5 rerolls", *_wow(16, 5)),
    ]


def _pair(req: AosRequest) -> tuple[Callable[[], Distribution], Callable[[], Any]]:
    return (lambda: aos_ours(req)), (lambda: aos_icepool(req))


def _wm(req: WmRequest) -> tuple[Callable[[], Distribution], Callable[[], Any]]:
    return (lambda: wm_ours(req)), (lambda: wm_icepool(req))


def _inf(a: int, b: int, r: int, v: int) -> tuple[Callable[[], Distribution], Callable[[], Any]]:
    return (lambda: inf_ours(a, b, r, v)), (lambda: inf_icepool(a, b, r, v))


def _wow(size: int, rerolls: int) -> tuple[Callable[[], Distribution], Callable[[], Any]]:
    return (lambda: wow_ours(size, rerolls)), (lambda: wow_icepool(size, rerolls))


def largest_difference(ours: Distribution, theirs: Any) -> float:
    mine = ours.as_fractions()
    exact = {
        int(k): Fraction(v) for k, v in zip(theirs.outcomes(), theirs.probabilities(), strict=True)
    }
    keys = set(exact) | set(mine)
    return max(abs(float(mine.get(k, 0) - exact.get(k, 0))) for k in keys)


@dataclass
class GamesResult:
    ratios: dict[str, float]  # game -> geometric mean of our speed-up over icepool
    worst_diff: float
    slower: list[str]  # cases where icepool was faster


def main() -> GamesResult:
    rows: list[list[str]] = []
    per_game: dict[str, list[float]] = {}
    worst = 0.0
    slower: list[str] = []
    for case in cases():
        diff = largest_difference(case.ours(), case.theirs())
        worst = max(worst, diff)
        t_ours = median_time(case.ours, repeat=9)
        t_check = time.perf_counter()
        case.theirs()
        t_ice = time.perf_counter() - t_check
        if t_ice < 0.2:  # slow cases are timed once: the ratio is large either way
            t_ice = min(t_ice, median_time(case.theirs, repeat=5))
        ratio = t_ice / t_ours
        per_game.setdefault(case.game, []).append(ratio)
        if ratio < 1:
            slower.append(f"{case.game} {case.label}")
        rows.append(
            [
                case.game,
                case.label,
                f"{t_ours * 1e3:.3f} ms",
                f"{t_ice * 1e3:.3f} ms",
                f"{ratio:.1f}x" + ("  (icepool faster)" if ratio < 1 else ""),
                f"{diff:.1e}",
            ]
        )
    print("Attack chains: exact odds, both cold, against the same distribution in icepool")
    print(table(["game", "case", "ours", "icepool", "vs icepool", "max |diff|"], rows))
    return GamesResult({g: gmean(r) for g, r in per_game.items()}, worst, slower)


def gmean(values: list[float]) -> float:
    import math

    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")
