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
    opts: Options, value: int, diff: int | None, mod: int, unit_pen: int = 0
) -> TestRequest:
    reroll = opts.get("reroll")
    return TestRequest(
        value=value,
        diff=diff,
        mod=mod - unit_pen,
        reroll=frozenset({reroll}) if reroll else frozenset(),
        one_ok=bool(opts.get("one_ok")),
    )


def plain_test_request(opts: Options, unit: Unit | None) -> TestRequest:
    """`/c5 test`: value= or target=UNIT stat=NAME. @10224: the wound penalty touches INI, ATT,
    DIF and TIR only (tables.PENALISED)."""
    stat = opts.get("stat")
    value = opts.get("value")
    pen = 0
    if value is None and unit is not None and stat:
        value = unit.stats.get(stat)
        pen = unit_penalty(unit) if stat in tables.PENALISED else 0
    if value is None:
        raise UserError("c5.missing_stat", option="value")
    return test_request(opts, value, opts.get("diff"), opts.get("mod") or 0, pen)


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
            raise UserError("c5.bad_effect", name=word[:30], valid=", ".join(EFFECTS))
        found.add(name)
    if "feroce" in found and not melee:
        raise UserError("c5.feroce_melee")
    return frozenset(found)


def wound_request(
    opts: Options, attacker: Unit | None, target: Unit | None, *, melee: bool, mod_option: str
) -> WoundRequest:
    """`melee`: a blow, with the attacker's STR and wound penalty (@10224: penalties touch the
    melee wound rolls a fighter inflicts); otherwise a shot, whose STR is its weapon's: the
    card's `wstr` (digest §9: ranged weapons carry their own STR). `mod_option` names the
    option holding the +N on the result (`mod` on /c5 wound, `wound_mod` on attacks)."""
    str_stat = "str" if melee else "wstr"
    strength = need(opts, "str", attacker, str_stat)
    res = need(opts, "res", target, "res")
    pen = opts.get("pen")
    if pen is None:
        pen = penalty_of(attacker) if melee else 0
    # @2104 (Red Troll @4728): a STR or RES printed above 15 on the card is capped there, not at
    # 15. printed=N says so for STR; a unit's card value above 15 says so by itself.
    str_printed = opts.get("printed")
    if str_printed is None and attacker is not None and opts.get("str") is None:
        card = attacker.stats.get(str_stat, 0)
        str_printed = card if card > tables.CAP else None
    res_printed = None
    if target is not None and opts.get("res") is None:
        card = target.stats.get("res", 0)
        res_printed = card if card > tables.CAP else None
    return WoundRequest(
        str_=strength,
        res=res,
        mod=opts.get(mod_option) or 0,
        flagello=bool(opts.get("flagello")),
        ossoduro=bool(opts.get("ossoduro")),
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
    attack = test_request(opts, att, opts.get("diff"), opts.get("att_mod") or 0)
    attack = attack.model_copy(update={"mod": attack.mod - penalty_of(attacker)})
    defence = None
    dif = opts.get("def")
    if dif is None and target is not None and opts.get("parry"):
        dif = target.stats.get("def")
    if opts.get("parry") and dif is None:
        raise UserError("c5.missing_stat", option="def")
    if dif is not None:
        defence = TestRequest(value=dif, mod=(opts.get("def_mod") or 0) - penalty_of(target))
    wound = wound_request(opts, attacker, target, melee=True, mod_option="wound_mod")
    return MeleeRequest(attack=attack, defence=defence, wound=wound)


def shoot_request(opts: Options, attacker: Unit | None, target: Unit | None) -> ShootRequest:
    """A shot: d6 + TIR with the shooter's wound penalty (@10224), the weapon's STR."""
    aim = need(opts, "aim", attacker, "aim")
    test = test_request(opts, aim, None, opts.get("aim_mod") or 0, penalty_of(attacker))
    return ShootRequest(
        test=test,
        wound=wound_request(opts, attacker, target, melee=False, mod_option="wound_mod"),
        range=opts.get("range") or "short",
        fire=opts.get("fire") or "normal",
        printed=bool(opts.get("printed_fire")),
        diff_mod=opts.get("diff_mod") or 0,
        altitude=opts.get("altitude") or 0,
        mira=bool(opts.get("mira")),
        mira_printed=bool(opts.get("mira_printed")),
        aim_printed=attacker.stats.get("aim") if attacker is not None else None,
        zone=bool(opts.get("zone")),
    )


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
