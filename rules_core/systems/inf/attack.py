"""Attacks: the Face to Face (or Normal) roll, then the saves each hit's ammunition demands,
wounds, Unconscious/Dead at the end of the order, and the Guts roll (digest §3.2, §3.6-3.9).

A hit becomes a small program of operations (`hit_program`), which `resolve_attack` runs
with dice and `odds.attack_odds` runs over exact probabilities, so both apply the same rules.

Rules applied (lines of ../shared/seeds/003_27b81155ce3a4b9f.txt):
- L1332-1341, L2866-2870: ARM roll, d20 + ARM must EXCEED the Damage, else 1 wound.
- L1344-1348: BTS roll, the same with |BTS| in place of ARM.
- L894-895, L1342-1343: a BS or CC critical wounds directly, with no ARM roll.
- L897-908: partial cover, -3 to the shooter (added to the active's MODs by `cover`) and +3
  ARM/BTS to the target; L2993-2996 E/M: cover anywhere gives +3 BTS.
- L2898-2910 AP: ARM halved rounding up ("minimum ARM 1": setting ap_zero_becomes_one), the
  +3 of cover is not halved.
- L2911-2920 DA: two ARM rolls, both always rolled; a critical is a direct wound plus the
  additional roll.
- L3016-3032 EXP: three ARM rolls, all rolled; a critical is a wound plus two ARM rolls.
- L3137-3139: integrated AP+DA / AP+EXP: the DA/EXP rolls at halved ARM (digest §3.7).
- L3107-3120 SHOCK: a failed ARM roll kills outright (no Unconscious), but only models with
  1 W and no STR; against others it is Normal. A critical (no roll): setting shock_crit_kills.
- L3044-3055 FIRE: a failed ARM roll wounds and the model rolls again, until it passes or
  dies (the chain ends at death, so it is finite: no truncation). A critical: setting
  fire_crit_burns. NOTE: the issue's summary says "repeats until a save"; the book adds "or
  until it dies", which is what is applied.
- L3056-3065 MONO: ARM counts as 0 against Damage 12 (whatever `dam` says), a failure kills
  whatever the W/STR. Cover: setting mono_cover. A critical kills.
- L3066-3071 NANO: a BTS roll, a failure loses 1 W.
- L2921-2931, L2879-2886 E/M: a BTS roll; a failure DISABLES vulnerable gear (HI, REM, TAG
  are also IMMOBILISED) and causes NO wound. NOTE: the issue's summary lists E/M with the
  saves; the book gives no wound, so `target_wounds` stays 0 and `target_disabled` is set.
  A critical counts as a failed BTS roll.
- L3094-3106 PLASMA: one ARM roll (the wound) and one BTS roll (the E/M effect, no wound); a
  critical is a direct wound plus the BTS roll.
- L2891-2897 ADH: a PH-6 roll (a Normal roll, no Damage); a failure immobilises, and the
  model makes no Guts roll. A critical counts as a failed roll.
- L1368-1393: wounds are counted over the whole order; wounds = W: Unconscious, more: Dead.
- L1352-1367: a model that passes an ARM/BTS roll (survives a hit) makes ONE Guts roll after
  all the saves of a burst; never in close combat (L1244-1246, L1365); not when immobilised
  by ADH or E/M (L2896-2897, L2884-2886). Models other than HI/REM/TAG make it after an E/M
  hit even when the BTS roll fails (L2883-2884).
- L1125-1128 close combat: when both succeed, the loser gets +3 ARM (Defence Bonus); a
  monofilament CC weapon gives none (L3061-3062).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.steps import Modifier, Step
from rules_core.systems.inf.models import (
    AttackOutcome,
    AttackRequest,
    InfSettings,
    Side,
    State,
)
from rules_core.systems.inf.rolls import ftf_dice, roll_dice, roll_step

MONO_DAMAGE = 12  # L3058-3060
ADH_MOD = -6  # L2894-2895
COVER = 3  # L902-904
DEFENCE_BONUS = 3  # L1127-1128

Fail = Literal["wound", "kill", "shock", "disable", "immobilize"]


@dataclass(frozen=True)
class Save:
    kind: Literal["arm", "bts", "ph"]
    value: int  # ARM/BTS used (after AP, cover, bonus), or the PH target
    dam: int  # Damage to exceed (unused for "ph")
    on_fail: Fail
    mods: tuple[Modifier, ...] = ()

    def passes(self, face: int) -> bool:
        if self.kind == "ph":  # a Normal roll under PH-6 (L2894-2895)
            return self.value > 0 and (face <= self.value or self.value > 20)
        return face + self.value > self.dam  # L1336-1337

    def p_pass(self) -> int:
        """How many of the 20 faces pass."""
        return sum(self.passes(f) for f in range(1, 21))


@dataclass(frozen=True)
class Direct:
    """A critical's effect with no roll."""

    effect: Fail


