"""`wargame-bot health` as a real process against a real `wargame-bot run` (Telegram and
Discord, on the fakes at 127.0.0.1), and against the ways it can be unhealthy: a stale heartbeat, a
writer that is gone, no database, a database at another schema version."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from pydantic import SecretStr

from bot.adapters.discord import DiscordAdapter
from bot.adapters.telegram import TelegramAdapter
from bot.app import App
from bot.config import Settings
from bot.health import STALE_AFTER, Heartbeat, HeartbeatWriter, check, heartbeat_path
from bot.storage.db import schema_version
from tests.discord.fake_discord import FakeDiscord
from tests.process.conftest import BOT, Cli
from tests.telegram.fake_bot_api import FakeBotAPI


def migrated(cli: Cli) -> None:
    """A database at the current schema, made the way an operator would."""
    assert cli.run("ask", "/roll 1d6").returncode == 0


def beat(cli: Cli, pid: int, **adapters: float) -> None:
    path = heartbeat_path(cli.db)
    path.write_text(Heartbeat(pid=pid, adapters=adapters).model_dump_json(), encoding="utf-8")


async def test_a_running_bot_is_healthy_until_it_stops(cli: Cli) -> None:
    telegram, discord = FakeBotAPI(), FakeDiscord()
    await telegram.start()
    await discord.start()
    env = {
        **cli.env,
        "WARGAME_BOT_LOG_LEVEL": "INFO",
        "TELEGRAM_TOKEN": telegram.token,
        "TELEGRAM_BASE_URL": telegram.base_url,
        "DISCORD_TOKEN": discord.token,
        "DISCORD_API_BASE_URL": discord.api_url,
        "DISCORD_GATEWAY_URL": discord.gateway_url,
    }
    proc = await asyncio.create_subprocess_exec(
        BOT, "run", cwd=cli.cwd, env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        assert proc.stderr is not None
        seen: list[str] = []
        while not all(
            any(f"{name} adapter running" in line for line in seen)
            for name in ("telegram", "discord")
        ):
            line = (await asyncio.wait_for(proc.stderr.readline(), 60)).decode()
            assert line, "run exited before its adapters ran: " + "".join(seen)
            seen.append(line)
        health = await asyncio.to_thread(cli.run, "health")
        assert health.returncode == 0, health.stderr
        assert health.stdout.startswith(f"healthy: {cli.db} at schema version {schema_version()}")
        assert "discord beat" in health.stdout and "telegram beat" in health.stdout
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 60) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await telegram.stop()
        await discord.stop()
    assert not heartbeat_path(cli.db).exists()
    stopped = await asyncio.to_thread(cli.run, "health")
    assert stopped.returncode == 1 and "no heartbeat" in stopped.stderr


async def test_adapters_are_alive_while_serving_only(tmp_path: Path) -> None:
    telegram, discord = FakeBotAPI(), FakeDiscord()
    await telegram.start()
    await discord.start()
    app = App(tmp_path / "bot.sqlite3")
    await app.start()
    conf = Settings(
        wargame_bot_db=tmp_path / "bot.sqlite3",
        telegram_token=SecretStr(telegram.token),
        telegram_base_url=telegram.base_url,
        discord_token=SecretStr(discord.token),
        discord_api_base_url=discord.api_url,
        discord_gateway_url=discord.gateway_url,
    )
    adapters = [TelegramAdapter(app, conf, poll_timeout=1), DiscordAdapter(app, conf)]
    try:
        for adapter in adapters:
            assert not adapter.alive()
            await adapter.start()
            assert adapter.alive()
            await adapter.stop()
            assert not adapter.alive()
    finally:
        await app.stop()
        await telegram.stop()
        await discord.stop()


def test_a_stale_heartbeat_is_unhealthy(cli: Cli) -> None:
    migrated(cli)
    now = time.time()
    beat(cli, pid=os.getpid(), telegram=now, discord=now - STALE_AFTER - 1)
    done = cli.run("health")
    assert done.returncode == 1
    # One line, for the stale adapter only (its age counts the health process's start-up).
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert re.fullmatch(
        r"wargame-bot health: discord heartbeat is \d+ s old \(limit 60 s\)", lines[0]
    )
    assert done.stdout == ""


def test_a_heartbeat_whose_writer_is_gone_is_unhealthy(cli: Cli) -> None:
    migrated(cli)
    finished = subprocess.Popen(["true"])  # a process that has exited and been reaped
    finished.wait()
    beat(cli, pid=finished.pid, telegram=time.time())
    done = cli.run("health")
    assert done.returncode == 1 and f"(pid {finished.pid}) is gone" in done.stderr


def test_no_database_is_unhealthy_and_none_is_created(cli: Cli) -> None:
    done = cli.run("health")
    assert done.returncode == 1
    assert f"no database at {cli.db}" in done.stderr
    assert not cli.db.exists()


def test_another_schema_version_is_unhealthy_and_left_unchanged(cli: Cli) -> None:
    migrated(cli)
    beat(cli, pid=os.getpid(), telegram=time.time())
    assert cli.run("health").returncode == 0
    for version in (schema_version() + 1, schema_version() - 1):
        with sqlite3.connect(cli.db) as conn:
            conn.execute(f"PRAGMA user_version = {version}")
        done = cli.run("health")
        assert done.returncode == 1
        assert f"at schema version {version}, this bot needs {schema_version()}" in done.stderr
        with sqlite3.connect(cli.db) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == version  # read-only


def test_a_file_that_is_not_a_database_is_unhealthy(cli: Cli) -> None:
    cli.db.write_bytes(b"not a database at all" * 100)
    done = cli.run("health")
    assert done.returncode == 1 and "cannot be opened as a database" in done.stderr


class Adapter:
    def __init__(self, name: str) -> None:
        self.name = name
        self.up = True

    def alive(self) -> bool:
        return self.up


async def test_an_adapter_that_stops_being_alive_goes_stale(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    clock = [1000.0]
    telegram, discord = Adapter("telegram"), Adapter("discord")
    writer = HeartbeatWriter(heartbeat_path(db), [telegram, discord], clock=lambda: clock[0])
    writer.beat()
    discord.up = False
    clock[0] += 30
    writer.beat()
    beats = Heartbeat.model_validate_json(heartbeat_path(db).read_text())
    assert beats.adapters == {"telegram": 1030.0, "discord": 1000.0}
    problems = [p for p in check(db, now=1061.0)[0] if "heartbeat" in p]
    assert problems == ["discord heartbeat is 61 s old (limit 60 s)"]

    stop = asyncio.Event()
    stop.set()
    await writer.run(stop)  # stopping removes the file: a stopped bot is not "healthy"
    assert not heartbeat_path(db).exists()
