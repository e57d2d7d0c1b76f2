"""The /aos commands: names, options with their Italian aliases, examples."""

from __future__ import annotations

from bot.commands.aos import args as A
from bot.commands.aos.attack import attack, odds
from bot.commands.aos.common import SETTING_CHOICES, SETTING_NAMES_IT, SETTINGS, localized
from bot.commands.aos.field import objective
from bot.commands.aos.fight import fight
from bot.commands.aos.profile import damage_table, weapon
from bot.commands.aos.rolls import battleshock, cast, charge, check, pray, run, unbind
from bot.commands.aos.round import command, hero, priority
from bot.commands.args import args_of
from bot.commands.spec import CommandSpec, OptionSpec, odds_spec

# Choices keep Discord's picker; the Italian words of the values are in the catalogues
# (`values.<setting>`) and update_settings reads them too.
SettingsArgs = args_of(
    "SettingsArgs",
    [
        OptionSpec(name, choices=SETTING_CHOICES[name], aliases=(alias,))
        for name, alias in SETTING_NAMES_IT.items()
    ],
)

SPECS = [
    CommandSpec(
        path=("aos", "attack"),
        handler=localized(attack),
        aliases=("attacco",),
        book_words=(
            "shoot",
            "shooting",
            "missile",
            "save",
            "salvezza",
            "hit",
            "colpire",
            "wound",
            "ferire",
            "damage",
            "danni",
            "rend",
            "perforazione",
            "tiro",
            "spara",
            "tira",
        ),
        args=A.AttackArgs,
        examples=(
            "/aos attack attacks=10 hit=3 wound=3 rend=-1 damage=1 save=4",
            "/aos attack attacks=D6 hit=4 wound=3 damage=D3 save=- ward=6 reroll_hit=ones",
            "/aos attack attacker=Vindictors weapon=Stormspear target=Gutrippaz apply",
        ),
    ),
    odds_spec(
        "aos",
        localized(odds),
        A.OddsArgs,
        "/aos odds attacks=10 hit=3 wound=3 rend=-1 save=4 models=5 wounds_per_model=1",
        "/aos odds attacks=2D6 hit=3 wound=4 on6_hit=mortal:2 save=5 ward=5",
    ),
    CommandSpec(
        path=("aos", "battleshock"),
        handler=localized(battleshock),
        aliases=("shock",),
        book_words=("bravery", "coraggio", "flee", "fuga", "fuggono", "morale"),
        args=A.BattleshockArgs,
        examples=(
            "/aos battleshock bravery=6 slain=3",
            "/aos battleshock target=Gutrippaz apply",
        ),
    ),
    CommandSpec(
        path=("aos", "cast"),
        handler=localized(cast),
        aliases=("lancia",),
        book_words=("spell", "incantesimo", "wizard", "mago", "miscast"),
        args=A.CastArgs,
        examples=("/aos cast value=7", "/aos cast value=5 mod=+1 target=Knight-Arcanum apply"),
    ),
    CommandSpec(
        path=("aos", "unbind"),
        handler=localized(unbind),
        aliases=("dissipa",),
        book_words=("unbinding", "dissipare", "dissipazione"),
        args=A.UnbindArgs,
        examples=("/aos unbind roll=8",),
    ),
    CommandSpec(
        path=("aos", "pray"),
        handler=localized(pray),
        aliases=("prega", "intona"),
        book_words=("prayer", "preghiera", "priest", "prete", "chant"),
        args=A.PrayArgs,
        examples=("/aos pray value=4",),
    ),
    CommandSpec(
        path=("aos", "charge"),
        handler=localized(charge),
        aliases=("carica",),
        args=A.ChargeArgs,
        examples=("/aos charge", "/aos charge distance=7.5 target=Vindictors"),
    ),
    CommandSpec(
        path=("aos", "run"),
        handler=localized(run),
        aliases=("corri",),
        book_words=("corsa", "move", "movimento"),
        args=A.RunArgs,
        examples=("/aos run move=5", "/aos run target=Vindictors apply"),
    ),
    CommandSpec(
        path=("aos", "check"),
        handler=localized(check),
        aliases=("prova",),
        book_words=(
            "rally",
            "raccolta",
            "recovery",
            "recupero",
            "heroic",
            "eroica",
            "eroico",
            "leadership",
            "disciplina",
            "dispel",
            "disperdere",
            "banish",
            "esiliare",
        ),
        args=A.CheckArgs,
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
        book_words=("initiative", "iniziativa", "first"),
        args=A.PriorityArgs,
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
        book_words=(
            "inspiring",
            "ispiratrice",
            "presence",
            "presenza",
            "redeploy",
            "rischieramento",
            "unleash",
            "scatenare",
            "defence",
            "difesa",
            "cp",
            "pc",
        ),
        args=A.CommandArgs,
        examples=("/aos command", "/aos command all-out attack unit=Vindictors"),
    ),
    CommandSpec(
        path=("aos", "fight"),
        handler=localized(fight),
        aliases=("combatti",),
        book_words=("combat", "combattimento", "melee", "mischia", "pile", "ammassamento"),
        args=A.FightArgs,
        examples=("/aos fight Vindictors", "/aos fight Vindictors again"),
    ),
    CommandSpec(
        path=("aos", "objective"),
        handler=localized(objective),
        aliases=("obiettivo",),
        book_words=("control", "controllo", "contest"),
        args=A.ObjectiveArgs,
        examples=(
            '/aos objective "Stardrake, Vindictors:3" enemy="Gutrippaz:7"',
            "/aos objective Vindictors",
        ),
    ),
    CommandSpec(
        path=("aos", "weapon"),
        handler=localized(weapon),
        aliases=("arma",),
        args=A.WeaponArgs,
        examples=(
            "/aos weapon Vindictors Stormspear range=2 attacks=2 hit=3 wound=3 rend=-1 damage=1",
        ),
    ),
    CommandSpec(
        path=("aos", "table"),
        handler=localized(damage_table),
        aliases=("tabella",),
        args=A.TableArgs,
        examples=('/aos table Drake "0:move=12,claws=6 5:move=11,claws=5 9:move=10,claws=4"',),
    ),
    CommandSpec(
        path=("aos", "settings"),
        handler=localized(SETTINGS.command),
        aliases=("impostazioni",),
        args=SettingsArgs,
        examples=("/aos settings", "/aos settings save_cap=bonus_only hero_cp=own"),
    ),
]
