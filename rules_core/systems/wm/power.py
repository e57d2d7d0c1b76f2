"""Warjack power attacks (digest §3.8; L2198-2686, L4355-4365), resolved and with exact odds.

A power attack costs the warjack 1 focus and is never a charge attack (L2212-2215). It is a
melee attack roll (2d6 + MAT, boostable) against DEF, except a push, which hits automatically:

- head-butt: a hit knocks the target down and does 2d6 + STR; never against a larger base
  (L2318-2323);
- slam: −2 to hit a larger base; after moving 3" or more a hit slams the target d6" away (half
  that against a larger base) and knocks it down, then 2d6 + STR, one die more if it hit an
  obstacle or a model with an equal or larger base (`contact`); after less than 3", a hit does
  2d6 + STR and no slam (L2355-2399); a knocked-down model can't be slammed (L3440-3441);
- push: automatic hit, no damage; both roll d6 + STR, the target is pushed 1" unless its total
  is higher (L2346-2353);
- headlock / weapon lock: a hit locks, no damage; never a larger base (L2220-2283);
- throw: a hit, then d6 + STR each, the target breaks free if its total is higher, else it is
  thrown ½ STR inches, knocked down and takes 2d6 + STR (+1 die on `contact`); never a larger
  base (L2415-2422, L2488-2531); double-hand throw: the attacker rolls 2d6 + STR (L2569-2635);
- trample: heavy warjacks and colossals only; after the move, one attack roll against each
  small-based model contacted, in turn, each hit 2d6 + STR (boostable); free strikes against
  the trampler come after all of them, never from the models it contacted (L2636-2686).

Who may make which (L2201-2211): every warjack head-butts, pushes and slams; trample needs a
heavy warjack or a colossal (a light warjack has a 40 mm base, a heavy one 50 mm, L444-446);
headlock/weapon lock and throw need at least one Open Fist not crippled, a double-hand throw
two (`open_fists`, when the attacker's are known). Bases in millimetres (L1017-1020) also
decide "larger base" when both are known.

Collateral damage (L2400-2414): each model of an equal or smaller base that the slammed or
thrown model meets is knocked down and takes its own damage roll, 2d6 + the attacker's STR,
never boosted, resolved with the slam's (or throw's) damage: one `collateral` step each.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, Field

from rules_core.dice import DiceSource
from rules_core.dice.distribution import Distribution
from rules_core.errors import UserError
from rules_core.steps import Modifier, Step
from rules_core.systems.wm.attack import judge
from rules_core.systems.wm.odds import attack_roll, damage_distribution

PowerKind = Literal["headbutt", "slam", "push", "headlock", "throw", "double_throw", "trample"]
POWER_KINDS: tuple[PowerKind, ...] = (
    "headbutt",
    "slam",
    "push",
    "headlock",
    "throw",
    "double_throw",
    "trample",
)
FOCUS_COST = 1  # L2212-2213, L4357-4358
SLAM_LARGER_BASE = -2  # L2366-2368
SLAM_MIN_MOVE = 3  # inches moved for a slam to slam (L2355-2371)
SMALL_BASE = 30  # mm (L1017-1020): trample reaches only small bases (L2651-2654)
HEAVY_BASE = 50  # mm: a heavy warjack's base; a light one's is 40 (L444-446)
FIST_KINDS = {"headlock": 1, "throw": 1, "double_throw": 2}  # Open Fists needed (L2207-2211)
COLLATERAL = ("slam", "throw", "double_throw")
MAX_MODELS = 20  # trampled or collateral models in one power attack
DEF_FLOOR = 5
D6 = Distribution.die(6)
DAMAGING = ("headbutt", "slam", "throw", "double_throw", "trample")
OPPOSED = ("push", "throw", "double_throw")


class PowerRequest(BaseModel):
    kind: PowerKind
    skill: int = Field(default=0, ge=0, le=20)  # the warjack's MAT
    defense: int = Field(default=5, ge=1, le=30)
    str_: int = Field(default=0, ge=0, le=20)  # the warjack's STR
    target_str: int = Field(default=0, ge=0, le=20)  # for push and throws
    arm: int = Field(default=0, ge=0, le=40)
    larger_base: bool = False  # the target's base is larger than the attacker's
    contact: bool = False  # slammed/thrown into an obstacle or an equal or larger base
    short_move: bool = False  # slam: moved less than 3"
    boost: Literal["none", "hit", "damage", "both"] = "none"
    charge: bool = False
    knocked_down: bool = False  # the target is knocked down
    stationary: bool = False  # the target is stationary: hit automatically in melee (L3531)
    hit_mod: int = Field(default=0, ge=-20, le=20)
    # The attacker's and target's bases in mm, when known; the attacker's Open Fists not crippled
    # (at most that many: power_state.open_fists bounds unrecorded fists by the sound arms).
    attacker_base: int | None = Field(default=None, ge=1, le=200)
    target_base: int | None = Field(default=None, ge=1, le=200)
    open_fists: int | None = Field(default=None, ge=0, le=4)
    # ARM of each model taking collateral damage (slam, throw), in the order they are met.
    collateral_arms: tuple[int, ...] = Field(default=(), max_length=MAX_MODELS)
    # Trample: DEF and ARM of each further small-based model contacted, after the target.
    trampled: tuple[tuple[int, int], ...] = Field(default=(), max_length=MAX_MODELS)


class TrampleHit(BaseModel):
    hit: bool
    critical: bool
    damage_total: int | None
    damage: int


class PowerOutcome(BaseModel):
    hit: bool
    critical: bool
    moved: bool  # slammed, pushed or thrown (a lock: locked)
    knocked_down: bool  # the target is knocked down by it
    distance: float | None  # inches: slam d6 (halved vs a larger base), push 1, throw ½ STR
    damage_total: int | None
    damage: int
    collateral: list[int] = []  # damage to each collateral model (each knocked down)
    trampled: list[TrampleHit] = []  # trample: each further model contacted, after the target


@dataclass(frozen=True)
class PowerPlan:
    rolls_attack: bool
    hit_dice: int
    hit_mods: list[Modifier]
    defense: int
    damage_dice: int
    damage_bonus: int
    opposed_dice: int  # the attacker's dice in the STR contest (0: none)


def larger_base(req: PowerRequest) -> bool:
    """The target's base is larger: as declared, or from both bases when they are known."""
    if req.attacker_base is not None and req.target_base is not None:
        return req.larger_base or req.target_base > req.attacker_base
    return req.larger_base


