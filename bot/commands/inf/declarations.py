"""/inf's commands: names, Italian aliases, options and their bounds, examples."""

from __future__ import annotations

from functools import partial

from bot.commands.inf.attack import attack_cmd, odds_cmd
from bot.commands.inf.common import SETTINGS
from bot.commands.inf.multi import heal_cmd, split_cmd, template_cmd
from bot.commands.inf.orders import orders_cmd, retreat_cmd
from bot.commands.inf.rolls import ftf_cmd, initiative_cmd, roll_cmd
from bot.commands.inf.weapons import loadout_cmd, range_cmd, weapon_cmd
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
from rules_core.systems.inf.models import SETTING_CHOICES, Side
from rules_core.systems.inf.recovery import METHODS
from rules_core.systems.inf.tables import TEMPLATES

STATS = ("cc", "bs", "ph", "wip", "arm", "bts")
# The settings' Italian names, in the book's terms.
SETTING_NAMES_IT: dict[str, tuple[str, ...]] = {
    "retreat": ("ritirata",),
    "initiative": ("iniziativa",),
    "ap_zero_becomes_one": ("ap_arm_zero",),
    "shock_crit_kills": ("critico_shock",),
    "fire_crit_burns": ("critico_fuoco",),
    "mono_cover": ("copertura_monofilo",),
    "em_crit": ("critico_em",),
    "adh_crit": ("critico_adesivo",),
    "dodge_tie": ("pareggio_schivata",),
    "rem_em": ("rem_colpito_em",),
    "structure": ("struttura",),
}

# Infinity's values and modifiers run to 30 (d20 rolls), past the builders' default 20.
num = partial(int_opt, hi=30)
sig = partial(signed_opt, limit=30)
# Free text, not `choices`: ammo_code also takes the Italian names (FUOCO, MONOFILARE...).
AMMO_OPT = OptionSpec("ammo", max_length=20, aliases=("munizione", "mun"))
VS_AMMO = OptionSpec("vs_ammo", max_length=20, aliases=("mun_contro",))
# The attack's numbers become fields of the rules' `Side`: their bounds come from there.
side = partial(stat_opt, Side)
ROLL_OPTS = (
    side("attr", "attr", "attributo", "val"),
    side("mod", "mod"),
    side("burst", "burst", "b", "raffica", "r"),
)
VS_OPTS = (
    side("attr", "vs", "contro"),
    side("mod", "vs_mod", "mod_contro"),
    side("burst", "vs_burst", "raffica_contro"),
)
# `attack unit=… weapon=… target=…`: the attacking unit's stats and stored weapons are read.
ATTACKING_UNIT = unit_opt("attacker", "attaccante", "unit", "unita")
# Discord allows 25 options a command: the attacker's BTS (used when the target answers with
# E/M or Nanotech) is read from attacker= only.
ATTACK_OPTS = (
    *ROLL_OPTS,
    *VS_OPTS,
    side("dam", "dam", "danno", "d"),
    AMMO_OPT,
    side("arm", "arm", "armatura"),
    side("bts", "bts", "pb"),
    flag_opt("cover", "copertura"),
    side("w", "w", "f", "ferite"),
    flag_opt("my_cover", "mia_copertura"),
    side("dam", "vs_dam", "danno_contro"),
    VS_AMMO,
    side("arm", "my_arm", "mia_arm", "mia_armatura"),
    side("w", "my_w", "mia_f", "mie_ferite"),
    OptionSpec("weapon", max_length=30, aliases=("arma",)),
    num("distance", "distanza", hi=500),
    flag_opt("cc", "corpo_a_corpo"),
    flag_opt("charge", "carica"),
    ATTACKING_UNIT,
    TARGET,
)


# Several models in one option: names (or positions 1, 2, ...) separated by commas.
def names_opt(name: str, *aliases: str, required: bool = False) -> OptionSpec:
    return OptionSpec(name, max_length=200, required=required, aliases=aliases)


