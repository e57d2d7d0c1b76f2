"""The /aos commands: names, options with their Italian aliases, examples."""

from __future__ import annotations

from functools import partial

from bot.commands.aos.attack import attack, odds
from bot.commands.aos.common import SETTING_CHOICES, SETTING_NAMES_IT, SETTINGS, localized
from bot.commands.aos.profile import damage_table, weapon
from bot.commands.aos.rolls import battleshock, cast, charge, check, pray, run, unbind
from bot.commands.aos.round import command, hero, priority
from bot.commands.spec import (
    APPLY,
    DICE,
    CommandSpec,
    OptionSpec,
    flag_opt,
    int_opt,
    odds_spec,
    signed_opt,
    stat_opt,
    unit_opt,
)
from rules_core.systems.aos.models import AttackRequest
from rules_core.systems.aos.requests import WEAPON_OPTIONS


def text_opt(name: str, *aliases: str, required: bool = False) -> OptionSpec:
    return OptionSpec(name, max_length=40, aliases=aliases, required=required)


# The attack's numbers that become fields of the rules' AttackRequest take its bounds.
stat = partial(stat_opt, AttackRequest)
ATTACK_OPTIONS = (
    text_opt("attacks", "attacchi", "a"),
    text_opt("hit", "colpire", "per_colpire"),
    text_opt("wound", "ferire", "per_ferire"),
    text_opt("rend", "impatto"),
    text_opt("damage", "danni", "d"),
    text_opt("save", "salvezza", "sv"),
    text_opt("ward", "protezione"),
    stat("hit_mod", "hit_mod", "mod_colpire"),
    stat("wound_mod", "wound_mod", "mod_ferire"),
    stat("save_mod", "save_mod", "mod_salvezza"),
    text_opt("reroll_hit", "ripeti_colpire"),
    text_opt("reroll_wound", "ripeti_ferire"),
    text_opt("reroll_save", "ripeti_salvezza"),
    text_opt("on6_hit", "sei_colpire"),
    text_opt("on6_wound", "sei_ferire"),
    stat("models", "models", "modelli"),
    stat("wounds_per_model", "wounds_per_model", "ferite", "wounds"),
    unit_opt("target", "bersaglio"),
    unit_opt("attacker", "attaccante", "unit", "unita"),
    text_opt("weapon", "arma"),
)
MOD = signed_opt("mod", "modificatore", limit=9)
TARGET = unit_opt(
    "target", "bersaglio", "unit", "unita", "caster", "priest", "mago", "lanciatore", "prete"
)

# Choices keep Discord's picker; the Italian words of the values are in the catalogues
# (`values.<setting>`) and update_settings reads them too.
SETTING_OPTIONS = tuple(
    OptionSpec(name, choices=SETTING_CHOICES[name], aliases=(alias,))
    for name, alias in SETTING_NAMES_IT.items()
)

