"""The real python-telegram-bot Application against the fake Bot API: a private roll made in a
group reaches the roller in their private chat; the group only learns it was made."""

from __future__ import annotations

from tests.telegram.harness import Env

CHAT_ID = -1001


async def test_the_result_goes_to_the_roller_alone(env: Env) -> None:
    await env.fake.push(env.fake.message("/roll private 3d6 marker", chat_id=CHAT_ID, user_id=42))
    sent = await env.fake.wait_for("sendMessage", count=2)
    secret = next(p for p in sent if int(p["chat_id"]) == 42)
    public = next(p for p in sent if int(p["chat_id"]) == CHAT_ID)
    assert "marker" in secret["text"] and "Only you can see" in secret["text"]
    assert "private roll #1" in public["text"] and "marker" not in public["text"]


async def test_a_roller_who_never_started_the_bot_is_told_in_the_group(env: Env) -> None:
    env.fake.fail_next(
        "sendMessage",
        403,
        {
            "ok": False,
            "error_code": 403,
            "description": "Forbidden: bot can't initiate conversation",
        },
    )
    await env.fake.push(env.fake.message("/roll private 1d6 camo", chat_id=CHAT_ID, user_id=42))
    group = await env.fake.wait_for("sendMessage", lambda p: int(p["chat_id"]) == CHAT_ID, count=2)
    shown = "\n".join(p["text"] for p in group)
    assert "private roll #1" in shown and "press Start" in shown and "camo" not in shown
