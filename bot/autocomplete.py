"""Autocomplete sources: values a platform can suggest while a user types an option
(Discord's autocomplete). An OptionSpec names its source (`autocomplete="rules"`); a source
returns at most MAX_CHOICES suggestions matching the typed prefix, best first."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.commands.registry import fold
from bot.rules_data import rule_index
from rules_core.rules.models import SYSTEMS

MAX_CHOICES = 25  # Discord's limit for autocomplete choices
Source = Callable[[str, str], Awaitable[list[str]]]  # (chat_key, typed text) -> suggestions
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
async def systems(chat_key: str, typed: str) -> list[str]:
    return matching([*SYSTEMS, "gen"], typed)


@register("rules")
async def rules(chat_key: str, typed: str) -> list[str]:
    return matching(rule_index().names(), typed)


async def suggest(source: str, chat_key: str, typed: str) -> list[str]:
    fn = SOURCES.get(source)
    return await fn(chat_key, typed) if fn else []
