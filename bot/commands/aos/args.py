"""/aos's options, one typed class per command (`bot.commands.args`); the handlers read them
as `ctx.args(Cls)`. Field order is option order (positional options and usage lines read it)."""

from __future__ import annotations

from functools import partial
from typing import Annotated

from bot.commands.args import Args
from bot.commands.spec import (
    APPLY,
    DICE,
    OptionSpec,
    flag_opt,
    int_opt,
    signed_opt,
    stat_opt,
    unit_opt,
)
from rules_core.systems.aos.models import AttackRequest


def text_opt(name: str, *aliases: str, required: bool = False) -> OptionSpec:
    return OptionSpec(name, max_length=40, aliases=aliases, required=required)


# The attack's numbers that become fields of the rules' AttackRequest take its bounds.
stat = partial(stat_opt, AttackRequest)
MOD = signed_opt("mod", "modificatore", limit=9)
TARGET = unit_opt(
    "target", "bersaglio", "unit", "unita", "caster", "priest", "mago", "lanciatore", "prete"
)


# A weapon's characteristics as typed (`D6`, `3+`, `-1`...): the rules read the text.
ATTACKS = text_opt("attacks", "attacchi", "a")
HIT = text_opt("hit", "colpire", "per_colpire")
WOUND = text_opt("wound", "ferire", "per_ferire")
REND = text_opt("rend", "impatto")
DAMAGE = text_opt("damage", "danni", "d")


class OddsArgs(Args):
    """`/aos odds`, and the first options of `/aos attack`."""

    attacks: Annotated[str | None, ATTACKS] = None
    hit: Annotated[str | None, HIT] = None
    wound: Annotated[str | None, WOUND] = None
    rend: Annotated[str | None, REND] = None
    damage: Annotated[str | None, DAMAGE] = None
    save: Annotated[str | None, text_opt("save", "salvezza", "sv")] = None
    ward: Annotated[str | None, text_opt("ward", "protezione")] = None
    hit_mod: Annotated[int | None, stat("hit_mod", "hit_mod", "mod_colpire")] = None
    wound_mod: Annotated[int | None, stat("wound_mod", "wound_mod", "mod_ferire")] = None
    save_mod: Annotated[int | None, stat("save_mod", "save_mod", "mod_salvezza")] = None
    reroll_hit: Annotated[str | None, text_opt("reroll_hit", "ripeti_colpire")] = None
    reroll_wound: Annotated[str | None, text_opt("reroll_wound", "ripeti_ferire")] = None
    reroll_save: Annotated[str | None, text_opt("reroll_save", "ripeti_salvezza")] = None
    on6_hit: Annotated[str | None, text_opt("on6_hit", "sei_colpire")] = None
    on6_wound: Annotated[str | None, text_opt("on6_wound", "sei_ferire")] = None
    models: Annotated[int | None, stat("models", "models", "modelli")] = None
    wounds_per_model: Annotated[
        int | None, stat("wounds_per_model", "wounds_per_model", "ferite", "wounds")
    ] = None
    target: Annotated[str | None, unit_opt("target", "bersaglio")] = None
    attacker: Annotated[str | None, unit_opt("attacker", "attaccante", "unit", "unita")] = None
    weapon: Annotated[str | None, text_opt("weapon", "arma")] = None
    attacking_models: Annotated[
        int | None, stat("attack_rolls", "attacking_models", "modelli_attaccanti")
    ] = None


