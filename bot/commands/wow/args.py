"""/wow options, one typed class per command (`bot.commands.args`): what the handlers read and
what the declarations take their options from. A number that becomes a field of a rules model
(the attack's and heal's pools, a card's cost, power and range) takes its bounds from that
model's field (`stat_opt`), so the option check refuses what the rules would."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Literal

from pydantic import BaseModel

from bot.commands.args import Args
from bot.commands.spec import (
    APPLY,
    DICE,
    TARGET,
    OptionSpec,
    flag_opt,
    int_opt,
    stat_opt,
    unit_opt,
)
from rules_core.systems.wow.attack import AttackRequest, HealRequest
from rules_core.systems.wow.cards import Card
from rules_core.systems.wow.clock import TICKS
from rules_core.systems.wow.settings import CHOICES

Int = int | None
Text = str | None
Dice = list[int] | None


def pool(model: type[BaseModel], field: str, name: str, *aliases: str) -> OptionSpec:
    """A pool of dice the rules' `model.field` takes, 0 when not given (rerolls)."""
    return replace(stat_opt(model, field, name, *aliases), default=0)


def setting(name: str, *aliases: str) -> OptionSpec:
    return OptionSpec(name, choices=CHOICES[name], aliases=aliases)


NAME = unit_opt("name", positional=True, required=True)
CARD = OptionSpec("card", max_length=40, aliases=("carta",))
CRIT = OptionSpec("crit", max_length=60, aliases=("critico",))
KIND = OptionSpec("type", max_length=20, aliases=("tipo",))  # physical|magical, fisico|magico
CARD_POWER = stat_opt(Card, "power", "power", "potere")


class AttackBaseArgs(Args):
    """The attack's own numbers, /wow attack's and /wow odds' first options."""

    power: Annotated[Int, stat_opt(AttackRequest, "power", "power", "potere", "pow")] = None
    defense: Annotated[
        Int,
        stat_opt(
            AttackRequest,
            "defense",
            "defense",
            "difesa",
            "armor",
            "armatura",
            "resist",
            "resistenza",
            "def",
        ),
    ] = None
    type: Annotated[Text, KIND] = None
    reroll_attack: Annotated[
        int, pool(AttackRequest, "reroll_attack", "reroll_attack", "ritira_attacco")
    ] = 0
    reroll_defense: Annotated[
        int, pool(AttackRequest, "reroll_defense", "reroll_defense", "ritira_difesa")
    ] = 0
    force_reroll_attack: Annotated[
        int,
        pool(AttackRequest, "force_reroll_attack", "force_reroll_attack", "ritiro_forzato_attacco"),
    ] = 0
    force_reroll_defense: Annotated[
        int,
        pool(
            AttackRequest, "force_reroll_defense", "force_reroll_defense", "ritiro_forzato_difesa"
        ),
    ] = 0
    elevation: Annotated[bool, flag_opt("elevation", "altura", "elevated")] = False
    cover: Annotated[bool, flag_opt("cover", "copertura", "coperto")] = False
    crit: Annotated[Text, CRIT] = None


class OddsArgs(AttackBaseArgs):
    """/wow odds. `/wow attack unit=NAME weapon=CARD target=NAME` (issue 25's stored-profile
    attack): the attacking character and its Action Card, or without a card its primary
    attack."""

    attacker: Annotated[Text, unit_opt("attacker", "attaccante", "unit", "unita")] = None
    card: Annotated[
        Text, OptionSpec("card", max_length=40, aliases=("carta", "weapon", "arma"))
    ] = None
    target: Annotated[Text, TARGET] = None


class AttackArgs(OddsArgs):
    targets: Annotated[Text, OptionSpec("targets", max_length=200, aliases=("bersagli",))] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[Dice, DICE] = None


class HealArgs(Args):
    power: Annotated[Int, stat_opt(HealRequest, "power", "power", "potere")] = None
    reroll: Annotated[int, pool(HealRequest, "rerolls", "reroll", "ritira")] = 0
    crit: Annotated[Text, CRIT] = None
    healer: Annotated[Text, unit_opt("healer", "guaritore")] = None
    card: Annotated[Text, CARD] = None
    target: Annotated[Text, TARGET] = None
    apply: Annotated[bool, APPLY] = False
    dice: Annotated[Dice, DICE] = None


class CardArgs(Args):
    action: Annotated[
        Literal["add", "list", "remove"],
        OptionSpec("action", positional=True, required=True, choices=("add", "list", "remove")),
    ]
    name: Annotated[str, NAME]
    card: Annotated[Text, CARD] = None
    cost: Annotated[Int, stat_opt(Card, "cost", "cost", "costo")] = None
    power: Annotated[Int, CARD_POWER] = None
    type: Annotated[Text, KIND] = None
    range: Annotated[Int, stat_opt(Card, "range", "range", "raggio")] = None
    crit: Annotated[Text, CRIT] = None


class NameArgs(Args):
    """/wow moved: the character alone."""

    name: Annotated[str, NAME]


class ActArgs(NameArgs):
    cost: Annotated[Int, stat_opt(Card, "cost", "cost", "costo")] = None  # what a card costs
    card: Annotated[Text, OptionSpec("card", max_length=120, aliases=("carta", "carte"))] = None
    react: Annotated[bool, flag_opt("react", "reazione")] = False


class TickArgs(Args):
    vp: Annotated[Text, OptionSpec("vp", max_length=200, aliases=("locazioni",))] = None


class HealthArgs(NameArgs):
    change: Annotated[
        int,
        OptionSpec(
            "change",
            type="int",
            min_value=-99,
            max_value=99,
            required=True,
            aliases=("variazione",),
        ),
    ]


class SetClockArgs(NameArgs):
    tick: Annotated[int, int_opt("tick", "scatto", lo=1, hi=TICKS, required=True)]


class ForceArgs(NameArgs):
    ticks: Annotated[int, int_opt("ticks", "scatti", lo=-20, hi=20, required=True)]


class EffectArgs(NameArgs):
    effect: Annotated[str, OptionSpec("effect", max_length=40, required=True, aliases=("effetto",))]
    tick: Annotated[Int, int_opt("tick", "scatto", lo=1, hi=TICKS)] = None


class PetArgs(NameArgs):
    master: Annotated[str, unit_opt("master", "padrone", required=True)]


class SettingsArgs(Args):
    """/wow settings (read by `SystemSettings.command`): one option per setting."""

    kill_scorer: Annotated[Text, setting("kill_scorer", "punti_uccisione")] = None
    battleground: Annotated[Text, setting("battleground", "campo_di_battaglia")] = None
    card_limit: Annotated[Text, setting("card_limit", "limite_carte")] = None
    pet_limit: Annotated[Text, setting("pet_limit", "limite_pet")] = None
    forced_reroll: Annotated[Text, setting("forced_reroll", "ritiro_forzato")] = None
