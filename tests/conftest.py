"""Shared fixtures: an App on a fresh database (see tests/helpers.py for `say`). The database is
a SQLite file, or for the modules tests/pg.py lists, each backend in turn (PostgreSQL on a real
server the session starts)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import App
from tests.pg import (  # noqa: F401  (fixtures and the parametrising hook, used by name)
    backend,
    db_target,
    empty_pg_database,
    pg_databases,
    pg_server,
    pg_url,
    pytest_generate_tests,
)


@pytest.fixture
async def app(db_target: Path | str) -> AsyncIterator[App]:
    application = App(db_target)
    await application.start()
    try:
        yield application
    finally:
        await application.stop()
