"""The real discord.py client against the fake Discord: `/macro batch` (the text form's
`/batch`) opens a box (a modal) to type several commands in, one per line; its submit runs
them as one transaction."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.batch.test_batch import TEN_UNITS
from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.harness import Env, interact, running, sub, text_of
from tests.helpers import say

CHAT = f"discord:{CHANNEL_ID}"
MODAL, MODAL_SUBMIT = 9, 5


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with running(tmp_path) as started:
        yield started


def submit(env: Env, custom_id: str, text: str, locale: str = "en-US") -> dict[str, Any]:
    """What Discord sends when the box is submitted: its text input inside an action row."""
    row = {"type": 1, "components": [{"type": 4, "custom_id": "commands", "value": text}]}
    return env.fake.interaction(
        MODAL_SUBMIT, {"custom_id": custom_id, "components": [row]}, locale=locale
    )


async def units(env: Env) -> list[str]:
    status = await say(env.app, "/game status", chat=CHAT)
    return [u["name"] for u in (status.data or {}).get("state", {}).get("units", [])]


async def test_batch_opens_a_box_and_runs_ten_units_in_one_message(env: Env) -> None:
    opened = await interact(env.fake, env.fake.interaction(2, sub("macro", "batch")))
    assert opened["type"] == MODAL
    box = opened["data"]
    assert box["title"] == "Several commands" and len(box["title"]) <= 45
    field = box["components"][0]["components"][0]
    assert field["type"] == 4 and field["style"] == 2 and field["custom_id"] == "commands"
    answer = await interact(env.fake, submit(env, box["custom_id"], TEN_UNITS))
    assert answer["type"] == 4
    text = text_of(answer)
    assert "11 commands run" in text and "Line 11:" in text
    assert len(await units(env)) == 10


async def test_a_refused_line_in_the_box_changes_nothing(env: Env) -> None:
    assert (await say(env.app, "/game new aos", user="42", name="Ann", chat=CHAT)).error is None
    opened = await interact(env.fake, env.fake.interaction(2, sub("macro", "batch"), locale="it"))
    assert opened["data"]["title"] == "Più comandi"
    text = "/unit add Guards save=4\n/unit add Orcs save=molto"
    answer = await interact(env.fake, submit(env, opened["data"]["custom_id"], text, "it"))
    assert answer["data"]["flags"] & 64  # ephemeral: only the sender sees the refusal
    shown = text_of(answer)
    assert "Riga 2:" in shown and "Non è cambiato nulla" in shown
    assert await units(env) == []
