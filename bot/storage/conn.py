"""What every repository gets: one open transaction on either backend, behind one small
protocol, so the SQL in bot/storage/*.py is written once.

Both backends take `?` placeholders (`?1` to repeat the first parameter); the PostgreSQL side
rewrites them to `$n`. Portable SQL is the rule: `RETURNING` for new ids (there is no
`lastrowid`), `ON CONFLICT ... DO NOTHING` rather than `INSERT OR IGNORE`, and a parameter
whose type only its value tells (`? IS NULL`) written `CAST(? AS TEXT)`. What cannot be
portable (full-text search) branches on `conn.dialect`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, Protocol

import aiosqlite

if TYPE_CHECKING:
    import asyncpg
    import asyncpg.pool

    PgRaw = asyncpg.Connection[Any] | asyncpg.pool.PoolConnectionProxy[Any]

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


_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|\?(\d*)")
_WRITE = re.compile(r"^\s*(?:INSERT|UPDATE|DELETE)\b", re.IGNORECASE)


@lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """`?` placeholders as `$1, $2...` (`?N` as `$N`), leaving quoted text and comments alone."""
    count = 0

    def swap(m: re.Match[str]) -> str:
        nonlocal count
        if not m.group(0).startswith("?"):
            return m.group(0)
        if m.group(1):
            return f"${m.group(1)}"
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(swap, sql)


def _changed(status: str) -> int:
    """Rows changed according to a command tag ("INSERT 0 3", "UPDATE 2", "SELECT 1")."""
    verb, _, rest = status.partition(" ")
    if verb not in ("INSERT", "UPDATE", "DELETE") or not rest:
        return 0
    return int(rest.rsplit(" ", 1)[-1])


class PostgresConnection:
    """An asyncpg connection inside one transaction."""

    dialect: Literal["postgresql"] = "postgresql"

    def __init__(self, raw: PgRaw, write: bool) -> None:
        self.raw = raw
        self.write = write
        self._changes = 0

    @property
    def total_changes(self) -> int:
        return self._changes

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        status: str = await self.raw.execute(to_postgres(sql), *params)
        changed = _changed(status)
        self._changes += changed
        return changed

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        batch = list(rows)
        await self.raw.executemany(to_postgres(sql), batch)
        if _WRITE.match(sql):
            self._changes += len(batch)  # at most this many; only "nothing" must be exact

    async def fetch_all(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        records = await self.raw.fetch(to_postgres(sql), *params)
        if _WRITE.match(sql):  # INSERT ... RETURNING: one row back per row written
            self._changes += len(records)
        return [tuple(r) for r in records]

    async def fetch_one(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def lock_chat(self, chat_key: str) -> None:
        if self.write:
            # Its own statement, before any read: under READ COMMITTED each statement sees
            # what was committed when it began, so reads after the wait see the last holder's
            # writes. Waiting longer than `lock_timeout` (the busy deadline) fails as busy.
            await self.raw.execute(
                "SELECT pg_advisory_xact_lock($1, hashtext($2))", LOCK_CHAT, chat_key
            )