def _large_throws_small(req: PowerRequest) -> bool:
    """A large or huge base throwing a small one throws it 1" farther (L2504-2505, L2592)."""
    a, t = req.attacker_base, req.target_base
    return a is not None and t is not None and a >= HEAVY_BASE and t <= SMALL_BASE


def check(req: PowerRequest) -> None:
    """What the book forbids, refused with one sentence each."""
    if req.charge:
        raise UserError("wm.power_no_charge")  # L2214-2215
    light = req.attacker_base is not None and req.attacker_base < HEAVY_BASE
    if req.kind == "trample" and light:  # L2205, L2645-2646: no light warjack tramples
        raise UserError("wm.power_trample_light")
    if req.kind == "trample" and req.target_base is not None and req.target_base > SMALL_BASE:
        raise UserError("wm.power_trample_small")  # L2651-2654
    needed = FIST_KINDS.get(req.kind, 0)
    if req.open_fists is not None and req.open_fists < needed:
        raise UserError("wm.power_fists", kind=req.kind, n=needed)  # L2207-2211
    if req.collateral_arms and req.kind not in COLLATERAL:
        raise UserError("wm.power_collateral", kind=req.kind)
    if req.trampled and req.kind != "trample":
        raise UserError("wm.power_trampled", kind=req.kind)
    if larger_base(req) and req.kind in ("headbutt", "headlock", "throw", "double_throw"):
        raise UserError("wm.power_larger_base", kind=req.kind)
    if req.knocked_down and req.kind == "headlock":
        raise UserError("wm.power_knocked_down", kind=req.kind)  # L3440-3441: not locked
    if req.kind == "push" and req.boost in ("hit", "both"):
        raise UserError("wm.power_push_autohit")
    if req.kind not in DAMAGING and req.boost in ("damage", "both"):
        raise UserError("wm.power_no_damage", kind=req.kind)
    if req.contact and req.kind not in ("slam", "throw", "double_throw"):
        raise UserError("wm.power_contact", kind=req.kind)


def plan(req: PowerRequest) -> PowerPlan:
    check(req)
    defense = max(DEF_FLOOR, DEF_FLOOR if req.knocked_down else req.defense)
    hit_mods = [Modifier(name="skill", value=req.skill)]
    if req.kind == "slam" and larger_base(req):
        hit_mods.append(Modifier(name="larger_base", value=SLAM_LARGER_BASE))
    if req.hit_mod:
        hit_mods.append(Modifier(name="hit_mod", value=req.hit_mod))
    extra = 1 if req.contact and not (req.kind == "slam" and req.short_move) else 0
    damage_dice = 2 + (1 if req.boost in ("damage", "both") else 0) + extra
    return PowerPlan(
        # a melee attack on a knocked-down or stationary model hits automatically (L3437, L3531)
        rolls_attack=req.kind != "push" and not (req.knocked_down or req.stationary),
        hit_dice=2 + (1 if req.boost in ("hit", "both") else 0),
        hit_mods=hit_mods,
        defense=defense,
        damage_dice=damage_dice if req.kind in DAMAGING else 0,
        damage_bonus=req.str_,
        opposed_dice=(2 if req.kind == "double_throw" else 1) if req.kind in OPPOSED else 0,
    )


