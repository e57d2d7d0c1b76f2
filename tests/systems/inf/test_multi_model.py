"""Rolls on several models (issue 23): templates and automatic hits, a Burst split between
targets, Coordinated Orders, Damage from PH, and Doctor / MediKit / AutoMediKit / Regeneration.
Golden cases cite the book (L123 = ../shared/seeds/003_27b81155ce3a4b9f.txt line 123) and the
digest's example ids; exact odds are checked against an enumerator written here, over every d20
face, that shares no code with the rules under test."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import product

import pytest

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import GameState, Player, Unit
from rules_core.systems.inf import tables
from rules_core.systems.inf import transitions as tr
from rules_core.systems.inf.models import InfSettings, Side
from rules_core.systems.inf.recovery import (
    METHODS,
    HealRequest,
    Patient,
    heal_odds,
    resolve_heal,
)
from rules_core.systems.inf.request import AttackOptions, build_request
from rules_core.systems.inf.split import SplitPart, SplitRequest, resolve_split, split_odds
from rules_core.systems.inf.template import (
    TemplateRequest,
    TemplateTarget,
    resolve_template,
    template_odds,
)

S = InfSettings()


def dice(*faces: int) -> DiceSource:
    return DiceSource.given(list(faces))


# --- an independent enumerator: saves -------------------------------------------------------------

Tally = tuple[int, bool, bool]  # (wounds, killed outright, passed a save)
Dist = dict[Tally, Fraction]


def _add(d: Dist, k: Tally, p: Fraction) -> None:
    d[k] = d.get(k, Fraction(0)) + p


def _hit(state: Tally, ammo: str, dam: int, arm: int, critical: bool, w: int, prior: int) -> Dist:
    """One hit's saves from `state`, face by face (digest §3.7; only the ARM ammunitions)."""
    wounds, killed, passed = state
    out: Dist = {}
    rolls = {"N": 1, "DA": 2, "EXP": 3, "SHOCK": 1, "FIRE": 1}[ammo]
    if critical:  # a wound with no roll, then the rest of the ammunition's rolls
        wounds += 1
        rolls -= 1
        if ammo == "SHOCK" and w == 1:
            killed = True
    if ammo == "FIRE":
        if critical:
            rolls = 1  # the fire burns on (setting fire_crit_burns=yes)
        return _fire((wounds, killed, passed), dam, arm, w, prior)
    if rolls == 0:
        return {(wounds, killed, passed): Fraction(1)}
    for faces in product(range(1, 21), repeat=rolls):
        fails = sum(f + arm <= dam for f in faces)
        dead = killed or (ammo == "SHOCK" and w == 1 and fails > 0)
        _add(out, (wounds + fails, dead, passed or fails < rolls), Fraction(1, 20**rolls))
    return out


def _fire(state: Tally, dam: int, arm: int, w: int, prior: int) -> Dist:
    """ARM rolls until one passes or the model is dead (L3047-3050)."""
    wounds, killed, passed = state
    if killed or prior + wounds > w:
        return {state: Fraction(1)}
    out: Dist = {}
    for f in range(1, 21):
        if f + arm > dam:
            _add(out, (wounds, killed, True), Fraction(1, 20))
        else:
            for k, p in _fire((wounds + 1, killed, passed), dam, arm, w, prior).items():
                _add(out, k, p / 20)
    return out


def _hits(n_crit: int, n_normal: int, ammo: str, dam: int, arm: int, w: int, prior: int) -> Dist:
    dist: Dist = {(0, False, False): Fraction(1)}
    for critical in [True] * n_crit + [False] * n_normal:
        nxt: Dist = {}
        for state, p in dist.items():
            for k, q in _hit(state, ammo, dam, arm, critical, w, prior).items():
                _add(nxt, k, p * q)
        dist = nxt
    return dist


def _summary(dist: Dist, w: int, prior: int) -> dict[str, dict[object, Fraction]]:
    out: dict[str, dict[object, Fraction]] = {"wounds": {}, "dead": {}, "unc": {}, "guts": {}}
    for (wounds, killed, passed), p in dist.items():
        dead = killed or prior + wounds > w
        unc = not dead and prior + wounds == w
        for name, value in (
            ("wounds", wounds),
            ("dead", dead),
            ("unc", unc),
            ("guts", passed and not dead and not unc),
        ):
            out[name][value] = out[name].get(value, Fraction(0)) + p
    return out


def _mix(parts: list[tuple[Fraction, Dist]]) -> Dist:
    out: Dist = {}
    for weight, dist in parts:
        for k, p in dist.items():
            _add(out, k, weight * p)
    return out


def _check(odds: object, brute: dict[str, dict[object, Fraction]]) -> None:
    assert odds.wounds.as_fractions() == {  # type: ignore[attr-defined]
        k: v for k, v in brute["wounds"].items() if v
    }
    assert odds.p_dead == brute["dead"].get(True, 0)  # type: ignore[attr-defined]
    assert odds.p_unconscious == brute["unc"].get(True, 0)  # type: ignore[attr-defined]
    assert odds.p_guts == brute["guts"].get(True, 0)  # type: ignore[attr-defined]


# --- 1. templates and automatic hits --------------------------------------------------------------


