"""Small helpers shared by the repositories."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import aiosqlite


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


# One hop to aiosqlite's worker thread per query: `async with conn.execute(...)` followed by
# fetchone() and the cursor's close costs three, and hops dominate a command's time.
async def fetch_one(
    conn: aiosqlite.Connection, sql: str, params: Sequence[object] = ()
) -> sqlite3.Row | None:
    return next(iter(await conn.execute_fetchall(sql, params)), None)


async def fetch_all(
    conn: aiosqlite.Connection, sql: str, params: Sequence[object] = ()
) -> list[sqlite3.Row]:
    return list(await conn.execute_fetchall(sql, params))
