"""The Telegram test harness: the real adapter and App on a SQLite file, against FakeBotAPI."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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
        _env_file=None,  # type: ignore[call-arg]
        wargame_bot_db=db,
        telegram_token=SecretStr(token or fake.token),
        telegram_base_url=fake.base_url,
    )


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
