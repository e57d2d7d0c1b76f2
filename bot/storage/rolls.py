"""The roll log: every roll of every chat, so any result can be shown again.

Users see a roll's `number`, counted per chat (`/roll show 3` is this chat's third roll); the
global `id` is internal and never shown, so no chat can learn how busy the others are."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.storage.conn import Connection, Row
from bot.storage.util import dumps, fetch_all, fetch_one, iso, parse_iso


class RollRecord(BaseModel):
    # Validators are built on first use, not at import: most processes use few models.
    model_config = ConfigDict(defer_build=True)
    id: int
    number: int  # this chat's count: what users see and type
    chat_key: str
    user_id: str
    user_name: str
    expression: str
    faces: list[int]
    seed: int | None
    result: list[dict[str, Any]]
    created_at: datetime


_COLUMNS = "id, number, chat_key, user_id, user_name, expression, faces, seed, result, created_at"


def _record(row: Row | tuple[Any, ...]) -> RollRecord:
    return RollRecord(
        id=row[0],
        number=row[1],
        chat_key=row[2],
        user_id=row[3],
        user_name=row[4],
        expression=row[5],
        faces=json.loads(row[6]),
        seed=row[7],
        result=json.loads(row[8]),
        created_at=parse_iso(row[9]),
    )


async def add(
    conn: Connection,
    *,
    chat_key: str,
    user_id: str,
    user_name: str,
    expression: str,
    faces: list[int],
    seed: int | None,
    result: list[dict[str, Any]],
    now: datetime,
) -> int:
    """Log a roll; its number in the chat is returned. The number is the chat's highest plus
    one, read and written in one statement of the command's write transaction, so two rolls
    at once (even from two processes: SQLite has one writer) never share it."""
    row = await fetch_one(
        conn,
        "INSERT INTO rolls (chat_key, number, user_id, user_name, expression, faces, seed, "
        "result, created_at) VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM rolls "
        "WHERE chat_key = ?), ?, ?, ?, ?, ?, ?, ?) RETURNING number",
        (
            chat_key,
            chat_key,
            user_id,
            user_name,
            expression,
            dumps(faces),
            seed,
            dumps(result),
            iso(now),
        ),
    )
    assert row is not None
    return int(row[0])


async def get(conn: Connection, chat_key: str, number: int) -> RollRecord | None:
    """This chat's roll by its number: another chat's rolls are simply not found."""
    row = await fetch_one(
        conn,
        f"SELECT {_COLUMNS} FROM rolls WHERE chat_key = ? AND number = ?",
        (chat_key, number),
    )
    return _record(row) if row else None


async def recent(conn: Connection, chat_key: str, limit: int) -> list[RollRecord]:
    rows = await fetch_all(
        conn,
        f"SELECT {_COLUMNS} FROM rolls WHERE chat_key = ? ORDER BY id DESC LIMIT ?",
        (chat_key, limit),
    )
    return [_record(r) for r in rows]


async def values_by(conn: Connection, chat_key: str, user_id: str, limit: int) -> list[RollRecord]:
    """A user's newest rolls in a chat (for /stats), newest first."""
    rows = await fetch_all(
        conn,
        f"SELECT {_COLUMNS} FROM rolls WHERE chat_key = ? AND user_id = ? ORDER BY id DESC LIMIT ?",
        (chat_key, user_id, limit),
    )
    return [_record(r) for r in rows]


async def count_by(conn: Connection, chat_key: str, user_id: str) -> int:
    row = await fetch_one(
        conn, "SELECT COUNT(*) FROM rolls WHERE chat_key = ? AND user_id = ?", (chat_key, user_id)
    )
    return int(row[0]) if row else 0


async def user_named(conn: Connection, chat_key: str, name: str) -> str | None:
    """The user id behind the newest roll in the chat by someone of that display name."""
    row = await fetch_one(
        conn,
        "SELECT user_id FROM rolls WHERE chat_key = ? AND lower(user_name) = lower(?) "
        "ORDER BY id DESC LIMIT 1",
        (chat_key, name),
    )
    return str(row[0]) if row else None
