"""The command tree as Discord receives it and uses it: the real discord.py client syncs the
registry's tree to the fake Discord on 127.0.0.1 (which refuses what Discord refuses), and
interactions on subcommands reach the right command."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec, OptionSpec
from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.harness import sub, text_of
from tests.discord.test_discord_commands import published, validate
from tests.discord.test_discord_flows import puts, running
from tests.helpers import say


async def test_the_synced_tree_is_grouped_named_labelled_and_localized(tmp_path: Path) -> None:
    async with running(tmp_path) as (fake, _, _):
        (body,) = puts(fake)
        assert fake.refused == []
        assert validate(body) == []  # Discord's limits, 25 top-level, words and Italian everywhere
        names = [c["name"] for c in body]
        assert len(names) <= 25
        assert "aos" in names and not [n for n in names if n.startswith(("aos-", "roll-"))]
        paths = published(body)
        attack = {o["name"]: o for o in paths["wm attack"]["options"]}
        assert [(c["name"], c["name_localizations"]["it"]) for c in attack["type"]["choices"]] == [
            ("Melee", "Mischia"),
            ("Ranged", "Distanza"),
            ("Magic", "Magia"),
        ]
        assert attack["dice"]["name_localizations"] == {"it": "dadi"}
        assert paths["rolls show"]["name_localizations"] == {"it": "mostra"}
        assert paths["rolls"]["description_localizations"]["it"].startswith("Tiri precedenti")


async def test_a_subcommand_runs_its_command_end_to_end(tmp_path: Path) -> None:
    async with running(tmp_path) as (fake, _, _):
        attack = sub(
            "aos",
            "attack",
            attacks=2,
            hit=3,
            wound=3,
            rend=-1,
            damage="1",
            save=4,
            dice="5,1,4,6",
        )
        await fake.dispatch("INTERACTION_CREATE", fake.interaction(2, attack, locale="it"))
        (body,) = await fake.callbacks()
        assert not body["data"].get("flags", 0) & 64, text_of(body)  # not an error
        text = text_of(body)
        # /aos attack ran with these dice: 5 hits, 1 misses; 4 wounds; the 6 saves.
        assert text.startswith("Attacco: 2 attacchi 3+/3+") and "5, 1" in text
        assert "**1 colpo**" in text and "**0 non salvate**" in text


async def test_moved_subcommands_reach_their_registry_commands(tmp_path: Path) -> None:
    async with running(tmp_path) as (fake, app, _):
        chat = f"discord:{CHANNEL_ID}"
        assert (await say(app, "/roll d6 first", chat=chat)).error is None
        assert (await say(app, "/game new gen", user="42", chat=chat)).error is None
        for data in (
            sub("rolls", "show", id=1),  # /roll show 1
            sub("rolls", "history"),  # /roll history
            sub("turn", "show"),  # /turn
            sub("c5-phase", "mana", rank=2, power=4, dice="3"),  # /c5 mana
        ):
            await fake.dispatch("INTERACTION_CREATE", fake.interaction(2, data))
        shown, history, turn, mana = await fake.callbacks(4)
        assert "#1" in text_of(shown) and "first" in text_of(shown)
        assert "first" in text_of(history)
        assert not turn["data"].get("flags", 0) & 64, text_of(turn)
        assert not mana["data"].get("flags", 0) & 64, text_of(mana)


async def test_help_on_discord_names_the_discord_commands(tmp_path: Path) -> None:
    async with running(tmp_path) as (fake, _, _):
        for locale, name in (("en-US", "roll show"), ("it", "roll show"), ("en-US", "rolls show")):
            data = {
                "id": "1",
                "name": "help",
                "type": 1,
                "options": [{"name": "command", "type": 3, "value": name}],
            }
            await fake.dispatch("INTERACTION_CREATE", fake.interaction(2, data, locale=locale))
        overview = {"id": "1", "name": "help", "type": 1, "options": []}
        await fake.dispatch("INTERACTION_CREATE", fake.interaction(2, overview))
        english, italian, by_discord_name, everything = await fake.callbacks(4)
        assert text_of(english).startswith("/rolls show\n`/rolls show ID`")
        assert text_of(italian).startswith("/tiri mostra\n`/tiri mostra NUMERO`")  # as the picker
        assert text_of(by_discord_name).startswith("/rolls show")
        listed = text_of(everything)
        assert "**/roll, /rolls**" in listed and "**/c5, /c5\\-phase**" in listed


async def test_an_unchanged_tree_is_not_uploaded_again_a_changed_one_is(tmp_path: Path) -> None:
    async def noop(ctx: Any) -> Any:
        raise AssertionError("not run")

    def registry(choices: tuple[str, ...]) -> Registry:
        option = OptionSpec("language", choices=choices)
        spec = CommandSpec(path=("settings", "lang"), handler=noop, options=(option,))
        return Registry([spec])

    from tests.discord.fake_discord import FakeDiscord

    fake = FakeDiscord()
    await fake.start()
    try:
        for choices in (("it", "en"), ("it", "en"), ("en",)):
            async with running(tmp_path, registry=registry(choices), fake=fake):
                pass
        first, second = puts(fake)
        lang_first, lang_second = first[0]["options"][0], second[0]["options"][0]  # /settings lang
        assert [c["value"] for c in lang_second["options"][0]["choices"]] == ["en"]
        assert lang_first["options"][0]["choices"][0]["name"] == "Italian"
    finally:
        await fake.stop()