def test_direct_template_hits_every_model_with_no_attack_roll() -> None:  # L947-950, L3356-3359
    req = TemplateRequest(
        dam=13,
        targets=[
            TemplateTarget(name="A", profile=Side(attr=0, arm=1, w=1)),
            TemplateTarget(name="B", profile=Side(attr=0, arm=1, w=1, ph=10), dodge=True),
            TemplateTarget(name="C", profile=Side(attr=0, arm=3, w=2, ph=10), dodge=True),
        ],
    )
    # no attack die: B dodges at PH 10-6 = 4 and rolls 3 (dodged), C rolls 9 (hit); then the
    # saves: A rolls 5 (5+1 <= 13: a wound), C rolls 12 (12+3 > 13: saved)
    steps, out = resolve_template(req, dice(3, 9, 5, 12), S)
    assert [s.name for s in steps] == ["dodge", "dodge", "arm_save", "arm_save"]
    assert steps[0].target == 4 and steps[0].outcome == "dodged" and steps[1].outcome == "hit"
    assert [(o.dodged, o.hits, o.wounds, o.state) for o in out] == [
        (False, 1, 1, "unconscious"),
        (True, 0, 0, "ok"),
        (False, 1, 0, "ok"),
    ]
    assert [o.guts_roll for o in out] == [False, False, True]  # C survived a hit (L1352-1367)


def test_returning_fire_does_not_avoid_the_template() -> None:  # L951-955
    # a model that shoots back (no dodge) is hit all the same: its ARM roll is made
    req = TemplateRequest(dam=13, ammo="FIRE", targets=[TemplateTarget(profile=Side(attr=0, w=1))])
    _, (out,) = resolve_template(req, dice(2, 20), S)  # Fire: 2 fails (a wound), 20 passes
    assert (out.hits, out.wounds, out.state) == (1, 1, "unconscious")


def test_two_direct_templates_one_dodge_roll() -> None:  # L960-965
    t = TemplateTarget(profile=Side(attr=0, arm=0, w=2, ph=11), dodge=True, hits=2)
    steps, (out,) = resolve_template(TemplateRequest(dam=13, targets=[t]), dice(5), S)
    assert out.dodged and len(steps) == 1  # one PH-6 roll avoids both
    steps, (out,) = resolve_template(TemplateRequest(dam=13, targets=[t]), dice(6, 1, 1), S)
    assert (out.hits, out.wounds, out.state) == (2, 2, "unconscious")


def test_area_template_critical_wounds_its_target_only() -> None:  # L943-946
    main = TemplateTarget(name="main", profile=Side(attr=0, arm=5, w=1), critical=True)
    other = TemplateTarget(name="other", profile=Side(attr=0, arm=5, w=1))
    req = TemplateRequest(dam=13, area=True, targets=[main, other])
    steps, out = resolve_template(req, dice(20), S)
    assert [s.name for s in steps] == ["critical", "arm_save"]
    assert [o.wounds for o in out] == [1, 0]


def test_dodging_needs_ph() -> None:
    t = TemplateTarget(name="Angus", profile=Side(attr=0), dodge=True)
    with pytest.raises(UserError) as err:
        resolve_template(TemplateRequest(dam=13, targets=[t]), dice(1), S)
    assert err.value.key == "inf.dodge_needs_ph"


# --- area templates roll to hit (L925-946, L1020-1025); their Dodge is Face to Face (L1996) ----


def test_L1996_an_area_templates_dodge_is_face_to_face_not_at_minus_6() -> None:
    # a Light GL shot (BS 12, +3 range) at Angus (PH 10) who dodges: the attack die, then his
    # Dodge, a Face to Face roll (L1996-1998, L414-431); the PH-6 Normal roll is for direct
    # templates and Explode only (L2010-2014): at PH 10-6 his 10 would fail
    angus = TemplateTarget(name="Angus", profile=Side(attr=0, arm=1, w=1, ph=10), dodge=True)
    req = TemplateRequest(dam=14, area=True, attr=12, mod=3, targets=[angus])
    steps, (out,) = resolve_template(req, dice(9, 10), S)
    assert [s.name for s in steps] == ["attack", "dodge"]
    assert (steps[0].target, steps[1].target, steps[1].outcome) == (15, 10, "dodged")
    assert out.dodged and out.hits == 0
    # his 8 is below the attack's 9: hit, and his ARM roll (5 + 1 <= 14) fails
    steps, (out,) = resolve_template(req, dice(9, 8, 5), S)
    assert (out.dodged, out.hits, out.wounds, out.state) == (False, 1, 1, "unconscious")


def test_L943_L1020_an_area_template_rolls_to_hit() -> None:
    main = TemplateTarget(name="main", profile=Side(attr=0, arm=5, w=1))
    other = TemplateTarget(name="other", profile=Side(attr=0, arm=5, w=1))
    req = TemplateRequest(dam=13, area=True, attr=12, mod=3, targets=[main, other])
    # 17 against 15 misses by 2: the shot scatters 2 x 6 cm (L1020-1025), nobody listed is hit
    steps, out = resolve_template(req, dice(17), S)
    assert [s.name for s in steps] == ["attack"] and steps[0].detail["cf"] == 2
    assert [(o.hits, o.wounds) for o in out] == [(0, 0), (0, 0)]
    # 15 is a critical: the target (listed first) takes a wound with no roll, the other saves
    steps, out = resolve_template(req, dice(15, 20), S)
    assert [s.name for s in steps] == ["attack", "critical", "arm_save"]
    assert [(o.hits, o.wounds) for o in out] == [(1, 1), (1, 0)]


