"""The real python-telegram-bot Application against a fake Bot API server on 127.0.0.1."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from telegram import Chat

from bot.adapters.base import AdapterStartError
from bot.adapters.telegram import ADMIN_CACHE_SECONDS, TelegramAdapter
from bot.app import App
from bot.scheduler import Scheduler
from tests.telegram.fake_bot_api import FakeBotAPI
from tests.telegram.harness import Env, FakeClock, settings_for


async def test_roll_in_a_group_answers_in_that_chat(env: Env) -> None:
    await env.fake.push(env.fake.message("/roll 2d6+3 fire", chat_id=-1001))
    (sent,) = await env.fake.wait_for("sendMessage")
    assert int(sent["chat_id"]) == -1001
    assert sent["parse_mode"] == "HTML"
    assert "fire" in sent["text"] and "<b>" in sent["text"]
    assert "message_thread_id" not in sent or not sent["message_thread_id"]
    button = sent["reply_markup"]["inline_keyboard"][0][0]
    assert len(button["callback_data"].encode()) <= 64


async def test_roll_in_a_forum_topic_answers_in_the_topic(env: Env) -> None:
    await env.fake.push(env.fake.message("/roll d20", chat_id=-1002, thread=77))
    (sent,) = await env.fake.wait_for("sendMessage")
    assert int(sent["chat_id"]) == -1002 and int(sent["message_thread_id"]) == 77


async def test_command_for_another_bot_is_ignored(env: Env) -> None:
    await env.fake.push(env.fake.message("/roll@OtherBot 2d6"))
    await env.fake.push(env.fake.message("/roll@WargameBot 1d4 mine"))
    await env.fake.wait_for("sendMessage", lambda p: "mine" in p["text"])
    await env.adapter.stop()  # every update received has now been fully processed
    assert len(env.fake.sent()) == 1


async def test_reroll_button_runs_the_command_again_and_is_answered(env: Env) -> None:
    update = env.fake.message("/roll 3d6 again")
    await env.fake.push(update)
    (first,) = await env.fake.wait_for("sendMessage")
    data = first["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
    await env.fake.push(env.fake.button_press(data, message=update["message"]))
    await env.fake.wait_for("answerCallbackQuery")
    second = await env.fake.wait_for("sendMessage", count=2)
    assert "again" in second[1]["text"] and "Bob" in second[1]["text"]


async def test_foreign_or_expired_button_gets_a_polite_note(env: Env) -> None:
    update = env.fake.message("/help")
    await env.fake.push(env.fake.button_press("deadbeef", message=update["message"]))
    (answer,) = await env.fake.wait_for("answerCallbackQuery")
    assert "expired" in answer["text"]


async def test_user_text_arrives_escaped(env: Env) -> None:
    await env.fake.push(env.fake.message("/roll 2d6 <b>x</b> & y"))
    (sent,) = await env.fake.wait_for("sendMessage")
    assert "&lt;b&gt;x&lt;/b&gt; &amp; y" in sent["text"]
    assert "<b>x</b>" not in sent["text"]


async def test_bad_expression_is_one_localized_sentence(env: Env) -> None:
    await env.fake.push(env.fake.message("/roll 2d6+", language="en"))
    await env.fake.push(env.fake.message("/roll 2d6+", language="it", user_id=99))
    sent = await env.fake.wait_for("sendMessage", count=2)
    texts = sorted(p["text"] for p in sent)
    assert any("Syntax" in t for t in texts) and any("Sintassi" in t for t in texts)
    assert all("Traceback" not in t for t in texts)


async def test_retry_after_on_send_message_is_honoured(env: Env) -> None:
    env.fake.fail_next(
        "sendMessage",
        429,
        {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 1",
            "parameters": {"retry_after": 1},
        },
    )
    await env.fake.push(env.fake.message("/roll d6"))
    attempts = await env.fake.wait_for("sendMessage", count=2)
    assert attempts[0]["text"] == attempts[1]["text"]


async def test_italian_client_gets_italian_replies(env: Env) -> None:
    await env.fake.push(env.fake.message("/help", language="it"))
    (sent,) = await env.fake.wait_for("sendMessage")
    assert "Comandi" in sent["text"]


async def test_admins_come_from_the_chat_and_are_cached(env: Env) -> None:
    env.fake.admins[-1001] = [42]
    await env.fake.push(env.fake.message("/lang it", user_id=42))
    await env.fake.push(env.fake.message("/lang en", user_id=43))
    sent = await env.fake.wait_for("sendMessage", count=2)
    assert any("italiano" in p["text"] for p in sent)
    assert any("chat admin" in p["text"] or "amministratore" in p["text"] for p in sent)
    assert env.fake.methods().count("getChatAdministrators") == 1


async def test_rulebook_document_is_imported(env: Env) -> None:
    env.fake.admins[-1001] = [42]
    env.fake.files["doc1"] = b"# House rules\n\n## Ambush\n\nHidden units strike first.\n"
    document = {
        "file_id": "doc1",
        "file_unique_id": "udoc1",
        "file_name": "house.md",
        "file_size": len(env.fake.files["doc1"]),
    }
    await env.fake.push(env.fake.message("/rules import system=wm", user_id=42, document=document))
    (sent,) = await env.fake.wait_for("sendMessage", timeout=60)
    assert "house.md" in sent["text"]
    await env.fake.push(env.fake.message("/rules search ambush"))
    found = await env.fake.wait_for("sendMessage", count=2)
    assert "Hidden units strike first." in found[1]["text"]


async def test_command_menu_is_published_in_both_languages(env: Env) -> None:
    calls = [p for m, p in env.fake.calls if m == "setMyCommands"]
    assert {p.get("language_code") for p in calls} == {None, "it"}
    names = {c["command"] for c in calls[0]["commands"]}
    assert {"roll", "odds", "help", "rule"} <= names


async def test_set_my_commands_failing_does_not_stop_the_bot(tmp_path: Path) -> None:
    fake = FakeBotAPI()
    await fake.start()
    for _ in range(2):
        fake.fail_next(
            "setMyCommands",
            400,
            {"ok": False, "error_code": 400, "description": "Bad Request: broken"},
        )
    app = App(tmp_path / "a.sqlite3")
    await app.start()
    adapter = TelegramAdapter(app, settings_for(fake, tmp_path / "a.sqlite3"), poll_timeout=1)
    await adapter.start()
    try:
        await fake.push(fake.message("/roll d6"))
        await fake.wait_for("sendMessage")
    finally:
        await adapter.stop()
        await app.stop()
        await fake.stop()


async def test_rejected_token_is_one_clear_error(tmp_path: Path) -> None:
    fake = FakeBotAPI()
    await fake.start()
    app = App(tmp_path / "b.sqlite3")
    await app.start()
    adapter = TelegramAdapter(app, settings_for(fake, tmp_path / "b.sqlite3", "999:WRONG"))
    try:
        with pytest.raises(AdapterStartError, match="rejected the token"):
            await adapter.start()
    finally:
        await app.stop()
        await fake.stop()


async def test_campaign_reminder_reaches_the_topic_and_pings_the_player(env: Env) -> None:
    def here(p: dict[str, Any]) -> bool:
        return int(p["chat_id"]) == -1005

    say = env.fake.message
    await env.fake.push(say("/campaign new Autumn", chat_id=-1005, thread=9, first_name="<Ann>"))
    await env.fake.push(
        say("/campaign join", chat_id=-1005, thread=9, user_id=43, first_name="Bob")
    )
    await env.fake.push(say("/campaign deadline 2h", chat_id=-1005, thread=9, first_name="<Ann>"))
    await env.fake.wait_for("sendMessage", here, count=3)

    scheduler = Scheduler(env.app, env.adapter.send)
    assert await scheduler.run_due(datetime.now(UTC) + timedelta(minutes=30)) == 0
    assert await scheduler.run_due(datetime.now(UTC) + timedelta(hours=1, minutes=1)) == 1
    reminder = (await env.fake.wait_for("sendMessage", here, count=4))[-1]
    assert int(reminder["message_thread_id"]) == 9
    assert 'href="tg://user?id=42"' in reminder["text"]
    assert "&lt;Ann&gt;" in reminder["text"] and "<Ann>" not in reminder["text"]


async def test_concurrent_admin_checks_share_one_request(env: Env) -> None:
    # Eight updates of one chat checked at once all miss the empty cache: they must wait for one
    # getChatAdministrators call, not send eight.
    env.fake.admins[-1001] = [3]
    chat = Chat(id=-1001, type="supergroup")
    chat.set_bot(env.adapter.application.bot)
    answers = await asyncio.gather(*(env.adapter.is_admin(chat, uid) for uid in range(8)))
    assert answers == [uid == 3 for uid in range(8)]
    assert env.fake.methods().count("getChatAdministrators") == 1


async def test_admin_list_is_asked_again_after_expiry_or_failure(tmp_path: Path) -> None:
    fake = FakeBotAPI()
    await fake.start()
    app = App(tmp_path / "d.sqlite3")
    await app.start()
    clock = FakeClock()
    adapter = TelegramAdapter(
        app, settings_for(fake, tmp_path / "d.sqlite3"), poll_timeout=1, clock=clock
    )
    await adapter.start()
    try:
        chat = Chat(id=-1009, type="supergroup")
        chat.set_bot(adapter.application.bot)
        fake.fail_next(
            "getChatAdministrators",
            400,
            {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"},
        )
        assert await adapter.is_admin(chat, 5) is False  # refused: nobody is admin, not cached
        fake.admins[-1009] = [5]
        assert await adapter.is_admin(chat, 5) is True
        assert await adapter.is_admin(chat, 5) is True  # from the cache
        assert fake.methods().count("getChatAdministrators") == 2
        fake.admins[-1009] = []
        clock.now += ADMIN_CACHE_SECONDS + 1
        assert await adapter.is_admin(chat, 5) is False
        assert fake.methods().count("getChatAdministrators") == 3
    finally:
        await adapter.stop()
        await app.stop()
        await fake.stop()
