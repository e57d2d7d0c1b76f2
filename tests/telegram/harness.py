"""The Telegram test harness: the real adapter and App on a SQLite file, against FakeBotAPI."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.adapters.telegram import TelegramAdapter
from bot.app import App
from bot.config import Settings
from tests.telegram.fake_bot_api import FakeBotAPI


@dataclass
class Env:
    fake: FakeBotAPI
    app: App
    adapter: TelegramAdapter


def settings_for(fake: FakeBotAPI, db: Path, token: str | None = None) -> Settings:
    return Settings(
        wargame_bot_db=db,
        telegram_token=SecretStr(token or fake.token),
        telegram_base_url=fake.base_url,
    )


@asynccontextmanager
async def running(
    tmp_path: Path, db_name: str = "tg.sqlite3", **adapter_kw: Any
) -> AsyncIterator[Env]:
    """A new FakeBotAPI, and the adapter polling it, both stopped on the way out."""
    fake = FakeBotAPI()
    await fake.start()
    app = App(tmp_path / db_name)
    await app.start()
    adapter_kw.setdefault("poll_timeout", 1)
    adapter = TelegramAdapter(app, settings_for(fake, tmp_path / db_name), **adapter_kw)
    await adapter.start()
    try:
        yield Env(fake, app, adapter)
    finally:
        await adapter.stop()
        await app.stop()
        await fake.stop()


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