@pytest.mark.parametrize(
    ("area", "attr", "dodge", "critical", "key"),
    [
        (True, None, True, False, "inf.area_dodge_needs_attr"),  # L1996: against the attack die
        (False, 12, False, False, "inf.direct_template_no_roll"),  # L947-950: no BS roll
        (True, 12, False, True, "inf.critical_is_rolled"),  # the attack die says it
        (False, None, False, True, "inf.direct_template_no_critical"),  # no roll: L943-950
    ],
)
def test_area_and_direct_template_refusals(
    area: bool, attr: int | None, dodge: bool, critical: bool, key: str
) -> None:
    t = TemplateTarget(profile=Side(attr=0, ph=10), dodge=dodge, critical=critical)
    with pytest.raises(UserError) as err:
        TemplateRequest(dam=13, area=area, attr=attr, targets=[t]).check()
    assert err.value.key == key


def test_L904_an_area_templates_target_in_cover_is_minus_3_to_hit() -> None:
    # the aimed model (listed first) in partial cover: the attack roll at PH 10 is 10-3 = 7,
    # as /inf odds with cover; a model only under the template changes nothing (it saves +3)
    covered = TemplateTarget(name="JangQi", profile=Side(attr=0, arm=1, w=1, cover=True))
    other = TemplateTarget(name="Doucher", profile=Side(attr=0, arm=1, w=1))
    req = TemplateRequest(dam=13, area=True, attr=10, targets=[covered, other])
    assert req.attack_target() == 7
    steps, out = resolve_template(req, dice(8), S)  # 8 > 7: a miss, nobody is hit
    assert steps[0].target == 7 and [o.hits for o in out] == [0, 0]
    first, _ = template_odds(req, S)
    assert first.odds.p_hit == Fraction(7, 20)
    req = TemplateRequest(dam=13, area=True, attr=10, targets=[other, covered])
    assert req.attack_target() == 10


def _ev(face: int, target: int) -> tuple[bool, int] | None:
    """One die's (critical, value), None for a failure: written apart from rolls.evaluate."""
    if target <= 0 or (target <= 20 and face > target):
        return None
    value = face + max(0, target - 20)
    return (value >= 20 if target > 20 else face == target), min(value, 20)


@pytest.mark.parametrize(
    ("attack", "ph", "dodge", "first"),
    [(15, 10, True, True), (12, 13, True, False), (22, 10, True, True), (12, 12, False, True)],
)
def test_area_template_odds_match_enumeration(
    attack: int, ph: int, dodge: bool, first: bool
) -> None:
    side = Side(attr=0, arm=1, w=1, ph=ph)
    t = TemplateTarget(profile=side, dodge=dodge)
    # the first model listed is the target, the one a critical wounds (L943-946)
    targets = [t] if first else [TemplateTarget(profile=Side(attr=0, arm=1, w=1)), t]
    odds = template_odds(TemplateRequest(dam=13, area=True, attr=attack, targets=targets), S)[-1]
    parts: list[tuple[Fraction, Dist]] = []
    p_dodge = Fraction(0)
    for a, d in product(range(1, 21), repeat=2):
        p = Fraction(1, 400)
        ak, dk = _ev(a, attack), _ev(d, ph) if dodge else None
        hit = ak is not None and (dk is None or ak > dk or (ak == dk and attack > ph))
        if ak is not None and not hit:
            p_dodge += p
        crit = hit and first and ak is not None and ak[0]
        dist = _hits(int(crit), 1 - int(crit), "N", 13, 1, 1, 0) if hit else None
        parts.append((p, dist or {(0, False, False): Fraction(1)}))
    assert odds.p_dodge == p_dodge
    _check(odds.odds, _summary(_mix(parts), 1, 0))


TEMPLATE_CASES = [
    ("N-nododge", "N", 13, Side(attr=0, arm=1, w=1), False, 1, False),
    ("N-dodge-cover", "N", 13, Side(attr=0, arm=1, w=1, ph=11, cover=True), True, 1, False),
    ("DA-dodge", "DA", 14, Side(attr=0, arm=2, w=2, ph=12), True, 1, False),
    ("EXP-two", "EXP", 13, Side(attr=0, arm=4, w=2, ph=10), True, 2, False),
    ("FIRE-W2", "FIRE", 13, Side(attr=0, arm=3, w=2, ph=13), True, 1, False),
    ("FIRE-crit", "FIRE", 13, Side(attr=0, arm=3, w=2), False, 1, True),
    ("SHOCK-W1", "SHOCK", 13, Side(attr=0, arm=1, w=1, ph=10), True, 1, False),
    ("N-wounded", "N", 13, Side(attr=0, arm=1, w=2, wounds=1, ph=9), True, 2, False),
]


@pytest.mark.parametrize(
    ("name", "ammo", "dam", "side", "dodge", "hits", "crit"),
    TEMPLATE_CASES,
    ids=[c[0] for c in TEMPLATE_CASES],
)
def test_template_odds_match_enumeration(
    name: str, ammo: str, dam: int, side: Side, dodge: bool, hits: int, crit: bool
) -> None:
    t = TemplateTarget(profile=side, dodge=dodge, hits=hits, critical=crit)
    # a critical is an area template's, rolled with /inf attack (a direct one has none)
    (odds,) = template_odds(TemplateRequest(dam=dam, ammo=ammo, area=crit, targets=[t]), S)
    arm = side.arm + (3 if side.cover else 0)
    dodge_t = (side.ph or 0) - 6
    p_dodge = Fraction(sum(f <= dodge_t for f in range(1, 21)), 20) if dodge else Fraction(0)
    hit = _hits(int(crit), hits - int(crit), ammo, dam, arm, side.w, side.wounds)
    brute = _summary(
        _mix([(p_dodge, {(0, False, False): Fraction(1)}), (1 - p_dodge, hit)]), side.w, side.wounds
    )
    assert odds.p_dodge == p_dodge
    _check(odds.odds, brute)


