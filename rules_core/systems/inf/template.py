"""Template weapons: direct templates and automatic hits (Flamethrowers, Chain Rifles,
Nanopulsers, Mines) and the models under an area template (grenades, grenade launchers; digest
§3.3). A direct template has no attack roll: every model under it is hit and makes the saves
the ammunition demands, unless it dodges. An area template is rolled to hit (with `attr`, here,
or against its target with /inf attack, the others then listed here with no roll).

Rules applied (lines of ../shared/seeds/003_27b81155ce3a4b9f.txt):
- L947-950, L3203-3207, L3356-3359: a direct template needs no BS roll; every model the
  template touches makes its ARM roll (or the saves of the weapon's ammunition, digest §3.7).
- L925-931: every model whose base the template touches is affected; a model in partial cover
  gets its +3 when its base touches the cover.
- L951-955, L3358-3359: a model that answers with a shot is hit all the same (its own shot is a
  Normal roll, made apart: there is no Face to Face against a template).
- L955-956, L2010-2014, L3360-3361, L3413: a model that Dodges makes a PH roll at -6; a success
  avoids the template even inside it. Other MODs (a TAG's -6, L2008-2009) are added by the
  player (`dodge_mod`).
- L960-965: two direct templates on the same model (two Chain Rifles) are two hits, and one
  Dodge roll at -6 avoids both.
- L904-905: an area template's target (the first model listed) in partial cover gives the
  attack roll -3, as for any shot at it (the others under the template only save with +3).
- L943-946: with an area template, a critical on the attack roll gives its target a wound with
  no ARM roll (then the rest of its ammunition's saves); every other model saves normally.
- L925-946, L966-968, L1020-1025, L3331-3334, L3369-3371: an area template is rolled to hit
  (BS, or PH for a thrown grenade); a failed roll scatters by the failure margin x 6 cm, so
  no model listed is hit. Its target is the first model listed.
- L1996-2009: against an area template a Dodge is an ordinary Face to Face PH roll against the
  attack die (the -6 Normal roll is for direct templates and Explode only, L2010-2014); a tie
  goes to the higher attribute, modified or not as the setting dodge_tie says.
- L1352-1367: a model that survives a hit makes one Guts roll (as for any ranged hit).
- L407-431, L623-694: an area template rolled here is a shot at its target like any other, so
  the target that answers by shooting back (`vs`, its shot's modified attribute, B1 in ARO)
  makes a Face to Face roll against the attack die, as /inf attack does: when its shot beats
  the attack die the template lands on no one and the shooter is hit; a tie of equal
  attributes cancels both. (A direct template is never Face to Face, L952-954, L3358-3359:
  the models answering it are hit all the same.)
- L407-431, L894-895, L1332-1367 (and the ammunition's rules, digest §3.7): the shot back that
  wins is one hit on the shooter, resolved as /inf attack resolves the reactive side's hit
  (the same `hit_program`, `run_program` and `guts_due`; a critical wounds with no ARM roll):
  its Damage and ammunition (`vs_dam`, `vs_ammo`, Monofilament at Damage 12, L3058-3060) on
  the shooter's profile (`shooter`). A shooter in partial cover gives the shot back -3 and
  saves with +3 (L897-908, as /inf attack's my_cover). With no Damage (nor ADH) only the hit
  is counted, as
  /inf attack does with no vs_dam. Its exact odds (`TargetOdds.back`) are /inf attack's for
  the active side (`odds.side_tally` over the same chances of the shot back winning).

Dice: an area template's attack die first (when rolled here; after a miss nothing else is
rolled), then the shot back's die, then the Dodge rolls of the models that dodge, in their
order, then each model's saves in order (the order changes no number), then, when the shot
back won (and so no model is hit), the shooter's saves.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from pydantic import BaseModel, Field

from rules_core.dice import DiceSource
from rules_core.dice.distribution import Distribution
from rules_core.errors import UserError
from rules_core.steps import Modifier, Step
from rules_core.systems.inf.attack import (
    COVER,
    MONO_DAMAGE,
    Tally,
    death_limit,
    guts_due,
    hit_program,
    run_program,
)
from rules_core.systems.inf.models import InfSettings, Side, State
from rules_core.systems.inf.odds import (
    SideOdds,
    SideResult,
    TState,
    _odds,
    _result,
    _untouched,
    side_tally,
)
from rules_core.systems.inf.recovery import p_success
from rules_core.systems.inf.rolls import (
    Die,
    Key,
    Outcome,
    beats,
    die_distribution,
    evaluate,
    key,
    mods_of,
    roll_dice,
    roll_step,
)

DODGE_MOD = -6  # L955-956, L2010-2014
SCATTER_CM = 6  # a missed area template lands failure margin x 6 cm away (L1020-1025)
MAX_TARGETS = 8


class TemplateTarget(BaseModel):
    """One model under the template: the profile it saves with (`Side`'s ARM, BTS, W, wounds,
    PH, cover...), whether it dodges, and how many templates touch it."""

    name: str = Field(default="", max_length=40)
    profile: Side
    dodge: bool = False
    dodge_mod: int = Field(default=0, ge=-30, le=30)
    hits: int = Field(default=1, ge=1, le=2)  # two direct templates: L960-965
    critical: bool = False  # an area template's target hit by a critical (L943-946)

    def dodge_mods(self, area: bool) -> list[Modifier]:
        """-6 against a direct template only (L2010-2014), then the player's MOD."""
        return [
            *([] if area else [Modifier(name="template", value=DODGE_MOD)]),
            *mods_of(self.dodge_mod),
        ]

    def dodge_target(self, area: bool = False) -> int:
        if self.profile.ph is None:
            raise UserError("inf.dodge_needs_ph", unit=self.name or "?")
        return self.profile.ph + sum(m.value for m in self.dodge_mods(area))


