"""Personal macros through the dispatcher on a real database: /save NAME COMMAND, /NAME runs it
(with words added), a "repeat" button, list and delete, each user's own in each chat."""

from __future__ import annotations

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

CHAT = "telegram:-950"


def ok(reply: Reply) -> Reply:
    assert reply.error is None, plain.render(reply)
    return reply


async def test_save_then_run_by_name_with_a_repeat_button(app: App) -> None:
    saved = ok(await say(app, "/save fire /roll 2d6+3 fire", user="1", chat=CHAT))
    assert saved.data == {"name": "fire", "command": "/roll 2d6+3 fire", "replaced": False}
    reply = ok(await say(app, "/fire", user="1", chat=CHAT, seed=7))
    assert reply.command == "roll" and reply.data is not None
    assert reply.data["expression"] == "2d6 + 3" and reply.data["rolls"][0]["label"] == "fire"
    repeat = [b for b in reply.buttons if b.label == "Repeat"]
    assert [b.command for b in repeat] == ["/roll 2d6+3 fire"]
    again = ok(await say(app, repeat[0].command, user="1", chat=CHAT))
    assert again.data is not None and again.data["id"] == reply.data["id"] + 1


async def test_words_after_the_name_are_added_to_its_command(app: App) -> None:
    ok(await say(app, "/save hits /roll 10d6>=4", user="1", chat=CHAT))
    reply = ok(await say(app, "/hits dice=1,2,3,4,5,6,4,4,4,4", user="1", chat=CHAT))
    assert reply.data is not None and reply.data["successes"] == 7


async def test_macros_are_each_users_own_in_each_chat(app: App) -> None:
    ok(await say(app, "/save fire /roll 1d6", user="1", chat=CHAT))
    other = await say(app, "/fire", user="2", chat=CHAT)
    assert other.error is not None and other.error.code.startswith("cmd.unknown")
    elsewhere = await say(app, "/fire", user="1", chat="telegram:-951")
    assert elsewhere.error is not None
    assert ok(await say(app, "/macro list", user="2", chat=CHAT)).data == {"macros": []}


async def test_list_replace_and_delete(app: App) -> None:
    ok(await say(app, "/save fire /roll 1d6", user="1", chat=CHAT))
    replaced = ok(await say(app, "/macro save fire /roll 2d6", user="1", chat=CHAT))
    assert replaced.data is not None and replaced.data["replaced"] is True
    ok(await say(app, "/salva arc /odds 3d6", user="1", chat=CHAT))
    listing = ok(await say(app, "/macro list", user="1", chat=CHAT))
    assert listing.data == {
        "macros": [
            {"name": "arc", "command": "/odds 3d6"},
            {"name": "fire", "command": "/roll 2d6"},
        ]
    }
    ok(await say(app, "/macro delete fire", user="1", chat=CHAT))
    gone = await say(app, "/fire", user="1", chat=CHAT)
    assert gone.error is not None
    missing = await say(app, "/macro delete fire", user="1", chat=CHAT)
    assert missing.error is not None and missing.error.code == "macro.not_found"


async def test_bad_macros_are_refused_with_the_syntax(app: App) -> None:
    cases = {
        "/save roll /roll 1d6": "macro.taken",  # a command of the bot's
        "/save tira /roll 1d6": "macro.taken",  # ... or one of its aliases
        "/save fire! /roll 1d6": "macro.bad_name",
        "/save fire /rolll 1d6": "cmd.unknown_hint",  # the command must exist
        "/save fire /roll 1d6 dice=x": "cmd.bad_faces",  # ... and its options parse
        "/save fire /macro delete x": "macro.not_a_macro",
    }
    for text, key in cases.items():
        reply = await say(app, text, user="1", chat=CHAT)
        assert reply.error is not None, text
        assert reply.error.code.startswith(key.split(".")[0]), (text, reply.error.code)
    refused = await say(app, "/save fire! /roll 1d6", user="1", chat=CHAT, lang="it")
    text = plain.render(refused)
    assert "Sintassi: /salva NOME COMANDO" in text  # the syntax in the reader's words
    assert not foreign_words("it", refused.error.message if refused.error else "")
    assert ok(await say(app, "/macro list", user="1", chat=CHAT)).data == {"macros": []}


async def test_a_macro_inside_a_batch_and_on_discords_run(app: App) -> None:
    ok(await say(app, "/save fire /roll 1d6 fire", user="1", chat=CHAT))
    reply = ok(await say(app, "/fire\n/roll 1d4", user="1", chat=CHAT))
    assert reply.data is not None and [e["command"] for e in reply.data["lines"]] == ["roll"] * 2
    run = ok(await say(app, "/macro run fire", user="1", chat=CHAT))
    assert run.data is not None and run.data["rolls"][0]["label"] == "fire"
    missing = await say(app, "/macro run nope", user="1", chat=CHAT)
    assert missing.error is not None and missing.error.code == "macro.not_found"
