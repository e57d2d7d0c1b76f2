"""/wm declarations: the commands' names, Italian aliases, options and examples."""

from __future__ import annotations

from bot.commands.spec import CommandSpec, odds_spec
from bot.commands.wm import args as a
from bot.commands.wm import handlers as h

SPECS = [
    CommandSpec(
        path=("wm", "attack"),
        handler=h.attack,
        aliases=("attacco",),
        args=a.WmAttackArgs,
        examples=(
            "/wm attack mat=7 def=12 pow=12 str=10 arm=18 mods=charge",
            "/wm attack type=ranged rat=6 def=13 pow=10 arm=15 boost=hit mods=aim,cover",
            "/wm attack mat=6 pow=12 str=11 target=Juggernaut apply dice=4,5,3,6,2,4",
            '/wm attack attacker=Ironclad weapon="Quake Hammer" target=Juggernaut',
        ),
    ),
    odds_spec("wm", h.odds, a.AttackArgs, "/wm odds mat=7 def=13 pow=12 str=10 arm=18 mods=charge"),
    CommandSpec(
        path=("wm", "check"),
        handler=h.check,
        aliases=("test",),
        args=a.CheckArgs,
        examples=("/wm check value=9", "/wm check value=8 dice=3,4", "/wm check target=Trenchers"),
    ),
    CommandSpec(
        path=("wm", "fall"),
        handler=h.fall,
        aliases=("caduta",),
        args=a.FallArgs,
        examples=("/wm fall height=5 arm=14",),
    ),
    CommandSpec(
        path=("wm", "deviate"),
        handler=h.deviate,
        aliases=("devia", "deviazione"),
        args=a.DeviateArgs,
        examples=("/wm deviate distance=11", "/wm deviate distance=5.5 thrown dice=3,6"),
    ),
    CommandSpec(
        path=("wm", "allocate"),
        handler=h.allocate,
        aliases=("alloca",),
        args=a.AllocateArgs,
        examples=("/wm allocate Ironclad 2", "/wm allocate Lancer 1 caster=Stryker"),
    ),
    CommandSpec(
        path=("wm", "settings"),
        handler=h.SETTINGS.command,
        aliases=("impostazioni",),
        args=a.SettingsArgs,
        examples=("/wm settings", "/wm settings deviation_layout=counterclockwise"),
    ),
    CommandSpec(
        path=("wm", "heal"),
        handler=h.heal,
        aliases=("cura", "ripara"),
        args=a.HealArgs,
        examples=("/wm heal Lancer 1 column=4", "/wm heal Lancer 1 system=M"),
    ),
    CommandSpec(
        path=("wm", "feat"),
        handler=h.feat,
        aliases=("prodigio",),
        args=a.FeatArgs,
        examples=("/wm feat Stryker",),
    ),
    CommandSpec(
        path=("wm", "gear"),
        handler=h.gear,
        aliases=("scudi",),
        args=a.GearArgs,
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
        args=a.FirstArgs,
        examples=("/wm first", "/wm first dice=6,5"),
    ),
    CommandSpec(
        path=("wm", "power"),
        handler=h.power,
        aliases=("forza", "attacco_di_forza"),
        args=a.PowerArgs,
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
        args=a.BreakArgs,
        examples=("/wm break Slayer", "/wm break Juggernaut release"),
    ),
]