# --- 2. a Burst split between targets -------------------------------------------------------------


def test_G07_split_burst_two_face_to_face_rolls() -> None:  # L454-469
    # Silva (BS 12) splits HMG B4 two and two; each Zhanshi (BS 11) answers with B1
    silva = Side(attr=12, burst=4, dam=15, arm=1, w=1)
    zhanshi = Side(attr=11, dam=13, arm=1, w=1)
    req = SplitRequest(
        active=silva,
        parts=[
            SplitPart(name="Wen Liu", shots=2, target=zhanshi),
            SplitPart(name="Jang Qi", shots=2, target=zhanshi),
        ],
    )
    # vs Wen Liu [16, 6] against 8: WL wins; vs Jang Qi [11, 10] against 3: Silva wins twice.
    # Then Jang Qi's 2 ARM rolls (20, 1), then Silva's 1 ARM roll (18): after every F2F roll
    steps, out = resolve_split(req, dice(16, 6, 8, 11, 10, 3, 20, 1, 18), S)
    wl, jq = out.targets
    assert (wl.hits, wl.hits_back, jq.hits, jq.hits_back) == (0, 1, 2, 0)
    assert [s.name for s in steps][-3:] == ["arm_save", "arm_save", "arm_save"]
    assert (jq.wounds, jq.state) == (1, "unconscious")
    assert (out.active_hits_taken, out.active_wounds, out.active_state) == (1, 0, "ok")


def test_G09_split_burst_against_a_shot_and_a_dodge() -> None:  # L872-885
    # Wen Liu BS 11, HMG B4 at 15 cm (MOD 0) split 2/2: Estevez shoots (12 +3), Angus dodges
    wl = Side(attr=11, burst=4, dam=15, arm=1, w=1)
    req = SplitRequest(
        active=wl,
        parts=[
            SplitPart(name="Estevez", shots=2, target=Side(attr=12, mod=3, dam=13, arm=1)),
            SplitPart(name="Angus", shots=2, target=Side(attr=10, arm=1, w=1)),  # a Dodge
        ],
    )
    steps, out = resolve_split(req, dice(7, 15, 13, 9, 5, 4, 19, 19, 19), S)
    est, angus = out.targets
    assert (est.hits, est.hits_back) == (0, 1)  # 13 beats WL's 7: WL makes 1 ARM roll
    assert (angus.hits, angus.hits_back) == (2, 0)  # 9 and 5 beat Angus's 4: 2 ARM rolls
    assert out.active_hits_taken == 1
    assert sum(s.name == "arm_save" for s in steps) == 3


def test_G15_split_combi_both_fall_unconscious() -> None:  # L707-718
    # Silva's Combi B3: 2 on Wen Liu, 1 on Jang Qi. WL is hit; JQ beats Silva; both fail
    # their ARM rolls and fall Unconscious with a wound (W1 models)
    silva = Side(attr=12, burst=3, dam=13, arm=1, w=1)
    z = Side(attr=11, dam=13, arm=1, w=1)
    req = SplitRequest(
        active=silva,
        parts=[SplitPart(name="WL", shots=2, target=z), SplitPart(name="JQ", shots=1, target=z)],
    )
    _, out = resolve_split(req, dice(15, 9, 4, 5, 10, 2, 3), S)
    wl, jq = out.targets
    assert (wl.hits, jq.hits_back) == (1, 1)
    assert (wl.state, out.active_state) == ("unconscious", "unconscious")


def test_G18_combi_burst_split_among_three_of_four() -> None:  # L1081-1083
    # the Suppressive Fire corridor covers 4 enemies; the same Order splits Combi B3 among 3 of
    # them, one shot each; they do not react to it: Normal rolls (the corridor is not modelled)
    angus = Side(attr=12, burst=3, dam=13)
    req = SplitRequest(
        active=angus,
        parts=[
            SplitPart(name=n, shots=1, target=Side(attr=0, arm=1), opposed=False) for n in "ABC"
        ],
    )
    _, out = resolve_split(req, dice(4, 13, 11, 3, 20), S)
    assert [t.hits for t in out.targets] == [1, 0, 1]
    assert [t.wounds for t in out.targets] == [1, 0, 0]


def test_split_cannot_exceed_the_burst() -> None:  # L856-863
    with pytest.raises(UserError) as err:
        SplitRequest(
            active=Side(attr=12, burst=3, dam=13),
            parts=[
                SplitPart(shots=2, target=Side(attr=11)),
                SplitPart(shots=2, target=Side(attr=11)),
            ],
        )
    assert err.value.key == "inf.split_too_many"


def _ftf_faces(a_t: int, n: int, r_t: int | None) -> Iterator[tuple[Fraction, int, int, int, int]]:
    """Every roll of `n` active dice (target a_t <= 20) against one reactive die (r_t, or None
    for no reaction): (probability, active crits, active normal hits, reactive crit, normal)."""
    reactive = range(1, 21) if r_t is not None else [None]
    for faces in product(range(1, 21), repeat=n):
        for r in reactive:
            p = Fraction(1, 20 ** (n + (r is not None)))

            def key(f: int, t: int) -> tuple[bool, int] | None:
                return (f == t, f) if f <= t else None

            mine = [key(f, a_t) for f in faces]
            theirs = key(r, r_t) if r is not None and r_t is not None else None

            def beats(k: tuple[bool, int], kt: int, o: tuple[bool, int] | None, ot: int) -> bool:
                return o is None or k > o or (k == o and kt > ot)

            hits = [k for k in mine if k is not None and beats(k, a_t, theirs, r_t or 0)]
            best = max((k for k in mine if k is not None), default=None)
            back = theirs is not None and beats(theirs, r_t or 0, best, a_t)
            crit_back = back and theirs is not None and theirs[0]
            yield (
                p,
                sum(k[0] for k in hits),
                sum(not k[0] for k in hits),
                int(crit_back),
                int(back and not crit_back),
            )


