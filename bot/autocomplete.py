"""Autocomplete sources: values a platform can suggest while a user types an option
(Discord's autocomplete). An OptionSpec names its source (`autocomplete="rules"`); a source
returns at most MAX_CHOICES suggestions matching the typed prefix, best first."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.rules_data import rule_index
from bot.storage import games
from rules_core.rules.text import fold
from rules_core.systems import SYSTEMS as GAME_SYSTEMS

if TYPE_CHECKING:
    from bot.app import App

MAX_CHOICES = 25  # Discord's limit for autocomplete choices
Source = Callable[["App", str, str], Awaitable[list[str]]]  # (app, chat_key, typed) -> values
SOURCES: dict[str, Source] = {}


def register(name: str) -> Callable[[Source], Source]:
    def wrap(fn: Source) -> Source:
        SOURCES[name] = fn
        return fn

    return wrap


def matching(values: list[str], typed: str) -> list[str]:
    """Values starting with the typed text first, then those containing it; accents and case
    ignored; at most MAX_CHOICES."""
    key = fold(typed.strip())
    starts = [v for v in values if fold(v).startswith(key)]
    contains = [v for v in values if key in fold(v) and v not in starts]
    return (starts + contains)[:MAX_CHOICES]


@register("systems")
async def systems(app: App, chat_key: str, typed: str) -> list[str]:
    from rules_core.rules.models import SYSTEMS

    return matching(sorted({*SYSTEMS, *GAME_SYSTEMS}), typed)


@register("rules")
async def rules(app: App, chat_key: str, typed: str) -> list[str]:
    return matching(rule_index().names(), typed)


@register("units")
async def units(app: App, chat_key: str, typed: str) -> list[str]:
    """The units of this chat's game only: another chat's names are never suggested."""
    async with app.db.transaction(write=False) as conn:
        game = await games.active(conn, chat_key)
    return matching([u.name for u in game.state.units], typed) if game else []


async def suggest(source: str, app: App, chat_key: str, typed: str) -> list[str]:
    fn = SOURCES.get(source)
    return await fn(app, chat_key, typed) if fn else []
