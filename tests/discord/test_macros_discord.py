"""The real discord.py client against the fake Discord: `/macro save`, `/macro run` and the
"Repeat" button under its answer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.discord.harness import Env, interact, press, running, sub, text_of


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with running(tmp_path) as started:
        yield started


async def test_a_macro_run_by_name_and_by_button(env: Env) -> None:
    (put,) = await env.fake.wait_for(lambda m, p, b: m == "PUT" and p.endswith("/commands"))
    macro = next(c for c in put[2] if c["name"] == "macro")
    assert {o["name"] for o in macro["options"]} == {"save", "list", "delete", "run", "batch"}
    assert "save" not in [c["name"] for c in put[2]]  # the text form's /save: /macro save here
    saved = await interact(
        env.fake,
        env.fake.interaction(2, sub("macro", "save", name="fire", command="/roll 2d6+3 fire")),
    )
    assert "Macro /fire saved" in text_of(saved)
    ran = await interact(env.fake, env.fake.interaction(2, sub("macro", "run", name="fire")))
    assert "fire" in text_of(ran) and "Roll \\#1" in text_of(ran)
    buttons = [c for row in ran["data"]["components"] for c in row["components"]]
    repeat = next(b for b in buttons if b["label"] == "Repeat")
    again = await interact(env.fake, press(env.fake, repeat["custom_id"], user_id=43, name="Bob"))
    assert "Roll \\#2" in text_of(again) and "Bob" in text_of(again)
