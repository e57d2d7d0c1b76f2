"""/wm declarations: the commands' names, Italian aliases, options and examples."""

from __future__ import annotations

from functools import partial

from bot.commands.spec import (
    APPLY,
    DICE,
    TARGET,
    CommandSpec,
    OptionSpec,
    flag_opt,
    int_opt,
    odds_spec,
    signed_opt,
    stat_opt,
    unit_opt,
)
from bot.commands.wm import handlers as h
from rules_core.systems.wm.models import AttackRequest
from rules_core.systems.wm.settings import CHOICES
from rules_core.systems.wm.transitions import EFFECTS

MAX_MODS_TEXT = 200
# Italian names of the settings (the book's words: deviazione, colpo automatico).
SETTING_ALIASES = {
    "deviation_layout": ("deviazione", "disposizione_deviazione"),
    "roll_autohit": ("tira_colpo_automatico",),
}
# The attack's numbers become fields of the rules' AttackRequest: their bounds come from there.
stat = partial(stat_opt, AttackRequest)
ATTACK_OPTIONS = (
    OptionSpec("type", choices=("melee", "ranged", "magic"), aliases=("tipo",)),
    stat("skill", "skill", "mat", "rat", "focus", "mag", "abilita", "dat"),
    stat("defense", "def", "dif", "defense", "difesa"),
    stat("pow", "pow", "potenza", "pot"),
    stat("str_", "str", "forza", "for"),
    stat("arm", "arm", "armatura"),
    OptionSpec("boost", choices=("hit", "damage", "both"), aliases=("potenzia",)),
    OptionSpec("mods", max_length=MAX_MODS_TEXT, aliases=("mod", "modificatori")),
    stat("combined", "combined", "combinato"),
    stat("extra_hit_dice", "extra_hit_dice", "dadi_attacco"),
    stat("extra_damage_dice", "extra_damage_dice", "dadi_danno"),
    flag_opt("blast", "esplosione"),
    stat("hit_mod", "hit_mod", "mod_attacco"),
    stat("def_mod", "def_mod", "mod_dif"),
    stat("dmg_mod", "dmg_mod", "mod_danno"),
    stat("shield_arm", "shield", "scudo", "scudi"),
    unit_opt("attacker", "attaccante", "unit", "unita"),
    OptionSpec("weapon", max_length=40, aliases=("arma",)),
    TARGET,
)

