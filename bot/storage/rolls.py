"""The roll log: every roll of every chat, so any result can be shown again."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import aiosqlite
from pydantic import BaseModel

from bot.storage.util import dumps, fetch_all, fetch_one, iso, parse_iso


class RollRecord(BaseModel):
    id: int
    chat_key: str
    user_id: str
    user_name: str
    expression: str
    faces: list[int]
    seed: int | None
    result: list[dict[str, Any]]
    created_at: datetime


_COLUMNS = "id, chat_key, user_id, user_name, expression, faces, seed, result, created_at"


def _record(row: aiosqlite.Row | tuple[Any, ...]) -> RollRecord:
    return RollRecord(
        id=row[0],
        chat_key=row[1],
        user_id=row[2],
        user_name=row[3],
        expression=row[4],
        faces=json.loads(row[5]),
        seed=row[6],
        result=json.loads(row[7]),
        created_at=parse_iso(row[8]),
    )


async def add(
    conn: aiosqlite.Connection,
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
    cur = await conn.execute(
        "INSERT INTO rolls (chat_key, user_id, user_name, expression, faces, seed, result, "
        "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (chat_key, user_id, user_name, expression, dumps(faces), seed, dumps(result), iso(now)),
    )
    assert cur.lastrowid is not None
    return cur.lastrowid


async def get(conn: aiosqlite.Connection, chat_key: str, roll_id: int) -> RollRecord | None:
    """A roll of this chat only: another chat's ids are simply not found."""
    row = await fetch_one(
        conn, f"SELECT {_COLUMNS} FROM rolls WHERE chat_key = ? AND id = ?", (chat_key, roll_id)
    )
    return _record(row) if row else None


async def recent(conn: aiosqlite.Connection, chat_key: str, limit: int) -> list[RollRecord]:
    rows = await fetch_all(
        conn,
        f"SELECT {_COLUMNS} FROM rolls WHERE chat_key = ? ORDER BY id DESC LIMIT ?",
        (chat_key, limit),
    )
    return [_record(r) for r in rows]
