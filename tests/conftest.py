"""Shared fixtures: an App on a fresh database (see tests/helpers.py for `say`). The database is
a SQLite file, or for the modules tests/pg.py lists, each backend in turn (PostgreSQL on a real
server the session starts)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import settings

from bot.app import App

# Property tests judge results, never time: on 2 busy cores one example can take seconds, and a
# per-example deadline would then fail a correct test (the suite never asserts wall-clock speed).
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

pytest_plugins = ("tests.pg",)  # the backend fixtures and the hook that parametrises them


@pytest.fixture
async def app(db_target: Path | str) -> AsyncIterator[App]:
    application = App(db_target)
    await application.start()
    try:
        yield application
    finally:
        await application.stop()
