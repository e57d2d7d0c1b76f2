"""The PostgreSQL backend: `WARGAME_BOT_DB=postgresql://user:password@host:5432/dbname`.

Many bot processes (and machines) may share one database. Each process keeps a pool of
connections (`WARGAME_BOT_DB_POOL`, 10 by default), so commands on different chats run at the
same time; commands on one chat run one at a time in every process, because a command's write
transaction first takes its chat's advisory lock (`Connection.lock_chat`, from
`games.chat_read`). Write transactions are READ COMMITTED (every read after that lock sees the
last writer's commit); read-only ones are REPEATABLE READ READ ONLY, one snapshot as SQLite
gives. `lock_timeout` is the busy deadline (`WARGAME_BOT_BUSY_SECONDS`): a command that waited
that long for its chat is told the database is busy, and nothing is saved.

The schema is migrations/postgresql/ (the same version numbers as SQLite's files), recorded in
a `schema_version` table and applied in one transaction under an advisory lock, so processes
starting together migrate once. The bot's user must own the database (or hold CREATE on its
schema). Session state is used (advisory locks, prepared statements): connect to the server
or through a pooler in session mode, not in transaction mode.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import asyncpg
import asyncpg.exceptions as pg
from asyncpg.pool import PoolConnectionProxy
from asyncpg.transaction import Transaction

from bot.storage.conn import LOCK_MIGRATE, LOCK_NAMED, Connection, PostgresConnection

if TYPE_CHECKING:
    from bot.storage.conn import PgRaw
from bot.storage.db import (
    PYTHON_STEPS,
    Database,
    HeldLock,
    StorageError,
    migrations,
    schema_version,
)
from rules_core.errors import UserError

log = logging.getLogger(__name__)

DEFAULT_POOL = 10
_PYTHON_STEP = re.compile(r"^-- @python (\S+)\s*$", re.MULTILINE)

# What a command is told when the server refuses or loses it (the rest are the bot's bugs).
_BUSY = (
    pg.LockNotAvailableError,  # lock_timeout: the chat stayed locked past the busy deadline
    pg.DeadlockDetectedError,
    pg.SerializationError,
    pg.QueryCanceledError,
)
_GONE = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,
    pg.PostgresConnectionError,
    pg.CannotConnectNowError,
    pg.AdminShutdownError,
    pg.CrashShutdownError,
    pg.TooManyConnectionsError,
)


def redact(url: str) -> str:
    """The URL without its password or query (which may hold one): for logs and messages."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    where = f"{host}:{parts.port}" if parts.port else host
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{where}{parts.path}"


def user_error(exc: BaseException) -> UserError | None:
    """The sentence for a failure of the server or of the connection, None for anything else."""
    if isinstance(exc, pg.ReadOnlySQLTransactionError):
        return UserError("storage.read_only")
    if isinstance(exc, pg.DiskFullError):
        return UserError("storage.disk_full")
    if isinstance(exc, _BUSY):
        return UserError("storage.busy")
    if isinstance(exc, _GONE):
        return UserError("storage.unavailable")
    return None


@contextlib.contextmanager
def translated() -> Iterator[None]:
    """Failures of the server or the connection as the user's sentence (see `user_error`)."""
    try:
        yield
    except Exception as exc:
        mapped = user_error(exc)
        if mapped is None:
            raise
        raise mapped from exc


class _AdvisoryLock(HeldLock):
    """A session advisory lock on a connection of its own: the server drops it when that
    connection ends, so a holder that dies (even by SIGKILL) frees it."""

    def __init__(self, raw: asyncpg.Connection) -> None:
        self.raw = raw

    async def alive(self) -> bool:
        if self.raw.is_closed():
            return False
        try:
            await self.raw.fetchval("SELECT 1")
        except (*_GONE, pg.PostgresError):
            return False
        return True

    async def release(self) -> None:
        with contextlib.suppress(*_GONE, pg.PostgresError):
            await self.raw.close(timeout=5)


