"""/inf's commands: names, Italian aliases, options and their bounds, examples."""

from __future__ import annotations

from bot.commands.args import args_of
from bot.commands.inf import args as A
from bot.commands.inf.attack import attack_cmd, odds_cmd
from bot.commands.inf.common import SETTINGS
from bot.commands.inf.multi import heal_cmd, split_cmd, template_cmd
from bot.commands.inf.orders import orders_cmd, retreat_cmd
from bot.commands.inf.rolls import ftf_cmd, initiative_cmd, roll_cmd
from bot.commands.inf.weapons import loadout_cmd, range_cmd, weapon_cmd
from bot.commands.spec import CommandSpec, OptionSpec, odds_spec
from rules_core.systems.inf.models import SETTING_CHOICES

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
# One choice per setting of the rules' InfSettings (the handler walks them by name).
SettingsArgs = args_of(
    "SettingsArgs",
    [
        OptionSpec(name, choices=choices, aliases=SETTING_NAMES_IT[name])
        for name, choices in SETTING_CHOICES.items()
    ],
)

SPECS = [
    CommandSpec(
        path=("inf", "roll"),
        handler=roll_cmd,
        aliases=("tiro", "lancio"),
        book_words=(
            "guts",
            "sangue",
            "wip",
            "vol",
            "ph",
            "fis",
            "discover",
            "scoprire",
            "normal",
            "normale",
        ),
        args=A.RollArgs,
        examples=("/inf roll attr=12 mod=-3", "/inf roll attr=11 mod=3 burst=3 dice=4,11,16"),
    ),
    CommandSpec(
        path=("inf", "ftf"),
        handler=ftf_cmd,
        aliases=("confronto",),
        book_words=("face", "opposed", "contrapposto"),
        args=A.FtfArgs,
        examples=("/inf ftf attr=11 burst=4 vs=12 vs_mod=3", "/inf ftf attr=11 vs=10 dice=3,8"),
    ),
    CommandSpec(
        path=("inf", "attack"),
        handler=attack_cmd,
        aliases=("attacco", "spara"),
        book_words=(
            "aro",
            "ora",
            "shoot",
            "shot",
            "sparo",
            "dodge",
            "schivata",
            "schivare",
            "bs",
            "cd",
            "damage",
            "danno",
            "armour",
            "armatura",
        ),
        args=A.AttackArgs,
        examples=(
            "/inf attack attr=12 mod=3 burst=3 dam=13 vs=11 vs_dam=13 arm=1 my_arm=1",
            "/inf attack attacker=Angus target=WenLiu weapon=Rifle distance=30 vs=11 apply",
            "/inf attack attr=16 dam=14 ammo=SHOCK vs=13 arm=1 cc",
        ),
    ),
    odds_spec(
        "inf",
        odds_cmd,
        A.OddsArgs,
        "/inf odds attr=12 burst=3 dam=13 ammo=DA arm=1 w=1",
        "/inf odds attr=11 burst=4 vs=15",
    ),
    CommandSpec(
        path=("inf", "template"),
        handler=template_cmd,
        aliases=("sagoma",),
        book_words=(
            "flamethrower",
            "lanciafiamme",
            "grenade",
            "granata",
            "granate",
            "mine",
            "mina",
            "nanopulser",
            "nanopulsar",
            "chain",
        ),
        args=A.TemplateArgs,
        examples=(
            "/inf template dam=13 ammo=FIRE targets=Angus,Silva dodge=Silva",
            "/inf template dam=13 arm=1 ph=10 dodge=all odds",
        ),
    ),
    CommandSpec(
        path=("inf", "split"),
        handler=split_cmd,
        aliases=("dividi",),
        book_words=("burst", "raffica", "targets"),
        args=A.SplitArgs,
        examples=(
            "/inf split attr=12 burst=4 dam=15 shots=2,2 vs=11,11 vs_dam=13,13 arm=1,1",
            "/inf split attacker=Silva targets=WenLiu,JangQi shots=2,1 vs=11,11 odds",
        ),
    ),
    CommandSpec(
        path=("inf", "heal"),
        handler=heal_cmd,
        aliases=("cura",),
        book_words=(
            "doctor",
            "medico",
            "medikit",
            "automedikit",
            "regeneration",
            "rigenerazione",
            "unconscious",
            "incosciente",
        ),
        args=A.HealArgs,
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
        book_words=("band", "banda", "distance", "bande"),
        args=A.RangeArgs,
        examples=("/inf range weapon=Rifle distance=35",),
    ),
    CommandSpec(
        path=("inf", "weapon"),
        handler=weapon_cmd,
        aliases=("arma",),
        args=A.WeaponArgs,
        examples=(
            "/inf weapon list",
            "/inf weapon add name=HMG bands=20:0,40:+3,60:-3,120:-6 dam=15 burst=4",
            "/inf weapon add name=Sword dam=PH+1 burst=1",
            "/inf weapon add name=Flamethrower dam=14 burst=1 ammo=FIRE template=direct",
        ),
    ),
    CommandSpec(
        path=("inf", "loadout"),
        handler=loadout_cmd,
        aliases=("equipaggia",),
        args=A.LoadoutArgs,
        examples=("/inf loadout Angus weapons=Rifle",),
    ),
    CommandSpec(
        path=("inf", "orders"),
        handler=orders_cmd,
        aliases=("ordini",),
        book_words=(
            "order",
            "ordine",
            "lieutenant",
            "tenente",
            "coordinated",
            "coordinato",
            "irregular",
            "irregolare",
        ),
        args=A.OrdersArgs,
        examples=(
            "/inf orders",
            "/inf orders spend Angus",
            "/inf orders coordinate units=Angus,Doucher,Bipandra",
            "/inf orders recount",
            "/inf orders lieutenant Silva",
        ),
    ),
    CommandSpec(
        path=("inf", "initiative"),
        handler=initiative_cmd,
        aliases=("iniziativa",),
        args=A.InitiativeArgs,
        examples=("/inf initiative wip=12 vs=13", "/inf initiative wip=12 vs=13 dice=7,11"),
    ),
    CommandSpec(
        path=("inf", "retreat"),
        handler=retreat_cmd,
        readonly=True,
        aliases=("ritirata",),
        args=A.RetreatArgs,
        examples=("/inf retreat", "/inf retreat lost=180 total=300"),
    ),
    CommandSpec(
        path=("inf", "settings"),
        handler=SETTINGS.command,
        aliases=("impostazioni",),
        args=SettingsArgs,
        examples=("/inf settings", "/inf settings retreat=gt"),
    ),
]
