"""/c5 declarations: names, options, aliases and examples of the Confrontation 5 commands,
and the odds twin that reads the rest of its line with another command's options."""

from __future__ import annotations

from dataclasses import replace

from bot.commands.c5.attack_handlers import combat_cmd, melee_cmd, shoot_cmd, wound_cmd
from bot.commands.c5.check_handlers import fear_cmd, opposed_cmd, rally_cmd, test_cmd
from bot.commands.c5.common import SETTINGS, sourced
from bot.commands.c5.mystic_handlers import (
    faith_cmd,
    maintenance_cmd,
    mana_cmd,
    mystic_cmd,
    pass_cmd,
)
from bot.commands.c5.odds_handlers import odds_melee, odds_shoot, odds_test, odds_wound
from bot.commands.context import Context
from bot.commands.registry import parse_options, tokenize
from bot.commands.spec import (
    APPLY,
    DICE,
    TARGET,
    CommandSpec,
    Handler,
    OptionSpec,
    flag_opt,
    int_opt,
    odds_spec,
    signed_opt,
    unit_opt,
)
from bot.protocol import Reply, plain
from rules_core.systems.c5.checks import RECOVERY
from rules_core.systems.c5.combat import COUNTERS
from rules_core.systems.c5.models import SETTING_CHOICES, SETTING_INTS
from rules_core.systems.c5.requests import FIRE_CHOICES


async def settings_cmd(ctx: Context) -> Reply:
    reply = await SETTINGS.command(ctx)
    reply.blocks.append([plain(ctx.t("c5.settings_hint"))])
    return reply


async def odds_cmd(ctx: Context) -> Reply:
    """/c5 odds KIND OPTIONS…: the odds twin of `/c5 KIND OPTIONS… odds`. The rest of the line
    is read with the options of that command, so the twin takes exactly the attack's options
    (Discord maps two path words at most and 25 options per command: one command per kind
    would not fit, a free text option does)."""
    kind = ctx.opts["kind"]  # a code: the registry reads `values.kind` (`ferire` -> wound)
    spec = next(s for s in SPECS if s.path == ("c5", kind))  # whose options the line takes
    rest = ctx.opts.get("options") or ""
    opts = parse_options(spec, rest, tokenize(rest))
    # The odds function itself, not the command's handler: no second dispatch.
    return await ODDS_OF[kind](replace(ctx, spec=spec, opts=opts))


# The attacking unit of the chat's game: `unit=` as on every game's attack (issue 25).
ATTACKER = unit_opt("attacker", "attaccante", "unit", "unita")
# One of the attacker's stored weapons (/army, BattleScribe): its STR replaces the card's.
WEAPON = OptionSpec("weapon", max_length=40, aliases=("arma",))
REROLL = int_opt("reroll", "rilancia", lo=2, hi=5)
ONE_OK = flag_opt("one_ok", "uno_ok")
WOUND_OPTS = (
    OptionSpec("effects", max_length=200, aliases=("effetti",)),
    flag_opt("flagello", "scourge"),
    flag_opt("ossoduro", "hardboned"),
    flag_opt("str_uncapped", "forza_libera"),
    int_opt("printed", "stampata", lo=16, hi=30),
    flag_opt("artillery", "artiglieria"),
    int_opt("master", "colpo_da_maestro", hi=10),
    int_opt("pen", "penalita", hi=3),
)
WOUND_CORE = (
    int_opt("str", "forza", "for", lo=-10, hi=40),
    int_opt("res", "resistenza", lo=-10, hi=40),
)
MELEE_OPTS = (
    int_opt("att", "attacco"),
    int_opt("def", "dif", "difesa"),
    flag_opt("parry", "para"),
    *WOUND_CORE,
    signed_opt("att_mod", "mod_att"),
    signed_opt("def_mod", "mod_dif"),
    int_opt("diff", "difficolta", hi=40),
    signed_opt("wound_mod", "mod_ferire"),
    REROLL,
    ONE_OK,
    *WOUND_OPTS,
    ATTACKER,
    WEAPON,
    TARGET,
)
# Not on shots: wound penalties and Colpo da Maestro are melee only; a weapon printed above 15
# says so with printed=N (str_uncapped stays on /c5 wound and /c5 melee).
NOT_ON_SHOTS = frozenset({"pen", "master", "str_uncapped"})
SHOOT_OPTS = (
    int_opt("aim", "tir", "tiro"),
    OptionSpec("range", choices=("short", "medium", "long"), aliases=("gittata",)),
    # assault_printed / reaction_printed: the ability printed on the card (difficulty 4)
    OptionSpec("fire", choices=FIRE_CHOICES, aliases=("fuoco",)),
    *WOUND_CORE,
    signed_opt("aim_mod", "mod_tir"),
    signed_opt("diff_mod", "mod_difficolta"),
    int_opt("altitude", "altitudine", hi=2),
    flag_opt("mira", "aim_bonus"),
    flag_opt("mira_printed", "mira_stampata"),
    flag_opt("zone", "zona"),
    signed_opt("wound_mod", "mod_ferire"),
    REROLL,
    ONE_OK,
    *(o for o in WOUND_OPTS if o.name not in NOT_ON_SHOTS),
    ATTACKER,
    WEAPON,
    TARGET,
)
ODDS = flag_opt("odds", "prob", "probabilita")

