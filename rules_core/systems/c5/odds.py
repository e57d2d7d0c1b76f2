"""Exact odds of C5 tests and attacks (never a simulation).

- A test's chance of success is exact (a Fraction): the open-ended chain is summed as a
  series by the recursion g(t) below, whose base case is the geometric sum of the chains.
- A test's full distribution of totals is an infinite chain of rerolled 6s: it is enumerated
  until the chance of a longer chain is below TAIL (1e-15) and that tail is reported.
- The wound roll is the 36 ordered pairs of 2d6, exactly.
- Melee: P(hit) sums the attack's totals (truncated as above) times the exact chance that the
  defence does not reach each total.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import cache

from pydantic import BaseModel, ConfigDict

from rules_core.systems.c5.attack import (
    MeleeRequest,
    ShootRequest,
    shoot_test_request,
    shooting_wound,
)
from rules_core.systems.c5.checks import explode_faces
from rules_core.systems.c5.models import C5Settings, TestRequest, WoundRequest
from rules_core.systems.c5.wound import effective_res, effective_str, read_table

TAIL = 1e-15
SIXTH = Fraction(1, 6)
Prob = Fraction | float  # exact where the chain is finite, float where a tail is cut


def p_success(req: TestRequest, open_ended: bool = True, diff: int | None = None) -> Fraction:
    """Exact chance that the test succeeds (not failed by the natural-1 rule, and total >=
    the difficulty when there is one). `diff` overrides the request's difficulty."""
    target = req.diff if diff is None else diff
    again = explode_faces(req, open_ended)
    base = req.value + req.mod
    one_terminal = req.one_ok  # the 1 counts as a 1
    terminal = [f for f in range(1, 7) if f not in again and (f != 1 or one_terminal)]
    n_e = len(again)
    if n_e == 6:  # pragma: no cover - the options never allow every face to be rerolled
        raise ValueError("every face rerolls")
    stay = 1 - n_e * SIXTH  # chance a roll ends the chain one way or the other
    q = len(terminal) * SIXTH / stay  # the chain ends on a kept terminal face
    low = min(terminal) if terminal else 7

    @cache
    def g(t: int) -> Fraction:
        """P(the chain ends on a kept face with the kept sum >= t)."""
        if t <= low:
            return q
        total = Fraction(sum(1 for f in terminal if f >= t), 6)
        for f in again:
            total += SIXTH * g(t - f)
        return total

    need = -(10**9) if target is None else target - base
    p = g(need)
    if not one_terminal and not req.plain_one:
        p_one = SIXTH / stay
        floor = 1 if target is None else max(target, 1)
        ok = sum(1 for s in range(1, 5) if base - s >= floor)
        p += p_one * Fraction(ok, 6)
    return p


def test_outcomes(
    req: TestRequest, open_ended: bool = True
) -> tuple[dict[tuple[int, bool], float], float]:
    """Every (total, failed by the natural-1 rule) with its probability; chains of rerolls
    are followed until their remaining chance is below TAIL, which is returned."""
    again = explode_faces(req, open_ended)
    base = req.value + req.mod
    out: dict[tuple[int, bool], float] = defaultdict(float)
    states: dict[int, float] = {0: 1.0}
    mass = 1.0
    while mass > TAIL:
        nxt: dict[int, float] = defaultdict(float)
        for acc, p in states.items():
            q = p / 6
            for f in range(1, 7):
                if f == 1 and req.plain_one:
                    out[(base + 1, True)] += q
                elif f == 1 and not req.one_ok:
                    for s in range(1, 7):
                        total = base - s
                        out[(total, total <= 0 or s >= 5)] += q / 6
                elif f in again:
                    nxt[acc + f] += q
                else:
                    out[(base + acc + f, False)] += q
        states = nxt
        mass = sum(nxt.values())
    return dict(out), mass


