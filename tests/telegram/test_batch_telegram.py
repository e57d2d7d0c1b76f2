"""The real python-telegram-bot Application against the fake Bot API: a game and ten units in
one multi-line message; a refused line leaves the game unchanged."""

from __future__ import annotations

from typing import Any

from tests.batch.test_batch import TEN_UNITS
from tests.helpers import say
from tests.telegram.harness import Env

CHAT_ID = -1001


async def send(env: Env, text: str, **kw: Any) -> str:
    count = len(env.fake.sent()) + 1
    await env.fake.push(env.fake.message(text, chat_id=CHAT_ID, user_id=42, **kw))
    answers = await env.fake.wait_for("sendMessage", count=count, timeout=60)
    return str(answers[-1]["text"])


async def units(env: Env) -> list[str]:
    status = await say(env.app, "/game status", chat=f"telegram:{CHAT_ID}")
    return [u["name"] for u in (status.data or {}).get("state", {}).get("units", [])]


async def test_a_game_and_ten_units_in_one_telegram_message(env: Env) -> None:
    answer = await send(env, TEN_UNITS)
    assert "11 commands run" in answer and "Line 11:" in answer
    assert len(env.fake.sent()) == 1  # one reply for the whole message
    assert len(await units(env)) == 10


async def test_a_refused_line_leaves_the_game_unchanged(env: Env) -> None:
    await send(env, "/game new aos\n/unit add Guards save=4")
    before = await units(env)
    answer = await send(env, "/unit add Orcs save=5\n/unit damage Nobody 2", language="it")
    assert "Riga 2:" in answer and "Non è cambiato nulla" in answer
    assert await units(env) == before == ["Guards"]
