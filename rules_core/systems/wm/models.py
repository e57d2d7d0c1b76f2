"""WARMACHINE Mk II requests and results (pydantic).

Line references `Lnnnn` are to the Italian rulebook transcript
`../shared/seeds/000_a386fedfef0f54d6.txt`; `digest §x` to `../shared/rules-digests/warmachine.md`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rules_core.steps import Step

AttackType = Literal["melee", "ranged", "magic"]
Boost = Literal["none", "hit", "damage", "both"]

# Situational modifiers a player declares (positions are not computed: digest §8.18).
MODS = (
    "backstrike",  # +2 to hit, any attack type (L3245-3257)
    "aim",  # +2 to hit, ranged only (L2786-2790)
    "free_strike",  # melee: +2 to hit, boosted damage, no back strike bonus (L2149-2162)
    "charge",  # melee: damage roll boosted on a hit (L1820-1834, L171-175)
    "knocked_down",  # base DEF 5; melee hits automatically (L3435-3438)
    "stationary",  # base DEF 5; melee hits automatically (L3530-3532)
    "cover",  # +4 DEF vs ranged and magic (L2899-2904)
    "concealment",  # +2 DEF vs ranged and magic (L2797-2798, L2833-2839)
    "elevated",  # target >= 1" higher: +2 DEF vs ranged and magic (L2802-2808)
    "in_melee",  # target in melee: -4 to ranged and magic attack rolls (L2812-2813, L2916-2919)
    "intervening",  # obstacle/obstruction: +2 DEF vs melee (L2190-2193)
    "crippled",  # weapon in a crippled location: one die fewer to hit and damage (L3740-3742)
    "roll_anyway",  # roll against an automatic hit, e.g. for a critical (L3200-3206)
    "movement_crippled",  # the target's Movement system is crippled: base DEF 7 (L3734-3738)
    "stealth",  # target with Stealth, origin more than 5" away: ranged/magic miss (L720-725)
    "spray",  # spray attack: ignores cover, concealment, Stealth, the -4 in melee (L3126-3146)
    "additional",  # an additional attack: 1 focus (L4325-4330, L4558-4563); never a charge's
)
Mod = Literal[
    "backstrike",
    "aim",
    "free_strike",
    "charge",
    "knocked_down",
    "stationary",
    "cover",
    "concealment",
    "elevated",
    "in_melee",
    "intervening",
    "crippled",
    "roll_anyway",
    "movement_crippled",
    "stealth",
    "spray",
    "additional",
]

MAX_EXTRA_DICE = 2
MAX_COMBINED = 20


class AttackRequest(BaseModel):
    type: AttackType = "melee"
    skill: int = Field(default=0, ge=0, le=20)  # MAT, RAT, FOCUS or Magic Ability
    defense: int = Field(default=5, ge=1, le=30)  # the target's base DEF
    pow: int = Field(ge=0, le=40)
    str_: int = Field(default=0, ge=0, le=20)  # STR added to POW in melee (P+S)
    arm: int = Field(default=0, ge=0, le=40)
    boost: Boost = "none"
    mods: frozenset[Mod] = frozenset()
    combined: int = Field(default=0, ge=0, le=MAX_COMBINED)  # models adding to a combined attack
    extra_hit_dice: int = Field(default=0, ge=0, le=MAX_EXTRA_DICE)
    extra_damage_dice: int = Field(default=0, ge=0, le=MAX_EXTRA_DICE)
    blast: bool = False  # blast damage only: 2d6 + half POW, no attack roll (L3001-3004)
    hit_mod: int = Field(default=0, ge=-20, le=20)  # any other attack roll modifier
    def_mod: int = Field(default=0, ge=-20, le=20)  # any other DEF modifier (spells, feats)
    dmg_mod: int = Field(default=0, ge=-20, le=20)  # any other damage roll modifier
    focus_arm: int = Field(default=0, ge=0, le=20)  # Power Field: focus left on a warcaster
    shield_arm: int = Field(default=0, ge=0, le=20)  # shields (+2 each) and bucklers (+1 each)


class AttackOutcome(BaseModel):
    hit: bool
    critical: bool
    auto_hit: bool
    attack_total: int | None
    defense: int | None  # the DEF the roll had to reach, after modifiers and the floor of 5
    damage_total: int | None
    damage: int


class AttackResolution(BaseModel):
    steps: list[Step]
    outcome: AttackOutcome


class CheckOutcome(BaseModel):
    total: int
    value: int
    pass_: bool = Field(serialization_alias="pass")


class FallOutcome(BaseModel):
    height: float
    fell: bool = True  # False under 1" (L3412-3414): no roll, no damage, no knockdown
    dice: int
    damage_total: int
    arm: int | None
    damage: int | None


class DeviationOutcome(BaseModel):
    direction: int
    rolled: int  # inches rolled (d6, or d3 for a thrown model)
    distance: float  # after the cap of half the distance
    cap: float
    capped: bool
