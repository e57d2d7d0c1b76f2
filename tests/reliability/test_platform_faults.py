"""Platform faults in the end-to-end fakes: the Discord gateway drops the connection and the
real discord.py client resumes its session (or, when the gateway refuses the resume, starts a
new one); Telegram answers getUpdates and sendMessage with
5xx and 429. In every case each command is answered exactly once: none lost, none twice."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.discord import DiscordAdapter
from bot.adapters.telegram import TelegramAdapter
from tests.discord import harness as discord
from tests.discord.fake_discord import FakeDiscord
from tests.discord.harness import command, text_of
from tests.telegram import harness as telegram
from tests.telegram.fake_bot_api import FakeBotAPI

# --- Discord ------------------------------------------------------------------------------------


def roll(fake: FakeDiscord, label: str) -> dict[str, Any]:
    return fake.interaction(2, command("roll", expression=f"d6 {label}"))


@pytest.fixture
async def discord_env(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, DiscordAdapter]]:
    async with discord.running(tmp_path) as env:
        yield env.fake, env.adapter


def answered(fake: FakeDiscord) -> Counter[str]:
    """Interaction id -> how many initial responses it got."""
    return Counter(p.split("/")[2] for m, p, _ in fake.calls if p.endswith("/callback"))


async def test_gateway_drop_is_resumed_and_every_interaction_answered_once(
    discord_env: tuple[FakeDiscord, DiscordAdapter],
) -> None:
    fake, adapter = discord_env
    before = roll(fake, "before")
    await fake.dispatch("INTERACTION_CREATE", before)
    await fake.callbacks(1)
    seq_seen = fake.frames[-1]["s"]

    await fake.drop()  # the gateway goes away mid-session
    during = [roll(fake, f"during{i}") for i in range(3)]
    for item in during:  # sent while the client is reconnecting: replayed on RESUME
        await fake.dispatch("INTERACTION_CREATE", item)
    await fake.callbacks(4)
    assert fake.resumed.is_set()
    assert fake.identify.get("session_id") == "session"  # a RESUME, not a new IDENTIFY
    assert fake.identify.get("seq") is not None and fake.identify["seq"] >= seq_seen
    assert fake.replayed and min(fake.replayed) > seq_seen  # missed events came on RESUME

    after = roll(fake, "after")
    await fake.dispatch("INTERACTION_CREATE", after)
    await fake.callbacks(5)
    await adapter.stop()  # every interaction received has been fully handled
    counts = answered(fake)
    assert counts == Counter({i["id"]: 1 for i in [before, *during, after]})
    texts = [text_of(b) for _, p, b in fake.calls if p.endswith("/callback")]
    for label in ("before", "during0", "during1", "during2", "after"):
        assert sum(label in t for t in texts) == 1


async def test_invalid_session_identifies_afresh_and_answers_once(
    discord_env: tuple[FakeDiscord, DiscordAdapter],
) -> None:
    """The gateway drops and refuses the RESUME (INVALID_SESSION, not resumable): the client
    starts a new session with IDENTIFY and serves again; nothing is answered twice."""
    fake, adapter = discord_env
    before = roll(fake, "before")
    await fake.dispatch("INTERACTION_CREATE", before)
    await fake.callbacks(1)
    sessions = fake.identifies

    fake.invalidate_resume = True
    fake.identified.clear()
    await fake.drop()
    # discord.py waits its 5 s between IDENTIFYs (Discord's own rate limit) before this one.
    await asyncio.wait_for(fake.identified.wait(), 30)
    assert fake.invalidated == 1  # a RESUME came first and was refused
    assert fake.identifies == sessions + 1 and "session_id" not in fake.identify

    after = roll(fake, "after")
    await fake.dispatch("INTERACTION_CREATE", after)
    await fake.callbacks(2)
    await adapter.stop()
    assert answered(fake) == Counter({before["id"]: 1, after["id"]: 1})
    texts = [text_of(b) for _, p, b in fake.calls if p.endswith("/callback")]
    assert [sum(label in t for t in texts) for label in ("before", "after")] == [1, 1]


# --- Telegram -----------------------------------------------------------------------------------


@pytest.fixture
async def telegram_env(tmp_path: Path) -> AsyncIterator[tuple[FakeBotAPI, TelegramAdapter]]:
    async with telegram.running(tmp_path) as env:
        yield env.fake, env.adapter


def error(status: int, retry_after: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": f"error {status}"}
    if retry_after is not None:
        body["description"] = f"Too Many Requests: retry after {retry_after}"
        body["parameters"] = {"retry_after": retry_after}
    return body


def delivered(fake: FakeBotAPI) -> list[str]:
    """The texts of sendMessage calls the fake accepted (not those it failed on purpose)."""
    refused = [p for m, p in fake.refused if m == "sendMessage"]
    out = []
    for p in fake.sent():
        if p in refused:
            refused.remove(p)
        else:
            out.append(str(p["text"]))
    return out


def labels_once(texts: list[str], labels: list[str]) -> None:
    assert len(texts) == len(labels)
    for label in labels:
        assert sum(f" {label}" in t for t in texts) == 1, (label, texts)


async def test_get_updates_5xx_and_429_lose_and_repeat_nothing(
    telegram_env: tuple[FakeBotAPI, TelegramAdapter],
) -> None:
    fake, adapter = telegram_env
    fake.fail_next("getUpdates", 500, error(500))
    fake.fail_next("getUpdates", 429, error(429, retry_after=1))
    labels = [f"m{i}x" for i in range(6)]
    for i, label in enumerate(labels):
        await fake.push(fake.message(f"/roll d6 {label}", user_id=100 + i))
    await fake.wait_for("sendMessage", count=len(labels), timeout=20)
    assert fake.failures["getUpdates"] == []  # every fault was served to the poller
    await adapter.stop()
    labels_once(delivered(fake), labels)


async def test_send_message_5xx_and_429_are_retried_and_delivered_once(
    telegram_env: tuple[FakeBotAPI, TelegramAdapter],
) -> None:
    fake, adapter = telegram_env
    fake.fail_next("sendMessage", 500, error(500))
    fake.fail_next("sendMessage", 503, error(503))
    fake.fail_next("sendMessage", 429, error(429, retry_after=1))
    fake.fail_next("sendMessage", 502, error(502))
    labels = [f"s{i}x" for i in range(3)]
    for i, label in enumerate(labels):
        await fake.push(fake.message(f"/roll d6 {label}", user_id=200 + i))

    # After the 429 the chat's answers held meanwhile go out merged (bot/flood.py): wait for
    # the last label in a message the fake accepted.
    def accepted_last(p: dict[str, Any]) -> bool:
        return labels[-1] in p["text"] and not any(p is q for _, q in fake.refused)

    await fake.wait_for("sendMessage", accepted_last, timeout=20)
    await adapter.stop()
    assert fake.failures["sendMessage"] == [] and len(fake.refused) == 4
    texts = delivered(fake)
    for label in labels:
        assert sum(f" {label}" in t for t in texts) == 1, (label, texts)


async def test_discord_rest_5xx_and_429_on_the_answer_are_retried_once(
    discord_env: tuple[FakeDiscord, DiscordAdapter],
) -> None:
    fake, adapter = discord_env
    fake.failures.append(("/callback", 500, {"message": "500: Internal Server Error", "code": 0}))
    fake.failures.append(
        (
            "/callback",
            429,
            {"message": "You are being rate limited.", "retry_after": 0.2, "global": False},
        )
    )
    item = roll(fake, "rest")
    await fake.dispatch("INTERACTION_CREATE", item)
    await fake.callbacks(3)  # two refused attempts, then the answer
    await adapter.stop()
    assert fake.failures == []
    assert answered(fake) == Counter({item["id"]: 3})  # the same answer, sent until accepted
    bodies = [b for _, p, b in fake.calls if p.endswith("/callback")]
    assert all(b == bodies[0] for b in bodies)
    assert "rest" in text_of(bodies[-1])