class TemplateRequest(BaseModel):
    dam: int = Field(ge=0, le=30)
    ammo: str = "N"
    targets: list[TemplateTarget] = Field(min_length=1, max_length=MAX_TARGETS)
    area: bool = False
    # An area template's attack roll, when rolled here: the shooter's BS (PH for a thrown
    # grenade) and its MODs (range, cover...). None: already rolled (/inf attack), all hit.
    attr: int | None = Field(default=None, ge=0, le=30)
    mod: int = Field(default=0, ge=-30, le=30)
    range: int = Field(default=0, ge=-12, le=12)  # the weapon's range band at the distance
    # the aimed model (listed first) shoots back: its shot's modified attribute (Face to Face),
    # its weapon's Damage and ammunition (None: no Damage, the hit alone is counted)
    vs: int | None = Field(default=None, ge=0, le=30)
    vs_dam: int | None = Field(default=None, ge=0, le=30)
    vs_ammo: str | None = None
    # the shooter, hit when the shot back wins: the profile it saves with (ARM, BTS, W...)
    shooter: Side = Field(default_factory=lambda: Side(attr=0))
    shooter_name: str = Field(default="", max_length=40)

    def weapon(self) -> Side:
        """The template's weapon, as the side that hits the models under it."""
        return Side(attr=0, dam=self.dam, ammo=self.ammo)

    def shot_back(self) -> Side | None:
        """The shot back's weapon, as the side that hits the shooter; None when it has no
        Damage (nor ADH): the hit alone is counted (attack.resolve_attack's rule)."""
        ammo = self.vs_ammo or "N"
        dam = MONO_DAMAGE if ammo == "MONO" else self.vs_dam  # L3058-3060
        if dam is None and ammo != "ADH":
            return None
        return Side(attr=self.vs or 0, dam=dam, ammo=ammo)

    def check(self) -> None:
        """What the book rules out before any die is rolled."""
        if self.attr is not None and not self.area:
            raise UserError("inf.direct_template_no_roll")  # L947-950
        if self.area and any(t.hits > 1 for t in self.targets):
            raise UserError("inf.double_is_direct")  # two templates in succession: L960-965
        if self.area and self.attr is None and any(t.dodge for t in self.targets):
            raise UserError("inf.area_dodge_needs_attr")  # L1996-1998: against the attack die
        if not self.area and any(t.critical for t in self.targets):
            raise UserError("inf.direct_template_no_critical")  # no roll, no critical: L943-950
        if self.attr is not None and any(t.critical for t in self.targets):
            raise UserError("inf.critical_is_rolled")
        if self.vs is not None and self.attr is None:
            raise UserError("inf.template_vs_needs_roll")  # no roll to face: L947-954
        if self.vs is not None and self.targets[0].dodge:
            raise UserError("inf.template_vs_or_dodge", unit=self.targets[0].name or "?")
        if (self.vs_dam is not None or self.vs_ammo) and self.vs is None:
            raise UserError("inf.vs_dam_needs_vs")  # as /inf attack (request.build_request)
        back = self.shot_back()
        if self.vs_ammo and back is None:
            raise UserError("inf.missing_vs_dam")
        if back is not None and back.ammo == "ADH" and self.shooter.ph is None:
            raise UserError("inf.adh_needs_attacker")  # a PH-6 roll (L2894-2895)

    def attack_mods(self) -> list[Modifier]:
        # the aimed model (listed first) in partial cover: -3 to the roll (L904-905)
        cover = [Modifier(name="cover", value=-COVER)] if self.targets[0].profile.cover else []
        return [*mods_of(self.mod), *mods_of(self.range, "range"), *cover]

    def attack_target(self) -> int:
        return (self.attr or 0) + sum(m.value for m in self.attack_mods())

    def back_mods(self) -> list[Modifier]:
        # the shooter in partial cover: -3 to the shot back at it (L897-905)
        return [Modifier(name="cover", value=-COVER)] if self.shooter.cover else []

    def back_target(self) -> int:
        """The shot back's modified attribute (what it rolls under, and its tie value)."""
        return (self.vs or 0) + sum(m.value for m in self.back_mods())

    def ties(self, t: TemplateTarget, settings: InfSettings) -> tuple[int, int]:
        """What breaks a tie between the attack die and a Dodge (L427-431, L2005-2007)."""
        if settings.dodge_tie == "base":
            return self.attr or 0, t.profile.ph or 0
        return self.attack_target(), t.dodge_target(self.area)