class PostgresDatabase(Database):
    dialect = "postgresql"

    def __init__(
        self,
        target: Path | str,
        *,
        synchronous: str | None = None,
        busy_seconds: float | None = None,
        pool_size: int | None = None,
    ) -> None:
        self.url = str(target)
        self.synchronous = synchronous
        self.busy_seconds = busy_seconds
        self.pool_size = pool_size
        self.read_only = False
        self._pool: asyncpg.Pool | None = None

    @property
    def where(self) -> str:
        return redact(self.url)

    def _settle_settings(self) -> None:
        if self.busy_seconds is None or self.pool_size is None:
            from bot.config import load_settings

            settings = load_settings()
            if self.busy_seconds is None:
                self.busy_seconds = settings.wargame_bot_busy_seconds
            if self.pool_size is None:
                self.pool_size = settings.wargame_bot_db_pool

    async def open(self) -> None:
        self._settle_settings()
        assert self.busy_seconds is not None and self.pool_size is not None
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                timeout=self.busy_seconds,  # to connect
                statement_cache_size=256,
                server_settings={
                    "application_name": "wargame-bot",
                    "lock_timeout": f"{int(self.busy_seconds * 1000)}ms",
                },
            )
            async with self._pool.acquire() as raw:
                self.read_only = await raw.fetchval("SHOW transaction_read_only") == "on"
                await self._migrate(raw)
        except BaseException as exc:
            await self.close()
            raise self._open_error(exc) from exc
        if self.read_only:
            log.warning("%s is read-only: reads work, every change is refused", self.where)

    def _open_error(self, exc: BaseException) -> BaseException:
        """One clear, localized sentence (never the password) for why the server can't be
        used; anything unforeseen is still `cannot_open`."""
        if isinstance(exc, StorageError | asyncio.CancelledError):
            return exc
        log.warning("cannot use %s: %s: %s", self.where, type(exc).__name__, exc)
        if isinstance(exc, pg.InvalidCatalogNameError):
            return StorageError("storage.open.no_database", path=self.where)
        if isinstance(exc, pg.InvalidAuthorizationSpecificationError | pg.InvalidPasswordError):
            return StorageError("storage.open.refused", path=self.where)
        if isinstance(exc, pg.InsufficientPrivilegeError):
            return StorageError("storage.open.no_privilege", path=self.where)
        if isinstance(exc, _GONE):
            return StorageError("storage.open.unreachable", path=self.where)
        if isinstance(exc, Exception):
            return StorageError("storage.open.cannot_open", path=self.where)
        return exc

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:
                await pool.close()
            except Exception:  # a server already gone: nothing left to close cleanly
                pool.terminate()

    async def _migrate(self, raw: PgRaw) -> None:
        latest = schema_version("postgresql")
        current = await _version(raw)
        if current > latest:
            raise StorageError(
                "storage.open.newer_schema", path=self.where, found=current, latest=latest
            )
        if current == latest:
            return
        if self.read_only:
            raise StorageError(
                "storage.open.needs_upgrade", path=self.where, found=current, latest=latest
            )
        async with raw.transaction():
            # Processes starting together wait here; the later ones find the work done.
            await raw.execute("SELECT pg_advisory_xact_lock($1, 0)", LOCK_MIGRATE)
            await raw.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            current = await _version(raw)
            conn = PostgresConnection(raw, write=True)
            for version, name, sql in migrations("postgresql"):
                if version <= current:
                    continue
                log.info("applying migration postgresql/%s", name)
                # A whole file is one simple-protocol call (several statements, $$ bodies);
                # `-- @python NAME` lines split it where a Python step runs.
                for i, part in enumerate(_PYTHON_STEP.split(sql)):
                    if i % 2:
                        await PYTHON_STEPS[part](conn)
                    elif part.strip():
                        await raw.execute(part)
                await raw.execute("DELETE FROM schema_version")
                await raw.execute("INSERT INTO schema_version (version) VALUES ($1)", version)

    @asynccontextmanager
    async def transaction(self, write: bool = True) -> AsyncIterator[Connection]:
        if self._pool is None:
            raise RuntimeError("database is not open")
        raw, tx = await self._begin(self._pool, write)
        try:
            try:
                with translated():
                    yield PostgresConnection(raw, write)
            except BaseException:
                with contextlib.suppress(Exception):  # a lost connection can't roll back
                    await tx.rollback()
                raise
            with translated():
                await tx.commit()
        finally:
            await self._pool.release(raw)

    async def _begin(
        self, pool: asyncpg.Pool, write: bool
    ) -> tuple[PoolConnectionProxy[Any], Transaction]:
        """A pooled connection with its transaction begun. A connection found dead at BEGIN
        (the server restarted, a failover) is replaced once: nothing had been sent on it."""
        for attempt in (1, 2):
            with translated():
                raw = await pool.acquire(timeout=self.busy_seconds)
            tx = raw.transaction(
                isolation="read_committed" if write else "repeatable_read", readonly=not write
            )
            try:
                await tx.start()
                return raw, tx
            except _GONE as exc:
                await pool.release(raw)
                if attempt == 2:
                    raise UserError("storage.unavailable") from exc
                log.warning("%s: connection lost (%s); trying a new one", self.where, exc)
            except BaseException as exc:
                await pool.release(raw)
                mapped = user_error(exc)
                if mapped is None:
                    raise
                raise mapped from exc
        raise AssertionError("unreachable")

    async def try_hold(self, name: str) -> HeldLock | None:
        assert self.busy_seconds is not None
        with translated():
            raw = await asyncpg.connect(self.url, timeout=self.busy_seconds)
        try:
            held = await raw.fetchval(
                "SELECT pg_try_advisory_lock($1, hashtext($2))", LOCK_NAMED, name
            )
        except BaseException:
            await raw.close()
            raise
        if not held:
            await raw.close()
            return None
        return _AdvisoryLock(raw)


async def schema_problem(url: str) -> str | None:
    """For `wargame-bot health`: why the database can't serve this bot, or None. Reads only."""
    where = redact(url)
    try:
        raw = await asyncpg.connect(url, timeout=5)
    except (*_GONE, pg.PostgresError) as exc:
        return f"{where} cannot be reached: {type(exc).__name__}"
    try:
        version = await _version(raw)
    except pg.PostgresError as exc:
        return f"{where} cannot be read: {type(exc).__name__}"
    finally:
        await raw.close()
    latest = schema_version("postgresql")
    if version != latest:
        return f"{where} is at schema version {version}, this bot needs {latest}"
    return None


async def _version(raw: PgRaw) -> int:
    if not await raw.fetchval("SELECT to_regclass('schema_version') IS NOT NULL"):
        return 0
    found = await raw.fetchval("SELECT MAX(version) FROM schema_version")
    return int(found or 0)
