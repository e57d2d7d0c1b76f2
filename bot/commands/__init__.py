"""All command declarations. Each module exposes `SPECS`; adding a command means adding a spec
there (and its strings in data/locales), never touching an adapter."""

from __future__ import annotations

from bot.commands import (
    aos,
    army,
    c5,
    campaign,
    core,
    dice,
    game,
    game_settings,
    inf,
    rules,
    wm,
    wow,
)
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec

MODULES = (core, dice, rules, game, game_settings, campaign, army, wow, wm, aos, c5, inf)


def all_specs() -> list[CommandSpec]:
    return [spec for module in MODULES for spec in module.SPECS]


def build_registry() -> Registry:
    return Registry(all_specs())
