"""/wow command declarations: names, options, Italian aliases and examples."""

from __future__ import annotations

from bot.commands.spec import (
    APPLY,
    DICE,
    TARGET,
    CommandSpec,
    OptionSpec,
    flag_opt,
    int_opt,
    odds_spec,
    unit_opt,
)
from bot.commands.wow import handlers as h
from bot.commands.wow import rolls
from bot.commands.wow.common import SETTINGS
from rules_core.systems.wow.pool import MAX_POOL
from rules_core.systems.wow.settings import CHOICES


def pool(name: str, *aliases: str, required: bool = False, default: int | None = 0) -> OptionSpec:
    return OptionSpec(
        name,
        type="int",
        min_value=0,
        max_value=MAX_POOL,
        required=required,
        default=default,
        aliases=aliases,
    )


NAME = unit_opt("name", positional=True, required=True)
CARD = OptionSpec("card", max_length=40, aliases=("carta",))
# `/wow attack unit=NAME weapon=CARD target=NAME` (issue 25's stored-profile attack): the
# attacking character and its Action Card, or without a card its primary attack.
ATTACKER = unit_opt("attacker", "attaccante", "unit", "unita")
WEAPON = OptionSpec("card", max_length=40, aliases=("carta", "weapon", "arma"))
ATTACK_OPTIONS = (
    pool("power", "potere", "pow", default=None),
    int_opt("defense", "difesa", "armor", "armatura", "resist", "resistenza", "def", hi=MAX_POOL),
    OptionSpec("type", max_length=20, aliases=("tipo",)),  # physical|magical, fisico|magico
    pool("reroll_attack", "ritira_attacco"),
    pool("reroll_defense", "ritira_difesa"),
    pool("force_reroll_attack", "ritiro_forzato_attacco"),
    pool("force_reroll_defense", "ritiro_forzato_difesa"),
    flag_opt("elevation", "altura", "elevated"),
    flag_opt("cover", "copertura", "coperto"),
    OptionSpec("crit", max_length=60, aliases=("critico",)),
)
SETTING_OPTIONS = tuple(
    OptionSpec(name, choices=CHOICES[name], aliases=aliases)
    for name, aliases in (
        ("kill_scorer", ("punti_uccisione",)),
        ("battleground", ("campo_di_battaglia",)),
        ("card_limit", ("limite_carte",)),
        ("pet_limit", ("limite_pet",)),
        ("forced_reroll", ("ritiro_forzato",)),
    )
)

