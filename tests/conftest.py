"""Shared fixtures: an App on a fresh database (see tests/helpers.py for `say`). The database is
a SQLite file, or for the modules tests/pg.py lists, each backend in turn (PostgreSQL on a real
server the session starts)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from bot.app import App

# Property tests judge results, never time: on 2 busy cores one example can take seconds, and a
# per-example deadline would then fail a correct test (the suite never asserts wall-clock speed).
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

pytest_plugins = ("tests.pg",)  # the backend fixtures and the hook that parametrises them


@pytest.fixture(scope="session", autouse=True)
def user_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The user's data and state folders (the console's and `ask`'s files: an /odds picture,
    an export) in a temporary folder, for this process and the ones it starts: the suite
    never writes into the home of whoever runs it."""
    home = tmp_path_factory.mktemp("user")
    saved = {k: os.environ.get(k) for k in ("XDG_DATA_HOME", "XDG_STATE_HOME")}
    os.environ["XDG_DATA_HOME"] = str(home / "data")
    os.environ["XDG_STATE_HOME"] = str(home / "state")
    try:
        yield home
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture
async def app(db_target: Path | str) -> AsyncIterator[App]:
    application = App(db_target)
    await application.start()
    try:
        yield application
    finally:
        await application.stop()
