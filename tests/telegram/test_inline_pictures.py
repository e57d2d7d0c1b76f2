"""Inline mode sends text only (an article, an edited inline message): it must draw no picture
for it. Every picture a command draws goes through `bot.images.render.attach`; inline queries
and chosen results of every kind are run and the pictures drawn counted."""

from __future__ import annotations

from typing import Any

import pytest

from bot.images import render
from bot.protocol import Request
from tests.telegram.harness import Env


async def test_inline_queries_and_chosen_rolls_draw_no_picture(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    attach = render.attach

    async def counted(ctx: Any, reply: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(ctx.request.text)
        return await attach(ctx, reply, *args, **kwargs)

    monkeypatch.setattr(render, "attach", counted)
    # the odds command itself draws its chart (the counter sees it) ...
    private = Request(platform="telegram", chat_key="telegram:42", user_id="42", user_name="Ann")
    odds = await env.app.handle(private.model_copy(update={"text": "/odds 2d6+3>=10"}))
    assert odds.ok and drawn == ["/odds 2d6+3>=10"]
    drawn.clear()
    # ... inline mode never does: a roll, odds-like words, a rule card
    for query in ("2d6+3>=10", "odds 2d6+3>=10", "prob 3d6", "rule charge wm"):
        await env.fake.push(env.fake.inline_query(query))
    await env.fake.wait_for("answerInlineQuery", count=4)
    await env.fake.push(env.fake.chosen_inline_result("roll", "2d6+3>=10", inline_message_id="i1"))
    await env.fake.wait_for("editMessageText")
    assert drawn == []
