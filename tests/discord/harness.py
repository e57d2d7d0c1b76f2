"""The Discord test harness: the real discord.py client and App on a SQLite file, against
FakeDiscord on 127.0.0.1, and the payloads of a user's slash commands and button presses."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.adapters.discord import DiscordAdapter
from bot.app import App
from bot.commands.registry import Registry
from bot.config import Settings
from tests.discord.fake_discord import BOT_USER, JOINED, FakeDiscord


@dataclass
class Env:
    fake: FakeDiscord
    app: App
    adapter: DiscordAdapter
    db: Path


def settings_for(fake: FakeDiscord, db: Path, token: str | None = None) -> Settings:
    return Settings(
        wargame_bot_db=db,
        discord_token=SecretStr(token or fake.token),
        discord_api_base_url=fake.api_url,
        discord_gateway_url=fake.gateway_url,
    )


@asynccontextmanager
async def running(
    tmp_path: Path,
    db_name: str = "dc.sqlite3",
    *,
    registry: Registry | None = None,
    fake: FakeDiscord | None = None,
    **adapter_kw: Any,
) -> AsyncIterator[Env]:
    """The adapter started against `fake` (a new one, started and stopped here, when None)."""
    own_fake = fake is None
    fake = fake or FakeDiscord()
    if own_fake:
        await fake.start()
    db = tmp_path / db_name
    app = App(db, registry=registry)
    await app.start()
    adapter_kw.setdefault("guild_ready_timeout", 0.05)  # the fake's guild is in READY already
    adapter = DiscordAdapter(app, settings_for(fake, db), **adapter_kw)
    await adapter.start()
    try:
        yield Env(fake, app, adapter, db)
    finally:
        await adapter.stop()
        await app.stop()
        if own_fake:
            await fake.stop()


def option(name: str, value: str | int) -> dict[str, Any]:
    return {"name": name, "type": 4 if isinstance(value, int) else 3, "value": value}


def command(name: str, /, **options: str | int) -> dict[str, Any]:
    """The data of a slash interaction: `/name opt:value ...`."""
    return {"id": "1", "name": name, "type": 1, "options": [option(*o) for o in options.items()]}


def sub(top: str, leaf: str, /, **options: str | int) -> dict[str, Any]:
    """The data of a slash interaction on a subcommand: `/top leaf opt:value ...`."""
    leaves = [option(*o) for o in options.items()]
    return {
        "id": "1",
        "name": top,
        "type": 1,
        "options": [{"name": leaf, "type": 1, "options": leaves}],
    }


def text_of(body: dict[str, Any]) -> str:
    """The first embed's title and description in an interaction callback's body."""
    embed = body["data"]["embeds"][0]
    return f"{embed.get('title') or ''}\n{embed.get('description') or ''}"


def press(
    fake: FakeDiscord, custom_id: str, message_id: str = "960000000000000000", **kw: Any
) -> dict[str, Any]:
    """A button press (interaction type 3) on a message of the bot's in the press's channel;
    `kw` goes to FakeDiscord.interaction (user_id, name, thread, ...)."""
    payload = fake.interaction(3, {"custom_id": custom_id, "component_type": 2}, **kw)
    payload["message"] = {
        "id": message_id,
        "channel_id": payload["channel_id"],
        "author": BOT_USER,
        "content": "",
        "timestamp": JOINED,
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "flags": 0,
        "components": [],
    }
    return payload


async def interact(fake: FakeDiscord, payload: dict[str, Any]) -> dict[str, Any]:
    """Dispatch one interaction and return the body of the client's callback to it."""
    before = len(await fake.callbacks(0))
    await fake.dispatch("INTERACTION_CREATE", payload)
    return (await fake.callbacks(before + 1))[-1]  # type: ignore[no-any-return]
