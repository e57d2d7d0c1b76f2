"""A newcomer's first contact on Telegram, through the real python-telegram-bot Application and
the fake Bot API on 127.0.0.1: /start, the group greeting, the command menu, /help, "did you
mean", and inline mode."""

from __future__ import annotations

import re
from typing import Any

from bot import i18n
from bot.protocol import Request
from tests.telegram.harness import Env

GROUP = -1001


def to(chat_id: int) -> Any:
    return lambda p: int(p["chat_id"]) == chat_id


async def test_start_welcomes_in_a_group_when_addressed_and_in_private(env: Env) -> None:
    say = env.fake.message
    await env.fake.push(say("/start", chat_id=-1001))
    await env.fake.push(say("/start@WargameBot", chat_id=-1002))
    await env.fake.push(say("/start", chat_id=42, chat_type="private", language="it"))
    await env.fake.push(say("/start from-a-link", chat_id=43, chat_type="private", user_id=43))
    for chat in (-1001, -1002, 43):
        (sent,) = await env.fake.wait_for("sendMessage", to(chat))
        assert "<b>Welcome to the wargame table</b>" in sent["text"]
        assert "<code>/game new aos</code>" in sent["text"]
        assert "<code>/help</code>" in sent["text"]
        assert len(re.findall(r"^\d\. ", sent["text"], re.M)) == 5
    (italian,) = await env.fake.wait_for("sendMessage", to(42))
    assert "Benvenuti al tavolo di gioco" in italian["text"]
    assert "Tira i dadi" in italian["text"] and "Roll dice" not in italian["text"]


async def test_start_speaks_the_chats_language_before_the_users(env: Env) -> None:
    env.fake.admins[-1003] = [42]
    await env.fake.push(env.fake.message("/lang it", chat_id=-1003))
    await env.fake.wait_for("sendMessage", to(-1003))
    await env.fake.push(env.fake.message("/start", chat_id=-1003, user_id=43, language="en"))
    sent = await env.fake.wait_for("sendMessage", to(-1003), count=2)
    assert "Benvenuti" in sent[1]["text"]


async def test_added_to_a_group_the_bot_greets_once(env: Env) -> None:
    add = env.fake.bot_added
    await env.fake.push(add(chat_id=-1005, old="left", new="member", language="it"))
    await env.fake.push(add(chat_id=-1005, old="member", new="administrator"))  # a promotion
    await env.fake.push(add(chat_id=-1006, old="member", new="left"))  # removed elsewhere
    await env.fake.push(add(chat_id=-1007, old="kicked", new="administrator", language="en"))
    (greeting,) = await env.fake.wait_for("sendMessage", to(-1005))
    assert "Benvenuti al tavolo di gioco" in greeting["text"]
    assert "<code>/partita nuova aos</code>" in greeting["text"]  # typed in Italian
    (english,) = await env.fake.wait_for("sendMessage", to(-1007))
    assert "Welcome to the wargame table" in english["text"]
    await env.adapter.stop()  # every update received has now been handled
    assert [int(p["chat_id"]) for p in env.fake.sent()].count(-1005) == 1
    assert all(int(p["chat_id"]) != -1006 for p in env.fake.sent())
    polls = [p for m, p in env.fake.calls if m == "getUpdates"]
    assert {"my_chat_member", "inline_query", "chosen_inline_result"} <= set(
        polls[0]["allowed_updates"]
    )


