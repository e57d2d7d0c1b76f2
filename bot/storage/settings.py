"""Per-chat settings (the reply language; pictures on or off), a user's own language and the small
key-value store."""

from __future__ import annotations

from datetime import datetime
from typing import TypeVar

from pydantic import BaseModel

from bot.storage.conn import Connection
from bot.storage.util import fetch_one, iso


async def chat_lang(conn: Connection, chat_key: str) -> str | None:
    row = await fetch_one(conn, "SELECT lang FROM chat_settings WHERE chat_key = ?", (chat_key,))
    return str(row[0]) if row and row[0] else None


async def set_chat_lang(conn: Connection, chat_key: str, lang: str | None, now: datetime) -> None:
    await conn.execute(
        "INSERT INTO chat_settings (chat_key, lang, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (chat_key) DO UPDATE SET lang = excluded.lang, "
        "updated_at = excluded.updated_at",
        (chat_key, lang, iso(now)),
    )


def _user_lang_key(platform: str, user_id: str) -> str:
    return f"lang:{platform}:{user_id}"


async def user_lang(conn: Connection, platform: str, user_id: str) -> str | None:
    """The language a user chose for themselves (`/lang` in their private chat)."""
    return await kv_get(conn, _user_lang_key(platform, user_id))


async def set_user_lang(conn: Connection, platform: str, user_id: str, lang: str) -> None:
    await kv_set(conn, _user_lang_key(platform, user_id), lang)


async def kv_get(conn: Connection, key: str) -> str | None:
    row = await fetch_one(conn, "SELECT value FROM kv WHERE key = ?", (key,))
    return str(row[0]) if row else None


async def kv_delete(conn: Connection, key: str) -> None:
    await conn.execute("DELETE FROM kv WHERE key = ?", (key,))


async def kv_set(conn: Connection, key: str, value: str) -> None:
    await conn.execute(
        "INSERT INTO kv (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


Model = TypeVar("Model", bound=BaseModel)


async def kv_model(conn: Connection, key: str, model: type[Model]) -> Model:
    """A pydantic model stored under `key` (a game system's chat settings), or its defaults
    when nothing is stored or the stored value no longer fits the model."""
    raw = await kv_get(conn, key)
    if raw:
        try:
            return model.model_validate_json(raw)
        except ValueError:  # pydantic's ValidationError is a ValueError
            pass
    return model()


def _images_key(chat_key: str) -> str:
    return f"images:{chat_key}"


async def chat_images(conn: Connection, chat_key: str) -> bool:
    """Whether replies in this chat carry pictures (`/settings images`): on unless turned off."""
    return await kv_get(conn, _images_key(chat_key)) != "off"


async def set_chat_images(conn: Connection, chat_key: str, on: bool) -> None:
    if on:
        await kv_delete(conn, _images_key(chat_key))  # the default: nothing stored
    else:
        await kv_set(conn, _images_key(chat_key), "off")
