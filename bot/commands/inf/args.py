"""/inf's options, one typed class per command (`bot.commands.args`); the handlers read them
as `ctx.args(Cls)`. Field order is option order (positional options and usage lines read it)."""

from __future__ import annotations

from dataclasses import replace
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
    signed_opt,
    stat_opt,
    unit_opt,
)
from rules_core.systems.inf.models import Side
from rules_core.systems.inf.recovery import METHODS, HealRequest, Method, Patient
from rules_core.systems.inf.tables import TEMPLATE_CHOICES, TemplateChoice, Weapon
from rules_core.systems.inf.template import TemplateRequest, TemplateTarget

Stat = Literal["cc", "bs", "ph", "wip", "arm", "bts"]
STATS: tuple[Stat, ...] = ("cc", "bs", "ph", "wip", "arm", "bts")

# Infinity's values and modifiers run to 30 (d20 rolls), past the builders' default 20.
num = partial(int_opt, hi=30)
sig = partial(signed_opt, limit=30)
# The numbers that become fields of the rules' `Side`: their bounds come from there.
side = partial(stat_opt, Side)


def required(opt: OptionSpec) -> OptionSpec:
    return replace(opt, required=True)


# Free text, not `choices`: ammo_code also takes the Italian names (FUOCO, MONOFILARE...).
AMMO_OPT = OptionSpec("ammo", max_length=20, aliases=("munizione", "mun"))
WEAPON_OPT = OptionSpec("weapon", max_length=30, aliases=("arma",))
# `attack unit=… weapon=… target=…`: the attacking unit's stats and stored weapons are read.
ATTACKING_UNIT = unit_opt("attacker", "attaccante", "unit", "unita")
ODDS_FLAG = flag_opt("odds", "probabilita")


# Several models in one option: names (or positions 1, 2, ...) separated by commas.
def names_opt(name: str, *aliases: str, required: bool = False) -> OptionSpec:
    return OptionSpec(name, max_length=200, required=required, aliases=aliases)


class RollBase(Args):
    """The active roll: attribute, MOD and Burst."""

    attr: Annotated[int | None, side("attr", "attr", "attributo", "val")] = None
    mod: Annotated[int | None, side("mod", "mod")] = None
    burst: Annotated[int | None, side("burst", "burst", "b", "raffica", "r")] = None


class RollArgs(RollBase):
    stat: Annotated[
        Stat | None, OptionSpec("stat", choices=STATS, aliases=("attributo_unita",))
    ] = None
    target: Annotated[str | None, TARGET] = None
    dice: Annotated[list[int] | None, DICE] = None


class FtfArgs(Args):
    attr: Annotated[int, required(side("attr", "attr", "attributo", "val"))]
    mod: Annotated[int | None, side("mod", "mod")] = None
    burst: Annotated[int | None, side("burst", "burst", "b", "raffica", "r")] = None
    vs: Annotated[int, required(side("attr", "vs", "contro"))]
    vs_mod: Annotated[int | None, side("mod", "vs_mod", "mod_contro")] = None
    vs_burst: Annotated[int | None, side("burst", "vs_burst", "raffica_contro")] = None
    dice: Annotated[list[int] | None, DICE] = None


