"""Discord sharding across processes: each process identifies with its shards
(DISCORD_SHARD_COUNT, DISCORD_SHARD_IDS) and answers the guilds Discord routes to them."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.discord import DiscordAdapter
from bot.app import App
from tests.discord.fake_discord import GUILD_ID, FakeDiscord
from tests.discord.harness import command, interact, settings_for, text_of


async def test_two_processes_split_the_shards_and_one_answers_each_guild(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    db = tmp_path / "shared.sqlite3"
    apps = [App(db), App(db)]
    adapters: list[DiscordAdapter] = []
    try:
        for shard, app in enumerate(apps):
            await app.start()
            conf = settings_for(fake, db).model_copy(
                update={"discord_shard_count": 2, "discord_shard_ids": (shard,)}
            )
            adapter = DiscordAdapter(app, conf, guild_ready_timeout=0.05)
            await adapter.start()
            adapters.append(adapter)
        assert sorted(fake.identified_shards) == [(0, 2), (1, 2)]
        home = (GUILD_ID >> 22) % 2  # the shard Discord routes this guild to
        assert adapters[home].client.get_guild(GUILD_ID) is not None
        assert adapters[1 - home].client.get_guild(GUILD_ID) is None

        body = await interact(fake, fake.interaction(2, command("roll", expression="2d6")))
        assert "2d6" in text_of(body)
        callbacks = await fake.callbacks(1)
        assert len(callbacks) == 1
    finally:
        for adapter in adapters:
            await adapter.stop()
        for app in apps:
            await app.stop()
        await fake.stop()


async def test_without_shard_settings_the_client_is_not_sharded(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    app = App(tmp_path / "one.sqlite3")
    await app.start()
    adapter = DiscordAdapter(
        app, settings_for(fake, tmp_path / "one.sqlite3"), guild_ready_timeout=0.05
    )
    try:
        await adapter.start()
        assert fake.identified_shards == []  # one connection, no shard field
        assert adapter.client.get_guild(GUILD_ID) is not None
    finally:
        await adapter.stop()
        await app.stop()
        await fake.stop()
