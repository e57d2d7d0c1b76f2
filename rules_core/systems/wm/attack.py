"""Attack resolution (digest §2.3, §2.4, §2.7, §3.2-3.6, §3.11).

Chain: attack roll (2d6 + skill, +1 die per boost or additional die, -1 die for a crippled
location) against the target's DEF -> critical check -> damage roll (2d6 + POW, + STR in
melee) against ARM. `plan()` turns the request into dice counts and fixed modifiers once, so
`resolve_attack` and the exact `attack_odds` twin can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.steps import Modifier, Step
from rules_core.systems.wm.models import (
    AttackOutcome,
    AttackRequest,
    AttackResolution,
)

# An error naming one modifier names it as the reader types it (the bot's `values.mods` words).
MOD_WORD = {"values_of": "values.mods", "value_key": "mod"}
DEF_FLOOR = 5  # L677-679: DEF (base or current) never below 5
KNOCKED_DOWN_DEF = 5  # L3437-3438 (base DEF 5, every attack)
STATIONARY_DEF = 5  # L3531-3532
MOVEMENT_CRIPPLED_DEF = 7  # L3734-3738
BASE_DEF_SETTERS = (
    ("knocked_down", KNOCKED_DOWN_DEF),
    ("stationary", STATIONARY_DEF),
    ("movement_crippled", MOVEMENT_CRIPPLED_DEF),
)


@dataclass(frozen=True)
class Plan:
    """What the dice have to do: counts and fixed modifiers of both rolls."""

    rolls_attack: bool  # False: automatic hit, or blast damage (no attack roll)
    auto_hit: bool
    hit_dice: int
    hit_mods: list[Modifier] = field(default_factory=list)
    defense: int | None = None
    damage_dice: int = 2
    damage_mods: list[Modifier] = field(default_factory=list)
    arm: int = 0  # ARM to beat, with Power Field, shields and bucklers
    arm_mods: list[Modifier] = field(default_factory=list)  # empty: the ARM as given
    auto_miss: bool = False  # Stealth from more than 5" (L720-725)

    @property
    def hit_bonus(self) -> int:
        return sum(m.value for m in self.hit_mods)

    @property
    def damage_bonus(self) -> int:
        return sum(m.value for m in self.damage_mods)


def _check(req: AttackRequest) -> None:
    """Combinations the rules forbid are refused with one clear sentence."""
    mods = req.mods
    melee = req.type == "melee"
    if "aim" in mods and req.type != "ranged":
        raise UserError("wm.aim_ranged_only")  # L2786-2790: not magic, not melee
    for name in ("charge", "free_strike", "intervening"):
        if name in mods and not melee:
            raise UserError("wm.melee_only", mod=name, **MOD_WORD)
    for name in ("cover", "concealment", "elevated", "in_melee"):
        if name in mods and melee:
            raise UserError("wm.not_melee", mod=name, **MOD_WORD)
    if "spray" in mods and melee:
        raise UserError("wm.not_melee", mod="spray", **MOD_WORD)
    if "spray" in mods and req.blast:
        raise UserError("wm.blast_no_attack_roll")
    for name in ("charge", "free_strike"):
        if "additional" in mods and name in mods:
            # The charge attack is the first attack after the charge (p. 46, L1820-1834); a
            # free strike is no part of a combat action (p. 51, L2149-2162).
            raise UserError("wm.additional_not_first", mod=name, **MOD_WORD)
    if "charge" in mods and "free_strike" in mods:
        raise UserError("wm.charge_and_free_strike")
    if "free_strike" in mods and "backstrike" in mods:
        raise UserError("wm.free_strike_backstrike")  # L2160-2162
    if ("charge" in mods or "free_strike" in mods) and req.boost in ("damage", "both"):
        # L171-175: the damage roll is already boosted; a roll is boosted only once.
        which = "charge" if "charge" in mods else "free_strike"
        raise UserError("wm.double_boost", mod=which, **MOD_WORD)
    if req.combined and "crippled" in mods:
        raise UserError("wm.combined_crippled_weapon")  # L3745-3748
    if req.combined and req.type == "magic":
        raise UserError("wm.combined_magic")
    if req.combined and req.type == "ranged" and "in_melee" in mods:
        raise UserError("wm.combined_in_melee")  # L3329-3330
    if req.str_ and not melee:
        raise UserError("wm.str_melee_only")
    if req.blast:
        if req.boost in ("hit", "both") or req.extra_hit_dice:
            raise UserError("wm.blast_no_attack_roll")
        if "charge" in mods or "free_strike" in mods:
            raise UserError("wm.blast_no_attack_roll")


def base_defense(defense: int, mods: set[str] | frozenset[str]) -> int:
    """The target's base DEF: rules that set it (knocked down, stationary, crippled Movement)
    replace the printed one, the lowest winning (L633-639)."""
    return min([defense, *(v for n, v in BASE_DEF_SETTERS if n in mods)])


def effective_defense(req: AttackRequest) -> tuple[int, list[Modifier]]:
    """Target DEF: base-setting rules first (lowest wins), then modifiers, floor 5
    (L627-679; example L603-608: stationary 5 + cover 4 = 9; stationary - 2 = 5)."""
    base = req.defense
    mods: list[Modifier] = [Modifier(name="def", value=base)]
    # Rules that set base DEF: the lowest wins (L633-639).
    lowest = base_defense(base, req.mods)
    if lowest < base:
        mods.append(Modifier(name=f"base_def_{lowest}", value=lowest - base))
        base = lowest
    total = base
    # A spray ignores cover and concealment (L3126-3146).
    screened = "spray" not in req.mods
    if req.type != "melee":
        # Cover and concealment never stack; cover (+4) replaces concealment (+2) (L2822-2825).
        if screened and "cover" in req.mods:
            mods.append(Modifier(name="cover", value=4))
        elif screened and "concealment" in req.mods:
            mods.append(Modifier(name="concealment", value=2))
        if "elevated" in req.mods:
            mods.append(Modifier(name="elevated", value=2))
    elif "intervening" in req.mods:
        mods.append(Modifier(name="intervening", value=2))
    if req.def_mod:
        mods.append(Modifier(name="def_mod", value=req.def_mod))
    total = base + sum(m.value for m in mods[1:] if not m.name.startswith("base_def_"))
    if total < DEF_FLOOR:
        mods.append(Modifier(name="def_floor", value=DEF_FLOOR - total))
        total = DEF_FLOOR
    return total, mods


def armor(req: AttackRequest) -> tuple[int, list[Modifier]]:
    """The ARM to beat: the model's ARM, + Power Field (+1 per focus left on a warcaster,
    L4475-4478), + shields and bucklers (L840-846, L877-883; the caller leaves them out when
    they are lost). No modifier list when nothing is added."""
    mods: list[Modifier] = []
    if req.focus_arm:
        mods.append(Modifier(name="power_field", value=req.focus_arm))
    if req.shield_arm:
        mods.append(Modifier(name="shield", value=req.shield_arm))
    if not mods:
        return req.arm, []
    return req.arm + sum(m.value for m in mods), [Modifier(name="arm", value=req.arm), *mods]


def plan(req: AttackRequest) -> Plan:
    _check(req)
    arm, arm_mods = armor(req)
    crippled = 1 if "crippled" in req.mods else 0
    # Damage roll: 2d6 + POW (+ STR in melee: P+S), L3615-3625; blast 2d6 + half POW rounded
    # up (L3001-3004, rounding L131-136).
    damage_mods: list[Modifier] = []
    if req.blast:
        damage_mods.append(Modifier(name="half_pow", value=-(-req.pow // 2)))
    else:
        damage_mods.append(Modifier(name="pow", value=req.pow))
        if req.type == "melee" and req.str_:
            damage_mods.append(Modifier(name="str", value=req.str_))
    if req.combined:
        damage_mods.append(Modifier(name="combined", value=req.combined))  # L3277-3283
    if req.dmg_mod:
        damage_mods.append(Modifier(name="dmg_mod", value=req.dmg_mod))
    auto_boost = not req.blast and ("charge" in req.mods or "free_strike" in req.mods)
    boosted_damage = req.boost in ("damage", "both") or auto_boost
    damage_dice = 2 + (1 if boosted_damage else 0) + req.extra_damage_dice - crippled
    if req.blast:
        return Plan(
            rolls_attack=False,
            auto_hit=False,
            hit_dice=0,
            damage_dice=damage_dice,
            damage_mods=damage_mods,
            arm=arm,
            arm_mods=arm_mods,
        )
    defense, _ = effective_defense(req)
    hit_mods: list[Modifier] = [Modifier(name="skill", value=req.skill)]
    if "backstrike" in req.mods:
        hit_mods.append(Modifier(name="backstrike", value=2))  # L3245-3257
    if "free_strike" in req.mods:
        hit_mods.append(Modifier(name="free_strike", value=2))  # L2155-2158
    if "aim" in req.mods:
        hit_mods.append(Modifier(name="aim", value=2))  # L2786-2790
    if "in_melee" in req.mods and "spray" not in req.mods:  # L3134-3139
        hit_mods.append(Modifier(name="in_melee", value=-4))  # L2916-2919
    if req.combined:
        hit_mods.append(Modifier(name="combined", value=req.combined))  # L3277-3283
    if req.hit_mod:
        hit_mods.append(Modifier(name="hit_mod", value=req.hit_mod))  # not floored (L609-615)
    hit_dice = 2 + (1 if req.boost in ("hit", "both") else 0) + req.extra_hit_dice - crippled
    # Melee attacks against knocked-down or stationary models hit automatically (L2194-2197),
    # unless the attacker chooses to roll anyway, e.g. for a critical (L3200-3206).
    auto = req.type == "melee" and bool({"knocked_down", "stationary"} & req.mods)
    rolls = not auto or "roll_anyway" in req.mods
    # Stealth: a ranged or magic attack from more than 5" misses automatically (L720-725),
    # unless it is a spray (L3126-3146). Melee attacks are never affected.
    miss = req.type != "melee" and "stealth" in req.mods and "spray" not in req.mods
    return Plan(
        rolls_attack=rolls and not miss,
        auto_miss=miss,
        auto_hit=auto and not rolls,
        hit_dice=hit_dice,
        hit_mods=hit_mods,
        defense=defense,
        damage_dice=damage_dice,
        damage_mods=damage_mods,
        arm=arm,
        arm_mods=arm_mods,
    )


def judge(faces: Sequence[int], total: int, defense: int) -> tuple[bool, bool]:
    """(hit, critical) of an attack roll. All 1s miss; all 6s hit unless one die is rolled;
    else total >= DEF (L2171-2177). Critical: a hit with any two dice equal (L3943-3946)."""
    n = len(faces)
    if faces.count(1) == n:
        hit = False
    elif n >= 2 and faces.count(6) == n:
        hit = True
    else:
        hit = total >= defense
    critical = hit and len(set(faces)) < n
    return hit, critical


def resolve_attack(req: AttackRequest, source: DiceSource) -> AttackResolution:
    p = plan(req)
    steps: list[Step] = []
    if not req.blast:
        defense, def_mods = effective_defense(req)
        steps.append(Step(name="defense", modifiers=def_mods, total=defense, outcome="defense"))
    hit = p.auto_hit or req.blast
    critical = False
    if p.auto_miss:
        steps.append(Step(name="attack", target=p.defense, outcome="auto_miss"))
    attack_total: int | None = None
    if p.rolls_attack:
        assert p.defense is not None
        source.require(p.hit_dice)
        faces = [source.roll(6) for _ in range(p.hit_dice)]
        attack_total = sum(faces) + p.hit_bonus
        hit, critical = judge(faces, attack_total, p.defense)
        outcome = "critical" if critical else ("hit" if hit else "miss")
        steps.append(
            Step(
                name="attack",
                dice=faces,
                modifiers=p.hit_mods,
                target=p.defense,
                total=attack_total,
                outcome=outcome,
            )
        )
    elif p.auto_hit:
        steps.append(
            Step(name="attack", modifiers=p.hit_mods, target=p.defense, outcome="auto_hit")
        )
    damage_total: int | None = None
    damage = 0
    if hit:
        if p.arm_mods:
            steps.append(Step(name="armor", modifiers=p.arm_mods, total=p.arm, outcome="armor"))
        source.require(p.damage_dice)
        faces = [source.roll(6) for _ in range(p.damage_dice)]
        damage_total = sum(faces) + p.damage_bonus
        damage = max(0, damage_total - p.arm)  # L3626-3628
        steps.append(
            Step(
                name="blast" if req.blast else "damage",
                dice=faces,
                modifiers=p.damage_mods,
                target=p.arm,
                total=damage_total,
                outcome="damage" if damage else "no_damage",
            )
        )
    return AttackResolution(
        steps=steps,
        outcome=AttackOutcome(
            hit=hit,
            critical=critical,
            auto_hit=p.auto_hit,
            attack_total=attack_total,
            defense=None if req.blast else p.defense,
            damage_total=damage_total,
            damage=damage,
        ),
    )