ODDS_FLAG = flag_opt("odds", "probabilita")
TEMPLATE_OPTS = (
    OptionSpec("weapon", max_length=30, aliases=("arma",)),
    side("dam", "dam", "danno", "d"),
    AMMO_OPT,
    names_opt("targets", "bersagli"),
    names_opt("dodge", "schivano"),
    sig("dodge_mod", "mod_schivata"),
    names_opt("cover", "copertura"),
    names_opt("double", "due_sagome"),
    names_opt("critical", "critico"),
    side("arm", "arm", "armatura"),
    side("bts", "bts", "pb"),
    side("w", "w", "f", "ferite"),
    num("ph", "fis"),
    ODDS_FLAG,
)
SPLIT_OPTS = (
    *ROLL_OPTS,
    side("dam", "dam", "danno", "d"),
    AMMO_OPT,
    OptionSpec("weapon", max_length=30, aliases=("arma",)),
    ATTACKING_UNIT,
    names_opt("targets", "bersagli"),
    names_opt("shots", "colpi", required=True),
    names_opt("vs", "contro"),
    names_opt("vs_mod", "mod_contro"),
    names_opt("vs_dam", "danno_contro"),
    names_opt("mods", "mod_bersagli"),
    names_opt("arm", "armatura"),
    names_opt("w", "ferite"),
    names_opt("cover", "copertura"),
    side("arm", "my_arm", "mia_arm", "mia_armatura"),
    side("w", "my_w", "mia_f", "mie_ferite"),
    ODDS_FLAG,
)
HEAL_OPTS = (
    OptionSpec("method", positional=True, required=True, choices=METHODS, aliases=("metodo",)),
    unit_opt("unit", "unita", "paziente", positional=True),
    unit_opt("doctor", "medico"),
    num("wip", "vol"),
    sig("mod"),
    num("ph", "fis"),
    side("w", "w", "f", "ferite"),
    num("wounds", "subite", hi=10),
    flag_opt("coordinated", "coordinato"),
    ODDS_FLAG,
)

