"""The database: one SQLite file through aiosqlite (the embedded default), or a PostgreSQL
server through asyncpg when `WARGAME_BOT_DB` is a `postgresql://` URL (bot/storage/postgres.py).
`Database(target)` picks the backend; both hand out the same `Connection` protocol
(bot/storage/conn.py), so every repository is written once.

SQLite: WAL, foreign keys, migrations by `PRAGMA user_version`.

Each command runs in one `BEGIN IMMEDIATE` transaction. Within a process the connection is
shared and transactions are serialised by a lock; across processes SQLite's write lock orders
them: a writer that finds it taken retries with backoff until `busy_seconds` (30 s by default,
`WARGAME_BOT_BUSY_SECONDS`) have passed, and only then is told the database is busy. Game rows
carry a version number for optimistic checks.

A file (or its folder) that cannot be written is opened read-only (`mode=ro`, without switching
the journal mode, so a rollback-journal file stays readable too): reads work and every write is
refused with one clear sentence. Every way the file can be unusable at start (a folder, no
permission, corrupt, a newer schema, an older one on a read-only volume) is a `StorageError`
whose message is localized; nothing else escapes `open`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot import i18n
from bot.storage import events
from bot.storage.conn import Connection, Dialect, SqliteConnection
from bot.storage.util import fetch_one
from rules_core.errors import UserError

log = logging.getLogger(__name__)

T = TypeVar("T")

_MIGRATION = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
# `-- @python NAME` in a migration runs one of these at that point, in the same transaction.
PYTHON_STEPS: dict[str, Callable[[Connection], Awaitable[None]]] = {
    "events.convert_log": events.convert_log,
}
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
BUSY_STEP_MS = 1000  # one wait inside SQLite; the retries around it make up the deadline
SYNCHRONOUS = ("NORMAL", "FULL")
HEADER = b"SQLite format 3\x00"


class StorageError(RuntimeError):
    """The database cannot be used (unreadable, corrupt, newer schema...): stop with this
    message. `key` and `params` name a `storage.open.*` message; str() is its English text."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(i18n.t("en", key, **params))

    def message(self, lang: i18n.Lang) -> str:
        return i18n.t(lang, self.key, **self.params)


def is_postgres(target: Path | str) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def migrations(dialect: Dialect = "sqlite") -> list[tuple[int, str, str]]:
    """(version, name, sql) for every migration file of a backend, in order. PostgreSQL's are
    in migrations/postgresql/ under the same numbers (its first file is the whole schema at
    the version SQLite had reached when the backend was added)."""
    folder = resources.files("bot.storage") / "migrations"
    if dialect == "postgresql":
        folder = folder / "postgresql"
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


def schema_version(dialect: Dialect = "sqlite") -> int:
    """The last migration's number, from the file names alone (read on every start)."""
    folder = resources.files("bot.storage") / "migrations"
    if dialect == "postgresql":
        folder = folder / "postgresql"
    return max(int(m.group(1)) for e in folder.iterdir() if (m := _MIGRATION.match(e.name)))


def statements(sql: str) -> list[str]:
    """A migration script as single statements (triggers included) and `-- @python` steps."""
    out: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        if line.strip().startswith("-- @python ") and not buffer.strip():
            out.append(line.strip())
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            out.append(buffer.strip())
            buffer = ""
    if buffer.strip() and sqlite3.complete_statement(buffer + ";"):
        out.append(buffer.strip())
    return out


