"""A command that is still working after a moment shows it: "typing…" on Telegram, a deferred
"thinking…" reply on Discord, driven by the real wait (bot/adapters/slow.py), with the real
clients against the fake servers. The heavy command is held in its worker until the notice has
been seen, so the order is certain without any clock in the test."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.adapters.discord import DiscordAdapter
from bot.adapters.slow import with_notice
from bot.adapters.telegram import TelegramAdapter
from bot.app import App
from tests.discord.fake_discord import FakeDiscord
from tests.discord.harness import command
from tests.discord.harness import settings_for as discord_settings
from tests.telegram.fake_bot_api import FakeBotAPI
from tests.telegram.harness import settings_for as telegram_settings
from tests.workloads import GatedPool, make_fifo

HEAVY = "100d100"
NOTICE_AFTER = 0.05  # the adapters' 1 s, shortened: the held command cannot finish meanwhile
GENEROUS = 120.0  # the pool's deadlines, raised: the test is about the notice, not the deadline


async def test_telegram_shows_typing_while_a_heavy_command_computes(tmp_path: Path) -> None:
    fake = FakeBotAPI()
    await fake.start()
    pool = GatedPool(make_fifo(tmp_path), min_deadline=GENEROUS)
    app = App(tmp_path / "tg.sqlite3", pool=pool)
    await app.start()
    adapter = TelegramAdapter(app, telegram_settings(fake, tmp_path / "tg.sqlite3"), poll_timeout=1)
    adapter.slow_after = NOTICE_AFTER
    await adapter.start()
    try:
        await fake.push(fake.message(f"/odds {HEAVY}", chat_id=-1001))
        (typing,) = await fake.wait_for("sendChatAction", timeout=60)
        assert typing["action"] == "typing" and int(typing["chat_id"]) == -1001
        assert fake.sent() == []  # still computing: no reply yet
        await pool.open_gate()
        # the reply: its chart (bot/images) with the text as caption
        (sent,) = await fake.wait_for("sendPhoto", timeout=60)
        assert HEAVY in sent["caption"] and "P(≥k)" in sent["caption"]
    finally:
        await adapter.stop()
        await app.stop()
        await fake.stop()
        pool.shutdown()


async def test_discord_defers_a_heavy_command_then_follows_up(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    db = tmp_path / "dc.sqlite3"
    pool = GatedPool(make_fifo(tmp_path), min_deadline=GENEROUS)
    app = App(db, pool=pool)
    await app.start()
    adapter = DiscordAdapter(
        app, discord_settings(fake, db), guild_ready_timeout=0.05, defer_after=NOTICE_AFTER
    )
    await adapter.start()
    try:
        await fake.dispatch(
            "INTERACTION_CREATE", fake.interaction(2, command("odds", expression=HEAVY))
        )
        (ack,) = await fake.callbacks()
        assert ack["type"] == 5  # deferred: "thinking…" while the worker computes
        await pool.open_gate()
        (_, _, followup), *_ = await fake.wait_for(
            lambda m, p, b: p.startswith("/webhooks/"), timeout=60
        )
        assert HEAVY in followup["embeds"][0]["description"]
    finally:
        await adapter.stop()
        await app.stop()
        await fake.stop()
        pool.shutdown()


async def test_the_notice_is_renewed_while_the_work_lasts() -> None:
    release = asyncio.Event()
    notices = 0
    three = asyncio.Event()

    async def notify() -> None:
        nonlocal notices
        notices += 1
        if notices == 3:
            three.set()

    async def work() -> str:
        await release.wait()
        return "done"

    waiting = asyncio.create_task(with_notice(work(), notify, after=0, every=0.01))
    await three.wait()  # renewed while the work lasts (Telegram's "typing…" fades after 5 s)
    release.set()
    assert await waiting == "done"


async def test_a_failing_notice_does_not_stop_the_work() -> None:
    tried = asyncio.Event()
    release = asyncio.Event()

    async def notify() -> None:
        tried.set()
        raise ConnectionError("platform down")

    async def work() -> int:
        await release.wait()
        return 7

    task = asyncio.create_task(with_notice(work(), notify, after=0))
    await tried.wait()
    release.set()
    assert await task == 7