def test_split_odds_match_enumeration() -> None:
    # Burst 3: 2 shots on A (it shoots back), 1 on B (it shoots back too); Normal ammunition
    active = Side(attr=13, burst=3, dam=13, arm=2, w=1)
    a = Side(attr=11, mod=3, dam=14, arm=1, w=1, cover=True)
    b = Side(attr=12, dam=13, arm=3, w=2)
    req = SplitRequest(
        active=active, parts=[SplitPart(shots=2, target=a), SplitPart(shots=1, target=b)]
    )
    odds = split_odds(req, S)
    # per part: P(active crits, normals) and P(reactive crits, normals), from every face
    counts: list[tuple[dict[tuple[int, int], Fraction], dict[tuple[int, int], Fraction]]] = []
    for shots, side in ((2, a), (1, b)):
        a_t = active.attr - (3 if side.cover else 0)
        fwd: dict[tuple[int, int], Fraction] = {}
        rev: dict[tuple[int, int], Fraction] = {}
        for p, c, n, cb, nb in _ftf_faces(a_t, shots, side.attr + side.mod):
            fwd[(c, n)] = fwd.get((c, n), Fraction(0)) + p
            rev[(cb, nb)] = rev.get((cb, nb), Fraction(0)) + p
        counts.append((fwd, rev))
    for (fwd, _), side, (_, target_odds) in zip(counts, (a, b), odds.targets, strict=True):
        arm = side.arm + (3 if side.cover else 0)
        hits = _mix(
            [
                (p, _hits(c, n, "N", active.dam or 0, arm, side.w, side.wounds))
                for (c, n), p in fwd.items()
            ]
        )
        _check(target_odds, _summary(hits, side.w, side.wounds))
    # the active model: the hits of both targets, each saved against its shooter's Damage
    mine: Dist = {}
    for ((c1, n1), p1), ((c2, n2), p2) in product(counts[0][1].items(), counts[1][1].items()):
        first = _hits(c1, n1, "N", a.dam or 0, active.arm, active.w, 0)
        second = _hits(c2, n2, "N", b.dam or 0, active.arm, active.w, 0)
        for ((w1, k1, s1), q1), ((w2, k2, s2), q2) in product(first.items(), second.items()):
            _add(mine, (w1 + w2, k1 or k2, s1 or s2), p1 * p2 * q1 * q2)
    _check(odds.active, _summary(mine, active.w, 0))


# --- 3. Coordinated Orders ------------------------------------------------------------------------


def _game(*units: Unit) -> GameState:
    return GameState(
        system="inf",
        name="g",
        organiser="1",
        players=[Player(user_id="1", name="Marco")],
        units=list(units),
        order=["1"],
    )


def _unit(name: str, **stats: int) -> Unit:
    base = {"w": 1, "hp": 2, "group": 1, "bs": 12, "ph": 10, "wip": 13}
    return Unit(
        name=name, owner="1", owner_name="Marco", stats={**base, **stats}, wounds_per_model=2
    )


def test_coordinated_order_costs_one_order_per_model() -> None:  # L1265-1311
    state = _game(_unit("Angus", lt=1), *(_unit(n) for n in ("Doucher", "Bipandra", "Silva")))
    new, spent, _ = tr.spend_coordinated(state, ["Angus", "Doucher", "Bipandra"])
    assert new.resources["player:1"]["orders"] == 1  # 4 Orders counted, 3 spent (L1269-1270)
    assert spent.units == ["Angus", "Doucher", "Bipandra"]
    assert [spent.bursts[b] for b in (1, 3, 4, 5)] == [1, 2, 2, 3]  # L1300-1301


@pytest.mark.parametrize(
    ("units", "key"),
    [
        ([_unit("A"), _unit("B", group=2)], "inf.coordinated_group"),  # L1309-1311
        ([_unit("A"), _unit("B", irr=1)], "inf.coordinated_training"),  # L1309-1310
        ([_unit(n) for n in "ABCDE"], "inf.coordinated_size"),  # L1308-1309: at most 4
        ([_unit("A")], "inf.coordinated_size"),
    ],
)
def test_coordinated_order_refusals(units: list[Unit], key: str) -> None:
    state = _game(*units)
    with pytest.raises(UserError) as err:
        tr.spend_coordinated(state, [u.name for u in units])
    assert err.value.key == key


def test_coordinated_order_refuses_an_unconscious_model_and_spends_nothing() -> None:
    state = _game(_unit("A"), _unit("B"))
    state.units[1].damage = 1  # W 1: Unconscious
    with pytest.raises(UserError) as err:
        tr.spend_coordinated(state, ["A", "B"])
    assert err.value.key == "inf.cannot_act"
    assert "player:1" not in state.resources  # pure: the caller's state is untouched


# --- 4. CC Damage from PH -------------------------------------------------------------------------


