"""The real discord.py client against the fake Discord: a private roll's result is an ephemeral
answer (only the roller sees it); the channel gets "a private roll #N was made"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.discord.harness import Env, interact, running, sub, text_of


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with running(tmp_path) as started:
        yield started


async def test_the_result_is_ephemeral_and_the_channel_is_told(env: Env) -> None:
    payload = sub("rolls", "private", expression="2d6 deployment")
    answer = await interact(env.fake, env.fake.interaction(2, payload))
    assert answer["data"]["flags"] & 64  # ephemeral
    assert "deployment" in text_of(answer) and "Only you can see" in text_of(answer)
    found = await env.fake.wait_for(lambda m, p, b: m == "POST" and p.startswith("/webhooks/"))
    public = found[-1][2]
    assert not (public.get("flags") or 0) & 64
    shown = public["embeds"][0]["description"]
    assert "private roll \\#1" in shown and "deployment" not in shown