class TargetOutcome(BaseModel):
    name: str
    dodged: bool
    hits: int
    wounds: int
    state: State
    guts_roll: bool
    disabled: bool
    immobilized: bool
    # the aimed model's shot back that won: what it did to the shooter
    shot_back: TargetOutcome | None = None


def _hit_back(
    req: TemplateRequest, critical: bool, source: DiceSource, settings: InfSettings
) -> tuple[list[Step], TargetOutcome]:
    """The shooter hit by the shot back: its saves, as resolve_attack runs the reactive
    side's hit on the active side (ranged, no Defence Bonus)."""
    f, back = req.shooter, req.shot_back()
    tally = Tally(prior=f.wounds, w=f.w, limit=death_limit(f, settings))
    if back is not None:
        tally.em_hit = back.ammo in ("EM", "PLASMA")
        ops = hit_program(back.ammo, back.dam or 0, critical, f, settings, 0, True)
        run_program(ops, tally, source, req.shooter_name or "active")
    wounded = back is not None
    return tally.steps, TargetOutcome(
        name=req.shooter_name,
        dodged=False,
        hits=1,
        wounds=tally.wounds,
        state=tally.state(),
        guts_roll=guts_due(tally, f, False, wounded),
        disabled=tally.disabled,
        immobilized=tally.immobilized,
    )


def _return_fire(req: TemplateRequest, attack: Die | None, source: DiceSource) -> tuple[Step, bool]:
    """The aimed model's shot back against the attack die (Face to Face, L407-431): its step
    (`total` 1 when it beats the attack die: the shooter is hit) and whether the attack die
    still stands."""
    vs = req.back_target()
    rolled = roll_dice(vs, 1, source)
    shot = rolled[0] if rolled and rolled[0].success else None
    a_key = key(attack) if attack is not None else None
    s_key = key(shot) if shot is not None else None
    won = beats(s_key, vs, a_key, req.attack_target())
    stands = beats(a_key, req.attack_target(), s_key, vs)
    critical = won and shot is not None and shot.critical
    step = roll_step("reactive", req.vs or 0, req.back_mods(), rolled, int(won), int(critical))
    step.detail["side"] = req.targets[0].name
    step.detail["critical"] = critical
    return step, stands


