"""What a C5 roll takes from the options a player typed and from the fighters' cards.

The bot hands over the options it parsed (`Options`: name -> value, already range-checked by
the command's declaration) and the units of the chat's game; the rules that decide which stat
a roll reads, which wound penalty applies and when a printed value lifts the cap live here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules_core.errors import UserError
from rules_core.rules.text import fold
from rules_core.systems.c5 import tables
from rules_core.systems.c5.attack import MeleeRequest, ShootRequest
from rules_core.systems.c5.models import TestRequest, WoundRequest
from rules_core.systems.c5.system import unit_penalty
from rules_core.systems.c5.wound import EFFECTS

if TYPE_CHECKING:
    from rules_core.game.models import Unit

Options = Mapping[str, Any]
# Where a roster (/army, BattleScribe) stores a unit's weapon profiles: Unit.extra["roster"]
# ["weapons"], each {"name", "values": {field: printed text}} (rules_core.game.roster: that
# module reaches every game through the registry, so the key is repeated here).
ROSTER_KEY = "roster"


def weapons_of(unit: Unit) -> list[dict[str, Any]]:
    found = unit.extra.get(ROSTER_KEY, {}).get("weapons", [])
    return [w for w in found if isinstance(w, dict) and w.get("name")]


def weapon_profile(opts: Options, attacker: Unit | None) -> dict[str, str] | None:
    """`weapon=NAME`: the attacker's stored weapon of that name (case- and accent-insensitive,
    or an unambiguous start of it); its printed values by field (`str`, `range`)."""
    name = opts.get("weapon")
    if not name:
        return None
    if attacker is None:
        raise UserError("c5.weapon_needs_attacker")
    stored = weapons_of(attacker)
    if not stored:
        raise UserError("c5.no_weapons", unit=attacker.name)
    key = fold(str(name).strip())
    exact = [w for w in stored if fold(w["name"]) == key]
    matches = exact or [w for w in stored if fold(w["name"]).startswith(key)]
    if len(matches) != 1:
        valid = ", ".join(w["name"] for w in stored)
        raise UserError("c5.no_weapon", unit=attacker.name, name=str(name)[:40], valid=valid)
    return {str(k): str(v) for k, v in dict(matches[0].get("values", {})).items()}


def weapon_strength(weapon: dict[str, str] | None) -> int | None:
    """A C5 weapon's printed STR (digest §9: ranged weapons carry their own STR); None when
    the profile has none."""
    if weapon is None or not weapon.get("str"):
        return None
    text = weapon["str"].strip().lstrip("+")
    if not text.lstrip("-").isdecimal() or not -10 <= int(text) <= 40:
        raise UserError("c5.bad_weapon_str", value=weapon["str"][:16])
    return int(text)


def option_or_stat(opts: Options, option: str, unit: Unit | None, stat: str) -> int | None:
    """The option's value, else the named unit's stat (None when neither is there)."""
    value = opts.get(option)
    if value is None and unit is not None:
        value = unit.stats.get(stat)
    return None if value is None else int(value)


def need(opts: Options, option: str, unit: Unit | None, stat: str) -> int:
    value = option_or_stat(opts, option, unit, stat)
    if value is None:
        raise UserError("c5.missing_stat", option=option)
    return value


def penalty_of(unit: Unit | None) -> int:
    """Wound penalty (positive) of a fighter of the game, 0 for values typed by hand."""
    return unit_penalty(unit) if unit is not None else 0


def test_request(
    opts: Options,
    value: int,
    diff: int | None,
    mod: int,
    unit_pen: int = 0,
    stat: str | None = None,
) -> TestRequest:
    reroll = opts.get("reroll")
    return TestRequest(
        value=value,
        diff=diff,
        mod=mod - unit_pen,
        reroll=frozenset({reroll}) if reroll else frozenset(),
        one_ok=bool(opts.get("one_ok")),
        stat=stat,
    )


def plain_test_request(opts: Options, unit: Unit | None) -> TestRequest:
    """`/c5 test`: value= or target=UNIT stat=NAME. @10224: the wound penalty touches INI, ATT,
    DIF and TIR only (tables.PENALISED)."""
    stat = STAT_NAMES.get(fold(opts.get("stat") or ""))
    value = opts.get("value")
    pen = 0
    if value is None and unit is not None and stat:
        value = unit.stats.get(stat)
        pen = unit_penalty(unit) if stat in tables.PENALISED else 0
    if value is None:
        raise UserError("c5.missing_stat", option="value")
    return test_request(opts, value, opts.get("diff"), opts.get("mod") or 0, pen, stat)


EFFECT_NAMES = {name: name for name in EFFECTS} | {
    "ferocious": "feroce",
    "arma_sacra": "sacred",
    "sacra": "sacred",
    "armatura_sacra": "sacred_armour",
    "sacred_armor": "sacred_armour",
    "saw_axe": "spada_ascia",
    "vulnerable": "vulnerabile",
    "ethereal": "etereo",
}


def parse_effects(text: str | None, *, melee: bool) -> frozenset[str]:
    """`effects=sacred,vulnerabile`: the effects read after the wound table (wound.EFFECTS);
    Feroce ("Abilità") works on melee wound rolls only."""
    if not text:
        return frozenset()
    found = set()
    for word in text.replace(",", " ").replace(";", " ").split():
        name = EFFECT_NAMES.get(fold(word).replace("-", "_"))
        if name is None:
            raise UserError(
                "c5.bad_effect",
                name=word[:30],
                valid=", ".join(EFFECTS),
                values_of="values.c5_effect",  # listed as the reader types them
            )
        found.add(name)
    if "feroce" in found and not melee:
        raise UserError("c5.feroce_melee")
    return frozenset(found)


def wound_request(
    opts: Options,
    attacker: Unit | None,
    target: Unit | None,
    *,
    melee: bool,
    mod_option: str,
    weapon: dict[str, str] | None = None,
) -> WoundRequest:
    """`melee`: a blow, with the attacker's STR and wound penalty (@10224: penalties touch the
    melee wound rolls a fighter inflicts); otherwise a shot, whose STR is its weapon's: the
    card's `wstr` (digest §9: ranged weapons carry their own STR). A stored `weapon` with a
    STR gives it instead of the card; a typed str= overrides both. `mod_option` names the
    option holding the +N on the result (`mod` on /c5 wound, `wound_mod` on attacks)."""
    str_stat = "str" if melee else "wstr"
    from_weapon = weapon_strength(weapon) if opts.get("str") is None else None
    strength = from_weapon if from_weapon is not None else need(opts, "str", attacker, str_stat)
    res = need(opts, "res", target, "res")
    pen = opts.get("pen")
    if pen is None:
        pen = penalty_of(attacker) if melee else 0
    # @2104 (Red Troll @4728): a STR or RES printed above 15 on the card is capped there, not at
    # 15. printed=N says so for STR; a unit's card value above 15 says so by itself.
    str_printed = opts.get("printed")
    if str_printed is None and attacker is not None and opts.get("str") is None:
        card = from_weapon if from_weapon is not None else attacker.stats.get(str_stat, 0)
        str_printed = card if card > tables.CAP else None
    res_printed = None
    if target is not None and opts.get("res") is None:
        card = target.stats.get("res", 0)
        res_printed = card if card > tables.CAP else None
    return WoundRequest(
        str_=strength,
        res=res,
        mod=opts.get(mod_option) or 0,
        scourge=bool(opts.get("scourge")),
        hardboned=bool(opts.get("hardboned")),
        str_uncapped=bool(opts.get("str_uncapped")) or str_printed is not None,
        str_printed=str_printed,
        res_uncapped=res_printed is not None,
        res_printed=res_printed,
        artillery=bool(opts.get("artillery")),
        master=opts.get("master"),
        penalty=pen if melee else 0,
        melee=melee,
        effects=parse_effects(opts.get("effects"), melee=melee),
    )


def melee_request(opts: Options, attacker: Unit | None, target: Unit | None) -> MeleeRequest:
    """One blow: the attacker's ATT test and, with parry/def=, the defender's DIF test, each
    with its own fighter's wound penalty (@10224); then the wound roll."""
    att = need(opts, "att", attacker, "att")
    attack = test_request(opts, att, opts.get("diff"), opts.get("att_mod") or 0, stat="att")
    attack = attack.model_copy(update={"mod": attack.mod - penalty_of(attacker)})
    defence = None
    dif = opts.get("def")
    if dif is None and target is not None and opts.get("parry"):
        dif = target.stats.get("def")
    if opts.get("parry") and dif is None:
        raise UserError("c5.missing_stat", option="def")
    if dif is not None:
        defence = TestRequest(
            value=dif, mod=(opts.get("def_mod") or 0) - penalty_of(target), stat="def"
        )
    weapon = weapon_profile(opts, attacker)
    wound = wound_request(opts, attacker, target, melee=True, mod_option="wound_mod", weapon=weapon)
    return MeleeRequest(attack=attack, defence=defence, wound=wound)


