"""The `env` fixture: a running Telegram adapter against the fake Bot API on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.adapters.telegram import TelegramAdapter
from bot.app import App
from tests.telegram.fake_bot_api import FakeBotAPI
from tests.telegram.harness import Env, settings_for


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    fake = FakeBotAPI()
    await fake.start()
    app = App(tmp_path / "tg.sqlite3")
    await app.start()
    adapter = TelegramAdapter(app, settings_for(fake, tmp_path / "tg.sqlite3"), poll_timeout=1)
    await adapter.start()
    try:
        yield Env(fake, app, adapter)
    finally:
        await adapter.stop()
        await app.stop()
        await fake.stop()