def resolve_template(
    req: TemplateRequest, source: DiceSource, settings: InfSettings
) -> tuple[list[Step], list[TargetOutcome]]:
    req.check()
    steps: list[Step] = []
    attack: Die | None = None  # an area template's attack die, rolled here
    missed = False
    back: Step | None = None  # the shot back, when it beat the attack die
    if req.attr is not None:
        rolled = roll_dice(req.attack_target(), 1, source)
        attack = rolled[0] if rolled and rolled[0].success else None
        crit = int(attack is not None and attack.critical)
        steps.append(
            roll_step("attack", req.attr, req.attack_mods(), rolled, int(attack is not None), crit)
        )
        missed = attack is None  # it scatters (L1020-1025): nothing here to dodge or save
        cf = steps[-1].detail.get("cf")
        if missed and isinstance(cf, int):
            steps[-1].detail["scatter_cm"] = cf * SCATTER_CM
        if req.vs is not None:
            step, stands = _return_fire(req, attack, source)
            steps.append(step)
            back = step if step.total else None
            if not stands:  # the shot back won, or cancelled it: the template lands on no one
                attack, missed = None, True
    dodged: list[bool] = []
    for t in req.targets:
        if not t.dodge or missed:
            dodged.append(False)
            continue
        target = t.dodge_target(req.area)
        die = evaluate(source.roll(20), target) if target > 0 else None
        ok = die is not None and die.success
        if attack is not None:  # Face to Face: the attack hits unless the Dodge beats it
            a_tie, d_tie = req.ties(t, settings)
            ok = not beats(key(attack), a_tie, key(die) if ok and die else None, d_tie)
        dodged.append(ok)
        steps.append(
            Step(
                name="dodge",
                dice=[die.face] if die is not None else [],
                modifiers=t.dodge_mods(req.area),
                target=target,
                total=int(ok),
                outcome="auto_fail" if die is None else ("dodged" if ok else "hit"),
                detail={"attr": t.profile.ph, "side": t.name, "marks": _marks(die)},
            )
        )
    outcomes = []
    em = req.ammo in ("EM", "PLASMA")
    for i, (t, escaped) in enumerate(zip(req.targets, dodged, strict=True)):
        p = t.profile
        tally = Tally(prior=p.wounds, w=p.w, limit=death_limit(p, settings))
        tally.em_hit = em
        hit = not (escaped or missed)
        # the critical wounds the template's target (L943-946): named, or the first listed
        critical = t.critical or (i == 0 and attack is not None and attack.critical)
        if hit:
            for n in range(t.hits):
                ops = hit_program(req.ammo, req.dam, critical and n == 0, p, settings, 0, True)
                run_program(ops, tally, source, t.name)
        steps += tally.steps
        outcomes.append(
            TargetOutcome(
                name=t.name,
                dodged=escaped,
                hits=t.hits if hit else 0,
                wounds=tally.wounds,
                state=tally.state(),
                guts_roll=guts_due(tally, p, False, hit),
                disabled=tally.disabled,
                immobilized=tally.immobilized,
            )
        )
    if back is not None:  # no model was hit: the shooter's saves close the order
        more, outcomes[0].shot_back = _hit_back(
            req, back.detail["critical"] is True, source, settings
        )
        steps += more
    return steps, outcomes


def _marks(die: Die | None) -> list[str]:
    if die is None:
        return []
    return [("C" if die.critical else "S") if die.success else "F"]


@dataclass
class TargetOdds:
    name: str
    p_dodge: Fraction
    odds: SideOdds
    p_back: Fraction = Fraction(0)  # the aimed model's shot back beats the attack die
    back: SideOdds | None = None  # what that shot back does to the shooter


def template_odds(req: TemplateRequest, settings: InfSettings) -> list[TargetOdds]:
    """Each model's exact odds: the chance it is hit (and by the critical), then its hits."""
    req.check()
    shooter = req.weapon()
    em = req.ammo in ("EM", "PLASMA")
    out = []
    for i, t in enumerate(req.targets):
        p = t.profile
        limit = death_limit(p, settings)
        p_miss, p_dodge, p_crit = _hit_chances(req, i, settings)

        def result(s: TState, p: Side = p, lim: int = limit) -> SideResult:
            return _result(s, p, em, False, True, lim)

        def hits(crits: int, p: Side = p, n: int = t.hits) -> Distribution[SideResult]:
            tally = side_tally(shooter, p, crits, n - crits, settings, 0, True)
            return tally.map(result)

        p_normal = 1 - p_miss - p_dodge - p_crit
        results: Distribution[SideResult] = Distribution.mixture(
            [(p_miss + p_dodge, _untouched(p, limit))]
            + [(p_normal, hits(0))] * bool(p_normal)
            + [(p_crit, hits(1))] * bool(p_crit)
        )
        out.append(TargetOdds(name=t.name, p_dodge=p_dodge, odds=_odds(results)))
    if req.vs is not None:
        p_normal, p_crit = _p_back(req)
        out[0].p_back = p_normal + p_crit
        out[0].back = _back_odds(req, p_normal, p_crit, settings)
    return out