async def test_command_menu_per_language_and_scope(env: Env) -> None:
    calls = [p for m, p in env.fake.calls if m == "setMyCommands"]
    menus = {(p.get("language_code"), p["scope"]["type"]): p["commands"] for p in calls}
    assert set(menus) == {
        (lang, scope)
        for lang in (None, "it")
        for scope in ("default", "all_private_chats", "all_group_chats")
    }
    groups = env.app.registry.groups()
    short_forms = sum(all(s.hidden for s in specs) for specs in groups.values())  # /lang
    for (_lang, scope), commands in menus.items():
        names = [c["command"] for c in commands]
        assert len(names) == len(set(names)) <= 100
        assert all(re.fullmatch(r"[a-z0-9_]{1,32}", n) for n in names)
        assert all(1 <= len(c["description"]) <= 256 for c in commands)
        # /start: private chats only; /lang is typed, the menu shows /settings
        expected = len(groups) - short_forms - (scope == "all_group_chats")
        assert len(commands) == expected
        for name in names:  # every listed name runs a command
            assert env.app.registry.canonical([name])[0] in groups
    private, group = menus[(None, "all_private_chats")], menus[(None, "all_group_chats")]
    assert [c["command"] for c in private[:3]] == ["start", "help", "roll"]
    assert "start" not in [c["command"] for c in group]
    described = {c["command"]: c["description"] for c in private}
    assert (
        described["aos"] == "Age of Sigmar 3: attacks, casting, prayers, charges, battleshock, odds"
    )
    assert described["wm"].startswith("WARMACHINE") and described["c5"].startswith("Confrontation")
    italian = {c["command"]: c["description"] for c in menus[("it", "all_private_chats")]}
    assert {"inizia", "aiuto", "tira", "regola", "partita", "aos"} <= set(italian)
    assert "roll" not in italian and italian["tira"] == "Tira dadi, mostra tiri precedenti"


async def test_help_lists_every_command_and_a_groups_subcommands(env: Env) -> None:
    await env.fake.push(env.fake.message("/help"))
    (overview,) = await env.fake.wait_for("sendMessage")
    for group, members in env.app.registry.groups().items():
        line = f"<b>/{group}</b> — {i18n.t('en', f'help.groups.{group}')}"
        # a text-only short form (/lang for /settings lang) is not listed
        assert (line in overview["text"]) is not all(s.hidden for s in members)
    await env.fake.push(env.fake.message("/help aos"))
    aos = (await env.fake.wait_for("sendMessage", count=2))[1]["text"]
    for spec in env.app.registry.groups()["aos"]:
        assert f"<b>/{spec.name}</b>" in aos
    assert aos.count("e.g. <code>/aos ") == len(env.app.registry.groups()["aos"])


async def test_unknown_commands_get_did_you_mean_without_spamming_groups(env: Env) -> None:
    say = env.fake.message
    await env.fake.push(say("/rol 2d6", chat_id=-1001))  # close to /roll: answered
    await env.fake.push(say("/game nwe wm", chat_id=-1002, language="it"))
    await env.fake.push(say("/ban Bob", chat_id=-1003))  # nobody's in particular: silence
    await env.fake.push(say("/ban@WargameBot Bob", chat_id=-1004))  # addressed to us
    await env.fake.push(say("/ban Bob", chat_id=42, chat_type="private"))
    (rol,) = await env.fake.wait_for("sendMessage", to(-1001))
    assert "Did you mean /roll?" in rol["text"]
    assert "Syntax: <code>/roll EXPRESSION…" in rol["text"]
    (nwe,) = await env.fake.wait_for("sendMessage", to(-1002))
    assert "Forse intendevi /partita nuova?" in nwe["text"] and "Sintassi:" in nwe["text"]
    (addressed,) = await env.fake.wait_for("sendMessage", to(-1004))
    assert "I don't know the command /ban" in addressed["text"]
    await env.fake.wait_for("sendMessage", to(42))
    await env.adapter.stop()
    assert all(int(p["chat_id"]) != -1003 for p in env.fake.sent())


