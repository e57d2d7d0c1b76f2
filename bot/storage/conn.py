"""What every repository gets: one open transaction on either backend, behind one small
protocol, so the SQL in bot/storage/*.py is written once.

Both backends take `?` placeholders (`?1` to repeat the first parameter); the PostgreSQL side
(bot/storage/postgres.py) rewrites them to `$n`. Portable SQL is the rule: `RETURNING` for new
ids (there is no `lastrowid`), `ON CONFLICT ... DO NOTHING` rather than `INSERT OR IGNORE`,
and a parameter whose type only its value tells (`? IS NULL`) written `CAST(? AS TEXT)`. What
cannot be portable (full-text search) branches on `conn.dialect`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any, Literal, Protocol

import aiosqlite

Row = tuple[Any, ...]
Dialect = Literal["sqlite", "postgresql"]

# Advisory lock namespaces (the first key of PostgreSQL's two-key advisory locks), so a chat's
# lock, the migration lock and a named lock (a poller's election) never collide.
LOCK_CHAT = 1
LOCK_MIGRATE = 2
LOCK_NAMED = 3


class Connection(Protocol):
    """One transaction's connection. Rows are plain tuples."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def total_changes(self) -> int:
        """Rows written on this connection so far; unchanged means nothing was written since
        it was last read (`Context.active_game` relies on exactly that)."""
        ...

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None: ...

    async def fetch_one(self, sql: str, params: Sequence[object] = ()) -> Row | None: ...

    async def fetch_all(self, sql: str, params: Sequence[object] = ()) -> list[Row]: ...

    async def lock_chat(self, chat_key: str) -> None:
        """Make this write transaction the only one working on `chat_key` until it ends, in
        every process (a no-op on SQLite, whose write transactions already exclude each
        other; a transaction-scoped advisory lock on PostgreSQL)."""
        ...


class SqliteConnection:
    """aiosqlite's connection: one hop to its worker thread per call."""

    dialect: Literal["sqlite"] = "sqlite"

    def __init__(self, raw: aiosqlite.Connection) -> None:
        self.raw = raw

    @property
    def total_changes(self) -> int:
        return self.raw.total_changes

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        cursor = await self.raw.execute(sql, params)
        return max(cursor.rowcount, 0)

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        await self.raw.executemany(sql, rows)

    async def fetch_one(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        # execute_fetchall is one hop; a cursor's execute, fetchone and close would be three.
        rows: Iterable[Row] = await self.raw.execute_fetchall(sql, params)  # type: ignore[assignment]
        return next(iter(rows), None)

    async def fetch_all(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return list(await self.raw.execute_fetchall(sql, params))  # type: ignore[arg-type]

    async def lock_chat(self, chat_key: str) -> None:
        return None


def chat_lock_key(chat_key: str) -> int:
    """The second key of a chat's advisory lock: 32 bits of a hash of the chat key, computed
    here so the lock can be sent as literal SQL in the same round trip as BEGIN. Two chats
    that collide only wait for each other."""
    digest = hashlib.blake2s(chat_key.encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big", signed=True)
