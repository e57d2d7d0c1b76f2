"""Both storage backends for the tests: the `backend` fixture is "sqlite" unless a test is
parametrised over both, and `db_target` is what `App` and `Database` open: a fresh SQLite file,
or a fresh database on one real PostgreSQL server started for the session (tests/pg_server.py).

Parametrised over both backends: every test of the modules in `BOTH_BACKENDS` that uses the
`app`, `db_target` or `backend` fixture (storage, event log, reliability, and the command tests
that lean most on storage); the game-system tests stay on SQLite, to keep the suite short.
When no PostgreSQL server can start, those tests skip with the reason, or fail under
$WARGAME_REQUIRE_POSTGRES=1 (CI sets it) so they never skip silently.

Each test's database is a copy of a template migrated once per session (`CREATE DATABASE ...
TEMPLATE ... STRATEGY FILE_COPY`, ~50 ms), dropped after the test; `empty_pg_database()` gives
one with no schema at all, for migration tests.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from bot.storage.db import Database
from tests.pg_server import PostgresServer, ServerUnavailable

REQUIRE_ENV = "WARGAME_REQUIRE_POSTGRES"
BACKENDS = ("sqlite", "postgresql")
BOTH_BACKENDS = (
    "tests/core/test_storage.py",
    "tests/core/test_event_log.py",
    "tests/core/test_commands.py",
    "tests/reliability/",
    "tests/game/test_chat_numbers.py",
    "tests/game/test_events_api.py",
    "tests/game/test_stale_buttons.py",
    "tests/rules/test_rules_commands.py",
    "tests/hostile/test_permissions.py",
    "tests/hostile/test_import_text.py",
    "tests/board/test_live_board.py",
)
TEMPLATE = "wargame_template"

_counter = itertools.count(1)


def _relative(path: Path) -> str:
    root = Path(__file__).resolve().parents[1]
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    where = _relative(Path(str(metafunc.definition.fspath)))
    if any(where.startswith(prefix) for prefix in BOTH_BACKENDS):
        metafunc.parametrize("backend", BACKENDS, indirect=True)


class PgDatabases:
    """Fresh databases on the session's server."""

    def __init__(self, server: PostgresServer) -> None:
        self.server = server
        self.template_ready = False

    async def _admin(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.server.url())

    async def create(self, *, migrated: bool = True) -> str:
        name = f"t{os.getpid()}_{next(_counter)}"
        admin = await self._admin()
        try:
            if migrated and not self.template_ready:
                await admin.execute(f"CREATE DATABASE {TEMPLATE}")
                db = Database(self.server.url(TEMPLATE))
                await db.open()  # migrated to the latest schema, once per session
                await db.close()
                self.template_ready = True
            source = TEMPLATE if migrated else "template0"
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE {source} STRATEGY FILE_COPY")
        finally:
            await admin.close()
        return self.server.url(name)

    async def drop(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        admin = await self._admin()
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()

    @asynccontextmanager
    async def fresh(self, *, migrated: bool = True) -> AsyncIterator[str]:
        """A new database's URL, dropped on the way out."""
        url = await self.create(migrated=migrated)
        try:
            yield url
        finally:
            await self.drop(url)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        server.start()
    except (ServerUnavailable, OSError) as exc:
        server.stop()
        reason = f"no PostgreSQL server for the tests: {exc}"
        if os.environ.get(REQUIRE_ENV, "").strip() not in ("", "0"):
            pytest.fail(f"{REQUIRE_ENV}=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_databases(pg_server: PostgresServer) -> PgDatabases:
    return PgDatabases(pg_server)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
async def db_target(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Path | str]:
    """A fresh database for this test: a SQLite file path or a PostgreSQL URL."""
    if backend == "sqlite":
        yield tmp_path / "bot.sqlite3"
        return
    databases: PgDatabases = request.getfixturevalue("pg_databases")
    async with databases.fresh() as url:
        yield url


@pytest.fixture
async def pg_url(pg_databases: PgDatabases) -> AsyncIterator[str]:
    """A fresh, migrated PostgreSQL database, for the tests of what only PostgreSQL has."""
    async with pg_databases.fresh() as url:
        yield url


@pytest.fixture
async def empty_pg_database(pg_databases: PgDatabases) -> AsyncIterator[str]:
    """A PostgreSQL database with no schema yet."""
    async with pg_databases.fresh(migrated=False) as url:
        yield url


async def new_target(backend: str, request: pytest.FixtureRequest, tmp: Path) -> Path | str:
    """Another fresh database within one test (a second, independent store), dropped with the
    test's other databases at the end of the session's server."""
    if backend == "sqlite":
        return tmp
    databases: PgDatabases = request.getfixturevalue("pg_databases")
    return await databases.create()