async def test_inline_roll_is_made_when_chosen_and_kept_for_roll_show(env: Env) -> None:
    await env.fake.push(env.fake.inline_query("2d6+3 fire"))
    (answer,) = await env.fake.wait_for("answerInlineQuery")
    (article,) = answer["results"]
    assert article["type"] == "article" and article["id"] == "roll"
    assert article["title"] == "Roll 2d6+3 fire"
    placeholder = article["input_message_content"]["message_text"]
    assert "<b>Ann</b> rolls <code>2d6+3 fire</code>" in placeholder
    (button,) = article["reply_markup"]["inline_keyboard"][0]
    assert button["switch_inline_query_current_chat"] == "roll 2d6+3 fire"

    private = Request(platform="telegram", chat_key="telegram:42", user_id="42", user_name="Ann")
    history = await env.app.handle(private.model_copy(update={"text": "/roll history"}))
    assert history.data == {"rolls": []}  # nothing rolled by merely looking

    await env.fake.push(env.fake.chosen_inline_result("roll", "2d6+3 fire", inline_message_id="m7"))
    (edit,) = await env.fake.wait_for("editMessageText")
    assert edit["inline_message_id"] == "m7" and edit["parse_mode"] == "HTML"
    assert "fire" in edit["text"]
    assert "Kept in Ann's private chat with @WargameBot: /roll show" in edit["text"]
    again = edit["reply_markup"]["inline_keyboard"][0][0]
    assert again["switch_inline_query_current_chat"] == "roll 2d6+3 fire"

    history = await env.app.handle(private.model_copy(update={"text": "/roll history"}))
    assert history.data is not None
    (stored,) = history.data["rolls"]
    assert stored["expression"] == "2d6+3 fire"
    shown = await env.app.handle(private.model_copy(update={"text": f"/roll show {stored['id']}"}))
    assert shown.data is not None
    assert f"= <b>{shown.data['total']}</b>" in edit["text"]  # the same roll, shown again
    assert f"/roll show {stored['id']}" in edit["text"]


async def test_inline_rule_card_is_offered_as_is(env: Env) -> None:
    await env.fake.push(env.fake.inline_query("rule charge wm"))
    (answer,) = await env.fake.wait_for("answerInlineQuery")
    (card,) = answer["results"]
    assert card["id"].startswith("rule:") and len(card["id"].encode()) <= 64
    assert card["title"] == "Charge — WARMACHINE Mk II"
    text = card["input_message_content"]["message_text"]
    assert text.startswith("<b>Charge — WARMACHINE Mk II</b>")
    assert card["description"].startswith("The model moves up to SPD + 3")
    for row in card.get("reply_markup", {}).get("inline_keyboard", []):
        assert row[0]["switch_inline_query_current_chat"].startswith("rule ")

    await env.fake.push(env.fake.inline_query("regola carica wm", user_id=7, language="it"))
    italian = (await env.fake.wait_for("answerInlineQuery", count=2))[1]
    assert italian["results"][0]["title"].startswith("Carica — ")


async def test_inline_empty_or_bad_query_offers_a_hint_not_a_result(env: Env) -> None:
    await env.fake.push(env.fake.inline_query(""))
    await env.fake.push(env.fake.inline_query("roll 2d6+", user_id=8))
    await env.fake.push(env.fake.inline_query("zzqqxx wm", user_id=9))
    answers = await env.fake.wait_for("answerInlineQuery", count=3)
    assert all(a["results"] == [] for a in answers)
    buttons = sorted(a["button"]["text"] for a in answers)
    assert any("Type a roll (2d6+3)" in b for b in buttons)
    assert any("not a dice expression" in b for b in buttons)
    assert any("found nothing" in b for b in buttons)
    assert all(a["button"]["start_parameter"] == "inline" for a in answers)


async def test_chosen_result_without_a_message_to_edit_rolls_nothing(env: Env) -> None:
    await env.fake.push(env.fake.chosen_inline_result("roll", "d6", inline_message_id=None))
    await env.fake.push(env.fake.message("/roll d4 marker"))
    await env.fake.wait_for("sendMessage")
    await env.adapter.stop()
    assert "editMessageText" not in env.fake.methods()
    private = Request(
        platform="telegram",
        chat_key="telegram:42",
        user_id="42",
        user_name="Ann",
        text="/roll history",
    )
    assert (await env.app.handle(private)).data == {"rolls": []}