def is_busy(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class HeldLock:
    """A named lock held across processes until `release()` (or until the holder dies)."""

    async def alive(self) -> bool:
        """Still held: False once the connection behind it is lost."""
        raise NotImplementedError

    async def release(self) -> None:
        raise NotImplementedError


class Database:
    """`Database(target)`: a `SqliteDatabase` for a file path, a `PostgresDatabase` for a
    `postgresql://` URL. Use `transaction()` for everything; see each class for the rest."""

    dialect: Dialect
    read_only: bool = False
    busy_seconds: float | None
    synchronous: str | None  # SQLite's durability; a PostgreSQL server has its own settings

    def __new__(cls, target: Path | str, **options: Any) -> Database:
        if cls is Database:
            if is_postgres(target):
                from bot.storage.postgres import PostgresDatabase

                return super().__new__(PostgresDatabase)
            return super().__new__(SqliteDatabase)
        return super().__new__(cls)

    def __init__(
        self,
        target: Path | str,
        *,
        synchronous: str | None = None,
        busy_seconds: float | None = None,
    ) -> None:
        raise NotImplementedError

    @property
    def where(self) -> str:
        """The database as an operator may see it in a log or message (never a password)."""
        raise NotImplementedError

    async def open(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    def transaction(self, write: bool = True) -> AbstractAsyncContextManager[Connection]:
        """One transaction, committed when the block ends and rolled back on any exception.
        A write transaction takes the write lock up front (SQLite) or may lock its chat
        (`Connection.lock_chat`, PostgreSQL); a read-only one sees one consistent snapshot."""
        raise NotImplementedError

    def _must_migrate(self, current: int, latest: int) -> bool:
        """Whether a schema at version `current` needs the migrations up to `latest`. A newer
        schema is refused (this code would misread it), and so is an older one on a read-only
        database (nothing could upgrade it)."""
        if current > latest:
            raise StorageError(
                "storage.open.newer_schema", path=self.where, found=current, latest=latest
            )
        if current == latest:
            return False
        if self.read_only:
            raise StorageError(
                "storage.open.needs_upgrade", path=self.where, found=current, latest=latest
            )
        return True

    async def try_hold(self, name: str) -> HeldLock | None:
        """Take the lock `name` for as long as this process keeps it, if nobody else holds it
        (one Telegram poller among several processes, say); None when another holder has it.
        PostgreSQL: a session advisory lock on a connection of its own. SQLite: an exclusive
        `flock` on a file beside the database."""
        raise NotImplementedError


class _FileLock(HeldLock):
    def __init__(self, fd: int) -> None:
        self.fd: int | None = fd

    async def alive(self) -> bool:
        return self.fd is not None

    async def release(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)  # closing the file drops the flock


class SqliteDatabase(Database):
    dialect: Dialect = "sqlite"

    def __init__(
        self,
        target: Path | str,
        *,
        synchronous: str | None = None,
        busy_seconds: float | None = None,
    ) -> None:
        """`synchronous` (NORMAL or FULL) and `busy_seconds` default to the settings
        `WARGAME_BOT_SYNCHRONOUS` and `WARGAME_BOT_BUSY_SECONDS`."""
        self.path = Path(target)
        self.synchronous = synchronous
        self.busy_seconds = busy_seconds
        self.read_only = False
        self._conn: aiosqlite.Connection | None = None
        self._wrapped: SqliteConnection | None = None
        self._lock: asyncio.Lock | None = None

    @property
    def where(self) -> str:
        return str(self.path)

    @property
    def conn(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError("database is not open")
        return self._conn

    async def open(self) -> None:
        self._lock = asyncio.Lock()
        self._settle_settings()
        self.synchronous = (self.synchronous or "NORMAL").upper()
        if self.synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {self.synchronous}")
        try:
            await self._open()
        except BaseException as exc:
            await self.close()
            if isinstance(exc, sqlite3.Error | OSError):  # unforeseen, still one clear line
                log.warning("cannot open %s: %s", self.path, exc)
                raise StorageError("storage.open.cannot_open", path=self.path) from exc
            raise

    def _settle_settings(self) -> None:
        if self.synchronous is None or self.busy_seconds is None:
            from bot.config import load_settings

            settings = load_settings()
            if self.synchronous is None:
                self.synchronous = settings.wargame_bot_synchronous
            if self.busy_seconds is None:
                self.busy_seconds = settings.wargame_bot_busy_seconds

    async def _open(self) -> None:
        path = self.path
        if path.is_dir():
            raise StorageError("storage.open.is_directory", path=path)
        folder = path.parent
        if not folder.exists():
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                log.warning("cannot create %s: %s", folder, exc)
                raise StorageError("storage.open.no_folder", path=path) from exc
        if not folder.is_dir():
            raise StorageError("storage.open.no_folder", path=path)
        exists = path.exists() and path.stat().st_size > 0
        if exists:
            try:
                with path.open("rb") as fh:
                    header = fh.read(len(HEADER))
            except PermissionError as exc:
                raise StorageError("storage.open.unreadable", path=path) from exc
            if header != HEADER:
                raise StorageError("storage.open.not_sqlite", path=path)
        writable = os.access(folder, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))
        if not writable and not exists:  # nothing to read, and no database can be made
            if path.exists():  # an empty file we may not write
                raise StorageError("storage.open.cannot_open", path=path)
            raise StorageError("storage.open.read_only_folder", path=path)
        if writable:
            try:
                await self._open_read_write()
                return
            except sqlite3.OperationalError as exc:
                # The checks above can't see everything (a read-only mount seen through a
                # writable bind, a -wal file owned by someone else): read-only is still useful.
                if "readonly" not in str(exc).lower() or not exists:
                    raise
                log.warning("%s cannot be written (%s): opening it read-only", path, exc)
                await self.close()
        await self._open_read_only()

    async def _connect(self, target: str, *, uri: bool = False) -> None:
        failure: list[sqlite3.Error] = []

        def connector() -> sqlite3.Connection:
            # aiosqlite leaves its thread to finish on a closed loop when the connector raises
            # (the "Event loop is closed" traceback): fail after a normal close instead.
            try:
                return sqlite3.connect(target, uri=uri, isolation_level=None)
            except sqlite3.Error as exc:
                failure.append(exc)
                return sqlite3.connect(":memory:", isolation_level=None)

        self._conn = await aiosqlite.Connection(connector, 64)
        self._wrapped = SqliteConnection(self._conn)
        if failure:
            await self.close()
            raise failure[0]
        assert self.busy_seconds is not None
        step = min(BUSY_STEP_MS, max(1, int(self.busy_seconds * 1000)))
        await self._conn.execute(f"PRAGMA busy_timeout = {step}")

    async def _open_read_write(self) -> None:
        self.read_only = False
        await self._connect(str(self.path))
        await self.conn.execute("PRAGMA foreign_keys = ON")
        mode = await self._retry_busy(lambda: self._fetch_value("PRAGMA journal_mode = WAL"))
        if str(mode).lower() != "wal":
            log.warning("journal mode is %s, not WAL", mode)
        await self.conn.execute(f"PRAGMA synchronous = {self.synchronous}")
        await self._check()
        await self._migrate()

    async def _open_read_only(self) -> None:
        """`mode=ro`, and `immutable=1` only when SQLite cannot otherwise read a WAL file in a
        read-only folder (it would need to create the -shm file there) and no -wal file holds
        changes that immutable would skip."""
        self.read_only = True
        uri = self.path.absolute().as_uri()
        await self._connect(f"{uri}?mode=ro", uri=True)
        try:
            await self._fetch_value("PRAGMA user_version")
        except sqlite3.OperationalError as exc:
            await self.close()
            wal = Path(f"{self.path}-wal")
            if wal.exists() and wal.stat().st_size > 0:
                raise
            log.info("%s: read-only WAL file in a read-only folder (%s): immutable", uri, exc)
            await self._connect(f"{uri}?mode=ro&immutable=1", uri=True)
        await self.conn.execute("PRAGMA foreign_keys = ON")
        await self._check()
        await self._migrate()
        log.warning("%s is read-only: reads work, every change is refused", self.path)

    async def _check(self) -> None:
        try:
            check = await self._fetch_value("PRAGMA quick_check")
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and is_busy(exc):
                raise
            check = str(exc)
        if check != "ok":
            log.warning("%s failed its integrity check: %s", self.path, check)
            raise StorageError("storage.open.corrupt", path=self.path)

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn, self._wrapped = self._conn, None, None
            await conn.close()

    @property
    def wrapped(self) -> SqliteConnection:
        if self._wrapped is None:
            raise RuntimeError("database is not open")
        return self._wrapped

    async def _fetch_value(self, sql: str) -> object:
        row = await fetch_one(self.wrapped, sql)
        return row[0] if row else None

    async def try_hold(self, name: str) -> HeldLock | None:
        import fcntl

        lock_file = self.path.with_name(f"{self.path.name}-{name}.lock")
        fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        return _FileLock(fd)

    async def _retry_busy(self, step: Callable[[], Awaitable[T]]) -> T:
        """`step`, again after a jittered, growing pause while SQLite says the database is
        locked, until `busy_seconds` have passed (then the last error is raised)."""
        assert self.busy_seconds is not None
        deadline = time.monotonic() + self.busy_seconds
        pause = 0.01
        while True:
            try:
                return await step()
            except sqlite3.OperationalError as exc:
                left = deadline - time.monotonic()
                if not is_busy(exc) or left <= 0:
                    raise
            # Jitter keeps many waiting processes from all trying again at the same moment.
            wait = min(pause, left) * random.uniform(0.5, 1.0)
            log.debug("database busy, %.1f s left: trying again in %.3f s", left, wait)
            await asyncio.sleep(wait)
            pause = min(pause * 2, 0.5)

    async def _version(self) -> int:
        return int(str(await self._fetch_value("PRAGMA user_version")))

    async def _migrate(self) -> None:
        if not self._must_migrate(await self._version(), schema_version()):
            return
        await self._retry_busy(lambda: self.conn.execute("BEGIN IMMEDIATE"))
        try:
            current = await self._version()  # another process may have migrated meanwhile
            for version, name, sql in migrations():
                if version <= current:
                    continue
                log.info("applying migration %s", name)
                for statement in statements(sql):
                    if statement.startswith("-- @python "):
                        step = PYTHON_STEPS[statement.removeprefix("-- @python ").strip()]
                        await step(self.wrapped)
                    else:
                        await self.conn.execute(statement)
                await self.conn.execute(f"PRAGMA user_version = {version}")
            await self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                await self.conn.execute("ROLLBACK")
            raise
        await self._reclaim()

    async def _reclaim(self) -> None:
        """Give the disk back after a migration emptied much of the file (the event log's
        conversion frees most of an old one); a failure only costs the space."""
        pages = await self._fetch_value("PRAGMA page_count")
        free = await self._fetch_value("PRAGMA freelist_count")
        if not isinstance(pages, int) or not isinstance(free, int) or free * 4 < pages:
            return
        try:
            await self.conn.execute("VACUUM")
        except sqlite3.OperationalError as exc:
            log.warning("could not compact %s after migrating: %s", self.path, exc)

    @asynccontextmanager
    async def transaction(self, write: bool = True) -> AsyncIterator[Connection]:
        """One transaction (a write lock is taken up front unless `write` is False, so a
        read-only command still works on a read-only file); rolled back on any exception."""
        if self._lock is None:
            raise RuntimeError("database is not open")
        async with self._lock:
            conn = self.conn
            try:
                if write:
                    await self._retry_busy(lambda: conn.execute("BEGIN IMMEDIATE"))
                else:
                    await conn.execute("BEGIN")
            except sqlite3.OperationalError as exc:
                raise storage_user_error(exc) from exc
            try:
                yield self.wrapped
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
    if is_busy(exc):
        return UserError("storage.busy")
    return UserError("storage.unavailable")
