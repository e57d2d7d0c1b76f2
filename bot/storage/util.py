"""Small helpers shared by the repositories."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.storage.conn import Connection, Row


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


async def fetch_one(conn: Connection, sql: str, params: Sequence[object] = ()) -> Row | None:
    return await conn.fetch_one(sql, params)


async def fetch_all(conn: Connection, sql: str, params: Sequence[object] = ()) -> list[Row]:
    return await conn.fetch_all(sql, params)