def _attack(p: PowerPlan, defense: int, source: DiceSource, name: str) -> tuple[Step, bool, bool]:
    """One power attack roll: 2d6 (3 boosted) + MAT and modifiers against `defense`."""
    source.require(p.hit_dice)
    faces = [source.roll(6) for _ in range(p.hit_dice)]
    total = sum(faces) + sum(m.value for m in p.hit_mods)
    hit, critical = judge(faces, total, defense)
    outcome = "critical" if critical else ("hit" if hit else "miss")
    step = Step(
        name=name, dice=faces, modifiers=p.hit_mods, target=defense, total=total, outcome=outcome
    )
    return step, hit, critical


def _damage(dice: int, strength: int, arm: int, source: DiceSource, name: str) -> Step:
    """A damage roll with POT = the attacker's STR: `dice`d6 + STR against `arm`."""
    source.require(dice)
    faces = [source.roll(6) for _ in range(dice)]
    total = sum(faces) + strength
    damage = max(0, total - arm)
    return Step(
        name=name,
        dice=faces,
        modifiers=[Modifier(name="str", value=strength)],
        target=arm,
        total=total,
        outcome="damage" if damage else "no_damage",
    )


def resolve_power(req: PowerRequest, source: DiceSource) -> tuple[list[Step], PowerOutcome]:
    """The power attack in the book's order: attack roll, STR contest, slam distance, damage,
    then each collateral model's damage roll, and for a trample each further model's attack
    and damage rolls. Dice are used in that order."""
    p = plan(req)
    steps: list[Step] = []
    hit = not p.rolls_attack
    critical = False
    if p.rolls_attack:
        step, hit, critical = _attack(p, p.defense, source, "attack")
        steps.append(step)
    # a knocked-down model isn't moved by a slam, but takes its damage (L3440-3441, L2391-2394)
    moved = hit and req.kind in ("slam", "headlock") and not req.short_move
    moved = moved and not (req.kind == "slam" and req.knocked_down)
    if hit and p.opposed_dice:
        mine = [source.roll(6) for _ in range(p.opposed_dice)]
        theirs = source.roll(6)
        ours, their_total = sum(mine) + req.str_, theirs + req.target_str
        moved = ours >= their_total  # the target resists only with a higher total
        steps.append(
            Step(
                name="strength",
                dice=[*mine, theirs],
                modifiers=[
                    Modifier(name="str", value=req.str_),
                    Modifier(name="target_str", value=req.target_str),
                ],
                target=their_total,
                total=ours,
                outcome="moved" if moved else "resisted",
            )
        )
    distance: float | None = None
    if moved and req.kind == "slam":
        face = source.roll(6)
        distance = face / 2 if larger_base(req) else float(face)
        steps.append(Step(name="slam_distance", dice=[face], total=face, outcome="slam"))
    elif moved and req.kind == "push":
        distance = 1.0
    elif moved and req.kind in ("throw", "double_throw"):
        distance = req.str_ / 2 + (1 if _large_throws_small(req) else 0)
    does_damage = hit and req.kind in DAMAGING and (req.kind not in OPPOSED or moved)
    damage_total: int | None = None
    damage = 0
    if does_damage:
        step = _damage(p.damage_dice, p.damage_bonus, req.arm, source, "damage")
        steps.append(step)
        damage_total = step.total
        damage = max(0, (step.total or 0) - req.arm)
    collateral: list[int] = []
    if moved and req.kind in COLLATERAL:  # never boosted (L2400-2414)
        for arm in req.collateral_arms:
            step = _damage(2, req.str_, arm, source, "collateral")
            steps.append(step)
            collateral.append(max(0, (step.total or 0) - arm))
    trampled: list[TrampleHit] = []
    for defense, arm in req.trampled:  # one attack roll per model contacted (L2665-2669)
        step, t_hit, t_crit = _attack(p, max(DEF_FLOOR, defense), source, "attack")
        steps.append(step)
        t_total: int | None = None
        if t_hit:
            step = _damage(p.damage_dice, p.damage_bonus, arm, source, "damage")
            steps.append(step)
            t_total = step.total
        t_damage = max(0, t_total - arm) if t_total is not None else 0
        trampled.append(
            TrampleHit(hit=t_hit, critical=t_crit, damage_total=t_total, damage=t_damage)
        )
    knocked = does_damage and req.kind != "trample" and not (req.kind == "slam" and req.short_move)
    return steps, PowerOutcome(
        hit=hit,
        critical=critical,
        moved=moved,
        knocked_down=knocked,
        distance=distance,
        damage_total=damage_total,
        damage=damage,
        collateral=collateral,
        trampled=trampled,
    )