class OddsArgs(RollBase):
    """`/inf odds`, and the first options of `/inf attack`. Discord allows 25 options a
    command: the attacker's BTS (used when the target answers with E/M or Nanotech) is read
    from attacker= only."""

    vs: Annotated[int | None, side("attr", "vs", "contro")] = None
    vs_mod: Annotated[int | None, side("mod", "vs_mod", "mod_contro")] = None
    vs_burst: Annotated[int | None, side("burst", "vs_burst", "raffica_contro")] = None
    dam: Annotated[int | None, side("dam", "dam", "danno", "d")] = None
    ammo: Annotated[str | None, AMMO_OPT] = None
    arm: Annotated[int | None, side("arm", "arm", "armatura")] = None
    bts: Annotated[int | None, side("bts", "bts", "pb")] = None
    cover: Annotated[bool, flag_opt("cover", "copertura")] = False
    w: Annotated[int | None, side("w", "w", "f", "ferite")] = None
    my_cover: Annotated[bool, flag_opt("my_cover", "mia_copertura")] = False
    vs_dam: Annotated[int | None, side("dam", "vs_dam", "danno_contro")] = None
    vs_ammo: Annotated[
        str | None, OptionSpec("vs_ammo", max_length=20, aliases=("mun_contro",))
    ] = None
    my_arm: Annotated[int | None, side("arm", "my_arm", "mia_arm", "mia_armatura")] = None
    my_w: Annotated[int | None, side("w", "my_w", "mia_f", "mie_ferite")] = None
    weapon: Annotated[str | None, WEAPON_OPT] = None
    distance: Annotated[int | None, num("distance", "distanza", hi=500)] = None
    cc: Annotated[bool, flag_opt("cc", "corpo_a_corpo")] = False
    charge: Annotated[bool, flag_opt("charge", "carica")] = False
    attacker: Annotated[str | None, ATTACKING_UNIT] = None
    target: Annotated[str | None, TARGET] = None


class AttackArgs(OddsArgs):
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


ATTACK_ROLL = stat_opt(TemplateRequest, "attr", "attr", "attributo", "val")


class TemplateArgs(Args):
    weapon: Annotated[str | None, WEAPON_OPT] = None
    # an area template's attack roll, rolled here: BS (or PH) with MOD and the range band
    attr: Annotated[int | None, ATTACK_ROLL] = None
    vs: Annotated[int | None, stat_opt(TemplateRequest, "vs", "vs", "contro")] = None
    # what that shot back does when it wins (as /inf attack's), and the shooter it hits
    vs_dam: Annotated[int | None, side("dam", "vs_dam", "danno_contro")] = None
    vs_ammo: Annotated[
        str | None, OptionSpec("vs_ammo", max_length=20, aliases=("mun_contro",))
    ] = None
    attacker: Annotated[str | None, ATTACKING_UNIT] = None
    my_arm: Annotated[int | None, side("arm", "my_arm", "mia_arm", "mia_armatura")] = None
    my_w: Annotated[int | None, side("w", "my_w", "mia_f", "mie_ferite")] = None
    mod: Annotated[int | None, stat_opt(TemplateRequest, "mod", "mod")] = None
    distance: Annotated[int | None, num("distance", "distanza", hi=500)] = None
    dam: Annotated[int | None, side("dam", "dam", "danno", "d")] = None
    ammo: Annotated[str | None, AMMO_OPT] = None
    targets: Annotated[str | None, names_opt("targets", "bersagli")] = None
    dodge: Annotated[str | None, names_opt("dodge", "schivano")] = None
    dodge_mod: Annotated[
        int | None, stat_opt(TemplateTarget, "dodge_mod", "dodge_mod", "mod_schivata")
    ] = None
    cover: Annotated[str | None, names_opt("cover", "copertura")] = None
    double: Annotated[str | None, names_opt("double", "due_sagome")] = None
    critical: Annotated[str | None, names_opt("critical", "critico")] = None
    arm: Annotated[int | None, side("arm", "arm", "armatura")] = None
    bts: Annotated[int | None, side("bts", "bts", "pb")] = None
    w: Annotated[int | None, side("w", "w", "f", "ferite")] = None
    ph: Annotated[int | None, side("ph", "ph", "fis")] = None
    odds: Annotated[bool, ODDS_FLAG] = False
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class SplitArgs(RollBase):
    dam: Annotated[int | None, side("dam", "dam", "danno", "d")] = None
    ammo: Annotated[str | None, AMMO_OPT] = None
    weapon: Annotated[str | None, WEAPON_OPT] = None
    attacker: Annotated[str | None, ATTACKING_UNIT] = None
    targets: Annotated[str | None, names_opt("targets", "bersagli")] = None
    shots: Annotated[str, names_opt("shots", "colpi", required=True)]
    vs: Annotated[str | None, names_opt("vs", "contro")] = None
    vs_mod: Annotated[str | None, names_opt("vs_mod", "mod_contro")] = None
    vs_dam: Annotated[str | None, names_opt("vs_dam", "danno_contro")] = None
    mods: Annotated[str | None, names_opt("mods", "mod_bersagli")] = None
    arm: Annotated[str | None, names_opt("arm", "armatura")] = None
    w: Annotated[str | None, names_opt("w", "ferite")] = None
    cover: Annotated[str | None, names_opt("cover", "copertura")] = None
    my_arm: Annotated[int | None, side("arm", "my_arm", "mia_arm", "mia_armatura")] = None
    my_w: Annotated[int | None, side("w", "my_w", "mia_f", "mie_ferite")] = None
    odds: Annotated[bool, ODDS_FLAG] = False
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class HealArgs(Args):
    method: Annotated[
        Method,
        OptionSpec("method", positional=True, required=True, choices=METHODS, aliases=("metodo",)),
    ]
    unit: Annotated[str | None, unit_opt("unit", "unita", "paziente", positional=True)] = None
    doctor: Annotated[str | None, unit_opt("doctor", "medico")] = None
    wip: Annotated[int | None, stat_opt(HealRequest, "wip", "wip", "vol")] = None
    mod: Annotated[int | None, stat_opt(HealRequest, "mod", "mod")] = None
    ph: Annotated[int | None, stat_opt(Patient, "ph", "ph", "fis")] = None
    w: Annotated[int | None, stat_opt(Patient, "w", "w", "f", "ferite")] = None
    wounds: Annotated[int | None, stat_opt(Patient, "wounds", "wounds", "subite")] = None
    coordinated: Annotated[bool, flag_opt("coordinated", "coordinato")] = False
    odds: Annotated[bool, ODDS_FLAG] = False
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class RangeArgs(Args):
    weapon: Annotated[str, required(WEAPON_OPT)]
    distance: Annotated[int, num("distance", "distanza", "cm", hi=500, required=True)]