def test_C9_cc_weapon_damage_is_the_wielders_ph() -> None:  # L1549-1559, L3153-3157
    shenru = Unit(name="Wu Shenru", owner="1", owner_name="M", stats={"cc": 16, "ph": 14})
    req, notes = build_request(AttackOptions(weapon="CC Weapon", vs=9, arm=1), shenru, None, {})
    assert (req.active.dam, req.cc, req.active.attr) == (14, True, 16)
    assert ("inf.note_ph_dam", {"ph": 14, "mod": 0}) in notes
    req, _ = build_request(AttackOptions(weapon="Coltello"), shenru, None, {})
    assert req.active.dam == 12  # Knife PH-2 (L3234-3235)


def test_ph_damage_of_a_weapon_the_players_add() -> None:
    w = tables.make_weapon("Spada", None, "PH+1", 1, None)
    assert (w.ph_dam, w.close_combat, w.damage(12), w.damage_text()) == (1, True, 13, "PH+1")
    assert tables.parse_damage("FIS-2") == (0, -2) and tables.parse_damage("13") == (13, None)
    with pytest.raises(UserError) as bad:
        tables.parse_damage("PH*2")
    assert bad.value.key == "inf.bad_damage"
    with pytest.raises(UserError) as err:
        build_request(AttackOptions(attr=12, weapon="Knife"), None, None, {})
    assert err.value.key == "inf.ph_dam_needs_attacker"


# --- 5. Doctor, MediKit, AutoMediKit, Regeneration ------------------------------------------------

UNCONSCIOUS = Patient(w=1, wounds=1, ph=10)


def test_doctor_wip_roll_brings_back_or_kills() -> None:  # L2441-2451
    req = HealRequest(method="doctor", patient=UNCONSCIOUS, wip=13)
    _, out = resolve_heal(req, dice(13))
    assert (out.result, out.wounds_after, out.state_after) == ("recovered", 0, "ok")
    _, out = resolve_heal(req, dice(14))
    assert (out.result, out.state_after) == ("dead", "dead")


def test_medikit_is_the_patients_ph_minus_3() -> None:  # L3617-3625
    req = HealRequest(method="medikit", patient=UNCONSCIOUS)
    steps, out = resolve_heal(req, dice(7))
    assert (steps[0].target, out.result) == (7, "recovered")
    _, out = resolve_heal(req, dice(8))
    assert out.result == "dead"
    with pytest.raises(UserError) as err:  # only for Unconscious models
        resolve_heal(HealRequest(method="medikit", patient=Patient(w=2, wounds=1, ph=10)), dice(1))
    assert err.value.key == "inf.heal_needs_unconscious"


def test_automedikit_and_regeneration() -> None:  # L3508-3516, L2675-2688
    _, out = resolve_heal(HealRequest(method="automedikit", patient=UNCONSCIOUS), dice(10))
    assert out.result == "recovered"
    wounded = Patient(w=2, wounds=1, ph=12)
    _, out = resolve_heal(HealRequest(method="regeneration", patient=wounded), dice(15))
    assert (out.result, out.wounds_after) == ("unchanged", 1)  # a failure only kills when Unc.
    _, out = resolve_heal(HealRequest(method="regeneration", patient=UNCONSCIOUS), dice(15))
    assert out.result == "dead"
    _, out = resolve_heal(HealRequest(method="regeneration", patient=wounded), dice(2))
    assert (out.result, out.wounds_after) == ("recovered", 0)


def test_L3510_the_automedikit_is_for_an_unconscious_model_only() -> None:
    # A code audit: on a conscious model a failed roll marked it Dead (odds 50% dead), and on
    # an unwounded one a passing roll crashed (wounds -1). It brings a model out of
    # Unconscious (L3510-3515), like the Doctor and the MediKit.
    for patient in (Patient(w=2, wounds=1, ph=10), Patient(w=2, wounds=0, ph=10)):
        for faces in (15, 3):
            with pytest.raises(UserError) as err:
                resolve_heal(HealRequest(method="automedikit", patient=patient), dice(faces))
            assert err.value.key == "inf.heal_needs_unconscious"


def test_G24_a_dead_model_cannot_be_brought_back() -> None:  # L2682-2684, L1390-1393
    dead = Patient(w=1, wounds=2, ph=12)  # W1 and two failed ARM rolls
    for method in METHODS:
        with pytest.raises(UserError) as err:
            resolve_heal(HealRequest(method=method, patient=dead, wip=13), dice(1))
        assert err.value.key == "inf.heal_dead"


def test_coordinated_doctors_cancel_out() -> None:  # L1302-1303
    req = HealRequest(method="doctor", patient=UNCONSCIOUS, wip=12, coordinated=True)
    assert resolve_heal(req, dice(3, 15))[1].result == "unchanged"
    assert resolve_heal(req, dice(3, 4))[1].result == "recovered"
    assert resolve_heal(req, dice(13, 15))[1].result == "dead"


@pytest.mark.parametrize(
    "req",
    [
        HealRequest(method="doctor", patient=UNCONSCIOUS, wip=13),
        HealRequest(method="doctor", patient=UNCONSCIOUS, wip=13, mod=-6, coordinated=True),
        HealRequest(method="medikit", patient=UNCONSCIOUS),
        HealRequest(method="medikit", patient=Patient(w=1, wounds=1, ph=2)),  # PH 2-3: never
        HealRequest(method="automedikit", patient=Patient(w=2, wounds=2, ph=24)),  # always
        HealRequest(method="regeneration", patient=Patient(w=2, wounds=1, ph=11)),
    ],
)
def test_heal_odds_match_enumeration(req: HealRequest) -> None:
    attr = req.wip if req.method == "doctor" else req.patient.ph
    target = (attr or 0) + req.mod + (-3 if req.method == "medikit" else 0)
    brute: dict[str, Fraction] = {}
    rolls = 2 if req.coordinated else 1
    for faces in product(range(1, 21), repeat=rolls):
        ok = sum(f <= target for f in faces)
        if 0 < ok < rolls:
            result = "unchanged"
        elif ok:
            result = "recovered"
        elif req.method == "regeneration" and req.patient.wounds < req.patient.w:
            result = "unchanged"
        else:
            result = "dead"
        brute[result] = brute.get(result, Fraction(0)) + Fraction(1, 20**rolls)
    assert heal_odds(req) == brute


