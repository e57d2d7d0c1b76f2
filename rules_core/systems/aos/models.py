"""Request, step and outcome models of the Age of Sigmar attack sequence and tests."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules_core.steps import Step
from rules_core.systems.aos.values import NO_SAVE, DiceValue, On6, Reroll

SaveCap = Literal["with_rend", "bonus_only"]
HeroCp = Literal["each", "own"]
RandomAttacks = Literal["per_model", "per_unit"]
CommandLimit = Literal["per_player", "shared"]

MAX_ATTACK_DICE = 400  # attacks resolved by one command
MAX_MODELS = 100


class Settings(BaseModel):
    """The rulebook's open questions (digest section 8), per chat; defaults = literal text.

    - save_cap: `with_rend` sums Rend with the other save modifiers before capping the total
      at +1 (L131 + L547 read literally); `bonus_only` caps the bonuses at +1, then adds Rend.
    - hero_cp: `each` gives +1 CP to every player with a General on the battlefield at the
      start of every hero phase (L279: "ogni giocatore"); `own` only in their own (L1228).
    - random_attacks: `per_model` rolls a random Attacks value once per attacking model and
      sums (L989); `per_unit` rolls it once for the unit.
    - command_limit: "the same command ability can't be used more than once in the same
      phase" (L269): `per_player` lets each player use it once (digest 8.2); `shared` allows
      it once in the phase for both players together.
    """

    model_config = ConfigDict(frozen=True)

    save_cap: SaveCap = "with_rend"
    hero_cp: HeroCp = "each"
    random_attacks: RandomAttacks = "per_model"
    command_limit: CommandLimit = "per_player"


class AttackRequest(BaseModel):
    model_config = ConfigDict(frozen=True)

    attacks: DiceValue
    attack_rolls: int = Field(default=1, ge=1, le=MAX_MODELS)  # random Attacks rolled this often
    hit: int = Field(ge=1, le=6)
    wound: int = Field(ge=1, le=6)
    rend: int = Field(default=0, ge=0, le=6)
    damage: DiceValue = DiceValue(plus=1)
    save: int = Field(default=NO_SAVE, ge=1, le=NO_SAVE)
    ward: int | None = Field(default=None, ge=2, le=6)
    hit_mod: int = Field(default=0, ge=-9, le=9)
    wound_mod: int = Field(default=0, ge=-9, le=9)
    save_mod: int = Field(default=0, ge=-9, le=9)
    reroll_hit: Reroll = "none"
    reroll_wound: Reroll = "none"
    reroll_save: Reroll = "none"
    on6_hit: On6 = On6()
    on6_wound: On6 = On6()
    models: int | None = Field(default=None, ge=1, le=MAX_MODELS)  # the target's models
    wounds_per_model: int | None = Field(default=None, ge=1, le=99)
    wounds_taken: int = Field(default=0, ge=0)  # already allocated to the target unit


class AttackOutcome(BaseModel):
    attacks: int
    hits: int
    wounds: int
    unsaved: int
    mortal_wounds: int
    ward_saved: int
    damage: int
    models_slain: int | None
    damage_lost: int = 0  # left over once the whole unit is slain (L579)


class AttackResolution(BaseModel):
    steps: list[Step]
    outcome: AttackOutcome


class TestOutcome(BaseModel):
    """Outcome of a single test (battleshock, cast, unbind, pray, charge, run, priority)."""

    model_config = ConfigDict(extra="allow")