SPECS = [
    CommandSpec(
        path=("wow", "attack"),
        handler=rolls.attack,
        aliases=("attacco",),
        options=(
            *ATTACK_OPTIONS,
            ATTACKER,
            WEAPON,
            TARGET,
            OptionSpec("targets", max_length=200, aliases=("bersagli",)),
            APPLY,
            DICE,
        ),
        examples=(
            "/wow attack power=4 defense=2",
            "/wow attack power=3 defense=1 crit=damage:2 type=magical dice=2,5,10,4",
            "/wow attack attacker=Jaina card=Fireball target=Thrall apply",
            "/wow attack unit=Thrall target=Jaina apply",
            "/wow attack attacker=Thrall card=Cleave targets=Jaina,Anduin apply",
        ),
    ),
    CommandSpec(
        path=("wow", "heal"),
        handler=rolls.heal,
        aliases=("cura",),
        options=(
            pool("power", "potere", default=None),
            pool("reroll", "ritira"),
            OptionSpec("crit", max_length=60, aliases=("critico",)),
            unit_opt("healer", "guaritore"),
            CARD,
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/wow heal power=3", "/wow heal healer=Anduin card=Renew target=Jaina apply"),
    ),
    odds_spec(
        "wow",
        rolls.odds,
        (*ATTACK_OPTIONS, ATTACKER, WEAPON, TARGET),
        "/wow odds power=4 defense=2",
        "/wow odds attacker=Jaina card=Fireball",
    ),
    CommandSpec(
        path=("wow", "card"),
        handler=h.card_cmd,
        aliases=("carta",),
        options=(
            OptionSpec("action", positional=True, required=True, choices=("add", "list", "remove")),
            NAME,
            CARD,
            int_opt("cost", "costo", hi=9),
            pool("power", "potere", default=None),
            OptionSpec("type", max_length=20, aliases=("tipo",)),
            int_opt("range", "raggio", hi=30),
            OptionSpec("crit", max_length=60, aliases=("critico",)),
        ),
        examples=(
            "/wow card add Jaina card=Fireball cost=3 power=4 type=magical range=5 crit=damage:1",
            "/wow card list Jaina",
            "/wow card remove Jaina card=Fireball",
        ),
    ),
    CommandSpec(
        path=("wow", "clock"),
        handler=h.clock_show,
        readonly=True,
        aliases=("orologio",),
        examples=("/wow clock",),
    ),
    CommandSpec(
        path=("wow", "act"),
        handler=h.act,
        aliases=("agisci",),
        options=(
            NAME,
            int_opt("cost", "costo", hi=9),
            OptionSpec("card", max_length=120, aliases=("carta", "carte")),
            flag_opt("react", "reazione"),
        ),
        examples=(
            "/wow act Thrall cost=3",
            "/wow act Jaina card=Fireball",
            "/wow act Jaina card=Counterspell react",
        ),
    ),
    CommandSpec(
        path=("wow", "moved"),
        handler=h.moved,
        aliases=("mosso",),
        options=(NAME,),
        examples=("/wow moved Thrall",),
    ),
    CommandSpec(
        path=("wow", "tick"),
        handler=h.tick,
        aliases=("scatto",),
        options=(OptionSpec("vp", max_length=200, aliases=("locazioni",)),),
        examples=("/wow tick", "/wow tick vp=Jaina,Thrall"),
    ),
    CommandSpec(
        path=("wow", "health"),
        handler=h.health,
        aliases=("salute",),
        options=(
            NAME,
            OptionSpec(
                "change",
                type="int",
                min_value=-99,
                max_value=99,
                required=True,
                aliases=("variazione",),
            ),
        ),
        examples=("/wow health Thrall change=-2", "/wow health Jaina change=2"),
    ),
    CommandSpec(
        path=("wow", "setclock"),
        handler=h.set_clock,
        aliases=("imposta_clock",),
        options=(NAME, int_opt("tick", "scatto", lo=1, hi=10, required=True)),
        examples=("/wow setclock Thrall tick=7",),
    ),
    CommandSpec(
        path=("wow", "force"),
        handler=h.force_clock,
        aliases=("forza",),
        options=(NAME, int_opt("ticks", "scatti", lo=-20, hi=20, required=True)),
        examples=("/wow force Thrall ticks=2", "/wow force Jaina ticks=-3"),
    ),
    CommandSpec(
        path=("wow", "effect"),
        handler=h.effect,
        aliases=("effetto",),
        options=(
            NAME,
            OptionSpec("effect", max_length=40, required=True, aliases=("effetto",)),
            int_opt("tick", "scatto", lo=1, hi=10),
        ),
        examples=(
            "/wow effect Thrall effect=Bloodlust tick=10",
            "/wow effect Jaina effect=Stealth",
        ),
    ),
    CommandSpec(
        path=("wow", "pet"),
        handler=h.pet,
        aliases=("famiglio",),
        options=(NAME, unit_opt("master", "padrone", required=True)),
        examples=("/wow pet Wolf master=Rexxar",),
    ),
    CommandSpec(
        path=("wow", "standings"),
        handler=h.standings_cmd,
        readonly=True,
        aliases=("classifica",),
        examples=("/wow standings",),
    ),
    CommandSpec(
        path=("wow", "settings"),
        handler=SETTINGS.command,
        aliases=("impostazioni",),
        options=SETTING_OPTIONS,
        examples=("/wow settings", "/wow settings kill_scorer=last_active battleground=yes"),
    ),
]
