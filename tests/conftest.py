"""Shared fixtures: an App on a fresh database (see tests/helpers.py for `say`). The database is
a SQLite file, or for the modules tests/pg.py lists, each backend in turn (PostgreSQL on a real
server the session starts)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import App

pytest_plugins = ("tests.pg",)  # the backend fixtures and the hook that parametrises them


@pytest.fixture
async def app(db_target: Path | str) -> AsyncIterator[App]:
    application = App(db_target)
    await application.start()
    try:
        yield application
    finally:
        await application.stop()
