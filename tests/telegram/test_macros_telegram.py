"""The real python-telegram-bot Application against the fake Bot API: a macro saved, run by its
name (`/fire`, in a group, addressed to nobody) and again by the inline keyboard's "Repeat"."""

from __future__ import annotations

from tests.telegram.harness import Env

CHAT_ID = -1001


async def test_a_macro_run_by_name_and_by_button(env: Env) -> None:
    say = env.fake.message
    await env.fake.push(say("/save fire /roll 2d6+3 fire", chat_id=CHAT_ID))
    (saved,) = await env.fake.wait_for("sendMessage")
    assert "Macro /fire saved" in saved["text"]
    run = say("/fire", chat_id=CHAT_ID)
    await env.fake.push(run)
    answers = await env.fake.wait_for("sendMessage", count=2)
    rolled = answers[1]
    assert "fire" in rolled["text"] and "Roll #1" in rolled["text"]
    keyboard = rolled["reply_markup"]["inline_keyboard"]
    repeat = next(b for row in keyboard for b in row if b["text"] == "Repeat")
    await env.fake.push(env.fake.button_press(repeat["callback_data"], message=run["message"]))
    again = await env.fake.wait_for("sendMessage", count=3)
    assert "Roll #2" in again[2]["text"] and "fire" in again[2]["text"]


async def test_another_users_unknown_word_stays_silent_in_a_group(env: Env) -> None:
    await env.fake.push(env.fake.message("/save fire /roll 1d6 mine", chat_id=CHAT_ID))
    await env.fake.wait_for("sendMessage")
    await env.fake.push(env.fake.message("/fire", chat_id=CHAT_ID, user_id=43))  # not Bob's
    await env.fake.push(env.fake.message("/roll 1d4 last", chat_id=CHAT_ID, user_id=43))
    await env.fake.wait_for("sendMessage", lambda p: "last" in p["text"])
    await env.adapter.stop()
    assert len(env.fake.sent()) == 2  # the save and the roll: /fire was nobody's here