def test_heal_applied_to_the_game() -> None:
    state = _game(_unit("Angus"))
    state.units[0].damage = 1  # Unconscious
    _, out = resolve_heal(HealRequest(method="medikit", patient=UNCONSCIOUS), dice(1))
    new, notes = tr.apply_heal(state, "Angus", out)
    assert new.units[0].damage == 0 and notes == [("inf.note.ok", {"unit": "Angus"})]
    _, out = resolve_heal(HealRequest(method="medikit", patient=UNCONSCIOUS), dice(20))
    new, notes = tr.apply_heal(state, "Angus", out)
    assert new.units[0].destroyed and ("inf.note.dead", {"unit": "Angus"}) in notes


@pytest.mark.parametrize("attr", [None, 12])
def test_L960_two_templates_on_one_target_are_direct_ones_only(attr: int | None) -> None:
    # Two templates laid in succession are two direct templates (two Chain Rifles, L960-965):
    # double= on an area template (a grenade) doubled its hits, rolled or not.
    t = TemplateTarget(profile=Side(attr=0, ph=10), hits=2)
    with pytest.raises(UserError) as err:
        TemplateRequest(dam=13, area=True, attr=attr, targets=[t]).check()
    assert err.value.key == "inf.double_is_direct"
    TemplateRequest(dam=13, area=False, targets=[t]).check()  # direct: allowed


def test_L407_the_aimed_model_shoots_back_at_an_area_template_face_to_face() -> None:
    # a Light GL (BS 12, +3 range) at Wen, who answers with his Combi Rifle (BS 11): the same
    # Face to Face as /inf attack weapon=LGL vs=11 (L407-431); Jang is only under the template
    wen = TemplateTarget(name="Wen", profile=Side(attr=0, arm=1, w=1))
    jang = TemplateTarget(name="Jang", profile=Side(attr=0, arm=1, w=1))
    req = TemplateRequest(dam=14, area=True, attr=12, mod=3, vs=11, targets=[wen, jang])
    # his 10 beats the attack's 9: the template lands on no one, the shooter is hit once
    steps, out = resolve_template(req, dice(9, 10), S)
    assert [(s.name, s.total) for s in steps] == [("attack", 1), ("reactive", 1)]
    assert [o.hits for o in out] == [0, 0]
    # the attack's 12 beats his 10: both under the template save (ARM 1 + 18, 1 + 2 <= 14)
    steps, out = resolve_template(req, dice(12, 10, 18, 2), S)
    assert [(s.name, s.total) for s in steps][:2] == [("attack", 1), ("reactive", 0)]
    assert [(o.hits, o.wounds) for o in out] == [(1, 0), (1, 1)]
    # the exact odds are /inf attack's for the aimed model, and his shot back wins as often
    from rules_core.systems.inf.models import AttackRequest
    from rules_core.systems.inf.odds import attack_odds

    duel = attack_odds(
        AttackRequest(
            active=Side(attr=12, mod=3, dam=14),
            target=Side(attr=11, dam=13, arm=1, w=1),
            opposed=True,
        ),
        S,
    )
    odds = template_odds(req, S)
    assert odds[0].odds.wounds.as_fractions() == duel.target.wounds.as_fractions()
    assert odds[0].p_back == duel.active.p_hit
    assert odds[1].odds.p_hit == duel.target.p_hit  # the other model: hit when the die stands


@pytest.mark.parametrize(
    ("attr", "dodge", "key"),
    [
        (None, False, "inf.template_vs_needs_roll"),  # already rolled: /inf attack's vs=
        (12, True, "inf.template_vs_or_dodge"),  # one ARO: a shot or a Dodge (L623-694)
    ],
)
def test_a_shot_back_at_a_template_refusals(attr: int | None, dodge: bool, key: str) -> None:
    t = TemplateTarget(name="Wen", profile=Side(attr=0, ph=10), dodge=dodge)
    with pytest.raises(UserError) as err:
        TemplateRequest(dam=13, area=True, attr=attr, vs=11, targets=[t]).check()
    assert err.value.key == key


def _shot_back_request(ammo: str | None = None) -> TemplateRequest:
    """A Light GL (BS 12, +3 range) at Wen, who answers with his Combi Rifle (BS 11, Damage 13)
    at the shooter, Angus (ARM 1, W 1)."""
    wen = TemplateTarget(name="Wen", profile=Side(attr=0, arm=1, w=1))
    return TemplateRequest(
        dam=14,
        area=True,
        attr=12,
        mod=3,
        vs=11,
        vs_dam=13,
        vs_ammo=ammo,
        shooter=Side(attr=0, arm=1, w=1),
        shooter_name="Angus",
        targets=[wen],
    )


