"""/c5 options, one typed class per command (`bot.commands.args`): what the handlers read and
what the declarations take their options from. A number that becomes a field of a rules model
(a test's difficulty, a wound roll's STR, RES, penalty and Colpo da Maestro, a shot's
altitude, the range settings) takes its bounds from that model's field (`stat_opt`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from bot.commands.args import Args, option_value
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
from rules_core.systems.c5.attack import ShootRequest
from rules_core.systems.c5.checks import RECOVERY
from rules_core.systems.c5.combat import COUNTERS, Counter
from rules_core.systems.c5.models import SETTING_CHOICES, C5Settings, TestRequest, WoundRequest
from rules_core.systems.c5.requests import FIRE_CHOICES

Int = int | None
Text = str | None
Dice = list[int] | None


def by_option(args: Args) -> dict[str, Any]:
    """The values by option name: what `rules_core.systems.c5.requests` reads (`Options`)."""
    return {o.name: option_value(args, o.name) for o in args.options()}


def setting(name: str) -> OptionSpec:
    return OptionSpec(name, choices=SETTING_CHOICES[name])


# The attacking unit of the chat's game: `unit=` as on every game's attack (issue 25).
ATTACKER = unit_opt("attacker", "attaccante", "unit", "unita")
# One of the attacker's stored weapons (/army, BattleScribe): its STR replaces the card's.
WEAPON = OptionSpec("weapon", max_length=40, aliases=("arma",))
REROLL = int_opt("reroll", "rilancia", lo=2, hi=5)
ONE_OK = flag_opt("one_ok", "uno_ok")
ODDS = flag_opt("odds", "prob", "probabilita")
VALUE = int_opt("value", "valore", lo=-10, hi=30)
DIFF = stat_opt(TestRequest, "diff", "diff", "difficolta")
STR = stat_opt(WoundRequest, "str_", "str", "forza", "for")
RES = stat_opt(WoundRequest, "res", "res", "resistenza")
EFFECTS = OptionSpec("effects", max_length=200, aliases=("effetti",))
SCOURGE = flag_opt("scourge", "flagello")  # the book's Flagello/X
HARDBONED = flag_opt("hardboned", "ossoduro")  # the book's Ossoduro
STR_UNCAPPED = flag_opt("str_uncapped", "forza_libera")
PRINTED = int_opt("printed", "stampata", lo=16, hi=30)
ARTILLERY = flag_opt("artillery", "artiglieria")
MASTER = stat_opt(WoundRequest, "master", "master", "colpo_da_maestro")
PEN = stat_opt(WoundRequest, "penalty", "pen", "penalita")
WOUND_MOD = signed_opt("wound_mod", "mod_ferire")
STATS = ("ini", "att", "def", "aim", "cou", "fear", "dis", "pow", "str", "res", "mov")
RANK = int_opt("rank", "rango", lo=1, hi=4)


class TestArgs(Args):
    value_: Annotated[Int, VALUE] = None
    diff: Annotated[Int, DIFF] = None
    mod: Annotated[Int, signed_opt("mod")] = None
    reroll: Annotated[Int, REROLL] = None
    one_ok: Annotated[bool, ONE_OK] = False
    stat: Annotated[Text, OptionSpec("stat", choices=STATS, aliases=("caratteristica",))] = None
    target: Annotated[Text, TARGET] = None
    odds: Annotated[bool, ODDS] = False
    dice: Annotated[Dice, DICE] = None


class OpposedArgs(Args):
    value_: Annotated[int, int_opt("value", "valore", lo=-10, hi=30, required=True)]
    vs: Annotated[int, int_opt("vs", "contro", lo=-10, hi=30, required=True)]
    mod: Annotated[Int, signed_opt("mod")] = None
    vs_mod: Annotated[Int, signed_opt("vs_mod", "mod_contro")] = None
    odds: Annotated[bool, ODDS] = False
    dice: Annotated[Dice, DICE] = None


class WoundArgs(Args):
    str_: Annotated[Int, STR] = None
    res: Annotated[Int, RES] = None
    mod: Annotated[Int, signed_opt("mod")] = None
    effects: Annotated[Text, EFFECTS] = None
    scourge: Annotated[bool, SCOURGE] = False
    hardboned: Annotated[bool, HARDBONED] = False
    str_uncapped: Annotated[bool, STR_UNCAPPED] = False
    printed: Annotated[Int, PRINTED] = None
    artillery: Annotated[bool, ARTILLERY] = False
    master: Annotated[Int, MASTER] = None
    pen: Annotated[Int, PEN] = None
    attacker: Annotated[Text, ATTACKER] = None
    target: Annotated[Text, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    odds: Annotated[bool, ODDS] = False
    dice: Annotated[Dice, DICE] = None


class MeleeArgs(Args):
    att: Annotated[Int, int_opt("att", "attacco")] = None
    def_: Annotated[Int, int_opt("def", "dif", "difesa")] = None
    parry: Annotated[bool, flag_opt("parry", "para")] = False
    str_: Annotated[Int, STR] = None
    res: Annotated[Int, RES] = None
    att_mod: Annotated[Int, signed_opt("att_mod", "mod_att")] = None
    def_mod: Annotated[Int, signed_opt("def_mod", "mod_dif")] = None
    diff: Annotated[Int, DIFF] = None
    wound_mod: Annotated[Int, WOUND_MOD] = None
    reroll: Annotated[Int, REROLL] = None
    one_ok: Annotated[bool, ONE_OK] = False
    effects: Annotated[Text, EFFECTS] = None
    scourge: Annotated[bool, SCOURGE] = False
    hardboned: Annotated[bool, HARDBONED] = False
    str_uncapped: Annotated[bool, STR_UNCAPPED] = False
    printed: Annotated[Int, PRINTED] = None
    artillery: Annotated[bool, ARTILLERY] = False
    master: Annotated[Int, MASTER] = None
    pen: Annotated[Int, PEN] = None
    attacker: Annotated[Text, ATTACKER] = None
    weapon: Annotated[Text, WEAPON] = None
    target: Annotated[Text, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    odds: Annotated[bool, ODDS] = False
    dice: Annotated[Dice, DICE] = None


class ShootArgs(Args):
    """Not on shots: wound penalties and Colpo da Maestro are melee only; a weapon printed
    above 15 says so with printed=N (str_uncapped stays on /c5 wound and /c5 melee)."""

    aim: Annotated[Int, int_opt("aim", "tir", "tiro")] = None
    range: Annotated[
        Text, OptionSpec("range", choices=("short", "medium", "long"), aliases=("gittata",))
    ] = None
    # assault_printed / reaction_printed: the ability printed on the card (difficulty 4)
    fire: Annotated[Text, OptionSpec("fire", choices=FIRE_CHOICES, aliases=("fuoco",))] = None
    str_: Annotated[Int, STR] = None
    res: Annotated[Int, RES] = None
    aim_mod: Annotated[Int, signed_opt("aim_mod", "mod_tir")] = None
    diff_mod: Annotated[Int, signed_opt("diff_mod", "mod_difficolta")] = None
    altitude: Annotated[Int, stat_opt(ShootRequest, "altitude", "altitude", "altitudine")] = None
    # the book's Mira (the English rules' Bull's-eye), printed or not
    bullseye: Annotated[bool, flag_opt("bullseye", "mira", "aim_bonus")] = False
    bullseye_printed: Annotated[
        bool, flag_opt("bullseye_printed", "mira_stampata", "mira_printed")
    ] = False
    zone: Annotated[bool, flag_opt("zone", "zona")] = False
    wound_mod: Annotated[Int, WOUND_MOD] = None
    reroll: Annotated[Int, REROLL] = None
    one_ok: Annotated[bool, ONE_OK] = False
    effects: Annotated[Text, EFFECTS] = None
    scourge: Annotated[bool, SCOURGE] = False
    hardboned: Annotated[bool, HARDBONED] = False
    printed: Annotated[Int, PRINTED] = None
    artillery: Annotated[bool, ARTILLERY] = False
    attacker: Annotated[Text, ATTACKER] = None
    weapon: Annotated[Text, WEAPON] = None
    target: Annotated[Text, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    odds: Annotated[bool, ODDS] = False
    dice: Annotated[Dice, DICE] = None


OddsKind = Literal["wound", "test", "melee", "shoot"]
ODDS_KINDS: tuple[OddsKind, ...] = ("wound", "test", "melee", "shoot")


class OddsArgs(Args):
    """/c5 odds KIND OPTIONS…: the rest of the line is read with KIND's command's options."""

    kind: Annotated[
        OddsKind,
        OptionSpec(
            "kind",
            positional=True,
            required=True,
            # typed in Italian too: `values.kind` (ferire, prova, mischia, tiro)
            choices=ODDS_KINDS,
            aliases=("tipo",),
        ),
    ]
    rest: Annotated[
        Text,
        OptionSpec("options", type="text", positional=True, max_length=1000, aliases=("opzioni",)),
    ] = None


class ManaArgs(Args):
    rank: Annotated[Int, RANK] = None
    power: Annotated[Int, int_opt("power", "potere", "pot", "pow", lo=-10, hi=30)] = None
    recovery: Annotated[Int, int_opt("recovery", "recupero", hi=10)] = None
    target: Annotated[Text, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[Dice, DICE] = None


class MysticArgs(Args):
    all: Annotated[bool, flag_opt("all", "tutti")] = False
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[Dice, DICE] = None


class MaintenanceArgs(Args):
    ability: Annotated[
        Literal["rigenerazione", "guarigione", "effimero"] | None,
        OptionSpec("ability", choices=RECOVERY, aliases=("abilita",)),
    ] = None
    x: Annotated[int, int_opt("x", lo=1, hi=7, required=True)]
    wounds: Annotated[Int, int_opt("wounds", "ferite", hi=8)] = None
    target: Annotated[Text, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[Dice, DICE] = None


class FaithArgs(Args):
    rank: Annotated[Int, RANK] = None
    aspects: Annotated[Int, int_opt("aspects", "aspetti", hi=30)] = None
    followers: Annotated[Int, int_opt("followers", "seguaci", hi=100)] = None
    believer: Annotated[Int, int_opt("believer", "credente", hi=30)] = None
    consecrated: Annotated[Int, int_opt("consecrated", "consacrati", hi=30)] = None
    piety: Annotated[Int, int_opt("piety", "pieta", hi=10)] = None
    unspent: Annotated[Int, int_opt("unspent", "avanzata", hi=99)] = None
    target: Annotated[Text, TARGET] = None
    apply: Annotated[bool, APPLY] = False


class FearArgs(Args):
    courage: Annotated[Int, int_opt("courage", "cou", "cor", "coraggio", lo=-10, hi=30)] = None
    fear: Annotated[int, int_opt("fear", "pau", "paura", lo=0, hi=30, required=True)]
    mod: Annotated[Int, signed_opt("mod")] = None
    reroll: Annotated[Int, REROLL] = None
    one_ok: Annotated[bool, ONE_OK] = False
    target: Annotated[Text, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    odds: Annotated[bool, ODDS] = False
    dice: Annotated[Dice, DICE] = None


class CombatArgs(Args):
    first: Annotated[str, unit_opt("first", "primo", positional=True, required=True)]
    second: Annotated[Text, unit_opt("second", "secondo", positional=True)] = None
    attacks: Annotated[Text, OptionSpec("attacks", max_length=10, aliases=("attacchi",))] = None
    counter: Annotated[
        Counter | None, OptionSpec("counter", choices=COUNTERS, aliases=("contrattacco",))
    ] = None
    counter_second: Annotated[
        Counter | None,
        OptionSpec("counter_second", choices=COUNTERS, aliases=("contrattacco_secondo",)),
    ] = None
    end: Annotated[bool, flag_opt("end", "fine")] = False
    forgo: Annotated[bool, flag_opt("forgo", "rinuncia")] = False


class RallyArgs(Args):
    value_: Annotated[Int, int_opt("value", "valore", "cou", "dis", lo=-10, hi=30)] = None
    contact: Annotated[bool, flag_opt("contact", "contatto")] = False
    mod: Annotated[Int, signed_opt("mod")] = None
    reroll: Annotated[Int, REROLL] = None
    one_ok: Annotated[bool, ONE_OK] = False
    target: Annotated[Text, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    odds: Annotated[bool, ODDS] = False
    dice: Annotated[Dice, DICE] = None


class PassArgs(Args):
    mine: Annotated[int, int_opt("mine", "mie", hi=99, required=True)]
    theirs: Annotated[int, int_opt("theirs", "sue", hi=99, required=True)]
    apply: Annotated[bool, APPLY] = False


def _range(name: str) -> OptionSpec:
    return stat_opt(C5Settings, name, name)


class SettingsArgs(Args):
    """/c5 settings (read by `SystemSettings.command`): one option per setting."""

    open_ended: Annotated[Text, setting("open_ended")] = None
    minus_three: Annotated[Text, setting("minus_three")] = None
    melee_penalty: Annotated[Text, setting("melee_penalty")] = None
    parry_tie: Annotated[Text, setting("parry_tie")] = None
    mana_explode: Annotated[Text, setting("mana_explode")] = None
    sacred_on_nothing: Annotated[Text, setting("sacred_on_nothing")] = None
    range_short: Annotated[Int, _range("range_short")] = None
    range_medium: Annotated[Int, _range("range_medium")] = None
    range_long: Annotated[Int, _range("range_long")] = None
