"""Settings from the environment (and a `.env` file).

Tokens are SecretStr: never printed or logged."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    wargame_bot_db: Path = Field(default=Path("data.sqlite3"))
    wargame_bot_log_level: str = "INFO"
    # Storage durability and patience: see README "Reliability" (FULL syncs every commit).
    wargame_bot_synchronous: str = Field(default="NORMAL", pattern="(?i)^(normal|full)$")
    wargame_bot_busy_seconds: float = Field(default=30.0, gt=0)

    discord_token: SecretStr | None = None
    discord_dev_guild: int | None = None
    discord_api_base_url: str = "https://discord.com/api/v10"
    discord_gateway_url: str = "wss://gateway.discord.gg/"

    telegram_token: SecretStr | None = None
    telegram_base_url: str = "https://api.telegram.org/bot"
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = 8443
    telegram_webhook_secret: SecretStr | None = None

    @property
    def db_path(self) -> Path:
        return self.wargame_bot_db


def load_settings() -> Settings:
    return Settings()
