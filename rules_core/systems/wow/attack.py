"""Attacks and heals (rules 600-602 and 402.2a), resolved step by step with exact odds.

Sequence (digest §3.2): attack roll of `power` d10 (601.1) -> the attacker's rerolls, all at
once (601.1b; elevation gives one, 406.2a) -> crit check on the final roll (601.1c): crit
abilities fire ONCE however many crits show, those that add damage add hits now, before the
defence -> defence roll of Armor (physical) or Resist (magical) dice (601.2), a crit there is
only a block (601.2b) -> the defender's rerolls (601.2a; cover gives one, 406.2b) -> damage =
hits - blocks, never below 0 (602.1, 104.2) -> other crit abilities (602.2).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, Field

from rules_core.dice import DiceSource
from rules_core.dice.distribution import Distribution
from rules_core.steps import Step
from rules_core.systems.wow.pool import (
    PoolRoll,
    check_pool,
    forced_pool_distribution,
    roll_pool,
    successes_distribution,
)

AttackType = Literal["physical", "magical"]


class AttackRequest(BaseModel):
    power: int = Field(ge=0, le=40)
    defense: int = Field(default=0, ge=0, le=40)  # Armor or Resist dice of the defender
    type: AttackType = "physical"
    reroll_attack: int = Field(default=0, ge=0, le=40)
    reroll_defense: int = Field(default=0, ge=0, le=40)
    elevation: bool = False  # 406.2a: the attacker may reroll one die
    cover: bool = False  # 406.2b: the defender may reroll one die
    crit_damage: int = Field(default=0, ge=0, le=20)  # "[Crit] +N damage": hits before blocks
    crit_effect: bool = False  # another crit ability, resolved after damage (602.2)
    # 105.3: successes an effect forces to be rerolled, with the chosen rerolls, at once
    force_reroll_attack: int = Field(default=0, ge=0, le=40)
    force_reroll_defense: int = Field(default=0, ge=0, le=40)
    forced_crits_first: bool = False  # the `forced_reroll` setting: who picks the dice

    @property
    def attack_rerolls(self) -> int:
        return self.reroll_attack + (1 if self.elevation else 0)

    @property
    def defense_rerolls(self) -> int:
        return self.reroll_defense + (1 if self.cover else 0)


class AttackOutcome(BaseModel):
    hits: int
    criticals: int
    blocks: int
    damage: int
    crit_effect: bool


class AttackResolution(BaseModel):
    steps: list[Step]
    outcome: AttackOutcome


def _pool_step(name: str, roll: PoolRoll, total: int, outcome: str) -> Step:
    return Step(
        name=name,
        dice=roll.first + [roll.final[i] for i in roll.rerolled],
        rerolled=roll.rerolled,
        final=roll.final,
        target=4,
        total=total,
        outcome=outcome,
    )


def resolve_attack(req: AttackRequest, source: DiceSource) -> AttackResolution:
    check_pool(req.power, "power")
    check_pool(req.defense, "defense")
    attack = roll_pool(
        req.power,
        req.attack_rerolls,
        source,
        req.force_reroll_attack,
        req.forced_crits_first,
    )
    hits = attack.successes
    criticals = attack.final.count(10)
    steps = [_pool_step("attack", attack, hits, "hits")]
    if attack.crit and req.crit_damage:
        hits += req.crit_damage
        steps.append(Step(name="crit", total=hits, outcome="crit_damage"))
    defense = roll_pool(
        req.defense,
        req.defense_rerolls,
        source,
        req.force_reroll_defense,
        req.forced_crits_first,
    )
    blocks = defense.successes
    steps.append(_pool_step("defense", defense, blocks, req.type))
    damage = max(0, hits - blocks)
    steps.append(Step(name="damage", total=damage, outcome="damage"))
    effect = attack.crit and req.crit_effect
    if effect:
        steps.append(Step(name="crit_effect", total=1, outcome="crit_effect"))
    return AttackResolution(
        steps=steps,
        outcome=AttackOutcome(
            hits=hits, criticals=criticals, blocks=blocks, damage=damage, crit_effect=effect
        ),
    )


class SharedRollResolution(BaseModel):
    """One attack roll against several targets: the steps, and one outcome per target."""

    steps: list[Step]
    outcomes: list[AttackOutcome]


def resolve_against(
    req: AttackRequest, defenses: list[int], source: DiceSource
) -> SharedRollResolution:
    """Cleave and AOE (601.1b, E10; 407.2b): ONE attack roll, its rerolls taken once (elevation
    gives one, not one per target), its crit abilities firing once; then each target defends
    separately with its own dice (in the order given) and takes hits minus its blocks."""
    check_pool(req.power, "power")
    for size in defenses:
        check_pool(size, "defense")
    attack = roll_pool(
        req.power,
        req.attack_rerolls,
        source,
        req.force_reroll_attack,
        req.forced_crits_first,
    )
    hits = attack.successes
    steps = [_pool_step("attack", attack, hits, "hits")]
    if attack.crit and req.crit_damage:
        hits += req.crit_damage
        steps.append(Step(name="crit", total=hits, outcome="crit_damage"))
    outcomes: list[AttackOutcome] = []
    for index, size in enumerate(defenses):
        defense = roll_pool(
            size, req.defense_rerolls, source, req.force_reroll_defense, req.forced_crits_first
        )
        step = _pool_step("defense", defense, defense.successes, req.type)
        step.detail["defender"] = index
        damage = max(0, hits - defense.successes)
        steps += [step, Step(name="damage", total=damage, outcome="damage", detail=step.detail)]
        outcomes.append(
            AttackOutcome(
                hits=hits,
                criticals=attack.final.count(10),
                blocks=defense.successes,
                damage=damage,
                crit_effect=attack.crit and req.crit_effect,
            )
        )
    if attack.crit and req.crit_effect:
        steps.append(Step(name="crit_effect", total=1, outcome="crit_effect"))
    return SharedRollResolution(steps=steps, outcomes=outcomes)


def attack_odds(req: AttackRequest) -> Distribution:
    """Exact distribution of `damage`: hits (crit damage added when a crit shows) minus
    blocks, never below 0."""
    check_pool(req.power, "power")
    check_pool(req.defense, "defense")
    attack = attack_pool(req)
    hits = attack.map(lambda k: k[0] + (req.crit_damage if k[1] else 0))
    blocks = successes_distribution(
        req.defense, req.defense_rerolls, req.force_reroll_defense, req.forced_crits_first
    )
    return (hits - blocks).clip(lo=0)


def crit_chance(req: AttackRequest) -> Fraction:
    return attack_pool(req).chance(lambda k: k[1])


def attack_pool(req: AttackRequest) -> Distribution[tuple[int, bool]]:
    return forced_pool_distribution(
        req.power, req.attack_rerolls, req.force_reroll_attack, req.forced_crits_first
    )


class HealRequest(BaseModel):
    power: int = Field(ge=0, le=40)
    rerolls: int = Field(default=0, ge=0, le=40)
    crit_heal: int = Field(default=0, ge=0, le=20)  # "[Crit] heal +N"
    missing: int | None = Field(default=None, ge=0)  # max Health - current Health, when known


class HealOutcome(BaseModel):
    successes: int
    critical: bool
    healed: int


class HealResolution(BaseModel):
    steps: list[Step]
    outcome: HealOutcome


def resolve_heal(req: HealRequest, source: DiceSource) -> HealResolution:
    """402.2a (L498): one Health per success, never above maximum Health (402.2, L494); Armor
    and Resist never oppose a heal."""
    check_pool(req.power, "power")
    roll = roll_pool(req.power, req.rerolls, source)
    amount = roll.successes + (req.crit_heal if roll.crit else 0)
    healed = amount if req.missing is None else min(amount, req.missing)
    return HealResolution(
        steps=[_pool_step("heal", roll, amount, "heal")],
        outcome=HealOutcome(successes=roll.successes, critical=roll.crit, healed=healed),
    )
