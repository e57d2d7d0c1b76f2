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
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias
from urllib.parse import urlsplit

import asyncpg
import asyncpg.exceptions as pg
from asyncpg.pool import PoolConnectionProxy

from bot.storage.conn import (
    LOCK_CHAT,
    LOCK_MIGRATE,
    LOCK_NAMED,
    Connection,
    Row,
    chat_lock_key,
)
from bot.storage.db import (
    PYTHON_STEPS,
    Database,
    HeldLock,
    StorageError,
    migrations,
    schema_version,
)
from rules_core.errors import UserError

if TYPE_CHECKING:
    PgRaw: TypeAlias = asyncpg.Connection[Any] | PoolConnectionProxy[Any]
    Replace: TypeAlias = Callable[[PgRaw], Awaitable[PgRaw]]
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
    # A connection the server ended while idle: asyncpg can find its protocol mid-way.
    asyncpg.InternalClientError,
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


BEGIN_WRITE = "BEGIN ISOLATION LEVEL READ COMMITTED"
BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"


class PostgresConnection:
    """An asyncpg connection inside one transaction. BEGIN is sent with the first statement
    (in the same round trip when that is the chat's lock), so a command pays for no round
    trip that does no work; a transaction that ran nothing sends nothing."""

    dialect: Literal["postgresql"] = "postgresql"

    def __init__(
        self, raw: PgRaw, write: bool, *, begin: str | None = None, replace: Replace | None = None
    ) -> None:
        self.raw = raw
        self.write = write
        self._pending = begin
        self._replace = replace
        self._changes = 0

    @property
    def begun(self) -> bool:
        """True once BEGIN was sent: the transaction must then be committed or rolled back."""
        return self._pending is None

    async def _begin(self, then: str | None = None) -> None:
        """Send the pending BEGIN, with `then` (a statement without parameters) in the same
        round trip. A connection found dead here (the server restarted, a failover) is
        replaced once: nothing had run on it."""
        if self._pending is None:
            if then is not None:
                await self.raw.execute(then)
            return
        sql = self._pending if then is None else f"{self._pending}; {then}"
        self._pending = None
        try:
            await self.raw.execute(sql)
        except _GONE as exc:
            if self._replace is None:
                raise
            log.warning("connection lost (%s): trying a new one", exc)
            self.raw = await self._replace(self.raw)
            await self.raw.execute(sql)

    @property
    def total_changes(self) -> int:
        return self._changes

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        await self._begin()
        status: str = await self.raw.execute(to_postgres(sql), *params)
        changed = _changed(status)
        self._changes += changed
        return changed

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        batch = list(rows)
        await self._begin()
        await self.raw.executemany(to_postgres(sql), batch)
        if _WRITE.match(sql):
            self._changes += len(batch)  # at most this many; only "nothing" must be exact

    async def fetch_all(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        await self._begin()
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
            lock = f"SELECT pg_advisory_xact_lock({LOCK_CHAT}, {chat_lock_key(chat_key)})"
            await self._begin(then=lock)


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
                # No session state is left behind (chat locks end with their transaction,
                # settings are set at connect): the default reset would cost a round trip.
                reset=_keep_session,
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
        if not self._must_migrate(await _version(raw), schema_version("postgresql")):
            return
        async with raw.transaction():
            # Processes starting together wait here; the later ones find the work done.
            await raw.execute("SELECT pg_advisory_xact_lock($1, 0)", LOCK_MIGRATE)
            await raw.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            current = await _version(raw)
            conn = PostgresConnection(raw, write=True)  # inside the migration's transaction
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
        pool = self._pool
        if pool is None:
            raise RuntimeError("database is not open")
        with translated():
            raw = await pool.acquire(timeout=self.busy_seconds)

        async def replace(dead: PgRaw) -> PgRaw:
            await pool.release(dead)  # type: ignore[arg-type]
            with translated():
                return await pool.acquire(timeout=self.busy_seconds)

        conn = PostgresConnection(
            raw, write, begin=BEGIN_WRITE if write else BEGIN_READ, replace=replace
        )
        try:
            try:
                with translated():
                    yield conn
            except BaseException:
                if conn.begun:
                    with contextlib.suppress(Exception):  # a lost connection can't roll back
                        await conn.raw.execute("ROLLBACK")
                raise
            if conn.begun:
                with translated():
                    await conn.raw.execute("COMMIT")
        finally:
            await pool.release(conn.raw)  # type: ignore[arg-type]

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


async def _keep_session(raw: PgRaw) -> None:
    return None


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
