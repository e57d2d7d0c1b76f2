"""/wm options, one typed class per command (`bot.commands.args`): what the handlers read and
what the declarations take their options from. The numbers that become fields of a rules
model (AttackRequest, PowerRequest) take their bounds from that model (`stat_opt`)."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Literal

from bot.commands.args import Args
from bot.commands.spec import (
    APPLY,
    DICE,
    TARGET,
    OptionSpec,
    flag_opt,
    int_opt,
    stat_opt,
    unit_opt,
)
from rules_core.systems.wm.models import AttackRequest
from rules_core.systems.wm.power import PowerRequest
from rules_core.systems.wm.transitions import EFFECTS

MAX_MODS_TEXT = 200
# The attack's numbers become fields of the rules' AttackRequest: their bounds come from there.
stat = partial(stat_opt, AttackRequest)
power_stat = partial(stat_opt, PowerRequest)
BOOSTS = ("hit", "damage", "both")
Boost = Literal["hit", "damage", "both"]

Int = int | None
Text = str | None


class AttackArgs(Args):
    """/wm odds, and the first options of /wm attack."""

    type: Annotated[
        Literal["melee", "ranged", "magic"] | None,
        OptionSpec("type", choices=("melee", "ranged", "magic"), aliases=("tipo",)),
    ] = None
    skill: Annotated[
        Int, stat("skill", "skill", "mat", "rat", "focus", "mag", "abilita", "dat")
    ] = None
    def_: Annotated[Int, stat("defense", "def", "dif", "defense", "difesa")] = None
    pow: Annotated[Int, stat("pow", "pow", "potenza", "pot")] = None
    str_: Annotated[Int, stat("str_", "str", "forza", "for")] = None
    arm: Annotated[Int, stat("arm", "arm", "armatura")] = None
    boost: Annotated[Boost | None, OptionSpec("boost", choices=BOOSTS, aliases=("potenzia",))] = (
        None
    )
    mods: Annotated[
        Text, OptionSpec("mods", max_length=MAX_MODS_TEXT, aliases=("mod", "modificatori"))
    ] = None
    combined: Annotated[Int, stat("combined", "combined", "combinato")] = None
    extra_hit_dice: Annotated[Int, stat("extra_hit_dice", "extra_hit_dice", "dadi_attacco")] = None
    extra_damage_dice: Annotated[
        Int, stat("extra_damage_dice", "extra_damage_dice", "dadi_danno")
    ] = None
    blast: Annotated[bool, flag_opt("blast", "esplosione")] = False
    hit_mod: Annotated[Int, stat("hit_mod", "hit_mod", "mod_attacco")] = None
    def_mod: Annotated[Int, stat("def_mod", "def_mod", "mod_dif")] = None
    dmg_mod: Annotated[Int, stat("dmg_mod", "dmg_mod", "mod_danno")] = None
    shield: Annotated[Int, stat("shield_arm", "shield", "scudo", "scudi")] = None
    attacker: Annotated[Text, unit_opt("attacker", "attaccante", "unit", "unita")] = None
    weapon: Annotated[Text, OptionSpec("weapon", max_length=40, aliases=("arma",))] = None
    target: Annotated[Text, TARGET] = None


class WmAttackArgs(AttackArgs):
    apply: Annotated[bool, APPLY] = False
    effect: Annotated[Text, OptionSpec("effect", choices=EFFECTS, aliases=("effetto",))] = None
    crit_effect: Annotated[
        Text, OptionSpec("crit_effect", choices=EFFECTS, aliases=("effetto_critico",))
    ] = None
    direct_crit: Annotated[bool, flag_opt("direct_crit", "critico_diretto")] = False
    model: Annotated[Int, int_opt("model", "modello", lo=1, hi=100)] = None
    dice: Annotated[list[int] | None, DICE] = None


class CheckArgs(Args):
    value_: Annotated[Int, int_opt("value", "valore", "cmd", lo=0, hi=30)] = None
    target: Annotated[Text, TARGET] = None
    dice: Annotated[list[int] | None, DICE] = None


class FallArgs(Args):
    height: Annotated[str, OptionSpec("height", required=True, max_length=10, aliases=("altezza",))]
    arm: Annotated[Int, int_opt("arm", "armatura", hi=40)] = None
    target: Annotated[Text, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class DeviateArgs(Args):
    distance: Annotated[
        str, OptionSpec("distance", required=True, max_length=10, aliases=("distanza",))
    ]
    thrown: Annotated[bool, flag_opt("thrown", "lanciato")] = False
    dice: Annotated[list[int] | None, DICE] = None


class AllocateArgs(Args):
    jack: Annotated[str, unit_opt("jack", positional=True, required=True)]
    amount: Annotated[
        int,
        OptionSpec(
            "amount",
            type="int",
            positional=True,
            required=True,
            min_value=1,
            max_value=3,
            aliases=("quanti",),
        ),
    ]
    caster: Annotated[Text, unit_opt("caster", "warcaster")] = None


class SettingsArgs(Args):
    """/wm settings: one option per setting (rules_core.systems.wm.settings), the book's
    Italian names as aliases (deviazione, colpo automatico)."""

    deviation_layout: Annotated[
        Literal["clockwise", "counterclockwise"] | None,
        OptionSpec(
            "deviation_layout",
            choices=("clockwise", "counterclockwise"),
            aliases=("deviazione", "disposizione_deviazione"),
        ),
    ] = None
    roll_autohit: Annotated[
        Literal["no", "yes"] | None,
        OptionSpec("roll_autohit", choices=("no", "yes"), aliases=("tira_colpo_automatico",)),
    ] = None


class HealArgs(Args):
    name: Annotated[str, unit_opt("name", positional=True, required=True)]
    amount: Annotated[
        int,
        OptionSpec(
            "amount",
            type="int",
            positional=True,
            required=True,
            min_value=1,
            max_value=200,
            aliases=("quanti",),
        ),
    ]
    column: Annotated[Int, int_opt("column", "colonna", lo=1, hi=6)] = None
    system: Annotated[Text, OptionSpec("system", max_length=1, aliases=("sistema",))] = None


class FeatArgs(Args):
    caster: Annotated[str, unit_opt("caster", "warcaster", positional=True, required=True)]


class GearArgs(Args):
    name: Annotated[str, unit_opt("name", positional=True, required=True)]
    shields: Annotated[Text, OptionSpec("shields", max_length=20, aliases=("scudo", "scudi"))] = (
        None
    )
    bucklers: Annotated[Text, OptionSpec("bucklers", max_length=20, aliases=("buckler",))] = None
    fists: Annotated[Text, OptionSpec("fists", max_length=20, aliases=("mani_libere", "mani"))] = (
        None
    )


class FirstArgs(Args):
    dice: Annotated[list[int] | None, DICE] = None


class PowerArgs(Args):
    kind: Annotated[
        str,
        OptionSpec("kind", positional=True, required=True, max_length=30, aliases=("tipo",)),
    ]
    attacker: Annotated[Text, unit_opt("attacker", "attaccante", "unit", "unita", "warjack")] = None
    target: Annotated[Text, TARGET] = None
    mat: Annotated[Int, power_stat("skill", "mat", "mischia")] = None
    def_: Annotated[Int, power_stat("defense", "def", "dif", "difesa")] = None
    str_: Annotated[Int, power_stat("str_", "str", "forza", "for")] = None
    target_str: Annotated[
        Int, power_stat("target_str", "target_str", "forza_bersaglio", "for_bersaglio")
    ] = None
    arm: Annotated[Int, power_stat("arm", "arm", "armatura")] = None
    larger_base: Annotated[bool, flag_opt("larger_base", "basetta_maggiore")] = False
    contact: Annotated[bool, flag_opt("contact", "contatto")] = False
    short: Annotated[bool, flag_opt("short", "corto")] = False
    boost: Annotated[Boost | None, OptionSpec("boost", choices=BOOSTS, aliases=("potenzia",))] = (
        None
    )
    charge: Annotated[bool, flag_opt("charge", "carica")] = False
    hit_mod: Annotated[Int, power_stat("hit_mod", "hit_mod", "mod_attacco")] = None
    collateral: Annotated[
        Text, OptionSpec("collateral", max_length=200, aliases=("collaterale",))
    ] = None
    models: Annotated[Int, int_opt("models", "modelli", lo=1, hi=20)] = None
    grab: Annotated[Text, OptionSpec("grab", max_length=40, aliases=("afferra", "presa"))] = None
    fist: Annotated[Text, OptionSpec("fist", max_length=3, aliases=("mano",))] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class BreakArgs(Args):
    name: Annotated[str, unit_opt("name", positional=True, required=True)]
    release: Annotated[bool, flag_opt("release", "rilascia")] = False
    dice: Annotated[list[int] | None, DICE] = None
