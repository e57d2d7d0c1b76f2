"""/wow command declarations: names, options, Italian aliases and examples."""

from __future__ import annotations

from bot.commands.spec import CommandSpec, odds_spec
from bot.commands.wow import args as a
from bot.commands.wow import handlers as h
from bot.commands.wow import rolls
from bot.commands.wow.common import SETTINGS

SPECS = [
    CommandSpec(
        path=("wow", "attack"),
        handler=rolls.attack,
        aliases=("attacco",),
        args=a.AttackArgs,
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
        args=a.HealArgs,
        examples=("/wow heal power=3", "/wow heal healer=Anduin card=Renew target=Jaina apply"),
    ),
    odds_spec(
        "wow",
        rolls.odds,
        a.OddsArgs,
        "/wow odds power=4 defense=2",
        "/wow odds attacker=Jaina card=Fireball",
    ),
    CommandSpec(
        path=("wow", "card"),
        handler=h.card_cmd,
        aliases=("carta",),
        args=a.CardArgs,
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
        args=a.ActArgs,
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
        args=a.NameArgs,
        examples=("/wow moved Thrall",),
    ),
    CommandSpec(
        path=("wow", "tick"),
        handler=h.tick,
        aliases=("scatto",),
        args=a.TickArgs,
        examples=("/wow tick", "/wow tick vp=Jaina,Thrall"),
    ),
    CommandSpec(
        path=("wow", "health"),
        handler=h.health,
        aliases=("salute",),
        args=a.HealthArgs,
        examples=("/wow health Thrall change=-2", "/wow health Jaina change=2"),
    ),
    CommandSpec(
        path=("wow", "setclock"),
        handler=h.set_clock,
        aliases=("imposta_clock",),
        args=a.SetClockArgs,
        examples=("/wow setclock Thrall tick=7",),
    ),
    CommandSpec(
        path=("wow", "force"),
        handler=h.force_clock,
        aliases=("forza",),
        args=a.ForceArgs,
        examples=("/wow force Thrall ticks=2", "/wow force Jaina ticks=-3"),
    ),
    CommandSpec(
        path=("wow", "effect"),
        handler=h.effect,
        aliases=("effetto",),
        args=a.EffectArgs,
        examples=(
            "/wow effect Thrall effect=Bloodlust tick=10",
            "/wow effect Jaina effect=Stealth",
        ),
    ),
    CommandSpec(
        path=("wow", "pet"),
        handler=h.pet,
        aliases=("famiglio",),
        args=a.PetArgs,
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
        args=a.SettingsArgs,
        examples=("/wow settings", "/wow settings kill_scorer=last_active battleground=yes"),
    ),
]
