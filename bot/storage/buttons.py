"""Button payloads kept server-side under a short id (Telegram allows 64 bytes of callback data;
Discord custom ids survive restarts). A button only runs in the chat it was sent to."""

from __future__ import annotations

import hashlib
from datetime import datetime

from bot.storage.conn import Connection
from bot.storage.util import fetch_one, iso


def button_id(chat_key: str, command: str) -> str:
    return hashlib.blake2s(f"{chat_key}\n{command}".encode(), digest_size=9).hexdigest()


async def save(conn: Connection, chat_key: str, command: str, now: datetime) -> str:
    ident = button_id(chat_key, command)
    await conn.execute(
        "INSERT INTO buttons (id, chat_key, command, created_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (id) DO NOTHING",
        (ident, chat_key, command, iso(now)),
    )
    return ident


async def load(conn: Connection, chat_key: str, ident: str) -> str | None:
    row = await fetch_one(
        conn, "SELECT command FROM buttons WHERE id = ? AND chat_key = ?", (ident, chat_key)
    )
    return str(row[0]) if row else None
