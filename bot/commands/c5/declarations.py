"""/c5 declarations: names, options, aliases and examples of the Confrontation 5 commands,
and the odds twin that reads the rest of its line with another command's options."""

from __future__ import annotations

from dataclasses import replace

from bot.commands.c5 import args as a
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
from bot.commands.spec import CommandSpec, Handler, odds_spec
from bot.protocol import Reply, plain


async def settings_cmd(ctx: Context) -> Reply:
    reply = await SETTINGS.command(ctx)
    reply.blocks.append([plain(ctx.t("c5.settings_hint"))])
    return reply


async def odds_cmd(ctx: Context) -> Reply:
    """/c5 odds KIND OPTIONS…: the odds twin of `/c5 KIND OPTIONS… odds`. The rest of the line
    is read with the options of that command, so the twin takes exactly the attack's options
    (Discord maps two path words at most and 25 options per command: one command per kind
    would not fit, a free text option does)."""
    args = ctx.args(a.OddsArgs)
    kind = args.kind  # a code: the registry reads `values.kind` (`ferire` -> wound)
    spec = next(s for s in SPECS if s.path == ("c5", kind))  # whose options the line takes
    rest = args.rest or ""
    opts = parse_options(spec, rest, tokenize(rest))
    # The odds function itself, not the command's handler: no second dispatch.
    return await ODDS_OF[kind](replace(ctx, spec=spec, opts=opts))


ODDS_OF: dict[str, Handler] = {
    "wound": odds_wound,
    "test": odds_test,
    "melee": odds_melee,
    "shoot": odds_shoot,
}

SPECS = [
    CommandSpec(
        path=("c5", "test"),
        book_words=(
            "caratteristica",
            "disciplina",
            "discipline",
            "tattica",
            "tactical",
            "incantesimo",
            "sortilegio",
            "spell",
        ),
        handler=sourced(test_cmd),
        aliases=("prova",),
        args=a.TestArgs,
        examples=(
            "/c5 test value=5 diff=7",
            "/c5 test value=6 reroll=5 dice=5,1,2",
            "/c5 test target=Abel stat=att diff=9 odds",
        ),
    ),
    CommandSpec(
        path=("c5", "opposed"),
        book_words=("iniziativa", "initiative", "contrapposto"),
        handler=sourced(opposed_cmd),
        aliases=("opposto",),
        args=a.OpposedArgs,
        examples=("/c5 opposed value=4 vs=3", "/c5 opposed value=4 vs=3 odds"),
    ),
    CommandSpec(
        path=("c5", "wound"),
        book_words=("ferite", "wounds", "ferimento", "localizzazione"),
        handler=sourced(wound_cmd),
        aliases=("ferire", "ferita"),
        args=a.WoundArgs,
        examples=(
            "/c5 wound str=7 res=6",
            "/c5 wound str=10 target=Orc apply dice=4,4",
            "/c5 wound str=7 res=6 scourge odds",
        ),
    ),
    CommandSpec(
        path=("c5", "melee"),
        book_words=(
            "parata",
            "parare",
            "parry",
            "difesa",
            "defence",
            "defense",
            "corpo",
            "attacco",
            "attack",
            "carica",
            "charge",
            "assalto",
            "assault",
        ),
        handler=sourced(melee_cmd),
        aliases=("mischia",),
        args=a.MeleeArgs,
        examples=(
            "/c5 melee att=5 def=4 str=7 res=6",
            "/c5 melee attacker=Wolfen target=Griffin parry apply",
            "/c5 melee attacker=Wolfen target=Griffin parry odds",
        ),
    ),
    CommandSpec(
        path=("c5", "shoot"),
        book_words=("tirare", "gittata", "range", "mira", "aim", "bullseye", "arco", "bow"),
        handler=sourced(shoot_cmd),
        aliases=("tiro", "tira"),
        args=a.ShootArgs,
        examples=(
            "/c5 shoot aim=4 range=medium str=6 res=5 bullseye",
            "/c5 shoot attacker=Archer target=Orc range=long altitude=1 odds",
        ),
    ),
    odds_spec(
        "c5",
        odds_cmd,
        a.OddsArgs,
        "/c5 odds wound str=7 res=6 scourge",
        "/c5 odds test value=5 diff=9",
        "/c5 odds melee attacker=Wolfen target=Griffin parry",
        "/c5 odds shoot aim=4 range=long str=8 res=5 zone",
    ),
    CommandSpec(
        path=("c5", "mana"),
        book_words=("gemme", "gems", "recupero", "magia", "magic", "mago", "mage"),
        handler=sourced(mana_cmd),
        args=a.ManaArgs,
        examples=("/c5 mana rank=2 power=4", "/c5 mana target=Enoch apply"),
    ),
    CommandSpec(
        path=("c5", "mystic"),
        book_words=("mistico", "misticismo", "mysticism"),
        handler=sourced(mystic_cmd),
        aliases=("mistica",),
        args=a.MysticArgs,
        examples=("/c5 mystic apply", "/c5 mystic all apply dice=5,3"),
    ),
    CommandSpec(
        path=("c5", "maintenance"),
        book_words=(
            "rigenerazione",
            "regeneration",
            "guarigione",
            "healing",
            "effimero",
            "ephemeral",
            "cura",
            "heal",
        ),
        handler=sourced(maintenance_cmd),
        aliases=("mantenimento",),
        args=a.MaintenanceArgs,
        examples=(
            "/c5 maintenance ability=rigenerazione x=4 target=Troll apply",
            "/c5 maintenance ability=effimero x=5 wounds=1 dice=5,6",
        ),
    ),
    CommandSpec(
        path=("c5", "faith"),
        book_words=(
            "miracolo",
            "miracle",
            "fedele",
            "faithful",
            "divinazione",
            "divination",
            "aura",
        ),
        handler=sourced(faith_cmd),
        aliases=("fede",),
        args=a.FaithArgs,
        examples=("/c5 faith rank=1 aspects=3 followers=7",),
    ),
    CommandSpec(
        path=("c5", "fear"),
        book_words=("coraggio", "courage", "terrore", "terror", "spaventoso", "frightening"),
        handler=sourced(fear_cmd),
        aliases=("paura",),
        args=a.FearArgs,
        examples=("/c5 fear courage=4 fear=7", "/c5 fear target=Abel fear=8 apply"),
    ),
    CommandSpec(
        path=("c5", "combat"),
        book_words=(
            "duello",
            "duel",
            "contrattacco",
            "counterattack",
            "ambidestro",
            "ambidextrous",
            "passo",
        ),
        handler=sourced(combat_cmd),
        aliases=("combattimento",),
        args=a.CombatArgs,
        examples=(
            "/c5 combat Abel Orc attacks=2,1",
            "/c5 combat Abel Orc attacks=2,2 counter_second=contrattacco",
            "/c5 combat Abel end",
            "/c5 combat Orc forgo",
        ),
    ),
    CommandSpec(
        path=("c5", "rally"),
        book_words=("rotta", "rout", "radunare", "fuga", "flight"),
        handler=sourced(rally_cmd),
        aliases=("raduno",),
        args=a.RallyArgs,
        examples=("/c5 rally value=5", "/c5 rally target=Wolfen apply", "/c5 rally value=5 odds"),
    ),
    CommandSpec(
        path=("c5", "pass"),
        book_words=("mano", "lead", "passare"),
        handler=sourced(pass_cmd),
        aliases=("passa",),
        args=a.PassArgs,
        examples=("/c5 pass mine=5 theirs=6", "/c5 pass mine=2 theirs=4 apply"),
    ),
    CommandSpec(
        path=("c5", "settings"),
        handler=settings_cmd,
        aliases=("impostazioni",),
        args=a.SettingsArgs,
        examples=("/c5 settings", "/c5 settings open_ended=no range_long=12"),
    ),
]
