"""Shared fixtures: an App on a fresh SQLite file (see tests/helpers.py for `say`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import App


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    application = App(tmp_path / "bot.sqlite3")
    await application.start()
    try:
        yield application
    finally:
        await application.stop()
