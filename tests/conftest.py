"""Shared fixtures: an App on a fresh database (see tests/helpers.py for `say`). The database is
a SQLite file, or for the modules tests/pg.py lists, each backend in turn (PostgreSQL on a real
server the session starts)."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from bot.app import App
from bot.storage.db import Database

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


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated once per test process (as tests/pg.py's template for
    PostgreSQL): each `app` on SQLite opens a copy of it instead of running every migration."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"

    async def migrate() -> None:
        db = Database(path)
        await db.open()
        await db.close()

    asyncio.run(migrate())
    return path


@pytest.fixture
async def app(db_target: Path | str, sqlite_template: Path) -> AsyncIterator[App]:
    if isinstance(db_target, Path) and not db_target.exists():
        shutil.copyfile(sqlite_template, db_target)
    application = App(db_target)
    await application.start()
    try:
        yield application
    finally:
        await application.stop()
