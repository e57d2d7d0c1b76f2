"""Polling mode with several processes on one database: exactly one polls Telegram (the holder
of the poller lock); another stands by and takes over when the poller stops."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.adapters.telegram import TelegramAdapter
from bot.app import App
from tests.telegram.fake_bot_api import FakeBotAPI
from tests.telegram.harness import settings_for


async def test_one_process_polls_and_a_second_takes_over_when_it_stops(tmp_path: Path) -> None:
    fake = FakeBotAPI()
    await fake.start()
    db = tmp_path / "shared.sqlite3"
    apps = [App(db), App(db)]
    for app in apps:
        await app.start()
    first, second = (TelegramAdapter(app, settings_for(fake, db), poll_timeout=1) for app in apps)
    second.election_every = 0.05
    try:
        await first.start()
        await second.start()
        assert first.polling.is_set() and not second.polling.is_set()
        assert second.application.updater is not None
        assert not second.application.updater.running  # it never calls getUpdates meanwhile
        assert first.alive() and second.alive()  # standing by is healthy too

        await fake.push(fake.message("/roll 2d6"))
        await fake.wait_for("sendMessage")
        await first.stop()
        await asyncio.wait_for(second.polling.wait(), 30)

        await fake.push(fake.message("/roll d8"))
        await fake.wait_for("sendMessage", count=2)
        assert len([m for m in fake.methods() if m == "sendMessage"]) == 2  # each answered once
    finally:
        await second.stop()
        if first.application.running:
            await first.stop()
        for app in apps:
            await app.stop()
        await fake.stop()