ODDS_OF: dict[str, Handler] = {
    "wound": odds_wound,
    "test": odds_test,
    "melee": odds_melee,
    "shoot": odds_shoot,
}
ODDS_KINDS = tuple(ODDS_OF)
ODDS_OPTS = (
    OptionSpec(
        "kind",
        positional=True,
        required=True,
        choices=ODDS_KINDS,  # typed in Italian too: `values.kind` (ferire, prova, mischia, tiro)
        aliases=("tipo",),
    ),
    OptionSpec("options", type="text", positional=True, max_length=1000, aliases=("opzioni",)),
)
STATS = ("ini", "att", "def", "aim", "cou", "fear", "dis", "pow", "str", "res", "mov")

SPECS = [
    CommandSpec(
        path=("c5", "test"),
        handler=sourced(test_cmd),
        aliases=("prova",),
        options=(
            int_opt("value", "valore", lo=-10, hi=30),
            int_opt("diff", "difficolta", lo=-10, hi=40),
            signed_opt("mod"),
            REROLL,
            ONE_OK,
            OptionSpec("stat", choices=STATS, aliases=("caratteristica",)),
            TARGET,
            ODDS,
            DICE,
        ),
        examples=(
            "/c5 test value=5 diff=7",
            "/c5 test value=6 reroll=5 dice=5,1,2",
            "/c5 test target=Abel stat=att diff=9 odds",
        ),
    ),
    CommandSpec(
        path=("c5", "opposed"),
        handler=sourced(opposed_cmd),
        aliases=("opposto",),
        options=(
            int_opt("value", "valore", lo=-10, hi=30, required=True),
            int_opt("vs", "contro", lo=-10, hi=30, required=True),
            signed_opt("mod"),
            signed_opt("vs_mod", "mod_contro"),
            ODDS,
            DICE,
        ),
        examples=("/c5 opposed value=4 vs=3", "/c5 opposed value=4 vs=3 odds"),
    ),
    CommandSpec(
        path=("c5", "wound"),
        handler=sourced(wound_cmd),
        aliases=("ferire", "ferita"),
        options=(*WOUND_CORE, signed_opt("mod"), *WOUND_OPTS, ATTACKER, TARGET, APPLY, ODDS, DICE),
        examples=(
            "/c5 wound str=7 res=6",
            "/c5 wound str=10 target=Orc apply dice=4,4",
            "/c5 wound str=7 res=6 flagello odds",
        ),
    ),
    CommandSpec(
        path=("c5", "melee"),
        handler=sourced(melee_cmd),
        aliases=("mischia",),
        options=(*MELEE_OPTS, APPLY, ODDS, DICE),
        examples=(
            "/c5 melee att=5 def=4 str=7 res=6",
            "/c5 melee attacker=Wolfen target=Griffin parry apply",
            "/c5 melee attacker=Wolfen target=Griffin parry odds",
        ),
    ),
    CommandSpec(
        path=("c5", "shoot"),
        handler=sourced(shoot_cmd),
        aliases=("tiro", "tira"),
        options=(*SHOOT_OPTS, APPLY, ODDS, DICE),
        examples=(
            "/c5 shoot aim=4 range=medium str=6 res=5 mira",
            "/c5 shoot attacker=Archer target=Orc range=long altitude=1 odds",
        ),
    ),
    odds_spec(
        "c5",
        odds_cmd,
        ODDS_OPTS,
        "/c5 odds wound str=7 res=6 flagello",
        "/c5 odds test value=5 diff=9",
        "/c5 odds melee attacker=Wolfen target=Griffin parry",
        "/c5 odds shoot aim=4 range=long str=8 res=5 zone",
    ),
    CommandSpec(
        path=("c5", "mana"),
        handler=sourced(mana_cmd),
        options=(
            int_opt("rank", "rango", lo=1, hi=4),
            int_opt("power", "potere", "pot", "pow", lo=-10, hi=30),
            int_opt("recupero", "recovery", hi=10),
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/c5 mana rank=2 power=4", "/c5 mana target=Enoch apply"),
    ),
    CommandSpec(
        path=("c5", "mystic"),
        handler=sourced(mystic_cmd),
        aliases=("mistica",),
        options=(flag_opt("all", "tutti"), APPLY, DICE),
        examples=("/c5 mystic apply", "/c5 mystic all apply dice=5,3"),
    ),
    CommandSpec(
        path=("c5", "maintenance"),
        handler=sourced(maintenance_cmd),
        aliases=("mantenimento",),
        options=(
            OptionSpec("ability", choices=RECOVERY, aliases=("abilita",)),
            int_opt("x", lo=1, hi=7, required=True),
            int_opt("wounds", "ferite", hi=8),
            TARGET,
            APPLY,
            DICE,
        ),
        examples=(
            "/c5 maintenance ability=rigenerazione x=4 target=Troll apply",
            "/c5 maintenance ability=effimero x=5 wounds=1 dice=5,6",
        ),
    ),
    CommandSpec(
        path=("c5", "faith"),
        handler=sourced(faith_cmd),
        aliases=("fede",),
        options=(
            int_opt("rank", "rango", lo=1, hi=4),
            int_opt("aspects", "aspetti", hi=30),
            int_opt("followers", "seguaci", hi=100),
            int_opt("credente", "believer", hi=30),
            int_opt("consecrated", "consacrati", hi=30),
            int_opt("pieta", hi=10),
            int_opt("unspent", "avanzata", hi=99),
            TARGET,
            APPLY,
        ),
        examples=("/c5 faith rank=1 aspects=3 followers=7",),
    ),
    CommandSpec(
        path=("c5", "fear"),
        handler=sourced(fear_cmd),
        aliases=("paura",),
        options=(
            int_opt("courage", "cou", "cor", "coraggio", lo=-10, hi=30),
            int_opt("fear", "pau", "paura", lo=0, hi=30, required=True),
            signed_opt("mod"),
            REROLL,
            ONE_OK,
            TARGET,
            APPLY,
            ODDS,
            DICE,
        ),
        examples=("/c5 fear courage=4 fear=7", "/c5 fear target=Abel fear=8 apply"),
    ),
    CommandSpec(
        path=("c5", "combat"),
        handler=sourced(combat_cmd),
        aliases=("combattimento",),
        options=(
            unit_opt("first", "primo", positional=True, required=True),
            unit_opt("second", "secondo", positional=True),
            OptionSpec("attacks", max_length=10, aliases=("attacchi",)),
            OptionSpec("counter", choices=COUNTERS, aliases=("contrattacco",)),
            OptionSpec("counter_second", choices=COUNTERS, aliases=("contrattacco_secondo",)),
            flag_opt("end", "fine"),
        ),
        examples=(
            "/c5 combat Abel Orc attacks=2,1",
            "/c5 combat Abel Orc attacks=2,2 counter_second=contrattacco",
            "/c5 combat Abel end",
        ),
    ),
    CommandSpec(
        path=("c5", "rally"),
        handler=sourced(rally_cmd),
        aliases=("raduno",),
        options=(
            int_opt("value", "valore", "cou", "dis", lo=-10, hi=30),
            flag_opt("contact", "contatto"),
            signed_opt("mod"),
            REROLL,
            ONE_OK,
            TARGET,
            APPLY,
            ODDS,
            DICE,
        ),
        examples=("/c5 rally value=5", "/c5 rally target=Wolfen apply", "/c5 rally value=5 odds"),
    ),
    CommandSpec(
        path=("c5", "pass"),
        handler=sourced(pass_cmd),
        aliases=("passa",),
        options=(
            int_opt("mine", "mie", hi=99, required=True),
            int_opt("theirs", "sue", hi=99, required=True),
            APPLY,
        ),
        examples=("/c5 pass mine=5 theirs=6", "/c5 pass mine=2 theirs=4 apply"),
    ),
    CommandSpec(
        path=("c5", "settings"),
        handler=settings_cmd,
        aliases=("impostazioni",),
        options=(
            *(OptionSpec(name, choices=choices) for name, choices in SETTING_CHOICES.items()),
            *(int_opt(name, lo=0, hi=30) for name in SETTING_INTS),
        ),
        examples=("/c5 settings", "/c5 settings open_ended=no range_long=12"),
    ),
]
