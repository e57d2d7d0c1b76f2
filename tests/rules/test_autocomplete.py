from __future__ import annotations

from bot.app import App
from bot.autocomplete import MAX_CHOICES, suggest
from bot.commands import all_specs
from tests.helpers import say


async def test_rule_names_by_prefix_accent_free_and_capped(app: App) -> None:
    hits = await suggest("rules", app, "telegram:1", "furtiv")
    assert "Furtività · WARMACHINE Mk II" in hits
    assert len(await suggest("rules", app, "telegram:1", "")) == MAX_CHOICES
    assert all("carica" in h.casefold() for h in await suggest("rules", app, "x", "carica"))


async def test_rule_suggestions_carry_their_game_without_near_duplicates(app: App) -> None:
    """Issue #21: each suggestion says its game; an entry is suggested once (not once per
    alias: "Linea di Vista", "LdV", "linea di tiro"...), and picking one answers in that game."""
    hits = await suggest("rules", app, "telegram:1", "linea di")
    games = {h.rsplit(" · ", 1)[1] for h in hits}
    assert {"WARMACHINE Mk II", "Infinity", "Confrontation 5", "WoW Miniatures"} <= games
    folded = [h.casefold() for h in hits]
    assert len(folded) == len(set(folded))
    wm = [h for h in hits if h.endswith("WARMACHINE Mk II") and "vista" in h.casefold()]
    assert wm == ["Linea di Vista · WARMACHINE Mk II"]  # not also "Linea di tiro", "LdV"
    assert not any("/" in h.split(" · ")[0] for h in hits)  # no glossary cells
    picked = await say(app, f"/rule {wm[0]}", chat="telegram:1")
    assert picked.data is not None
    assert (picked.data["id"], picked.data["confident"]) == ("wm.line_of_sight", True)


async def test_rule_suggestions_put_the_chats_game_first(app: App) -> None:
    await say(app, "/game new inf", chat="telegram:5")
    hits = await suggest("rules", app, "telegram:5", "lin")
    assert hits[0].endswith("· Infinity")


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