class WeaponArgs(Args):
    action: Annotated[
        Literal["list", "add", "remove"] | None,
        OptionSpec(
            "action", positional=True, choices=("list", "add", "remove"), aliases=("azione",)
        ),
    ] = None
    name: Annotated[str | None, OptionSpec("name", max_length=30, aliases=("nome",))] = None
    bands: Annotated[str | None, OptionSpec("bands", max_length=80, aliases=("fasce",))] = None
    # Text: PH-based Damage (`PH+1`) is a Damage too.
    dam: Annotated[str | None, OptionSpec("dam", max_length=8, aliases=("danno",))] = None
    burst: Annotated[int | None, stat_opt(Weapon, "burst", "burst", "raffica", "b")] = None
    ammo: Annotated[str | None, AMMO_OPT] = None
    template: Annotated[
        TemplateChoice | None,
        OptionSpec("template", choices=TEMPLATE_CHOICES, aliases=("sagoma",)),
    ] = None


class LoadoutArgs(Args):
    unit: Annotated[str, unit_opt("unit", "unita", positional=True, required=True)]
    weapons: Annotated[str, OptionSpec("weapons", required=True, max_length=120, aliases=("armi",))]


class OrdersArgs(Args):
    action: Annotated[
        Literal["show", "spend", "recount", "coordinate", "lieutenant"] | None,
        OptionSpec(
            "action",
            positional=True,
            choices=("show", "spend", "recount", "coordinate", "lieutenant"),
            aliases=("azione",),
        ),
    ] = None
    unit: Annotated[str | None, unit_opt("unit", "unita", positional=True)] = None
    units: Annotated[str | None, names_opt("units", "miniature")] = None
    n: Annotated[int | None, num("n", lo=1, hi=30)] = None
    lt: Annotated[bool, flag_opt("lt", "tenente")] = False


class InitiativeArgs(Args):
    wip: Annotated[int, num("wip", "vol", required=True)]
    mod: Annotated[int | None, sig("mod")] = None
    vs: Annotated[int, num("vs", "contro", required=True)]
    vs_mod: Annotated[int | None, sig("vs_mod", "mod_contro")] = None
    dice: Annotated[list[int] | None, DICE] = None


class RetreatArgs(Args):
    lost: Annotated[int | None, num("lost", "persi", hi=10000)] = None
    total: Annotated[int | None, num("total", "totale", hi=10000)] = None
    morat: Annotated[bool, flag_opt("morat")] = False
