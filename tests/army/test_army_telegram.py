"""The real python-telegram-bot Application against the fake Bot API on 127.0.0.1: a whole
army in one multi-line message, and a `.rosz` attached to `/army import`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.army.battlescribe_files import ros, rosz
from tests.army.test_army_commands import TEN_UNITS
from tests.helpers import say
from tests.telegram.harness import Env, running

CHAT_ID = -1001


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with running(tmp_path) as started:
        yield started


async def send(env: Env, text: str, **kw: Any) -> str:
    """Send a message as Ann (user 42) and return the bot's answer."""
    count = len(env.fake.sent()) + 1
    await env.fake.push(env.fake.message(text, chat_id=CHAT_ID, user_id=42, **kw))
    answers = await env.fake.wait_for("sendMessage", count=count, timeout=60)
    return str(answers[-1]["text"])


def document(env: Env, name: str, content: bytes) -> dict[str, Any]:
    file_id = f"f{len(env.fake.files)}"
    env.fake.files[file_id] = content
    return {
        "file_id": file_id,
        "file_unique_id": "u" + file_id,
        "file_name": name,
        "file_size": len(content),
    }


async def units(env: Env) -> list[str]:
    status = await say(env.app, "/game status", chat=f"telegram:{CHAT_ID}")
    assert status.data is not None
    return [u["name"] for u in status.data["state"]["units"]]


async def test_ten_units_in_one_telegram_message(env: Env) -> None:
    assert "you are the organiser" in await send(env, "/game new aos")
    answer = await send(env, TEN_UNITS)
    assert "Units added for Ann: 10." in answer
    assert "Liberators" in answer and "Castigators" in answer
    assert len(await units(env)) == 10


async def test_a_rosz_attached_to_army_import(env: Env) -> None:
    await send(env, "/game new inf")
    attached = document(env, "pano.rosz", rosz(("pano.ros", ros("inf"))))
    answer = await send(env, "/army import save=Pano", document=attached)
    assert "Units added for Ann: 2." in answer and "Roster Pano saved" in answer
    assert await units(env) == ["Fusilier Lieutenant", "Bolt"]
    # A bad file: one clear sentence, the game as it was.
    bomb = document(env, "bomb.rosz", rosz(("a.ros", b"<r>" + b" " * (8 * 1024 * 1024) + b"</r>")))
    answer = await send(env, "/armata importa", document=bomb, language="it")
    assert "si espande troppo" in answer
    assert await units(env) == ["Fusilier Lieutenant", "Bolt"]