class AttackArgs(OddsArgs):
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class BattleshockArgs(Args):
    bravery: Annotated[int | None, int_opt("bravery", "coraggio", lo=1, hi=20)] = None
    slain: Annotated[int | None, int_opt("slain", "uccisi", hi=100)] = None
    mod: Annotated[int | None, MOD] = None
    target: Annotated[str | None, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class CastArgs(Args):
    value: Annotated[int, int_opt("value", "valore", lo=2, hi=20, required=True)]
    mod: Annotated[int | None, MOD] = None
    target: Annotated[str | None, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class UnbindArgs(Args):
    roll: Annotated[int, int_opt("roll", "tiro", lo=2, hi=30, required=True)]
    mod: Annotated[int | None, MOD] = None
    dice: Annotated[list[int] | None, DICE] = None


class PrayArgs(Args):
    value: Annotated[int, int_opt("value", "valore", lo=1, hi=7, required=True)]
    mod: Annotated[int | None, MOD] = None
    target: Annotated[str | None, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class ChargeArgs(Args):
    mod: Annotated[int | None, MOD] = None
    # Text: a decimal distance (7.5, or 7,5 in Italian), read by the rules.
    distance: Annotated[str | None, OptionSpec("distance", max_length=8, aliases=("distanza",))] = (
        None
    )
    target: Annotated[str | None, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class RunArgs(Args):
    move: Annotated[int | None, int_opt("move", "movimento", hi=40)] = None
    mod: Annotated[int | None, MOD] = None
    target: Annotated[str | None, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class CheckArgs(Args):
    # Free text: the kind's English and Italian words are read by the handler (CHECK_KINDS).
    kind: Annotated[
        str, OptionSpec("kind", positional=True, required=True, max_length=20, aliases=("tipo",))
    ]
    slain: Annotated[int | None, int_opt("slain", "uccisi", hi=100)] = None
    bravery: Annotated[int | None, int_opt("bravery", "coraggio", lo=1, hi=20)] = None
    value: Annotated[int | None, int_opt("value", "valore", lo=1, hi=20)] = None
    general_slain: Annotated[bool, flag_opt("general_slain", "generale_ucciso")] = False
    mod: Annotated[int | None, MOD] = None
    target: Annotated[str | None, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class PriorityArgs(Args):
    tie: Annotated[str | None, OptionSpec("tie", max_length=40, aliases=("pareggio",))] = None
    deployed: Annotated[
        str | None, OptionSpec("deployed", max_length=40, aliases=("schierato",))
    ] = None
    goes: Annotated[str | None, OptionSpec("goes", max_length=10, aliases=("va",))] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[list[int] | None, DICE] = None


class CommandArgs(Args):
    name: Annotated[
        str | None,
        OptionSpec("name", type="text", positional=True, max_length=40, aliases=("nome",)),
    ] = None
    unit: Annotated[str | None, unit_opt("unit", "unita")] = None
    by: Annotated[str | None, unit_opt("by", "da", "issuer")] = None
    free: Annotated[bool, flag_opt("free", "gratis")] = False


class ObjectiveArgs(Args):
    # `Vindictors:3, Lord-Celestant` (quoted when it has spaces), read by the rules
    # (battlefield.parse_side).
    friendly: Annotated[
        str,
        OptionSpec("friendly", positional=True, required=True, max_length=300, aliases=("amici",)),
    ]
    enemy: Annotated[str | None, OptionSpec("enemy", max_length=300, aliases=("nemici",))] = None


class WeaponArgs(Args):
    unit: Annotated[str, unit_opt("unit", "unita", positional=True, required=True)]
    name: Annotated[
        str, OptionSpec("name", positional=True, required=True, max_length=30, aliases=("nome",))
    ]
    range: Annotated[str | None, text_opt("range", "gittata")] = None
    attacks: Annotated[str | None, ATTACKS] = None
    hit: Annotated[str | None, HIT] = None
    wound: Annotated[str | None, WOUND] = None
    rend: Annotated[str | None, REND] = None
    damage: Annotated[str | None, DAMAGE] = None
    remove: Annotated[bool, flag_opt("remove", "rimuovi")] = False


class TableArgs(Args):
    unit: Annotated[str, unit_opt("unit", "unita", positional=True, required=True)]
    rows: Annotated[
        str,
        OptionSpec(
            "rows", type="text", positional=True, required=True, max_length=300, aliases=("righe",)
        ),
    ]


class FightArgs(Args):
    unit: Annotated[str, unit_opt("unit", "unita", positional=True, required=True)]
    again: Annotated[bool, flag_opt("again", "ancora")] = False
