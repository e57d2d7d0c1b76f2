"""From what a player asked (options, the units of the chat's game, the game's weapons) to the
`AttackRequest` the resolver takes: which attribute rolls, which weapon and range band apply,
Monofilament's fixed Damage, and what each side saves with.

Line references `L123` as in models.py.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from rules_core.errors import UserError
from rules_core.game.models import Unit
from rules_core.rules.text import fold
from rules_core.systems.base import Note
from rules_core.systems.inf import orders, tables
from rules_core.systems.inf.attack import MONO_DAMAGE
from rules_core.systems.inf.models import AttackRequest, Side, ammo_code
from rules_core.systems.inf.system import IMM


class AttackOptions(BaseModel):
    """An attack's options as given (None: not given). The bounds are checked by the command
    layer against `Side`'s fields; here they are only read."""

    model_config = ConfigDict(frozen=True)

    attr: int | None = None
    mod: int | None = None
    burst: int | None = None
    vs: int | None = None
    vs_mod: int | None = None
    vs_burst: int | None = None
    dam: int | None = None
    ammo: str | None = None
    arm: int | None = None
    bts: int | None = None
    w: int | None = None
    cover: bool = False
    vs_dam: int | None = None
    vs_ammo: str | None = None
    my_arm: int | None = None
    my_bts: int | None = None
    my_w: int | None = None
    my_cover: bool = False
    weapon: str | None = None
    distance: int | None = None
    cc: bool = False
    charge: bool = False  # CC against a shot or a Dodge (C8-C9): no Defence Bonus

    @classmethod
    def read(cls, opts: dict[str, Any]) -> AttackOptions:
        """The options this model knows, from a command's option dict."""
        return cls.model_validate({k: opts[k] for k in cls.model_fields if opts.get(k) is not None})


def stat_of(given: int | None, unit: Unit | None, name: str) -> int | None:
    """The option, else the unit's stat; BTS is used as its absolute value (L1344-1348)."""
    value = given if given is not None else (unit.stats.get(name) if unit is not None else None)
    return abs(value) if value is not None and name == "bts" else value


def roll_attribute(attr: int | None, unit: Unit | None, stat: str | None) -> int:
    """The attribute a Normal roll uses: `attr=`, else the unit's `stat` (BS by default)."""
    if attr is None:
        attr = stat_of(None, unit, stat or "bs")  # PB as a positive value, as for its roll
    if attr is None:
        raise UserError("inf.missing_stat", option="attr")
    return attr


def is_heavy(unit: Unit | None) -> bool:
    return unit is not None and unit.stats.get("type") in tables.HEAVY


def must_be_able(unit: Unit | None, key: str, *, moving: bool = False) -> None:
    """An Unconscious or Dead model takes no action and no ARO (L1374-1389, L1390-1393); with
    `moving` (an attack, a shot back, a Dodge) an Immobilised one neither (L1412-1420)."""
    if unit is None:
        return
    if orders.unit_state(unit) != "ok" or unit.destroyed:
        raise UserError(key, unit=unit.name)
    if moving and any(fold(c.name) == IMM for c in unit.conditions):
        raise UserError(f"{key}_imm", unit=unit.name)


def profile(
    unit: Unit | None, arm: int | None, bts: int | None, w: int | None, cover: bool
) -> dict[str, Any]:
    """The profile a side saves with: ARM, BTS, W and cover from the options, else from its
    unit, and the unit's wounds so far, PH (ADH, L2894), STR and troop type (E/M, L2879)."""
    return {
        "arm": stat_of(arm, unit, "arm") or 0,
        "bts": stat_of(bts, unit, "bts") or 0,
        "w": stat_of(w, unit, "w") or 1,
        "wounds": unit.damage if unit is not None else 0,
        "ph": unit.stats.get("ph") if unit is not None else None,
        "structure": bool(unit.stats.get("structure")) if unit is not None else False,
        "heavy": is_heavy(unit),
        "remote": unit is not None and unit.stats.get("type") == tables.REM,
        "cover": cover,
    }


def weapon_name(
    o: AttackOptions, attacker: Unit | None, weapons: dict[str, dict[str, Any]] | None = None
) -> str | None:
    """`weapon=`, else (when no Damage is given) the first weapon of the attacker's loadout;
    in close combat its first CC weapon (p. 30, L1885-1886: a CC attack uses CC weapons),
    refused when it has none."""
    if o.weapon is not None or attacker is None or o.dam is not None:
        return o.weapon
    loadout = [str(w) for w in attacker.extra.get("weapons") or []]
    if not (o.cc or o.charge):
        return loadout[0] if loadout else None
    for name in loadout:
        if tables.find_weapon(name, weapons or {}).close_combat:
            return name
    if loadout:
        raise UserError("inf.no_cc_weapon", unit=attacker.name)
    return None


def weapon_ref(weapon: tables.Weapon) -> str:
    """How a note names a weapon: `@key` for a book weapon (the view shows its name in the
    reader's language), else the players' own name."""
    return f"@{weapon.key}" if weapon.key else weapon.name


