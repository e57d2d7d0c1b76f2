"""Per-chat settings (the reply language for now) and the small key-value store."""

from __future__ import annotations

from datetime import datetime

import aiosqlite

from bot.storage.util import iso


async def chat_lang(conn: aiosqlite.Connection, chat_key: str) -> str | None:
    async with conn.execute(
        "SELECT lang FROM chat_settings WHERE chat_key = ?", (chat_key,)
    ) as cur:
        row = await cur.fetchone()
    return str(row[0]) if row and row[0] else None


async def set_chat_lang(
    conn: aiosqlite.Connection, chat_key: str, lang: str | None, now: datetime
) -> None:
    await conn.execute(
        "INSERT INTO chat_settings (chat_key, lang, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (chat_key) DO UPDATE SET lang = excluded.lang, "
        "updated_at = excluded.updated_at",
        (chat_key, lang, iso(now)),
    )


async def kv_get(conn: aiosqlite.Connection, key: str) -> str | None:
    async with conn.execute("SELECT value FROM kv WHERE key = ?", (key,)) as cur:
        row = await cur.fetchone()
    return str(row[0]) if row else None


async def kv_set(conn: aiosqlite.Connection, key: str, value: str) -> None:
    await conn.execute(
        "INSERT INTO kv (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )
