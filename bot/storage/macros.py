"""Personal macros (migration 0011): `/save NAME COMMAND` keeps a command under a name for one
user in one chat; `/NAME` runs it. Nobody else sees or runs another's macros (a "repeat" button
carries the command itself, not the name)."""

from __future__ import annotations

from datetime import datetime

from bot.storage.conn import Connection
from bot.storage.util import fetch_all, fetch_one, iso
from rules_core.errors import UserError

MAX_PER_USER = 50


async def save(
    conn: Connection, chat_key: str, user_id: str, name: str, command: str, now: datetime
) -> bool:
    """Store the macro; True if it replaced one of the same name."""
    existing = await get(conn, chat_key, user_id, name)
    if existing is None:
        count = await fetch_one(
            conn,
            "SELECT COUNT(*) FROM macros WHERE chat_key = ? AND user_id = ?",
            (chat_key, user_id),
        )
        if count is not None and int(count[0]) >= MAX_PER_USER:
            raise UserError("macro.too_many", limit=MAX_PER_USER)
        await conn.execute(
            "INSERT INTO macros (chat_key, user_id, name, command, updated_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (chat_key, user_id, name, command, iso(now)),
        )
        return False
    await conn.execute(
        "UPDATE macros SET command = ?, updated_at = ? "
        "WHERE chat_key = ? AND user_id = ? AND name = ?",
        (command, iso(now), chat_key, user_id, name),
    )
    return True


async def get(conn: Connection, chat_key: str, user_id: str, name: str) -> str | None:
    row = await fetch_one(
        conn,
        "SELECT command FROM macros WHERE chat_key = ? AND user_id = ? AND name = ?",
        (chat_key, user_id, name),
    )
    return str(row[0]) if row else None


async def listing(conn: Connection, chat_key: str, user_id: str) -> list[tuple[str, str]]:
    rows = await fetch_all(
        conn,
        "SELECT name, command FROM macros WHERE chat_key = ? AND user_id = ? ORDER BY name",
        (chat_key, user_id),
    )
    return [(str(r[0]), str(r[1])) for r in rows]


async def delete(conn: Connection, chat_key: str, user_id: str, name: str) -> bool:
    changed = await conn.execute(
        "DELETE FROM macros WHERE chat_key = ? AND user_id = ? AND name = ?",
        (chat_key, user_id, name),
    )
    return changed > 0