def shoot_request(opts: Options, attacker: Unit | None, target: Unit | None) -> ShootRequest:
    """A shot: d6 + TIR with the shooter's wound penalty (@10224), the weapon's STR."""
    aim = need(opts, "aim", attacker, "aim")
    test = test_request(opts, aim, None, opts.get("aim_mod") or 0, penalty_of(attacker), stat="aim")
    weapon = weapon_profile(opts, attacker)
    wound = wound_request(
        opts, attacker, target, melee=False, mod_option="wound_mod", weapon=weapon
    )
    fire = FIRE.get(fold(opts.get("fire") or "normal"), "normal")
    return ShootRequest(
        test=test,
        wound=wound,
        range=RANGES.get(fold(opts.get("range") or "short"), "short"),
        fire=fire,
        printed=fold(opts.get("fire") or "").endswith(("printed", "stampato")),
        diff_mod=opts.get("diff_mod") or 0,
        altitude=opts.get("altitude") or 0,
        mira=bool(opts.get("bullseye")),
        mira_printed=bool(opts.get("bullseye_printed")),
        aim_printed=attacker.stats.get("aim") if attacker is not None else None,
        zone=bool(opts.get("zone")),
        penalty=penalty_of(attacker),
    )


# The card's characteristics by the bot's names and the book's Italian codes.
STAT_NAMES = {s: s for s in ("ini", "att", "def", "aim", "cou", "fear", "dis", "pow", "str")}
STAT_NAMES |= {"res": "res", "mov": "mov", "dif": "def", "tir": "aim", "cor": "cou"}
STAT_NAMES |= {"pau": "fear", "pot": "pow", "for": "str"}
# Option values as players type them, in either language (the book's Italian terms).
RANGES = {"short": "short", "corta": "short", "medium": "medium", "media": "medium"}
RANGES |= {"long": "long", "lunga": "long"}
FIRE = {"normal": "normal", "normale": "normal", "assault": "assault", "assalto": "assault"}
FIRE |= {"reaction": "reaction", "reazione": "reaction"}
FIRE |= {"assault_printed": "assault", "assalto_stampato": "assault"}
FIRE |= {"reaction_printed": "reaction", "reazione_stampato": "reaction"}
# What the command offers (Discord labels each in both languages).
FIRE_CHOICES = ("normal", "assault", "reaction", "assault_printed", "reaction_printed")


def rally_value(opts: Options, unit: Unit | None) -> int:
    """@15362: the player chooses COR or DIS; from a unit's card, the better of the two."""
    value = opts.get("value")
    if value is None and unit is not None:
        value = max(unit.stats.get("cou", 0), unit.stats.get("dis", 0))
    if value is None:
        raise UserError("c5.missing_stat", option="value")
    return int(value)


def rally_request(opts: Options, value: int) -> TestRequest:
    return test_request(opts, value, tables.RALLY_DIFFICULTY, opts.get("mod") or 0)