def _back_odds(
    req: TemplateRequest, p_normal: Fraction, p_crit: Fraction, settings: InfSettings
) -> SideOdds:
    """The shooter's results: one hit (normal or critical) when the shot back wins (as
    attack_odds's active side, from the same side_tally), untouched else."""
    f, back = req.shooter, req.shot_back()
    limit = death_limit(f, settings)
    untouched = _untouched(f, limit)
    if back is None:  # no Damage: the hit alone
        hit: list[tuple[Fraction, Distribution[SideResult] | SideResult]] = [
            (p_normal + p_crit, untouched._replace(hit=True))
        ]
    else:
        em = back.ammo in ("EM", "PLASMA")

        def hits(crits: int) -> Distribution[SideResult]:
            tally = side_tally(back, f, crits, 1 - crits, settings, 0, True)
            return tally.map(lambda s: _result(s, f, em, False, True, limit))

        hit = [(p_normal, hits(0)), (p_crit, hits(1))]
    weights = [(1 - p_normal - p_crit, untouched), *hit]
    return _odds(Distribution.mixture([(p, d) for p, d in weights if p]))


def _shot_back(req: TemplateRequest) -> Distribution[Outcome]:
    if req.vs is None:
        return Distribution.constant(None)
    return die_distribution(req.back_target())


def _p_back(req: TemplateRequest) -> tuple[Fraction, Fraction]:
    """The chances the aimed model's shot back beats the attack die (failed or not) with a
    normal success and with a critical."""
    target, vs = req.attack_target(), req.back_target()
    normal = crit = Fraction(0)
    for a, pa in die_distribution(target).as_fractions().items():
        for s, ps in _shot_back(req).as_fractions().items():
            if _escapes_back(a, target, vs, s):
                if s is not None and s[0]:
                    crit += pa * ps
                else:
                    normal += pa * ps
    return normal, crit


def _stands(attack: Key, a_tie: int, s_tie: int, shot: Outcome) -> bool:
    """The attack die beats the shot back (failed or not): the template lands."""
    return beats(attack, a_tie, shot, s_tie)


def _escapes_back(attack: Outcome, a_tie: int, s_tie: int, shot: Outcome) -> bool:
    return beats(shot, s_tie, attack, a_tie)


def _hit_chances(
    req: TemplateRequest, i: int, settings: InfSettings
) -> tuple[Fraction, Fraction, Fraction]:
    """The i-th model's chances that the attack misses, that its Dodge avoids the attack, and
    that the critical hits it (its other hits are normal)."""
    t = req.targets[i]
    if req.attr is None:  # already rolled: every model is hit, a direct template dodged at -6
        p_dodge = p_success(t.dodge_target(req.area)) if t.dodge else Fraction(0)
        return Fraction(0), p_dodge, (1 - p_dodge) * t.critical
    a_tie, d_tie = req.ties(t, settings) if t.dodge else (0, 0)
    dodge: Distribution[Outcome] = (
        die_distribution(t.dodge_target(True)) if t.dodge else Distribution.constant(None)
    )
    miss = escape = crit = Fraction(0)
    target, vs = req.attack_target(), req.back_target()
    for a, p_roll in die_distribution(target).as_fractions().items():
        if a is None:
            miss += p_roll
            continue
        # the attack die stands unless the shot back beats or ties it (Face to Face)
        p_stands = _shot_back(req).chance(partial(_stands, a, target, vs))
        miss += p_roll * (1 - p_stands)
        pa = p_roll * p_stands
        p_escape = dodge.chance(partial(_escapes, a, a_tie, d_tie))
        escape += pa * p_escape
        if a[0] and i == 0:
            crit += pa * (1 - p_escape)
    return miss, escape, crit


def _escapes(attack: Key, a_tie: int, d_tie: int, dodge: Outcome) -> bool:
    """The attack die does not beat the Dodge (a Dodge that fails never beats anything)."""
    return not beats(attack, a_tie, dodge, d_tie)
