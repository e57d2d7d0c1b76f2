"""Building an attack from what the players typed and the units stored in the game.

Rulebook lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt.
- The attacking unit's weapon (22.2, L941-942) gives Attacks, To Hit, To Wound, Rend and Damage;
  every option typed overrides the stored value (issue 25 item 6).
- Not every model need attack: a unit shoots with the models it wants (10.0, L401) and fights
  with those within range (12.3, L467): `attacking_models` says how many, at most the models
  left (slain ones never attack); by default all the models left.
- A random Attacks value is rolled once per attacking model and summed (22.2.4, L989), or once
  for the unit (`random_attacks=per_unit`, digest 8.2).
- The target unit gives Save (7 = "-", L962-964), its ward (14.3, L591), its models, Wounds
  and the wounds already allocated to it (carry-over, L579).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from rules_core.errors import UserError
from rules_core.game.models import Unit
from rules_core.systems.aos import system as aos_system
from rules_core.systems.aos.models import MAX_ATTACK_DICE, AttackRequest, Settings
from rules_core.systems.aos.values import (
    NO_SAVE,
    parse_dice_value,
    parse_on6,
    parse_rend,
    parse_reroll,
    parse_save,
    parse_target,
)

WEAPON_OPTIONS = ("attacks", "hit", "wound", "rend", "damage")


class AttackInput(BaseModel):
    """The options of /aos attack and /aos odds as typed (None = not given)."""

    model_config = ConfigDict(frozen=True)

    attacks: str | None = None
    hit: str | None = None
    wound: str | None = None
    rend: str | None = None
    damage: str | None = None
    save: str | None = None
    ward: str | None = None
    hit_mod: int = 0
    wound_mod: int = 0
    save_mod: int = 0
    reroll_hit: str | None = None
    reroll_wound: str | None = None
    reroll_save: str | None = None
    on6_hit: str | None = None
    on6_wound: str | None = None
    models: int | None = None
    wounds_per_model: int | None = None
    weapon: str | None = None
    attacking_models: int | None = None  # how many of the attacker's models attack


class BuiltAttack(BaseModel):
    request: AttackRequest
    source: dict[str, str]  # where the values came from: attacker, weapon, target names


def pick_weapon(attacker: Unit, name: str | None, typed: set[str]) -> aos_system.Weapon | None:
    """The named weapon, or the unit's only one; none when the unit has none or the player
    typed every value a weapon gives (`typed`); with several and none named, say which."""
    if name:
        return aos_system.find_weapon(attacker, name)
    options = aos_system.weapons(attacker)
    if len(options) == 1:
        return options[0]
    if not options or typed >= set(WEAPON_OPTIONS):
        return None  # the typed values are the weapon; one left out is named as missing
    raise UserError("aos.pick_weapon", unit=attacker.name, valid=", ".join(w.name for w in options))


def build_attack(
    given: AttackInput, attacker: Unit | None, defender: Unit | None, settings: Settings
) -> BuiltAttack:
    """The attack request: stored weapon and target values, then every typed option over them."""
    source: dict[str, str] = {}
    values: dict[str, str] = {}
    attack_rolls = 1
    if attacker is not None:
        typed = {name for name in WEAPON_OPTIONS if getattr(given, name) is not None}
        weapon = pick_weapon(attacker, given.weapon, typed)
        attack_rolls = attacker.models_left  # one Attacks value per model (L989)
        if given.attacking_models is not None and given.attacking_models > attack_rolls:
            raise UserError("aos.attacking_models_left", unit=attacker.name, n=attack_rolls)
        source["attacker"] = attacker.name
        if weapon is not None:
            values = aos_system.resolved_weapon(attacker, weapon)
            source["weapon"] = weapon.name
    elif given.weapon:
        raise UserError("aos.weapon_needs_attacker")
    if given.attacking_models is not None:
        attack_rolls = given.attacking_models  # L401, L467: only the models that attack
    for name in WEAPON_OPTIONS:
        typed = getattr(given, name)
        if typed is not None:
            values[name] = typed
    for name in ("attacks", "hit", "wound"):
        if name not in values:
            raise UserError("aos.missing_option", option=name)
    attacks = parse_dice_value(values["attacks"], "attacks")
    if attacks.random and settings.random_attacks == "per_unit":
        attack_rolls = 1
    fields: dict[str, Any] = {
        "attacks": attacks,
        "attack_rolls": attack_rolls,
        "hit": parse_target(values["hit"], "hit"),
        "wound": parse_target(values["wound"], "wound"),
        "rend": parse_rend(values.get("rend", "-")),
        "damage": parse_dice_value(values.get("damage", "1"), "damage", max_fixed=20),
        "hit_mod": given.hit_mod,
        "wound_mod": given.wound_mod,
        "save_mod": given.save_mod,
        "reroll_hit": parse_reroll(given.reroll_hit, "reroll_hit"),
        "reroll_wound": parse_reroll(given.reroll_wound, "reroll_wound"),
        "reroll_save": parse_reroll(given.reroll_save, "reroll_save"),
        "on6_hit": parse_on6(given.on6_hit, "on6_hit", ("extra_hit", "auto_wound", "mortal")),
        "on6_wound": parse_on6(given.on6_wound, "on6_wound", ("mortal", "rend")),
    }
    if defender is not None:
        fields["save"] = defender.stats.get("save", NO_SAVE)
        ward = defender.stats.get("ward", 0)
        fields["ward"] = ward if ward >= 2 else None  # 0 = no ward
        fields["models"] = defender.models
        fields["wounds_per_model"] = defender.wounds_per_model
        fields["wounds_taken"] = defender.damage
        source["target"] = defender.name
    if given.save is not None:
        fields["save"] = parse_save(given.save)
    if given.ward is not None:
        ward_text = given.ward.strip()
        fields["ward"] = None if ward_text in ("-", "0") else parse_target(ward_text, "ward")
    if given.models is not None or given.wounds_per_model is not None:
        # A typed unit size describes a fresh unit, not the stored one's wounds.
        if defender is not None:
            fields["wounds_taken"] = 0
        fields["models"] = given.models or fields.get("models") or 1
        fields["wounds_per_model"] = given.wounds_per_model or fields.get("wounds_per_model")
    if attacks.max * attack_rolls > MAX_ATTACK_DICE:
        raise UserError("aos.too_many_attacks", limit=MAX_ATTACK_DICE)
    return BuiltAttack(request=AttackRequest.model_validate(fields), source=source)