SPECS = [
    CommandSpec(
        path=("aos", "attack"),
        handler=localized(attack),
        aliases=("attacco",),
        options=(*ATTACK_OPTIONS, APPLY, DICE),
        examples=(
            "/aos attack attacks=10 hit=3 wound=3 rend=-1 damage=1 save=4",
            "/aos attack attacks=D6 hit=4 wound=3 damage=D3 save=- ward=6 reroll_hit=ones",
            "/aos attack attacker=Vindictors weapon=Stormspear target=Gutrippaz apply",
        ),
    ),
    odds_spec(
        "aos",
        localized(odds),
        ATTACK_OPTIONS,
        "/aos odds attacks=10 hit=3 wound=3 rend=-1 save=4 models=5 wounds_per_model=1",
        "/aos odds attacks=2D6 hit=3 wound=4 on6_hit=mortal:2 save=5 ward=5",
    ),
    CommandSpec(
        path=("aos", "battleshock"),
        handler=localized(battleshock),
        aliases=("shock",),
        options=(
            int_opt("bravery", "coraggio", lo=1, hi=20),
            int_opt("slain", "uccisi", hi=100),
            MOD,
            TARGET,
            APPLY,
            DICE,
        ),
        examples=(
            "/aos battleshock bravery=6 slain=3",
            "/aos battleshock target=Gutrippaz apply",
        ),
    ),
    CommandSpec(
        path=("aos", "cast"),
        handler=localized(cast),
        aliases=("lancia",),
        options=(
            int_opt("value", "valore", lo=2, hi=20, required=True),
            MOD,
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/aos cast value=7", "/aos cast value=5 mod=+1 target=Knight-Arcanum apply"),
    ),
    CommandSpec(
        path=("aos", "unbind"),
        handler=localized(unbind),
        aliases=("dissipa",),
        options=(
            int_opt("roll", "tiro", lo=2, hi=30, required=True),
            MOD,
            DICE,
        ),
        examples=("/aos unbind roll=8",),
    ),
    CommandSpec(
        path=("aos", "pray"),
        handler=localized(pray),
        aliases=("prega", "intona"),
        options=(
            int_opt("value", "valore", lo=1, hi=7, required=True),
            MOD,
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/aos pray value=4",),
    ),
    CommandSpec(
        path=("aos", "charge"),
        handler=localized(charge),
        aliases=("carica",),
        options=(
            MOD,
            OptionSpec("distance", max_length=8, aliases=("distanza",)),
            TARGET,
            DICE,
        ),
        examples=("/aos charge", "/aos charge distance=7.5 target=Vindictors"),
    ),
    CommandSpec(
        path=("aos", "run"),
        handler=localized(run),
        aliases=("corri",),
        options=(
            int_opt("move", "movimento", hi=40),
            MOD,
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/aos run move=5", "/aos run target=Vindictors apply"),
    ),
    CommandSpec(
        path=("aos", "check"),
        handler=localized(check),
        aliases=("prova",),
        options=(
            OptionSpec("kind", positional=True, required=True, max_length=20, aliases=("tipo",)),
            int_opt("slain", "uccisi", hi=100),
            int_opt("bravery", "coraggio", lo=1, hi=20),
            int_opt("value", "valore", lo=1, hi=20),
            flag_opt("general_slain", "generale_ucciso"),
            MOD,
            TARGET,
            APPLY,
            DICE,
        ),
        examples=(
            "/aos check rally slain=4",
            "/aos check recovery target=Lord apply",
            "/aos check dispel value=6",
        ),
    ),
    CommandSpec(
        path=("aos", "priority"),
        handler=localized(priority),
        aliases=("priorita",),
        options=(
            OptionSpec("tie", max_length=40, aliases=("pareggio",)),
            OptionSpec("deployed", max_length=40, aliases=("schierato",)),
            OptionSpec("goes", max_length=10, aliases=("va",)),
            APPLY,
            DICE,
        ),
        examples=(
            "/aos priority",
            "/aos priority apply",
            "/aos priority deployed=@Ann apply goes=second",
        ),
    ),
    CommandSpec(
        path=("aos", "hero"), handler=localized(hero), aliases=("eroi",), examples=("/aos hero",)
    ),
    CommandSpec(
        path=("aos", "command"),
        handler=localized(command),
        aliases=("comando",),
        options=(
            OptionSpec("name", type="text", positional=True, max_length=40, aliases=("nome",)),
            unit_opt("unit", "unita"),
        ),
        examples=("/aos command", "/aos command all-out attack unit=Vindictors"),
    ),
    CommandSpec(
        path=("aos", "weapon"),
        handler=localized(weapon),
        aliases=("arma",),
        options=(
            unit_opt("unit", "unita", positional=True, required=True),
            OptionSpec("name", positional=True, required=True, max_length=30, aliases=("nome",)),
            text_opt("range", "gittata"),
            *(o for o in ATTACK_OPTIONS if o.name in WEAPON_OPTIONS),
            flag_opt("remove", "rimuovi"),
        ),
        examples=(
            "/aos weapon Vindictors Stormspear range=2 attacks=2 hit=3 wound=3 rend=-1 damage=1",
        ),
    ),
    CommandSpec(
        path=("aos", "table"),
        handler=localized(damage_table),
        aliases=("tabella",),
        options=(
            unit_opt("unit", "unita", positional=True, required=True),
            OptionSpec(
                "rows",
                type="text",
                positional=True,
                required=True,
                max_length=300,
                aliases=("righe",),
            ),
        ),
        examples=('/aos table Drake "0:move=12,claws=6 5:move=11,claws=5 9:move=10,claws=4"',),
    ),
    CommandSpec(
        path=("aos", "settings"),
        handler=localized(SETTINGS.command),
        aliases=("impostazioni",),
        options=SETTING_OPTIONS,
        examples=("/aos settings", "/aos settings save_cap=bonus_only hero_cp=own"),
    ),
]
