"""A stale inline-keyboard button: the real python-telegram-bot Application against the fake
Bot API on 127.0.0.1. The organiser presses "End turn" twice; the second press must not end the
next player's turn, and says the turn has already ended."""

from __future__ import annotations

from typing import Any

from tests.helpers import say
from tests.telegram.harness import Env

CHAT_ID = -1001
CHAT = f"telegram:{CHAT_ID}"
ANN, BOB, CAT = 42, 43, 44


async def send(env: Env, text: str, user: int, name: str, language: str = "en") -> dict[str, Any]:
    """A message from `user`; returns the update and waits for the bot's answer to it."""
    before = len(env.fake.sent())
    update = env.fake.message(text, user_id=user, first_name=name, language=language)
    await env.fake.push(update)
    await env.fake.wait_for("sendMessage", count=before + 1)
    return update


async def press(env: Env, data: str, update: dict[str, Any], user: int) -> dict[str, Any]:
    """Press a button as `user`; returns the bot's message that answered the press."""
    before = len(env.fake.sent())
    answered = len(env.fake.sent("answerCallbackQuery"))
    await env.fake.push(env.fake.button_press(data, message=update["message"], user_id=user))
    await env.fake.wait_for("answerCallbackQuery", count=answered + 1)
    return (await env.fake.wait_for("sendMessage", count=before + 1))[-1]


def end_turn_button(sent: dict[str, Any]) -> str:
    (row,) = sent["reply_markup"]["inline_keyboard"]
    (button,) = row
    assert button["text"] == "End turn"
    return str(button["callback_data"])


async def whose_turn(env: Env) -> tuple[int, str]:
    turn = await say(env.app, "/turn", chat=CHAT)
    assert turn.data is not None
    return turn.data["round"], turn.data["current"]


async def test_pressing_end_turn_twice_ends_one_turn_only(env: Env) -> None:
    await send(env, "/game new gen", ANN, "Ann")
    await send(env, "/game join", BOB, "Bob")
    await send(env, "/game join", CAT, "Cat")
    update = await send(env, "/turn end", ANN, "Ann")
    data = end_turn_button(env.fake.sent()[-1])
    assert await whose_turn(env) == (1, str(BOB))

    first = await press(env, data, update, ANN)  # the organiser ends Bob's turn
    assert "Cat" in first["text"] and await whose_turn(env) == (1, str(CAT))
    log = (await say(env.app, "/log 50", chat=CHAT)).data

    second = await press(env, data, update, ANN)  # pressed again: Cat's turn stays
    assert "This turn has already ended." in second["text"]
    assert "reply_markup" not in second or not second["reply_markup"]
    assert await whose_turn(env) == (1, str(CAT))
    assert (await say(env.app, "/log 50", chat=CHAT)).data == log

    # The button of the turn that is running still ends it.
    fresh = end_turn_button(first)
    after = await press(env, fresh, update, CAT)
    assert "Ann" in after["text"] and await whose_turn(env) == (2, str(ANN))


async def test_a_stale_done_button_answers_in_italian(env: Env) -> None:
    env.fake.admins[CHAT_ID] = [ANN]  # /lang is for chat admins
    await send(env, "/lang it", ANN, "Ann")
    await send(env, "/campaign new Lega", ANN, "Ann")
    await send(env, "/campaign join", BOB, "Bruno")
    update = await send(env, "/done", ANN, "Ann")  # Bruno's turn
    (row,) = env.fake.sent()[-1]["reply_markup"]["inline_keyboard"]
    assert row[0]["text"] == "Fatto"
    data = row[0]["callback_data"]
    first = await press(env, data, update, BOB)
    assert "Ann" in first["text"]
    second = await press(env, data, update, BOB)
    assert "Questo turno è già finito." in second["text"]
    status = await say(env.app, "/campaign status", chat=CHAT)
    assert status.data is not None and status.data["turn"] == 2