@dataclass(frozen=True)
class PowerOdds:
    distribution: Distribution  # damage points (0: a miss, a resisted throw, no damage)
    p_hit: Fraction
    p_moved: Fraction  # slammed, pushed, thrown or locked
    p_damage: Fraction
    # P(damage) to each collateral model; trample: P(hit) of each further model, and the
    # distribution of the damage summed over every model trampled (the target included).
    p_collateral: tuple[Fraction, ...] = ()
    p_trampled: tuple[Fraction, ...] = ()
    total: Distribution | None = None


def strength_contest(attacker_dice: int, attacker_str: int, target_str: int) -> Fraction:
    """P(attacker's Nd6 + STR >= target's d6 + STR): ties go to the attacker."""
    diff = (attacker_dice @ D6) - D6
    return diff.chance(lambda d: d + attacker_str - target_str >= 0)


def _damage_odds(p_damaging: Fraction, dice: int, strength: int, arm: int) -> Distribution:
    zero = Distribution.constant(0)
    if not p_damaging:
        return zero
    damage = damage_distribution(dice, strength, arm)
    return Distribution.mixture([(p_damaging, damage), (1 - p_damaging, zero)])


def power_odds(req: PowerRequest) -> PowerOdds:
    p = plan(req)
    if p.rolls_attack:
        roll = attack_roll(p.hit_dice, sum(m.value for m in p.hit_mods), p.defense)
        p_hit = roll.chance(lambda outcome: outcome != 0)
    else:
        p_hit = Fraction(1)
    p_contest = (
        strength_contest(p.opposed_dice, req.str_, req.target_str) if p.opposed_dice else None
    )
    if p_contest is not None:
        p_moved = p_hit * p_contest
    elif req.kind in ("slam", "headlock") and not req.short_move:
        p_moved = Fraction(0) if req.kind == "slam" and req.knocked_down else p_hit
    else:
        p_moved = Fraction(0)
    p_damaging = (p_moved if p_contest is not None else p_hit) if req.kind in DAMAGING else 0
    dist = _damage_odds(Fraction(p_damaging), p.damage_dice, p.damage_bonus, req.arm)
    p_collateral: tuple[Fraction, ...] = ()
    if req.kind in COLLATERAL:
        p_collateral = tuple(
            1 - _damage_odds(p_moved, 2, req.str_, arm).probability(0)
            for arm in req.collateral_arms
        )
    p_trampled: list[Fraction] = []
    total: Distribution | None = None
    if req.trampled:
        total = dist
        mods = sum(m.value for m in p.hit_mods)
        for defense, arm in req.trampled:  # each model's attack and damage are independent
            t_roll = attack_roll(p.hit_dice, mods, max(DEF_FLOOR, defense))
            t_hit = t_roll.chance(lambda outcome: outcome != 0)
            p_trampled.append(t_hit)
            total = total + _damage_odds(t_hit, p.damage_dice, p.damage_bonus, arm)
    return PowerOdds(
        distribution=dist,
        p_hit=p_hit,
        p_moved=p_moved,
        p_damage=1 - dist.probability(0),
        p_collateral=p_collateral,
        p_trampled=tuple(p_trampled),
        total=total,
    )


# The book's Italian names of the power attacks (L2198-2211), and short English ones.
KIND_ALIASES = {
    "testata": "headbutt",
    "head_butt": "headbutt",
    "schianto": "slam",
    "spinta": "push",
    "presa": "headlock",
    "presa_alla_testa": "headlock",
    "presa_all_arma": "headlock",
    "weapon_lock": "headlock",
    "lancio": "throw",
    "lancio_a_due_mani": "double_throw",
    "double_hand_throw": "double_throw",
    "travolgere": "trample",
}


def parse_kind(text: str) -> PowerKind:
    """`schianto` -> "slam"; an unknown name is refused, listing the valid ones."""
    word = text.strip().lower().replace("-", "_").replace(" ", "_").replace("'", "_")
    word = KIND_ALIASES.get(word, word)
    for kind in POWER_KINDS:
        if word == kind:
            return kind
    raise UserError(
        "wm.bad_power", kind=text[:30], valid=", ".join(POWER_KINDS), values_of="values.kind"
    )
