"""One SQLite file through aiosqlite: WAL, foreign keys, migrations by `PRAGMA user_version`.

Each command runs in one `BEGIN IMMEDIATE` transaction. Within a process the connection is
shared and transactions are serialised by a lock; across processes SQLite's own write lock and
`busy_timeout` order them, and game rows carry a version number for optimistic checks.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

import aiosqlite

from bot.storage.util import fetch_one
from rules_core.errors import UserError

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 10_000
_MIGRATION = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class StorageError(RuntimeError):
    """The database cannot be used (corrupt, newer schema, unwritable): stop with this message."""


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) for every migration file, in order."""
    folder = resources.files("bot.storage") / "migrations"
    found = []
    for entry in folder.iterdir():
        m = _MIGRATION.match(entry.name)
        if m:
            found.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [version for version, _, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError("two migration files share a number")
    return found


def schema_version() -> int:
    return migrations()[-1][0]


class Database:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._conn: aiosqlite.Connection | None = None
        self._lock: asyncio.Lock | None = None

    @property
    def conn(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError("database is not open")
        return self._conn

    async def open(self) -> None:
        self._lock = asyncio.Lock()
        if self.path.exists() and self.path.stat().st_size > 0:
            with self.path.open("rb") as fh:
                if fh.read(16) != b"SQLite format 3\x00":
                    raise StorageError(
                        f"{self.path} is not a SQLite database; refusing to touch it"
                    )
        try:
            self._conn = await aiosqlite.connect(self.path, isolation_level=None)
            await self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await self._conn.execute("PRAGMA foreign_keys = ON")
            mode = await self._fetch_value("PRAGMA journal_mode = WAL")
            if str(mode).lower() != "wal":
                log.warning("journal mode is %s, not WAL", mode)
            await self._conn.execute("PRAGMA synchronous = NORMAL")
            check = await self._fetch_value("PRAGMA quick_check")
            if check != "ok":
                raise StorageError(f"{self.path} failed its integrity check: {check}")
            await self._migrate()
        except sqlite3.DatabaseError as exc:
            await self.close()
            raise StorageError(f"{self.path} cannot be opened as a database: {exc}") from exc
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()

    async def _fetch_value(self, sql: str) -> object:
        row = await fetch_one(self.conn, sql)
        return row[0] if row else None

    async def _migrate(self) -> None:
        current = int(str(await self._fetch_value("PRAGMA user_version")))
        latest = schema_version()
        if current > latest:
            raise StorageError(
                f"{self.path} has schema version {current}, newer than this bot ({latest})"
            )
        for version, name, sql in migrations():
            if version <= current:
                continue
            log.info("applying migration %s", name)
            # executescript commits first; the migration and its version bump go in one script.
            await self.conn.executescript(
                f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;"
            )

    @asynccontextmanager
    async def transaction(self, write: bool = True) -> AsyncIterator[aiosqlite.Connection]:
        """One transaction (a write lock is taken up front unless `write` is False, so a
        read-only command still works on a read-only file); rolled back on any exception."""
        if self._lock is None:
            raise RuntimeError("database is not open")
        async with self._lock:
            conn = self.conn
            try:
                await conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.OperationalError as exc:
                raise storage_user_error(exc) from exc
            try:
                yield conn
            except BaseException:
                # SQLite may already have rolled back by itself (a full disk does): rolling
                # back again would hide the real error behind "no transaction is active".
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise
            try:
                await conn.execute("COMMIT")
            except sqlite3.OperationalError as exc:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise storage_user_error(exc) from exc


def storage_user_error(exc: sqlite3.OperationalError) -> UserError:
    """What the user is told when SQLite refuses a write: nothing was saved, and why."""
    text = str(exc).lower()
    if "readonly" in text or "read-only" in text:
        return UserError("storage.read_only")
    if "full" in text:
        return UserError("storage.disk_full")
    if "locked" in text or "busy" in text:
        return UserError("storage.busy")
    return UserError("storage.unavailable")