def weapon_damage(weapon: tables.Weapon, wielder: Unit | None) -> int:
    """The weapon's Damage; a PH-based one (CC weapons, L3153-3157) from the wielder's PH."""
    ph = wielder.stats.get("ph") if wielder is not None else None
    dam = weapon.damage(ph)
    if dam is None:
        raise UserError("inf.ph_dam_needs_attacker", **tables.named(weapon))
    return dam


def build_request(
    o: AttackOptions,
    attacker: Unit | None,
    target: Unit | None,
    weapons: dict[str, dict[str, Any]],
) -> tuple[AttackRequest, list[Note]]:
    """The request, and notes on what was read or overridden (weapon, range, Mono damage).
    A note's `mod` parameter is a signed number for the view to print."""
    notes: list[Note] = []
    must_be_able(attacker, "inf.cannot_act", moving=True)
    if o.vs is not None:
        must_be_able(target, "inf.cannot_react", moving=True)
    name = weapon_name(o, attacker, weapons)
    weapon = tables.find_weapon(name, weapons) if name is not None else None
    if weapon is not None and (o.cc or o.charge) and not weapon.close_combat:
        raise UserError("inf.cc_needs_cc_weapon", **tables.named(weapon))  # L1885-1886
    # a direct template hits with no roll (L947-950); an area template is rolled to hit its
    # target like any shot (L925-946, L1020-1025), the others under it then only save
    if weapon is not None and weapon.template == "direct":
        raise UserError("inf.template_weapon", **tables.named(weapon))
    if weapon is not None and weapon.template == "area":
        notes.append(("inf.note_area_template", {"weapon": weapon_ref(weapon)}))
    # A weapon with no range bands is a CC weapon: its attack is a CC attack (L3153-3157).
    cc = o.cc or o.charge or (weapon is not None and weapon.close_combat)
    thrown = weapon is not None and weapon.thrown  # a grenade: PH, not BS (L966-968)
    attr = stat_of(o.attr, attacker, "cc" if cc else "ph" if thrown else "bs")
    if attr is None:
        raise UserError("inf.missing_stat", option="attr")
    dam, burst, ammo = o.dam, o.burst, o.ammo
    range_mod = 0
    if weapon is not None:
        if dam is None:
            dam = weapon_damage(weapon, attacker)
        burst = weapon.burst if burst is None else burst
        ammo = weapon.ammo if ammo is None else ammo
        notes.append(
            ("inf.note_weapon", {"weapon": weapon_ref(weapon), "dam": dam, "burst": burst})
        )
        if weapon.ph_dam is not None and o.dam is None:
            notes.append(("inf.note_ph_dam", {"ph": dam - weapon.ph_dam, "mod": weapon.ph_dam}))
        if o.distance is not None:
            range_mod = tables.range_mod(weapon, o.distance)
            # labelled with the attribute it modifies: PH for a thrown weapon (L966-968)
            attr_name = "ph" if thrown and not cc else "bs"
            notes.append(
                ("inf.note_range", {"distance": o.distance, "mod": range_mod, "attr": attr_name})
            )
    elif o.distance is not None:
        raise UserError("inf.distance_needs_weapon")
    code = ammo_code(ammo)
    if code == "MONO" and dam != MONO_DAMAGE:
        notes.append(("inf.note_mono", {}))  # L3058-3060: Damage 12 whatever the weapon
        dam = MONO_DAMAGE
    if dam is None and code != "ADH":
        raise UserError("inf.missing_dam")
    vs_ammo = ammo_code(o.vs_ammo)
    vs_dam = MONO_DAMAGE if vs_ammo == "MONO" else o.vs_dam
    if (vs_dam is not None or o.vs_ammo) and o.vs is None:
        raise UserError("inf.vs_dam_needs_vs")
    if o.vs_ammo and vs_dam is None and vs_ammo != "ADH":
        raise UserError("inf.missing_vs_dam")
    active = Side(
        attr=attr,
        mod=o.mod or 0,
        range=range_mod,
        burst=burst or 1,
        dam=dam,
        ammo=code,
        **profile(attacker, o.my_arm, o.my_bts, o.my_w, o.my_cover),
    )
    defender = Side(
        attr=o.vs or 0,
        mod=o.vs_mod or 0,
        burst=o.vs_burst or 1,
        dam=vs_dam,
        ammo=vs_ammo,
        **profile(target, o.arm, o.bts, o.w, o.cover),
    )
    if code == "ADH" and defender.ph is None:
        raise UserError("inf.adh_needs_ph")
    if vs_ammo == "ADH" and active.ph is None:
        raise UserError("inf.adh_needs_attacker")
    req = AttackRequest(
        active=active,
        target=defender,
        opposed=o.vs is not None,
        cc=cc,
        reactive_cc=False if o.charge else None,
    )
    return req, notes


def wants_hits_only(o: AttackOptions, attacker: Unit | None) -> bool:
    """/inf odds with no weapon, Damage or ammunition asks for the hits alone."""
    return (
        o.dam is None
        and not o.weapon
        and not o.ammo
        and (attacker is None or not attacker.extra.get("weapons"))
    )
