from __future__ import annotations

from bot.autocomplete import MAX_CHOICES, suggest
from bot.commands import all_specs


async def test_rule_names_by_prefix_accent_free_and_capped() -> None:
    hits = await suggest("rules", "telegram:1", "furtiv")
    assert "Furtività" in hits
    assert len(await suggest("rules", "telegram:1", "")) == MAX_CHOICES
    assert all("carica" in h.casefold() for h in await suggest("rules", "x", "carica"))


async def test_systems_and_unknown_sources() -> None:
    assert await suggest("systems", "x", "w") == ["wm", "wow"]
    assert await suggest("nothing", "x", "a") == []


def test_every_declared_autocomplete_source_exists() -> None:
    from bot.autocomplete import SOURCES

    declared = {o.autocomplete for s in all_specs() for o in s.options if o.autocomplete}
    assert declared <= set(SOURCES), declared - set(SOURCES)
