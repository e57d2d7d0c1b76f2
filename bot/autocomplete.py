"""Autocomplete sources: values a platform can suggest while a user types an option
(Discord's autocomplete). An OptionSpec names its source (`autocomplete="rules"`); a source
returns at most MAX_CHOICES suggestions matching the typed prefix, best first."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot import i18n
from bot.rules_data import rule_index
from bot.storage import games
from bot.storage import settings as settings_repo
from rules_core.rules.index import RuleIndex
from rules_core.rules.models import SYSTEMS as RULE_SYSTEMS
from rules_core.rules.models import RuleEntry
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
    async with app.db.transaction(write=False) as conn:
        game = await games.active(conn, chat_key)
        lang = i18n.normalize_lang(await settings_repo.chat_lang(conn, chat_key)) or "en"
    system = game.state.system if game and game.state.system in RULE_SYSTEMS else None
    return rule_suggestions(rule_index(), typed, lang, system)


def rule_suggestions(
    index: RuleIndex, typed: str, lang: i18n.Lang, system: str | None
) -> list[str]:
    """One suggestion per entry, as "name · game" (picked, the game's name in the query selects
    that game): the entry's name that starts with, else contains, the typed text, preferring
    its title in the chat's language; the chat's game first; no label twice."""
    key = fold(typed.strip())
    ranked: list[tuple[int, int, int, str, str, str]] = []
    for entry in index.entries.values():
        found = _best_name(entry, key, lang)
        if found is not None:
            rank, name = found
            other_game = int(system is not None and entry.system != system)
            ranked.append((other_game, rank, len(name), fold(name), entry.system, name))
    labels: list[str] = []
    seen: set[str] = set()
    for *_, game, name in sorted(ranked):
        label = f"{name[:1].upper()}{name[1:]} · {i18n.t(lang, f'systems.{game}')}"[:100]
        if fold(label) not in seen:
            seen.add(fold(label))
            labels.append(label)
            if len(labels) == MAX_CHOICES:
                break
    return labels


def _names_in_order(entry: RuleEntry, lang: str) -> list[str]:
    names = entry.names
    mine, other = (names.it, names.en) if lang == "it" else (names.en, names.it)
    # Glossary cells ("Terreno aperto / accidentato") and notes in brackets read as clutter.
    clean = [n for n in [*mine, *other, *names.abbr] if "/" not in n and "(" not in n]
    return clean or [*mine, *other]


def _best_name(entry: RuleEntry, key: str, lang: str) -> tuple[int, str] | None:
    names = _names_in_order(entry, lang)
    if not key:
        return 0, names[0]
    for rank, test in ((0, str.startswith), (1, str.__contains__)):
        for name in names:
            if test(fold(name), key):
                return rank, name
    return None


@register("units")
async def units(app: App, chat_key: str, typed: str) -> list[str]:
    """The units of this chat's game only: another chat's names are never suggested."""
    async with app.db.transaction(write=False) as conn:
        game = await games.active(conn, chat_key)
    return matching([u.name for u in game.state.units], typed) if game else []


async def suggest(source: str, app: App, chat_key: str, typed: str) -> list[str]:
    fn = SOURCES.get(source)
    return await fn(app, chat_key, typed) if fn else []