@dataclass(frozen=True)
class Fire:
    """FIRE: ARM rolls until one passes or the model is dead (L3047-3050)."""

    save: Save
    lead_wound: bool  # a critical started the fire with a wound


Op = Save | Direct | Fire


def half_up(arm: int, zero_to_one: bool) -> int:
    """L2905-2907: AP halves ARM rounding up, "minimum ARM 1" (setting for ARM 0)."""
    halved = -(-arm // 2)
    return max(halved, 1) if zero_to_one else halved


def shock_kills(side: Side) -> bool:
    """L3116-3120: Shock has no effect on models with more than 1 W or with STR."""
    return side.w == 1 and not side.structure


def death_limit(side: Side, settings: InfSettings) -> int:
    """Dead above this many wounds: W (L1390-1393); STR at the setting `structure`."""
    if side.structure and settings.structure == "destroyed":
        return side.w - 1
    return side.w


def hit_program(
    ammo: str,
    dam: int,
    critical: bool,
    defender: Side,
    settings: InfSettings,
    bonus: int,
    ranged: bool = True,
) -> list[Op]:
    """The operations one hit forces on `defender` (digest §3.7). Cover counts against
    ranged hits only (L897-908)."""
    cover = COVER if defender.cover and ranged else 0
    ap = ammo.startswith("AP")
    arm = half_up(defender.arm, settings.ap_zero_becomes_one == "yes") if ap else defender.arm
    arm_mods: list[Modifier] = [Modifier(name="arm", value=arm)]
    if cover:
        arm_mods.append(Modifier(name="cover", value=cover))
    if bonus:
        arm_mods.append(Modifier(name="defence_bonus", value=bonus))
    arm_total = arm + cover + bonus
    bts_mods: list[Modifier] = [Modifier(name="bts", value=defender.bts)]
    if cover:
        bts_mods.append(Modifier(name="cover", value=cover))
    bts_total = defender.bts + cover

    def arm_save(on_fail: Fail = "wound") -> Save:
        return Save("arm", arm_total, dam, on_fail, tuple(arm_mods))

    em_fail: Fail = "immobilize" if defender.heavy else "disable"
    if defender.remote and settings.rem_em == "dis":
        em_fail = "disable"
    base = ammo.removeprefix("AP+") if ammo.startswith("AP+") else ammo
    if base in ("N", "AP"):
        return [Direct("wound")] if critical else [arm_save()]
    if base == "DA":
        return [Direct("wound"), arm_save()] if critical else [arm_save(), arm_save()]
    if base == "EXP":
        return [Direct("wound"), arm_save(), arm_save()] if critical else [arm_save()] * 3
    if base == "SHOCK":
        kills = shock_kills(defender)
        if critical:
            return [Direct("shock" if kills and settings.shock_crit_kills == "yes" else "wound")]
        return [arm_save("shock" if kills else "wound")]
    if base == "FIRE":
        if critical and settings.fire_crit_burns != "yes":
            return [Direct("wound")]
        return [Fire(arm_save(), lead_wound=critical)]
    if base == "MONO":
        if critical:
            return [Direct("kill")]
        mono_cover = cover if settings.mono_cover == "yes" else 0
        mods = [Modifier(name="arm", value=0)]
        if mono_cover:
            mods.append(Modifier(name="cover", value=mono_cover))
        return [Save("arm", mono_cover, MONO_DAMAGE, "kill", tuple(mods))]
    if base == "NANO":
        return (
            [Direct("wound")]
            if critical
            else [Save("bts", bts_total, dam, "wound", tuple(bts_mods))]
        )
    if base == "EM":
        if critical and settings.em_crit == "fail":
            return [Direct(em_fail)]
        return [Save("bts", bts_total, dam, em_fail, tuple(bts_mods))]
    if base == "PLASMA":
        bts_save = Save("bts", bts_total, dam, em_fail, tuple(bts_mods))
        return [Direct("wound"), bts_save] if critical else [arm_save(), bts_save]
    if base == "ADH":
        if defender.ph is None:
            raise UserError("inf.adh_needs_ph")
        if critical and settings.adh_crit == "fail":
            return [Direct("immobilize")]
        target = defender.ph + ADH_MOD
        ph_mods = (Modifier(name="ph", value=defender.ph), Modifier(name="adh", value=ADH_MOD))
        return [Save("ph", target, 0, "immobilize", ph_mods)]
    raise UserError("inf.bad_ammo", ammo=ammo, valid="")  # pragma: no cover


@dataclass
class Tally:
    """What has happened to one defender so far in the order."""

    prior: int
    w: int
    limit: int  # dead above this many wounds (death_limit)
    wounds: int = 0
    killed: bool = False
    disabled: bool = False
    immobilized: bool = False
    passed: int = 0
    failed: int = 0
    em_hit: bool = False
    steps: list[Step] = field(default_factory=list)

    @property
    def dead(self) -> bool:
        return self.killed or self.prior + self.wounds > self.limit

    def fail(self, effect: Fail) -> None:
        if effect in ("wound", "shock"):
            self.wounds += 1
        if effect in ("shock", "kill"):
            self.killed = True
            if effect == "kill":
                self.wounds += 1
        if effect == "disable":
            self.disabled = True
        if effect == "immobilize":
            self.immobilized = True
            self.disabled = True if self.em_hit else self.disabled

    def state(self) -> State:
        if self.dead:
            return "dead"
        if self.prior + self.wounds == self.w:
            return "unconscious"
        return "ok"


def _save_step(save: Save, face: int, ok: bool, who: str, effect: Fail) -> Step:
    name = {"arm": "arm_save", "bts": "bts_save", "ph": "adh_roll"}[save.kind]
    if save.kind == "ph":
        return Step(
            name=name,
            dice=[face],
            modifiers=list(save.mods),
            target=save.value,
            total=face,
            outcome="pass" if ok else effect,
            detail={"side": who},
        )
    return Step(
        name=name,
        dice=[face],
        modifiers=list(save.mods),
        target=save.dam,
        total=face + save.value,
        outcome="pass" if ok else effect,
        detail={"side": who},
    )


def run_program(ops: list[Op], tally: Tally, source: DiceSource, who: str) -> None:
    for op in ops:
        if isinstance(op, Direct):
            tally.fail(op.effect)
            tally.steps.append(Step(name="critical", outcome=op.effect, detail={"side": who}))
        elif isinstance(op, Save):
            face = source.roll(20)
            ok = op.passes(face)
            if ok:
                tally.passed += 1
            else:
                tally.failed += 1
                tally.fail(op.on_fail)
            tally.steps.append(_save_step(op, face, ok, who, op.on_fail))
        else:  # FIRE: L3047-3050
            if op.lead_wound and not tally.dead:  # the fire stops at death
                tally.fail("wound")
                tally.steps.append(Step(name="critical", outcome="wound", detail={"side": who}))
            while not tally.dead:
                face = source.roll(20)
                ok = op.save.passes(face)
                tally.steps.append(_save_step(op.save, face, ok, who, "wound"))
                if ok:
                    tally.passed += 1
                    break
                tally.failed += 1
                tally.fail("wound")


def guts_due(tally: Tally, defender: Side, cc: bool, hit: bool) -> bool:
    """L1352-1367, L2883-2886, L2896-2897; `cc`: the hits came in close combat."""
    if cc or not hit or tally.state() != "ok" or tally.immobilized:
        return False
    return tally.passed > 0 or (tally.em_hit and not defender.heavy)


def tie_values(
    req: AttackRequest, settings: InfSettings, targets: tuple[int, int]
) -> tuple[int, int]:
    """What breaks a tie: the modified attributes, or against a Dodge the unmodified ones
    with the setting dodge_tie=base (L427-431 against L2005-2007)."""
    if settings.dodge_tie == "base" and req.dodges():
        return req.active.attr, req.target.attr
    return targets


def unconscious(side: Side) -> bool:
    return side.wounds == side.w


def coup_de_grace(req: AttackRequest) -> bool:
    """L1384-1385: a CC attack on an Unconscious model kills it, with no CC or ARM roll."""
    return req.cc and unconscious(req.target)


def _coup_de_grace(req: AttackRequest) -> tuple[list[Step], AttackOutcome]:
    a, t = req.active, req.target
    out = AttackOutcome(
        active_hits=1,
        active_criticals=0,
        reactive_hits=0,
        reactive_criticals=0,
        target_wounds=1,
        active_wounds=0,
        target_state="dead",
        active_state="unconscious" if a.wounds == a.w else "ok",
        guts_roll=False,
        active_guts_roll=False,
        target_disabled=False,
        target_immobilized=False,
        active_disabled=False,
        active_immobilized=False,
    )
    step = Step(name="coup_de_grace", outcome="coup_de_grace", detail={"side": "target", "w": t.w})
    return [step], out


def resolve_attack(
    req: AttackRequest, source: DiceSource, settings: InfSettings
) -> tuple[list[Step], AttackOutcome]:
    """Resolve one attack: the active model's dice, then the target's (when it opposes), then
    the target's saves hit by hit, then the active model's saves if the target won and wounds.
    Cover on one side is a -3 MOD to the other side's shots and +3 ARM/BTS against them
    (L897-904); close combat ignores it."""
    if coup_de_grace(req):
        return _coup_de_grace(req)
    a, t = req.active, req.target
    a_target, t_target = req.targets()
    a_dice = roll_dice(a_target, a.burst, source)
    t_dice = roll_dice(t_target, t.burst, source) if req.opposed else []
    if req.opposed:
        ties = tie_values(req, settings, (a_target, t_target))
        a_hits, t_hits = ftf_dice(a_dice, a_target, t_dice, t_target, ties)
    else:
        a_hits, t_hits = [d for d in a_dice if d.success], []
    a_any = any(d.success for d in a_dice)
    t_any = any(d.success for d in t_dice)
    steps = [
        roll_step(
            "active",
            a.attr,
            a.roll_mods(t, not req.cc),
            a_dice,
            len(a_hits),
            sum(d.critical for d in a_hits),
        )
    ]
    if req.opposed:
        steps.append(
            roll_step(
                "reactive",
                t.attr,
                t.roll_mods(a, not req.reactive_in_cc),
                t_dice,
                len(t_hits),
                sum(d.critical for d in t_hits),
            )
        )
    t_tally = Tally(prior=t.wounds, w=t.w, limit=death_limit(t, settings))
    a_tally = Tally(prior=a.wounds, w=a.w, limit=death_limit(a, settings))
    for hits, shooter, defender, tally, other_any, who, melee in (
        (a_hits, a, t, t_tally, t_any, "target", req.cc),
        (t_hits, t, a, a_tally, a_any, "active", req.reactive_in_cc),
    ):
        if not hits or (shooter.dam is None and shooter.ammo != "ADH"):
            continue
        # L1125-1128: when both roll in close combat, the loser who also succeeded gets +3 ARM.
        bonus = DEFENCE_BONUS if req.both_cc and other_any and shooter.ammo != "MONO" else 0
        tally.em_hit = shooter.ammo in ("EM", "PLASMA")
        for die in hits:
            ops = hit_program(
                shooter.ammo, shooter.dam or 0, die.critical, defender, settings, bonus, not melee
            )
            run_program(ops, tally, source, who)
    steps += t_tally.steps + a_tally.steps
    out = AttackOutcome(
        active_hits=len(a_hits),
        active_criticals=sum(d.critical for d in a_hits),
        reactive_hits=len(t_hits),
        reactive_criticals=sum(d.critical for d in t_hits),
        target_wounds=t_tally.wounds,
        active_wounds=a_tally.wounds,
        target_state=t_tally.state(),
        active_state=a_tally.state(),
        guts_roll=guts_due(
            t_tally,
            t,
            req.cc,
            bool(a_hits) and (a.dam is not None or a.ammo == "ADH"),
        ),
        active_guts_roll=guts_due(  # a charger hit by the shot goes on, no Guts (L1171-1173)
            a_tally,
            a,
            req.reactive_in_cc or req.cc,
            bool(t_hits) and (t.dam is not None or t.ammo == "ADH"),
        ),
        target_disabled=t_tally.disabled,
        target_immobilized=t_tally.immobilized,
        active_disabled=a_tally.disabled,
        active_immobilized=a_tally.immobilized,
    )
    return steps, out
