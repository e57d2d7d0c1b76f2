"""Exact odds of C5 tests and attacks (never a simulation).

- A test's chance of success is exact (a Fraction): the open-ended chain is summed as a
  series by the recursion g(t) below, whose base case is the geometric sum of the chains.
- A test's full distribution of totals is an infinite chain of rerolled 6s: it is enumerated
  until the chance of a longer chain is below TAIL (1e-15); that tail is left out (an exact
  distribution whose `missing` is the tail) and reported.
- The wound roll is the 36 ordered pairs of 2d6, exactly.
- Melee: P(hit) is the expectation, over the attack's totals (cut as above), of the exact
  chance that the defence does not reach each total.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from rules_core.dice.distribution import Distribution
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
D6 = Distribution.die(6)
Outcome = tuple[int, bool]  # a test's total, and whether the natural-1 rule failed it


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


def test_outcomes(req: TestRequest, open_ended: bool = True) -> Distribution[Outcome]:
    """Every (total, failed by the natural-1 rule) with its exact probability; chains of
    rerolls are followed until their remaining chance is below TAIL, and that remainder is
    left out (the distribution's `missing`)."""
    again = explode_faces(req, open_ended)
    base = req.value + req.mod
    out: defaultdict[Outcome, Fraction] = defaultdict(Fraction)
    states: dict[int, Fraction] = {0: Fraction(1)}  # running sum of rerolled faces
    mass = Fraction(1)
    while mass > TAIL:
        nxt: defaultdict[int, Fraction] = defaultdict(Fraction)
        for acc, p in states.items():
            q = p * SIXTH
            for f in range(1, 7):
                if f == 1 and req.plain_one:
                    out[(base + 1, True)] += q
                elif f == 1 and not req.one_ok:
                    for s in range(1, 7):
                        total = base - s
                        out[(total, total <= 0 or s >= 5)] += q * SIXTH
                elif f in again:
                    nxt[acc + f] += q
                else:
                    out[(base + acc + f, False)] += q
        states = nxt
        mass = sum(nxt.values(), Fraction(0))
    return Distribution.from_probabilities(out)


class TestOdds(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    p_success: Fraction
    p_natural_one_fail: float
    distribution: Distribution  # totals; the chains longer than shown are missing
    tail: float


def test_odds(req: TestRequest, open_ended: bool = True) -> TestOdds:
    outcomes = test_outcomes(req, open_ended)
    return TestOdds(
        p_success=p_success(req, open_ended),
        p_natural_one_fail=float(outcomes.chance(lambda o: o[1])),
        distribution=outcomes.map(lambda o: o[0]),
        tail=float(outcomes.missing),
    )


class WoundOdds(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    wounds: Distribution
    p_stunned: Fraction
    p_no_effect: Fraction
    p_exceptional: Fraction
    p_hit: Fraction = Fraction(1)
    tail: float = 0.0


class _Read(NamedTuple):
    """What one wound roll reads on the table."""

    wounds: int
    stunned: bool
    no_effect: bool
    exceptional: bool


def wound_odds(req: WoundRequest, settings: C5Settings, melee: bool = True) -> WoundOdds:
    """All 36 ordered pairs of 2d6 through the same table reading as a roll."""
    penalty_mode = settings.melee_penalty if melee else "str"
    strength, _ = effective_str(req, penalty_mode)
    resilience = effective_res(req)

    def read(pair: tuple[int, int]) -> _Read:
        a, b = pair
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
        return _Read(out.wounds, out.stunned, out.result == "no_effect", out.exceptional)

    reads = D6.combine(D6, lambda a, b: (a, b)).map(read)
    return WoundOdds(
        wounds=reads.map(lambda r: r.wounds),
        p_stunned=reads.chance(lambda r: r.stunned),
        p_no_effect=reads.chance(lambda r: r.no_effect),
        p_exceptional=reads.chance(lambda r: r.exceptional),
    )


def _with_hit(w: WoundOdds, p_hit: Fraction, tail: float = 0.0) -> WoundOdds:
    """The wound roll when the attack hits (`p_hit`), no wound otherwise."""
    return WoundOdds.model_construct(
        wounds=Distribution.mixture([(p_hit, w.wounds), (1 - p_hit, 0)]),
        p_stunned=p_hit * w.p_stunned,
        p_no_effect=p_hit * w.p_no_effect,
        p_exceptional=p_hit * w.p_exceptional,
        p_hit=p_hit,
        tail=tail,
    )


def melee_odds(req: MeleeRequest, settings: C5Settings) -> WoundOdds:
    open_ended = settings.open_ended == "yes"
    w = wound_odds(req.wound, settings, melee=True)
    if req.defence is None:
        return _with_hit(w, p_success(req.attack, open_ended))
    outcomes = test_outcomes(req.attack, open_ended)
    defence = req.defence
    diff = req.attack.diff

    def p_hit_given(o: Outcome) -> Fraction:
        total, failed = o
        if failed or (diff is not None and total < diff):
            return Fraction(0)
        need = total if settings.parry_tie == "defender" else total + 1
        return 1 - p_success(defence, open_ended, diff=need)

    return _with_hit(w, outcomes.expected(p_hit_given), float(outcomes.missing))


def shoot_odds(req: ShootRequest, settings: C5Settings) -> WoundOdds:
    test = shoot_test_request(req, settings)
    w = wound_odds(shooting_wound(req), settings, melee=False)
    return _with_hit(w, p_success(test, settings.open_ended == "yes"))


class OpposedOdds(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    winner: Distribution  # 1: A, 0: a tie, -1: B; the chains longer than shown are missing
    p_a: float
    p_tie: float
    p_b: float
    tail: float


def opposed_odds(a: TestRequest, b: TestRequest, open_ended: bool = True) -> OpposedOdds:
    """Both sides' (total, failed) outcomes paired, compared as `resolve_opposed` does: a test
    failed by the natural-1 rule loses to one that did not fail, otherwise the higher total."""

    def rank(o: Outcome) -> tuple[int, int]:
        total, failed = o
        return (0, 0) if failed else (1, total)

    ranks_a = test_outcomes(a, open_ended).map(rank)
    ranks_b = test_outcomes(b, open_ended).map(rank)
    winner = ranks_a.combine(ranks_b, lambda x, y: (x > y) - (x < y))
    return OpposedOdds(
        winner=winner,
        p_a=float(winner.probability(1)),
        p_tie=float(winner.probability(0)),
        p_b=float(winner.probability(-1)),
        tail=float(ranks_a.missing + ranks_b.missing),
    )
