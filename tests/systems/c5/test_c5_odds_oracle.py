"""An independent oracle for Confrontation's attack odds (`melee_odds`, `shoot_odds`): every
die face enumerated with plain itertools and exact Fractions, the rules written out here from
the digest (../shared/rules-digests/confrontation.md §2.1-2.5, §3.5) and the book's wound
table (@130057), never calling the resolver or the odds code under test.

A test's open-ended chain (a 6, or a face an ability rerolls, is kept and rolled again) is
infinite; the oracle follows it to DEPTH dice and bounds what it leaves out, so the comparison
is exact where the chain is finite (open_ended=no, no reroll faces) and within the left-out
mass otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import product

import pytest

from rules_core.systems.c5.attack import MeleeRequest, ShootRequest
from rules_core.systems.c5.models import C5Settings, TestRequest, WoundRequest
from rules_core.systems.c5.odds import melee_odds, shoot_odds

SIXTH = Fraction(1, 6)
DEPTH = 9  # dice of one chain the oracle follows; longer chains are the left-out mass
Dist = dict[tuple[int, bool, bool, bool], Fraction]  # (wounds, stunned, no_effect, exceptional)

# @130057 as the digest reconstructs it (§3.5.2): rows by the lower die (1, 2, 3, 4, 5&6),
# columns by R; "N" nothing, "S" stunned, numbers are wounds; row 3's 4/5 cell is split.
TABLE = {
    1: ["N", "S", "S", "S", 1, 1, 1, 1, 2, 2, 2, 3],
    2: ["S", "S", "S", 1, 1, 1, 2, 2, 2, 3, 3, 4],
    3: ["S", "S", 1, 1, "split", 2, 2, 3, 3, 4, 4, 5],
    4: [1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6],
    5: [1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 6, 6],
}


def column(r: int) -> int:
    """≤-3 (the setting minus_three=first), -2/-1, 0/1, 2/3 ... 16/17, ≥18."""
    if r <= -3:
        return 0
    if r <= -1:
        return 1
    return min(11, 2 + r // 2)


def wound_roll(strength: int, res: int, scourge: bool) -> Dist:
    """Every ordered pair of 2d6 (§3.5.1): the lower die is the row, the higher die + STR - RES
    the column, Flagello one column more severe (never past the last); equal dice are an
    exceptional wound; a double 6 reads the head row and is at least 3 wounds (@2104)."""
    strength, res = min(strength, 15), min(res, 15)  # §2.4: at most 15 in a wound roll
    out: Dist = {}
    for a, b in product(range(1, 7), repeat=2):
        low, high = min(a, b), max(a, b)
        r = high + strength - res
        shift = 1 if scourge else 0
        col = min(11, column(r) + shift)
        cell = TABLE[min(low, 5)][col]
        if cell == "split":  # the footnote: a result of 4 gives 1 wound, 5 gives 2
            cell = 1 if r + 2 * shift <= 4 else 2
        if low == high == 6:
            cell = max(3, cell if isinstance(cell, int) else 0)
        key = (
            cell if isinstance(cell, int) else 0,
            cell == "S",
            cell == "N",
            a == b,
        )
        out[key] = out.get(key, Fraction(0)) + SIXTH * SIXTH
    return out


def chain(
    value: int, open_ended: bool, reroll: frozenset[int] = frozenset(), plain_one: bool = False
) -> Iterator[tuple[int, bool, Fraction]]:
    """(total, failed by the natural-1 rule, probability) of d6 + value (§2.1-2.3): a kept
    face that rerolls (6 when open-ended, or an ability's face) is added and rolled again; a
    natural 1 drops everything before it, rolls again and subtracts that face, and fails on a
    result of 0 or less or a subtracted 5 or 6 (@4060); zone artillery's 1 simply fails."""
    again = (frozenset({6}) if open_ended else frozenset()) | reroll
    for length in range(1, DEPTH + 1):
        # only rerolled faces come before the last one
        for kept, last in product(product(sorted(again), repeat=length - 1), range(1, 7)):
            faces = (*kept, last)
            p = SIXTH**length
            if last == 1 and plain_one:
                yield value + 1, True, p
            elif last == 1:
                for second in range(1, 7):
                    total = value - second
                    yield total, total <= 0 or second >= 5, p * SIXTH
            elif last not in again:
                yield value + sum(faces), False, p


def left_out(open_ended: bool, reroll: frozenset[int]) -> Fraction:
    """The mass of the chains longer than DEPTH."""
    again = len((frozenset({6}) if open_ended else frozenset()) | reroll - {1})
    return Fraction(again, 6) ** DEPTH


def add(out: Dist, hit: Fraction, wound: Dist) -> None:
    for key, p in wound.items():
        out[key] = out.get(key, Fraction(0)) + hit * p


def oracle_melee(
    att: int, dif: int | None, strength: int, res: int, s: C5Settings, scourge: bool = False
) -> tuple[Fraction, Dist]:
    """The attack test, the defence test (a parry reaches the attack's result, or passes it
    with parry_tie=attacker; a defence failed by the natural-1 rule parries nothing), then the
    wound roll."""
    open_ended = s.open_ended == "yes"
    p_hit = Fraction(0)
    for total, failed, p in chain(att, open_ended):
        if failed:
            continue
        if dif is None:
            p_hit += p
            continue
        for d_total, d_failed, q in chain(dif, open_ended):
            reach = d_total >= total if s.parry_tie == "defender" else d_total > total
            if d_failed or not reach:
                p_hit += p * q
    out: Dist = {}
    add(out, p_hit, wound_roll(strength, res, scourge))
    return p_hit, out


def oracle_shot(
    aim: int,
    mod: int,
    strength: int,
    res: int,
    s: C5Settings,
    band: str = "short",
    altitude: int = 0,
    fire: str = "normal",
    reroll: frozenset[int] = frozenset(),
    zone: bool = False,
) -> tuple[Fraction, Dist]:
    """TIR + MOD + d6 against the range band's difficulty (the settings), +2 per altitude
    level (@20741); assault or reaction fire is difficulty 7 with no modifier (@105867)."""
    if fire == "normal":
        diff = {"short": s.range_short, "medium": s.range_medium, "long": s.range_long}[band]
        diff += 2 * altitude
    else:
        diff, mod = 7, 0
    p_hit = Fraction(0)
    for total, failed, p in chain(aim + mod, s.open_ended == "yes", reroll, zone):
        if not failed and total >= diff:
            p_hit += p
    out: Dist = {}
    add(out, p_hit, wound_roll(strength, res, scourge=False))
    return p_hit, out


def compare(odds: object, p_hit: Fraction, dist: Dist, slack: Fraction) -> None:
    """The odds' numbers against the oracle's, within `slack` (the chains left out)."""
    wounds: dict[int, Fraction] = {0: 1 - p_hit}
    for (w, _, _, _), p in dist.items():
        wounds[w] = wounds.get(w, Fraction(0)) + p

    def close(got: Fraction, want: Fraction) -> bool:
        return got == want if slack == 0 else abs(got - want) <= slack

    assert close(odds.p_hit, p_hit), (odds.p_hit, p_hit)  # type: ignore[attr-defined]
    shown = odds.wounds.as_fractions()  # type: ignore[attr-defined]
    for w in set(shown) | set(wounds):
        assert close(shown.get(w, Fraction(0)), wounds.get(w, Fraction(0))), w
    for name, index in (("p_stunned", 1), ("p_no_effect", 2), ("p_exceptional", 3)):
        want = sum((p for key, p in dist.items() if key[index]), Fraction(0))
        assert close(getattr(odds, name), want), name


CLOSED = C5Settings(open_ended="no")
MELEE = [
    # (ATT, DIF or None, STR, RES, scourge)
    (4, 3, 6, 5, False),
    (5, None, 7, 7, False),
    (2, 6, 12, 3, False),  # high R: the last columns
    (6, 2, 3, 9, False),  # low R: Nulla and Stordito
    (3, 3, 8, 6, True),  # Flagello
    (0, 5, 20, 0, False),  # STR capped at 15
    (7, 7, 5, 6, False),  # a parry of equal value
]


@pytest.mark.parametrize(("att", "dif", "strength", "res", "scourge"), MELEE)
@pytest.mark.parametrize("settings_", [CLOSED, C5Settings(open_ended="no", parry_tie="attacker")])
def test_melee_odds_match_the_oracle_exactly(
    att: int, dif: int | None, strength: int, res: int, scourge: bool, settings_: C5Settings
) -> None:
    req = MeleeRequest(
        attack=TestRequest(value=att),
        defence=None if dif is None else TestRequest(value=dif),
        wound=WoundRequest(str_=strength, res=res, scourge=scourge),
    )
    p_hit, dist = oracle_melee(att, dif, strength, res, settings_, scourge)
    compare(melee_odds(req, settings_), p_hit, dist, Fraction(0))


@pytest.mark.parametrize(("att", "dif", "strength", "res", "scourge"), MELEE[:4])
def test_open_ended_melee_odds_match_the_oracle(
    att: int, dif: int | None, strength: int, res: int, scourge: bool
) -> None:
    settings_ = C5Settings()  # open_ended=yes: the chains are infinite, DEPTH of them followed
    req = MeleeRequest(
        attack=TestRequest(value=att),
        defence=None if dif is None else TestRequest(value=dif),
        wound=WoundRequest(str_=strength, res=res, scourge=scourge),
    )
    p_hit, dist = oracle_melee(att, dif, strength, res, settings_, scourge)
    slack = 2 * left_out(True, frozenset()) + Fraction(1, 10**14)  # + the odds' own TAIL
    compare(melee_odds(req, settings_), p_hit, dist, slack)


SHOTS = [
    # (TIR, MOD, STR, RES, range band, altitude, fire, reroll faces, zone)
    (4, 0, 6, 5, "short", 0, "normal", (), False),
    (5, -1, 8, 4, "medium", 0, "normal", (), False),
    (6, 2, 10, 7, "long", 1, "normal", (), False),
    (3, 3, 7, 7, "short", 0, "assault", (), False),  # difficulty 7, the MOD ignored
    (4, 0, 9, 3, "short", 0, "normal", (), True),  # zone artillery: a 1 simply fails
    (4, 0, 6, 5, "medium", 0, "normal", (5,), False),  # an ability rerolls 5s
]


@pytest.mark.parametrize(
    ("aim", "mod", "strength", "res", "band", "altitude", "fire", "reroll", "zone"), SHOTS
)
@pytest.mark.parametrize("open_ended", ["no", "yes"])
def test_shoot_odds_match_the_oracle(
    aim: int,
    mod: int,
    strength: int,
    res: int,
    band: str,
    altitude: int,
    fire: str,
    reroll: tuple[int, ...],
    zone: bool,
    open_ended: str,
) -> None:
    settings_ = C5Settings(open_ended=open_ended)  # type: ignore[arg-type]
    faces = frozenset(reroll)
    req = ShootRequest(
        test=TestRequest(value=aim, mod=mod, reroll=faces),
        wound=WoundRequest(str_=strength, res=res, melee=False),
        range=band,  # type: ignore[arg-type]
        altitude=altitude,
        fire=fire,  # type: ignore[arg-type]
        zone=zone,
    )
    p_hit, dist = oracle_shot(aim, mod, strength, res, settings_, band, altitude, fire, faces, zone)
    finite = open_ended == "no" and not faces
    slack = Fraction(0) if finite else left_out(open_ended == "yes", faces)
    compare(shoot_odds(req, settings_), p_hit, dist, slack)
