"""A stale button: the real discord.py client against the fake gateway and REST server on
127.0.0.1. The organiser presses "End turn" twice; the second press must not end the next
player's turn, and says (privately) that the turn has already ended."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.harness import Env, interact, press, running, sub
from tests.helpers import say

CHAT = f"discord:{CHANNEL_ID}"
ANN, BOB, CAT = 42, 43, 44
NAMES = {ANN: "Ann", BOB: "Bob", CAT: "Cat"}


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with running(tmp_path, "stale.sqlite3") as started:
        yield started


async def as_user(env: Env, user: int, text: str) -> None:
    """Set-up steps go straight to the App, in the channel's chat: only the presses under test
    need the Discord client."""
    reply = await say(env.app, text, user=str(user), name=NAMES[user], chat=CHAT)
    assert reply.error is None, reply.error


def press_payload(env: Env, custom_id: str, user: int) -> dict[str, Any]:
    return press(env.fake, custom_id, user_id=user, name=NAMES[user])


def text_of(body: dict[str, Any]) -> str:
    data = body["data"]
    embed = data["embeds"][0]
    return f"{data.get('content') or ''}\n{embed.get('title') or ''}\n{embed.get('description')}"


def end_turn_button(body: dict[str, Any]) -> str:
    (row,) = body["data"]["components"]
    (button,) = row["components"]
    assert button["label"] == "End turn"
    return str(button["custom_id"])


async def whose_turn(env: Env) -> tuple[int, str]:
    turn = await say(env.app, "/turn", chat=CHAT)
    assert turn.data is not None
    return turn.data["round"], turn.data["current"]


async def test_pressing_end_turn_twice_ends_one_turn_only(env: Env) -> None:
    await as_user(env, ANN, "/game new gen")
    await as_user(env, BOB, "/game join")
    await as_user(env, CAT, "/game join")
    passed = await interact(env.fake, env.fake.interaction(2, sub("turn", "end"), user_id=ANN))
    custom_id = end_turn_button(passed)
    assert await whose_turn(env) == (1, str(BOB))

    first = await interact(env.fake, press_payload(env, custom_id, ANN))  # Bob's turn ends
    assert f"<@{CAT}>" in text_of(first) and await whose_turn(env) == (1, str(CAT))
    log = (await say(env.app, "/log 50", chat=CHAT)).data

    second = await interact(env.fake, press_payload(env, custom_id, ANN))  # pressed again
    assert second["data"]["flags"] & 64  # only the presser sees it
    assert "This turn has already ended." in text_of(second)
    assert not second["data"].get("components")
    assert await whose_turn(env) == (1, str(CAT))
    assert (await say(env.app, "/log 50", chat=CHAT)).data == log

    # The button of the turn that is running still ends it.
    after = await interact(env.fake, press_payload(env, end_turn_button(first), CAT))
    assert f"<@{ANN}>" in text_of(after) and await whose_turn(env) == (2, str(ANN))


async def test_a_stale_done_button_changes_nothing(env: Env) -> None:
    await as_user(env, ANN, "/campaign new League")
    await as_user(env, BOB, "/campaign join")
    done = await interact(env.fake, env.fake.interaction(2, {"id": "1", "name": "done", "type": 1}))
    (row,) = done["data"]["components"]
    custom_id = row["components"][0]["custom_id"]
    assert row["components"][0]["label"] == "Done"
    first = await interact(env.fake, press_payload(env, custom_id, BOB))
    assert f"<@{ANN}>" in text_of(first)
    second = await interact(env.fake, press_payload(env, custom_id, BOB))
    assert "This turn has already ended." in text_of(second)
    status = await say(env.app, "/campaign status", chat=CHAT)
    assert status.data is not None and status.data["turn"] == 2
