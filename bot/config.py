"""Settings from the environment (and a `.env` file).

Tokens are SecretStr: never printed or logged."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    # A SQLite file (the default), or a postgresql:// URL for a shared PostgreSQL server.
    wargame_bot_db: Path | str = Path("data.sqlite3")
    wargame_bot_db_pool: int = Field(default=10, ge=1)  # PostgreSQL connections per process
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

    @field_validator("wargame_bot_db")
    @classmethod
    def _known_database(cls, value: Path | str) -> Path | str:
        if isinstance(value, str) and "://" not in value:
            return Path(value)
        if isinstance(value, str) and not value.startswith(("postgresql://", "postgres://")):
            raise ValueError("a file path or a postgresql:// URL")
        return value

    @property
    def db_path(self) -> Path | str:
        """What `App` opens: a Path for a SQLite file, the URL string for PostgreSQL."""
        value = self.wargame_bot_db
        return value if isinstance(value, str) and "://" in value else Path(value)


def load_settings() -> Settings:
    return Settings()
