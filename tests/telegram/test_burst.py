"""A burst of commands on Telegram against a fake Bot API that enforces Telegram's limits (20
messages a minute in a group, then 429 with retry_after): every command is answered, in order,
none dropped. The fake's clock is the adapter's, moved only by the adapter's waits."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.adapters.telegram import TelegramAdapter
from bot.app import App
from tests.telegram.fake_bot_api import GROUP_LIMIT, FakeBotAPI
from tests.telegram.harness import Env, FakeClock, settings_for

CHAT_ID = -1001
BURST = 30


@pytest.fixture
async def limited(tmp_path: Path) -> AsyncIterator[tuple[Env, FakeClock]]:
    clock = FakeClock()

    async def wait(seconds: float) -> None:  # the adapter "waits": the shared clock moves on
        clock.now += seconds
        await asyncio.sleep(0)

    fake = FakeBotAPI(clock=clock)
    await fake.start()
    app = App(tmp_path / "burst.sqlite3")
    await app.start()
    adapter = TelegramAdapter(
        app, settings_for(fake, tmp_path / "burst.sqlite3"), poll_timeout=1, clock=clock, sleep=wait
    )
    await adapter.start()
    try:
        yield Env(fake, app, adapter), clock
    finally:
        await adapter.stop()
        await app.stop()
        await fake.stop()


def labels(texts: list[str]) -> list[str]:
    return re.findall(r"\bc\d\d\b", "\n".join(texts))


async def test_a_burst_of_thirty_commands_is_all_answered_in_order(
    limited: tuple[Env, FakeClock],
) -> None:
    env, clock = limited
    for i in range(BURST):
        await env.fake.push(env.fake.message(f"/roll 1d6 c{i:02d}", chat_id=CHAT_ID))
    await env.fake.wait_for("sendMessage", lambda p: f"c{BURST - 1:02d}" in p["text"], timeout=60)
    await env.adapter.stop()
    texts = [p["text"] for p in env.fake.sent()]
    assert labels(texts) == [f"c{i:02d}" for i in range(BURST)]  # each once, in order
    assert env.fake.limited, "the burst should have met Telegram's limit"
    assert clock.now >= 1000.0 + GROUP_LIMIT[1] - 1  # the adapter waited as told
    assert not any("Too many commands" in t for t in texts)
    assert len(texts) <= BURST


async def test_another_chat_is_answered_while_one_waits(limited: tuple[Env, FakeClock]) -> None:
    env, _ = limited
    for i in range(GROUP_LIMIT[0] + 2):
        await env.fake.push(env.fake.message(f"/roll 1d6 c{i:02d}", chat_id=CHAT_ID))
    await env.fake.push(env.fake.message("/roll 1d4 other", chat_id=-2002))
    await env.fake.wait_for("sendMessage", lambda p: "other" in p["text"], timeout=60)
    await env.fake.wait_for("sendMessage", lambda p: "c21" in p["text"], timeout=60)
    await env.adapter.stop()
    mine = [p["text"] for p in env.fake.sent() if int(p["chat_id"]) == CHAT_ID]
    assert labels(mine) == [f"c{i:02d}" for i in range(GROUP_LIMIT[0] + 2)]
