from __future__ import annotations

from bot.app import App
from bot.autocomplete import MAX_CHOICES, suggest
from bot.commands import all_specs
from tests.helpers import say


async def test_rule_names_by_prefix_accent_free_and_capped(app: App) -> None:
    hits = await suggest("rules", app, "telegram:1", "furtiv")
    assert "Furtività" in hits
    assert len(await suggest("rules", app, "telegram:1", "")) == MAX_CHOICES
    assert all("carica" in h.casefold() for h in await suggest("rules", app, "x", "carica"))


async def test_systems_and_unknown_sources(app: App) -> None:
    assert await suggest("systems", app, "x", "w") == ["wm", "wow"]
    assert await suggest("nothing", app, "x", "a") == []


async def test_units_come_from_this_chats_game_only(app: App) -> None:
    await say(app, "/game new gen", chat="telegram:1")
    await say(app, "/unit add Ironclad", chat="telegram:1")
    await say(app, "/unit add Irregulars", chat="telegram:1")
    assert await suggest("units", app, "telegram:1", "ir") == ["Ironclad", "Irregulars"]
    assert await suggest("units", app, "telegram:2", "ir") == []


def test_every_declared_autocomplete_source_exists() -> None:
    from bot.autocomplete import SOURCES

    declared = {o.autocomplete for s in all_specs() for o in s.options if o.autocomplete}
    assert declared <= set(SOURCES), declared - set(SOURCES)
