"""The `env` fixture: a running Telegram adapter against the fake Bot API on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.telegram.harness import Env, running


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with running(tmp_path) as started:
        yield started
