"""`run` with a Discord token, and syncing to a development guild."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.adapters.discord import DiscordAdapter
from bot.adapters.platforms import run_platforms
from bot.app import App
from bot.config import Settings
from tests.discord.fake_discord import GUILD_ID, FakeDiscord


def conf(
    fake: FakeDiscord, db: Path, token: str | None = None, guild: int | None = None
) -> Settings:
    return Settings(
        wargame_bot_db=db,
        discord_token=SecretStr(token or fake.token),
        discord_api_base_url=fake.api_url,
        discord_gateway_url=fake.gateway_url,
        discord_dev_guild=guild,
    )


async def test_run_serves_until_stopped(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    stop = asyncio.Event()
    task = asyncio.create_task(run_platforms(conf(fake, tmp_path / "r.sqlite3"), stop))
    try:
        await asyncio.wait_for(fake.identified.wait(), 30)
        data = {
            "id": "1",
            "name": "roll",
            "type": 1,
            "options": [{"name": "expression", "type": 3, "value": "d6"}],
        }
        await fake.dispatch("INTERACTION_CREATE", fake.interaction(2, data))
        await fake.callbacks()
        stop.set()
        assert await asyncio.wait_for(task, 30) == 0
    finally:
        await fake.stop()


async def test_run_with_a_rejected_token_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        code = await run_platforms(conf(fake, tmp_path / "x.sqlite3", "nope"), asyncio.Event())
    finally:
        await fake.stop()
    assert code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "rejected the token" in lines[0] and "nope" not in lines[0]


async def test_dev_guild_gets_the_commands(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    app = App(tmp_path / "g.sqlite3")
    await app.start()
    adapter = DiscordAdapter(
        app, conf(fake, tmp_path / "g.sqlite3", guild=GUILD_ID), guild_ready_timeout=0.05
    )
    await adapter.start()
    try:
        puts = [p for m, p, _ in fake.calls if m == "PUT"]
        assert puts == [f"/applications/900000000000000001/guilds/{GUILD_ID}/commands"]
    finally:
        await adapter.stop()
        await app.stop()
        await fake.stop()