class TestOdds(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    p_success: Fraction
    p_natural_one_fail: float
    distribution: dict[int, float]  # totals
    tail: float


def test_odds(req: TestRequest, open_ended: bool = True) -> TestOdds:
    outcomes, tail = test_outcomes(req, open_ended)
    dist: dict[int, float] = defaultdict(float)
    for (total, _), p in outcomes.items():
        dist[total] += p
    failed = sum(p for (_, f), p in outcomes.items() if f)
    return TestOdds(
        p_success=p_success(req, open_ended),
        p_natural_one_fail=failed,
        distribution=dict(dist),
        tail=tail,
    )


class WoundOdds(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    wounds: dict[int, Prob]
    p_stunned: Prob
    p_nulla: Prob
    p_exceptional: Prob
    p_hit: Prob = Fraction(1)
    tail: float = 0.0


def wound_odds(req: WoundRequest, settings: C5Settings, melee: bool = True) -> WoundOdds:
    """All 36 ordered pairs of 2d6 through the same table reading as a roll."""
    penalty_mode = settings.melee_penalty if melee else "str"
    strength, _ = effective_str(req, penalty_mode)
    resilience = effective_res(req)
    wounds: dict[int, Prob] = defaultdict(Fraction)
    stunned: Fraction = Fraction(0)
    nulla: Fraction = Fraction(0)
    exceptional: Fraction = Fraction(0)
    for a in range(1, 7):
        for b in range(1, 7):
            out = read_table(
                min(a, b),
                max(a, b),
                strength,
                resilience,
                req,
                settings.minus_three,
                penalty_mode,
                settings.sacred_on_nothing == "yes",
            )
            p = Fraction(1, 36)
            wounds[out.wounds] += p
            stunned += p if out.stunned else 0
            nulla += p if out.result == "nulla" else 0
            exceptional += p if out.exceptional else 0
    return WoundOdds(
        wounds=dict(wounds), p_stunned=stunned, p_nulla=nulla, p_exceptional=exceptional
    )


def _with_hit(w: WoundOdds, p_hit: Fraction | float, tail: float = 0.0) -> WoundOdds:
    wounds: dict[int, Fraction | float] = {k: p_hit * v for k, v in w.wounds.items()}
    wounds[0] = wounds.get(0, 0) + (1 - p_hit)
    return WoundOdds.model_construct(
        wounds=wounds,
        p_stunned=p_hit * w.p_stunned,
        p_nulla=p_hit * w.p_nulla,
        p_exceptional=p_hit * w.p_exceptional,
        p_hit=p_hit,
        tail=tail,
    )


def melee_odds(req: MeleeRequest, settings: C5Settings) -> WoundOdds:
    open_ended = settings.open_ended == "yes"
    w = wound_odds(req.wound, settings, melee=True)
    if req.defence is None:
        return _with_hit(w, p_success(req.attack, open_ended))
    outcomes, tail = test_outcomes(req.attack, open_ended)
    defence = req.defence
    p_hit = 0.0
    for (total, failed), p in outcomes.items():
        if failed or (req.attack.diff is not None and total < req.attack.diff):
            continue
        need = total if settings.parry_tie == "defender" else total + 1
        p_hit += p * float(1 - p_success(defence, open_ended, diff=need))
    return _with_hit(w, p_hit, tail)


def shoot_odds(req: ShootRequest, settings: C5Settings) -> WoundOdds:
    test = shoot_test_request(req, settings)
    w = wound_odds(shooting_wound(req), settings, melee=False)
    return _with_hit(w, p_success(test, settings.open_ended == "yes"))


class OpposedOdds(BaseModel):
    p_a: float
    p_tie: float
    p_b: float
    tail: float


def opposed_odds(a: TestRequest, b: TestRequest, open_ended: bool = True) -> OpposedOdds:
    """Both sides' (total, failed) outcomes paired, compared as `resolve_opposed` does: a test
    failed by the natural-1 rule loses to one that did not fail, otherwise the higher total."""
    out_a, tail_a = test_outcomes(a, open_ended)
    out_b, tail_b = test_outcomes(b, open_ended)

    def key(total: int, failed: bool) -> tuple[int, int]:
        return (0, 0) if failed else (1, total)

    p = {"a": 0.0, "tie": 0.0, "b": 0.0}
    for (ta, fa), pa in out_a.items():
        ka = key(ta, fa)
        for (tb, fb), pb in out_b.items():
            kb = key(tb, fb)
            p["a" if ka > kb else "b" if kb > ka else "tie"] += pa * pb
    return OpposedOdds(p_a=p["a"], p_tie=p["tie"], p_b=p["b"], tail=tail_a + tail_b)