def test_L407_a_shot_back_that_wins_makes_the_shooter_save() -> None:
    # the shot back is a shot like /inf attack's reactive one (L407-431): when it wins, the
    # shooter makes the saves its ammunition demands (L1332-1341), then Guts (L1352-1367)
    req = _shot_back_request()
    steps, out = resolve_template(req, dice(9, 10, 12), S)  # 12 + ARM 1 <= 13: a wound
    assert [(s.name, s.outcome) for s in steps][2:] == [("arm_save", "wound")]
    assert steps[2].detail["side"] == "Angus"
    back = out[0].shot_back
    assert back is not None and (back.name, back.hits, back.wounds) == ("Angus", 1, 1)
    assert back.state == "unconscious" and not back.guts_roll
    _, out = resolve_template(req, dice(9, 10, 13), S)  # 13 + 1 > 13: saved, a Guts roll
    assert out[0].shot_back is not None and out[0].shot_back.guts_roll
    assert out[0].shot_back.wounds == 0 and out[0].hits == 0
    # a critical shot back (11 on BS 11) wounds with no ARM roll (L894-895)
    steps, out = resolve_template(req, dice(9, 11), S)
    assert [s.name for s in steps] == ["attack", "reactive", "critical"]
    assert out[0].shot_back is not None and out[0].shot_back.wounds == 1
    # the template's die stands: the shooter is not hit, Wen saves (1 + 18 > 14)
    steps, out = resolve_template(req, dice(12, 10, 18), S)
    assert out[0].shot_back is None and (out[0].hits, out[0].wounds) == (1, 0)
    # DA: two ARM rolls for the shooter (L2911-2920)
    steps, out = resolve_template(_shot_back_request("DA"), dice(9, 10, 13, 12), S)
    assert [s.outcome for s in steps if s.name == "arm_save"] == ["pass", "wound"]


def test_the_shot_back_odds_are_attack_odds_for_the_shooter_and_match_every_roll() -> None:
    from rules_core.systems.inf.models import AttackRequest
    from rules_core.systems.inf.odds import attack_odds

    req = _shot_back_request()
    duel = attack_odds(
        AttackRequest(
            active=Side(attr=12, mod=3, dam=14, arm=1, w=1),
            target=Side(attr=11, dam=13, arm=1, w=1),
            opposed=True,
        ),
        S,
    )
    (wen,) = template_odds(req, S)
    back = wen.back
    assert back is not None
    assert back.wounds.as_fractions() == duel.active.wounds.as_fractions()
    assert (back.p_hit, back.p_unconscious, back.p_dead, back.p_guts) == (
        duel.active.p_hit,
        duel.active.p_unconscious,
        duel.active.p_dead,
        duel.active.p_guts,
    )
    assert wen.p_back == back.p_hit
    # every attack die, shot back and ARM roll: the rolled results, weighted, are the odds
    wounds: dict[int, Fraction] = {}
    guts = Fraction(0)
    for faces in product(range(1, 21), repeat=3):
        _, out = resolve_template(req, dice(*faces), S)
        shot = out[0].shot_back
        n = shot.wounds if shot is not None else 0
        wounds[n] = wounds.get(n, Fraction(0)) + Fraction(1, 8000)
        guts += Fraction(1, 8000) * (shot is not None and shot.guts_roll)
    assert wounds == back.wounds.as_fractions() and guts == back.p_guts


def test_a_shot_back_with_no_weapon_counts_its_hit_only() -> None:
    # with no Damage for the shot back (as /inf attack with no vs_dam=), nothing to save
    req = _shot_back_request().model_copy(update={"vs_dam": None})
    steps, out = resolve_template(req, dice(9, 10), S)
    assert [s.name for s in steps] == ["attack", "reactive"]
    assert out[0].shot_back is not None and out[0].shot_back.hits == 1
    assert out[0].shot_back.wounds == 0
    with pytest.raises(UserError) as err:  # a Damage with no shot back
        _shot_back_request().model_copy(update={"vs": None}).check()
    assert err.value.key == "inf.vs_dam_needs_vs"


def test_L897_a_shooter_in_partial_cover_is_harder_to_shoot_back_at_and_saves_with_3() -> None:
    # partial cover: -3 to whoever shoots at the covered model, +3 to its ARM (L897-908), as
    # /inf attack's my_cover does for the active model hit by the reactive shot
    req = _shot_back_request()
    covered = req.model_copy(update={"shooter": Side(attr=0, arm=1, w=1, cover=True)})
    steps, out = resolve_template(covered, dice(9, 10, 10), S)  # 10 on 11 -3 = 8: a miss
    assert (steps[1].target, steps[1].total) == (8, 0) and out[0].shot_back is None
    assert out[0].hits == 1  # the template lands on Wen (his ARM roll: 10 + 1 <= 14)
    steps, out = resolve_template(covered, dice(6, 7, 10), S)  # 7 beats 6; 10 + 1 + 3 > 13
    assert [(s.name, s.outcome) for s in steps][2:] == [("arm_save", "pass")]
    assert steps[2].total == 14 and out[0].shot_back is not None
    from rules_core.systems.inf.models import AttackRequest
    from rules_core.systems.inf.odds import attack_odds

    duel = attack_odds(
        AttackRequest(
            active=Side(attr=12, mod=3, dam=14, arm=1, w=1, cover=True),
            target=Side(attr=11, dam=13, arm=1, w=1),
            opposed=True,
        ),
        S,
    )
    (wen,) = template_odds(covered, S)
    assert wen.back is not None and wen.p_back == duel.active.p_hit
    assert wen.back.wounds.as_fractions() == duel.active.wounds.as_fractions()
    assert wen.odds.wounds.as_fractions() == duel.target.wounds.as_fractions()
