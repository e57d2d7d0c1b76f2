"""Settings from the environment (and a `.env` file).

Tokens are SecretStr: never printed or logged.

A pydantic model filled by `load_settings` from the variables named as its fields (in any case),
over those of a `.env` file read with python-dotenv. Not pydantic-settings: with its sources it
took a quarter of `wargame-bot ask`'s start (issue 26) for what is one lookup per field here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

ENV_FILE = Path(".env")


class Settings(BaseModel):
    # Defaults are validated too (the database default becomes a Path like a typed value);
    # the validator is built by the first `load_settings`, after `cli.main` set up pydantic.
    model_config = ConfigDict(extra="ignore", validate_default=True, defer_build=True)

    # A SQLite file (the default), or a postgresql:// URL for a shared PostgreSQL server.
    wargame_bot_db: Path | str = Path("data.sqlite3")
    wargame_bot_db_pool: int = Field(default=10, ge=1)  # PostgreSQL connections per process
    wargame_bot_log_level: str = "INFO"
    # One JSON object per line (for a log collector) instead of plain lines.
    wargame_bot_log_format: str = Field(default="text", pattern="(?i)^(text|json)$")
    # Prometheus `/metrics` (README "Operations"): off unless a port is set.
    wargame_bot_metrics_port: int | None = Field(default=None, ge=0, le=65535)
    wargame_bot_metrics_host: str = "127.0.0.1"
    # Campaign pages (README "Campaign pages"): off unless a port is set. The public URL is
    # what links start with (behind a proxy: https://bot.example); default http://HOST:PORT.
    wargame_bot_web_port: int | None = Field(default=None, ge=0, le=65535)
    wargame_bot_web_host: str = "127.0.0.1"
    wargame_bot_web_url: str | None = Field(default=None, pattern=r"^https?://\S+$")
    # Storage durability and patience: see README "Reliability" (FULL syncs every commit).
    wargame_bot_synchronous: str = Field(default="NORMAL", pattern="(?i)^(normal|full)$")
    wargame_bot_busy_seconds: float = Field(default=30.0, gt=0)

    discord_token: SecretStr | None = None
    discord_dev_guild: int | None = None
    discord_api_base_url: str = "https://discord.com/api/v10"
    discord_gateway_url: str = "wss://gateway.discord.gg/"
    # Sharding (README "Several processes"): the total number of shards, and the ones this
    # process runs (`0,1`); unset, one process runs the one shard Discord assigns.
    discord_shard_count: int | None = Field(default=None, ge=1)
    discord_shard_ids: tuple[int, ...] | None = None

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

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        if isinstance(value, str):  # the environment's form: "0,1" (or "0 1")
            return tuple(int(part) for part in value.replace(",", " ").split())
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        ids, count = self.discord_shard_ids, self.discord_shard_count
        if ids and count is None:
            raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT")
        if ids and count is not None and not all(0 <= i < count for i in ids):
            raise ValueError(f"DISCORD_SHARD_IDS must be between 0 and {count - 1}")
        return self

    @property
    def web_base_url(self) -> str | None:
        """Where the campaign pages are reached; None when this bot serves none."""
        if self.wargame_bot_web_url:
            return self.wargame_bot_web_url.rstrip("/")
        if self.wargame_bot_web_port:
            return f"http://{self.wargame_bot_web_host}:{self.wargame_bot_web_port}"
        return None

    @property
    def db_path(self) -> Path | str:
        """What `App` opens: a Path for a SQLite file, the URL string for PostgreSQL."""
        value = self.wargame_bot_db
        return value if isinstance(value, str) and "://" in value else Path(value)


def environment_values(
    environ: Mapping[str, str] | None = None, env_file: Path | None = ENV_FILE
) -> dict[str, str]:
    """The settings' variables, by field name: the environment's over the `.env` file's.
    python-dotenv is imported only when there is a file to read."""
    names = Settings.model_fields.keys()
    values: dict[str, str] = {}
    if env_file is not None and env_file.is_file():
        from dotenv import dotenv_values

        for key, value in dotenv_values(env_file, encoding="utf-8").items():
            if value is not None and key.lower() in names:
                values[key.lower()] = value
    for key, value in (os.environ if environ is None else environ).items():
        if key.lower() in names:
            values[key.lower()] = value
    return values


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = ENV_FILE
) -> Settings:
    """The settings from the environment (default `os.environ`) and the `.env` file."""
    return Settings.model_validate(environment_values(environ, env_file))