SPECS = [
    CommandSpec(
        path=("wm", "attack"),
        handler=h.attack,
        aliases=("attacco",),
        options=(
            *ATTACK_OPTIONS,
            APPLY,
            OptionSpec("effect", choices=EFFECTS, aliases=("effetto",)),
            OptionSpec("crit_effect", choices=EFFECTS, aliases=("effetto_critico",)),
            flag_opt("direct_crit", "critico_diretto"),
            int_opt("model", "modello", lo=1, hi=100),
            DICE,
        ),
        examples=(
            "/wm attack mat=7 def=12 pow=12 str=10 arm=18 mods=charge",
            "/wm attack type=ranged rat=6 def=13 pow=10 arm=15 boost=hit mods=aim,cover",
            "/wm attack mat=6 pow=12 str=11 target=Juggernaut apply dice=4,5,3,6,2,4",
            '/wm attack attacker=Ironclad weapon="Quake Hammer" target=Juggernaut',
        ),
    ),
    odds_spec(
        "wm", h.odds, ATTACK_OPTIONS, "/wm odds mat=7 def=13 pow=12 str=10 arm=18 mods=charge"
    ),
    CommandSpec(
        path=("wm", "check"),
        handler=h.check,
        aliases=("test",),
        options=(int_opt("value", "valore", "cmd", lo=0, hi=30), TARGET, DICE),
        examples=("/wm check value=9", "/wm test valore=8 dadi=3,4", "/wm check target=Trenchers"),
    ),
    CommandSpec(
        path=("wm", "fall"),
        handler=h.fall,
        aliases=("caduta",),
        options=(
            OptionSpec("height", required=True, max_length=10, aliases=("altezza",)),
            int_opt("arm", "armatura", hi=40),
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/wm fall height=5 arm=14",),
    ),
    CommandSpec(
        path=("wm", "deviate"),
        handler=h.deviate,
        aliases=("devia", "deviazione"),
        options=(
            OptionSpec("distance", required=True, max_length=10, aliases=("distanza",)),
            flag_opt("thrown", "lanciato"),
            DICE,
        ),
        examples=("/wm deviate distance=11", "/wm deviate distance=5.5 thrown dice=3,6"),
    ),
    CommandSpec(
        path=("wm", "allocate"),
        handler=h.allocate,
        aliases=("alloca",),
        options=(
            unit_opt("jack", positional=True, required=True),
            OptionSpec(
                "amount",
                type="int",
                positional=True,
                required=True,
                min_value=1,
                max_value=3,
                aliases=("quanti",),
            ),
            unit_opt("caster", "warcaster"),
        ),
        examples=("/wm allocate Ironclad 2", "/wm allocate Lancer 1 caster=Stryker"),
    ),
    CommandSpec(
        path=("wm", "settings"),
        handler=h.SETTINGS.command,
        aliases=("impostazioni",),
        options=tuple(
            OptionSpec(name, choices=choices, aliases=SETTING_ALIASES.get(name, ()))
            for name, choices in CHOICES.items()
        ),
        examples=("/wm settings", "/wm settings deviation_layout=counterclockwise"),
    ),
    CommandSpec(
        path=("wm", "heal"),
        handler=h.heal,
        aliases=("cura", "ripara"),
        options=(
            unit_opt("name", positional=True, required=True),
            OptionSpec(
                "amount",
                type="int",
                positional=True,
                required=True,
                min_value=1,
                max_value=200,
                aliases=("quanti",),
            ),
            int_opt("column", "colonna", lo=1, hi=6),
            OptionSpec("system", max_length=1, aliases=("sistema",)),
        ),
        examples=("/wm heal Lancer 1 column=4", "/wm heal Lancer 1 system=M"),
    ),
    CommandSpec(
        path=("wm", "feat"),
        handler=h.feat,
        aliases=("prodigio",),
        options=(unit_opt("caster", "warcaster", positional=True, required=True),),
        examples=("/wm feat Stryker",),
    ),
    CommandSpec(
        path=("wm", "gear"),
        handler=h.gear,
        aliases=("scudi",),
        options=(
            unit_opt("name", positional=True, required=True),
            OptionSpec("shields", max_length=20, aliases=("scudo",)),
            OptionSpec("bucklers", max_length=20, aliases=("buckler",)),
            OptionSpec("fists", max_length=20, aliases=("mani_libere", "mani")),
        ),
        examples=(
            "/wm gear Defender shields=L",
            "/wm gear Ironclad bucklers=R",
            "/wm gear Juggernaut fists=L",
        ),
    ),
    CommandSpec(
        path=("wm", "first"),
        handler=h.first,
        aliases=("inizio", "primo"),
        options=(DICE,),
        examples=("/wm first", "/wm first dice=6,5"),
    ),
    CommandSpec(
        path=("wm", "power"),
        handler=h.power,
        aliases=("forza", "attacco_di_forza"),
        options=(
            OptionSpec("kind", positional=True, required=True, max_length=30, aliases=("tipo",)),
            unit_opt("attacker", "attaccante", "unit", "unita", "warjack"),
            TARGET,
            int_opt("mat", "mischia"),
            int_opt("def", "dif", "difesa", lo=1, hi=30),
            int_opt("str", "forza", "for"),
            int_opt("target_str", "forza_bersaglio", "for_bersaglio"),
            int_opt("arm", "armatura", hi=40),
            flag_opt("larger_base", "basetta_maggiore"),
            flag_opt("contact", "contatto"),
            flag_opt("short", "corto"),
            OptionSpec("boost", choices=("hit", "damage", "both"), aliases=("potenzia",)),
            flag_opt("charge", "carica"),
            signed_opt("hit_mod", "mod_attacco"),
            OptionSpec("collateral", max_length=200, aliases=("collaterale",)),
            int_opt("models", "modelli", lo=1, hi=20),
            OptionSpec("grab", max_length=40, aliases=("afferra", "presa")),
            OptionSpec("fist", max_length=3, aliases=("mano",)),
            APPLY,
            DICE,
        ),
        examples=(
            "/wm power slam mat=7 def=12 str=11 arm=18 contact",
            "/wm power slam attacker=Juggernaut target=Crusader collateral=Flameguard apply",
            "/wm power trample attacker=Juggernaut target=Trenchers models=3 apply",
            "/wm power headlock attacker=Juggernaut target=Slayer grab=H apply",
            "/wm power slam attacker=Juggernaut target=Crusader contact apply",
            "/wm power throw attacker=Crusader target=Deathripper target_str=9",
        ),
    ),
    CommandSpec(
        path=("wm", "break"),
        handler=h.break_lock,
        aliases=("liberati", "libera"),
        options=(
            unit_opt("name", positional=True, required=True),
            flag_opt("release", "rilascia"),
            DICE,
        ),
        examples=("/wm break Slayer", "/wm break Juggernaut release"),
    ),
]
