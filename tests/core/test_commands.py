"""The core commands through the registry and a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import App
from bot.commands import all_specs
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec
from bot.protocol import Reply
from bot.render import plain
from tests.helpers import say


async def test_roll_with_the_players_dice_is_logged_and_shown_again(app: App) -> None:
    reply = await say(app, "/roll 2d6+3 fire damage dice=4,6", name="Ann")
    assert reply.ok, reply.error
    assert reply.data is not None
    assert reply.data["total"] == 13
    assert reply.data["dice"] == [{"sides": 6, "faces": [4, 6], "kept": [True, True]}]
    assert reply.data["seed"] is None
    text = plain.render(reply)
    assert "fire damage" in text and "13" in text and "Ann" in text
    assert reply.buttons[0].command == "/roll 2d6+3 fire damage"

    shown = await say(app, f"/roll show {reply.data['id']}")
    assert shown.ok and shown.data is not None
    assert shown.data["total"] == 13 and shown.data["dice"] == reply.data["dice"]

    other_chat = await say(app, f"/roll show {reply.data['id']}", chat="console:other")
    assert other_chat.error is not None and other_chat.error.code == "roll.not_found"


async def test_seeded_roll_is_reproducible(app: App) -> None:
    a = await say(app, "/roll 10d6>=4", seed=5)
    b = await say(app, "/roll 10d6>=4", seed=5)
    assert a.data is not None and b.data is not None
    assert a.data["dice"] == b.data["dice"]
    faces = a.data["dice"][0]["faces"]
    assert a.data["successes"] == sum(f >= 4 for f in faces) == a.data["total"]


async def test_history_lists_latest_first_and_is_per_chat(app: App) -> None:
    for expr in ("d4", "d6", "d8"):
        await say(app, f"/roll {expr}")
    await say(app, "/roll d20", chat="console:other")
    reply = await say(app, "/roll history 2")
    assert reply.data is not None
    assert [r["expression"] for r in reply.data["rolls"]] == ["d8", "d6"]
    empty = await say(app, "/roll history", chat="console:nobody")
    assert empty.data == {"rolls": []}


async def test_odds_reply_has_mean_table_and_histogram(app: App) -> None:
    reply = await say(app, "/odds 2d6")
    assert reply.ok and reply.data is not None
    assert abs(reply.data["mean"] - 7.0) < 1e-12
    text = plain.render(reply)
    assert "7.00" in text and "P(≥k)" in text and "█" in text
    assert "2.42" in text  # sd of 2d6 = sqrt(35/6)


async def test_bad_expression_is_one_localized_sentence_with_syntax(app: App) -> None:
    en = await say(app, "/roll 2d6+")
    it = await say(app, "/roll 2d6+", lang="it")
    assert en.error is not None and it.error is not None
    assert en.error.code == it.error.code
    assert en.error.message != it.error.message
    assert en.ephemeral
    assert "Syntax: /roll EXPRESSION…" in plain.render(en)
    assert "Sintassi:" in plain.render(it)


async def test_lang_is_admin_only_and_switches_the_chat(app: App) -> None:
    refused = await say(app, "/lang it")
    assert refused.error is not None and refused.error.code == "perm.admin_only"
    done = await say(app, "/lang it", admin=True)
    assert done.ok and "italiano" in plain.render(done)
    reply = await say(app, "/roll 2d")
    assert reply.error is not None and "Sintassi" in plain.render(reply)
    english_elsewhere = await say(app, "/roll 2d", chat="console:other")
    assert "Syntax" in plain.render(english_elsewhere)


async def test_client_locale_is_used_when_the_chat_has_no_setting(app: App) -> None:
    reply = await say(app, "/help", locale="it-IT")
    assert reply.title == "Comandi"


async def test_help_lists_groups_and_explains_one_command(app: App) -> None:
    overview = plain.render(await say(app, "/help"))
    assert "/roll" in overview and "/odds" in overview
    detail = await say(app, "/help roll")
    assert detail.title == "/roll"
    assert "dice" in plain.render(detail)
    unknown = await say(app, "/help nothing")
    assert unknown.error is not None and unknown.error.code == "help.unknown"


async def test_internal_error_is_logged_with_an_id_never_a_traceback(tmp_path: Path) -> None:
    async def broken(ctx: object) -> Reply:
        raise ZeroDivisionError("oops")

    registry = Registry([*all_specs(), CommandSpec(path=("broken",), handler=broken)])
    app = App(tmp_path / "b.sqlite3", registry=registry)
    await app.start()
    try:
        reply = await say(app, "/broken")
    finally:
        await app.stop()
    assert reply.error is not None and reply.error.code == "internal"
    text = plain.render(reply)
    assert "Traceback" not in text and "ZeroDivisionError" not in text
    assert "error id" in text


async def test_an_option_error_in_text_form_shows_the_commands_syntax(app: App) -> None:
    """Missing, unknown or bad options are answered with one sentence and the command's own
    syntax, as Discord's structured options already were; an unknown command has no syntax."""
    for text, key, typed in [
        ("/rule", "cmd.missing_option", "/regola"),  # the syntax as an Italian reader types it
        ("/wm settings roll_autohit=maybe", "cmd.bad_choice", "/wm"),
        ("/aos settings rend_cap=on", "cmd.unknown_option_like", "/aos"),
    ]:
        reply = await say(app, text, lang="it")
        assert reply.error is not None and reply.error.code == key, reply.error
        lines = plain.render(reply).splitlines()
        assert len(lines) == 2 and lines[1].startswith(f"Sintassi: {typed} "), lines
    unknown = await say(app, "/nope")
    assert unknown.error is not None and len(plain.render(unknown).splitlines()) == 1


@pytest.mark.parametrize(
    ("text", "lang", "change"),
    [("/lang", "en", "/lang en"), ("/lingua", "it", "/lingua it"),
     ("/settings images", "en", "/settings images off"), ("/impostazioni immagini", "it",
                                                        "/impostazioni immagini no")],
)  # fmt: skip
async def test_anyone_sees_a_chat_setting_only_an_admin_changes_it(
    app: App, text: str, lang: str, change: str
) -> None:
    """Found walking as a new player: `/lingua` alone (which only shows the language) answered
    "only a chat admin can do that" to a player."""
    chat = f"console:see-{lang}-{text[1:4]}"
    if lang == "it":
        assert (await say(app, "/lang it", chat=chat, admin=True)).ok
    seen = await say(app, text, chat=chat, lang=lang)
    assert seen.ok, seen.error
    changed = await say(app, change, chat=chat, lang=lang)
    assert changed.error is not None and changed.error.code == "perm.admin_only"
    assert plain.render(seen) == plain.render(await say(app, text, chat=chat, lang=lang))
