"""The live board's core (bot/commands/board_live.py) through the dispatcher: which changes
edit the board message, how edits are coalesced (a driven clock and timer, nothing sleeps),
a deleted message, a restart, and the stored id on both database backends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app import App
from bot.protocol import Reply, Request
from bot.render.plain import render
from bot.storage import boards
from tests.board.timers import Editor, Timers

CHAT = "telegram:-1001"


async def say(app: App, text: str, **kw: Any) -> Reply:
    """A command typed in the Telegram group CHAT (its board is a live one)."""
    request = Request(
        platform="telegram",
        chat_key=kw.get("chat", CHAT),
        user_id=kw.get("user", "u1"),
        user_name=kw.get("name") or kw.get("user", "u1"),
        admin=kw.get("admin", False),
        lang=kw.get("lang"),
        text=text,
    )
    reply = await app.handle(request)
    await app.boards.drain()  # the edit it started, if any, is done
    return reply


async def started(app: App, timers: Timers, editor: Editor) -> None:
    timers.drive(app.boards)
    app.boards.attach("telegram", editor)
    await say(app, "/game new gen Skirmish", chat=CHAT, user="u1", name="Ann")
    await say(app, "/unit add Guards wounds=10", chat=CHAT, user="u1")
    board = await say(app, "/game board", chat=CHAT, user="u1")
    assert board.ok and "Guards" in render(board)
    await app.boards.posted(CHAT, "777", board)


async def test_a_unit_damaged_edits_the_posted_board(app: App) -> None:
    timers, editor = Timers(), Editor()
    await started(app, timers, editor)
    await say(app, "/unit damage Guards 3", chat=CHAT, user="u1")
    await timers.advance(app.boards.every, app.boards)  # the first change waits its turn
    (edit,) = editor.edits
    assert edit[:2] == (CHAT, "777")
    text = render(edit[2])
    assert "7/10" in text and "Live board" in text


async def test_a_command_that_changes_nothing_edits_nothing(app: App) -> None:
    timers, editor = Timers(), Editor()
    await started(app, timers, editor)
    await timers.advance(60, app.boards)
    for text in ("/roll 2d6", "/game status", "/unit list", "/odds 2d6"):
        assert (await say(app, text, chat=CHAT, user="u1")).ok
    await timers.advance(60, app.boards)
    assert editor.edits == [] and timers.waiting() == []


async def test_a_burst_of_changes_is_coalesced_and_ends_on_the_last_state(app: App) -> None:
    timers, editor = Timers(), Editor()
    await started(app, timers, editor)
    await timers.advance(60, app.boards)  # a quiet spell since the board was posted
    await say(app, "/unit damage Guards 1", chat=CHAT, user="u1")
    await app.boards.drain()
    assert len(editor.edits) == 1 and "9/10" in render(editor.edits[0][2])  # at once
    for _ in range(4):  # four more within the next seconds: one edit waits for them all
        await say(app, "/unit damage Guards 1", chat=CHAT, user="u1")
    await app.boards.drain()
    assert len(editor.edits) == 1 and len(timers.waiting()) == 1
    await timers.advance(app.boards.every - 0.001, app.boards)
    assert len(editor.edits) == 1  # not yet: at most one edit per `every` seconds
    await timers.advance(0.001, app.boards)
    assert len(editor.edits) == 2 and "5/10" in render(editor.edits[1][2])
    await timers.advance(60, app.boards)
    assert len(editor.edits) == 2  # nothing left to show


async def test_a_batch_and_undo_are_changes_too(app: App) -> None:
    timers, editor = Timers(), Editor()
    await started(app, timers, editor)
    await timers.advance(60, app.boards)
    batch = "/unit damage Guards 2\n/unit damage Guards 2"
    assert (await say(app, batch, chat=CHAT, user="u1")).ok
    await app.boards.drain()
    assert "6/10" in render(editor.edits[-1][2])
    await timers.advance(60, app.boards)
    assert (await say(app, "/undo", chat=CHAT, user="u1")).ok
    await app.boards.drain()
    assert "8/10" in render(editor.edits[-1][2])


async def test_the_board_follows_the_chat_language(app: App) -> None:
    timers, editor = Timers(), Editor()
    await started(app, timers, editor)
    await timers.advance(60, app.boards)
    await say(app, "/lang it", chat=CHAT, user="u1", admin=True)
    await say(app, "/unit damage Guards 3", chat=CHAT, user="u1")
    await app.boards.drain()
    text = render(editor.edits[-1][2])
    assert "Tabellone in diretta" in text and "Live board" not in text


async def test_the_game_ended_shows_its_final_board(app: App) -> None:
    timers, editor = Timers(), Editor()
    await started(app, timers, editor)
    await timers.advance(60, app.boards)
    await say(app, "/game end", chat=CHAT, user="u1")
    await app.boards.drain()
    assert "final board" in render(editor.edits[-1][2])


async def test_a_deleted_message_is_forgotten_and_posted_again(app: App) -> None:
    timers, editor = Timers(), Editor(result="gone")
    await started(app, timers, editor)
    await timers.advance(60, app.boards)
    await say(app, "/unit damage Guards 1", chat=CHAT, user="u1")
    await app.boards.drain()
    assert len(editor.edits) == 1
    async with app.db.transaction(write=False) as conn:
        assert await boards.get(conn, CHAT) is None
    editor.result = "ok"
    await timers.advance(60, app.boards)
    await say(app, "/unit damage Guards 1", chat=CHAT, user="u1")
    await app.boards.drain()
    assert len(editor.edits) == 1  # no board to edit until one is posted again
    again = await say(app, "/game board", chat=CHAT, user="u1")
    await app.boards.posted(CHAT, "778", again)
    await timers.advance(60, app.boards)
    await say(app, "/unit damage Guards 1", chat=CHAT, user="u1")
    await app.boards.drain()
    assert editor.edits[-1][1] == "778" and "7/10" in render(editor.edits[-1][2])


async def test_a_failed_edit_is_tried_again_with_the_next_change(app: App) -> None:
    timers, editor = Timers(), Editor(result="failed")
    await started(app, timers, editor)
    await timers.advance(60, app.boards)
    await say(app, "/unit damage Guards 1", chat=CHAT, user="u1")
    assert len(editor.edits) == 1 and len(timers.waiting()) == 1  # tried again in a while
    await timers.advance(app.boards.every, app.boards)
    assert len(editor.edits) == 2 and not timers.waiting()  # failed again: no loop
    editor.result = "ok"
    await timers.advance(60, app.boards)
    await say(app, "/unit damage Guards 1", chat=CHAT, user="u1")
    assert len(editor.edits) == 3 and "8/10" in render(editor.edits[-1][2])


async def test_after_a_restart_the_same_message_is_edited(tmp_path: Path) -> None:
    db = tmp_path / "restart.sqlite3"
    first = App(db)
    await first.start()
    timers, editor = Timers(), Editor()
    try:
        await started(first, timers, editor)
    finally:
        await first.stop()
    second = App(db)
    await second.start()
    try:
        again, editor2 = Timers(), Editor()
        again.drive(second.boards)
        second.boards.attach("telegram", editor2)
        await say(second, "/unit damage Guards 4", chat=CHAT, user="u1")
        await second.boards.drain()
        (edit,) = editor2.edits
        assert edit[1] == "777" and "6/10" in render(edit[2])
    finally:
        await second.stop()


async def test_posting_without_a_game_stores_nothing(app: App) -> None:
    await app.boards.posted(CHAT, "1", Reply())
    async with app.db.transaction(write=False) as conn:
        assert await boards.get(conn, CHAT) is None


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_board_command_without_a_game_is_one_sentence(app: App, lang: str) -> None:
    reply = await say(app, "/game board", chat=CHAT, lang=lang)
    assert not reply.ok and reply.error is not None
    assert "Traceback" not in reply.error.message


async def test_the_board_id_is_stored_replaced_and_forgotten(db_target: Path | str) -> None:
    app = App(db_target)
    await app.start()
    try:
        await say(app, "/game new gen", chat=CHAT, user="u1")
        board = await say(app, "/game board", chat=CHAT, lang="it")
        await app.boards.posted(CHAT, "10", board)
        await app.boards.posted(CHAT, "11", board)  # a new /game board: the newer message
        async with app.db.transaction(write=False) as conn:
            found = await boards.get(conn, CHAT)
        assert found is not None and (found.message_id, found.lang) == ("11", "it")
        async with app.db.transaction() as conn:
            await boards.forget(conn, CHAT, "10")  # an older message: the board stays
        async with app.db.transaction(write=False) as conn:
            assert await boards.get(conn, CHAT) is not None
        async with app.db.transaction() as conn:
            await boards.forget(conn, CHAT, "11")
        async with app.db.transaction(write=False) as conn:
            assert await boards.get(conn, CHAT) is None
    finally:
        await app.stop()


async def test_the_console_shows_the_board_without_keeping_it(app: App) -> None:
    await say(app, "/game new gen", chat="console:x")
    request = Request(
        platform="console", chat_key="console:x", user_id="u1", user_name="u1", text="/game board"
    )
    reply = await app.handle(request)
    assert reply.ok and not reply.live_board and "Live board" not in render(reply)