SPECS = [
    CommandSpec(
        path=("inf", "roll"),
        handler=roll_cmd,
        aliases=("tiro", "lancio"),
        options=(
            *ROLL_OPTS,
            OptionSpec("stat", choices=STATS, aliases=("attributo_unita",)),
            TARGET,
            DICE,
        ),
        examples=("/inf roll attr=12 mod=-3", "/inf roll attr=11 mod=3 burst=3 dice=4,11,16"),
    ),
    CommandSpec(
        path=("inf", "ftf"),
        handler=ftf_cmd,
        aliases=("confronto",),
        options=(
            num("attr", "attributo", "val", required=True),
            sig("mod"),
            num("burst", "b", "raffica", "r", lo=1, hi=6),
            num("vs", "contro", required=True),
            sig("vs_mod", "mod_contro"),
            num("vs_burst", "raffica_contro", lo=1, hi=6),
            DICE,
        ),
        examples=("/inf ftf attr=11 burst=4 vs=12 vs_mod=3", "/inf ftf attr=11 vs=10 dice=3,8"),
    ),
    CommandSpec(
        path=("inf", "attack"),
        handler=attack_cmd,
        aliases=("attacco", "spara"),
        options=(*ATTACK_OPTS, APPLY, DICE),
        examples=(
            "/inf attack attr=12 mod=3 burst=3 dam=13 vs=11 vs_dam=13 arm=1 my_arm=1",
            "/inf attack attacker=Angus target=WenLiu weapon=Rifle distance=30 vs=11 apply",
            "/inf attack attr=16 dam=14 ammo=SHOCK vs=13 arm=1 cc",
        ),
    ),
    odds_spec(
        "inf",
        odds_cmd,
        ATTACK_OPTS,
        "/inf odds attr=12 burst=3 dam=13 ammo=DA arm=1 w=1",
        "/inf odds attr=11 burst=4 vs=15",
    ),
    CommandSpec(
        path=("inf", "template"),
        handler=template_cmd,
        aliases=("sagoma",),
        options=(*TEMPLATE_OPTS, APPLY, DICE),
        examples=(
            "/inf template dam=13 ammo=FIRE targets=Angus,Silva dodge=Silva",
            "/inf template dam=13 arm=1 ph=10 dodge=all odds",
        ),
    ),
    CommandSpec(
        path=("inf", "split"),
        handler=split_cmd,
        aliases=("dividi",),
        options=(*SPLIT_OPTS, APPLY, DICE),
        examples=(
            "/inf split attr=12 burst=4 dam=15 shots=2,2 vs=11,11 vs_dam=13,13 arm=1,1",
            "/inf split attacker=Silva targets=WenLiu,JangQi shots=2,1 vs=11,11 odds",
        ),
    ),
    CommandSpec(
        path=("inf", "heal"),
        handler=heal_cmd,
        aliases=("cura",),
        options=(*HEAL_OPTS, APPLY, DICE),
        examples=(
            "/inf heal medikit Angus apply",
            "/inf heal doctor Angus doctor=Bipandra odds",
            "/inf heal regeneration ph=12 w=2 wounds=2",
        ),
    ),
    CommandSpec(
        path=("inf", "range"),
        handler=range_cmd,
        readonly=True,
        aliases=("distanza", "gittata"),
        options=(
            OptionSpec("weapon", required=True, max_length=30, aliases=("arma",)),
            num("distance", "distanza", "cm", hi=500, required=True),
        ),
        examples=("/inf range weapon=Rifle distance=35",),
    ),
    CommandSpec(
        path=("inf", "weapon"),
        handler=weapon_cmd,
        aliases=("arma",),
        options=(
            OptionSpec(
                "action", positional=True, choices=("list", "add", "remove"), aliases=("azione",)
            ),
            OptionSpec("name", max_length=30, aliases=("nome",)),
            OptionSpec("bands", max_length=80, aliases=("fasce",)),
            OptionSpec("dam", max_length=8, aliases=("danno",)),
            num("burst", "raffica", "b", lo=1, hi=6),
            AMMO_OPT,
            OptionSpec("template", choices=TEMPLATES, aliases=("sagoma",)),
        ),
        examples=(
            "/inf weapon list",
            "/inf weapon add name=HMG bands=20:0,40:+3,60:-3,120:-6 dam=15 burst=4",
            "/inf weapon add name=Spada dam=PH+1 burst=1",
            "/inf weapon add name=Lanciafiamme dam=14 burst=1 ammo=FIRE template=direct",
        ),
    ),
    CommandSpec(
        path=("inf", "loadout"),
        handler=loadout_cmd,
        aliases=("equipaggia",),
        options=(
            unit_opt("unit", "unita", positional=True, required=True),
            OptionSpec("weapons", required=True, max_length=120, aliases=("armi",)),
        ),
        examples=("/inf loadout Angus weapons=Rifle",),
    ),
    CommandSpec(
        path=("inf", "orders"),
        handler=orders_cmd,
        aliases=("ordini",),
        options=(
            OptionSpec(
                "action",
                positional=True,
                choices=("show", "spend", "recount", "coordinate"),
                aliases=("azione",),
            ),
            unit_opt("unit", "unita"),
            names_opt("units", "miniature"),
            num("n", lo=1, hi=30),
            flag_opt("lt", "tenente"),
        ),
        examples=(
            "/inf orders",
            "/inf orders spend unit=Angus",
            "/inf orders coordinate units=Angus,Doucher,Bipandra",
            "/inf orders recount",
        ),
    ),
    CommandSpec(
        path=("inf", "initiative"),
        handler=initiative_cmd,
        aliases=("iniziativa",),
        options=(
            num("wip", "vol", required=True),
            sig("mod"),
            num("vs", "contro", required=True),
            sig("vs_mod", "mod_contro"),
            DICE,
        ),
        examples=("/inf initiative wip=12 vs=13", "/inf initiative wip=12 vs=13 dice=7,11"),
    ),
    CommandSpec(
        path=("inf", "retreat"),
        handler=retreat_cmd,
        readonly=True,
        aliases=("ritirata",),
        options=(
            num("lost", "persi", hi=10000),
            num("total", "totale", hi=10000),
            flag_opt("morat"),
        ),
        examples=("/inf retreat", "/inf retreat lost=180 total=300"),
    ),
    CommandSpec(
        path=("inf", "settings"),
        handler=SETTINGS.command,
        aliases=("impostazioni",),
        options=tuple(
            OptionSpec(name, choices=choices, aliases=SETTING_NAMES_IT[name])
            for name, choices in SETTING_CHOICES.items()
        ),
        examples=("/inf settings", "/inf settings retreat=gt"),
    ),
]
