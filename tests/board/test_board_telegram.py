"""The live board on Telegram end to end: the real python-telegram-bot Application against the
fake Bot API. The board is posted and pinned, a change edits that message (editMessageText,
no new message), a burst is coalesced, a restart keeps editing it, a deleted one is forgotten.
The coalescing clock and timer are driven by the test (tests/board/timers.py)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.adapters.telegram import TelegramAdapter
from bot.app import App
from tests.board.timers import Timers
from tests.telegram.fake_bot_api import FakeBotAPI
from tests.telegram.harness import settings_for

CHAT = -1001
ORGANISER = 42  # FakeBotAPI.message's default user


@asynccontextmanager
async def bot(fake: FakeBotAPI, db: Path, timers: Timers) -> AsyncIterator[App]:
    app = App(db)
    await app.start()
    timers.drive(app.boards)
    adapter = TelegramAdapter(app, settings_for(fake, db), poll_timeout=1)
    await adapter.start()
    try:
        yield app
    finally:
        await adapter.stop()
        await app.stop()


def posts(fake: FakeBotAPI) -> list[dict[str, Any]]:
    """Every message posted (text or photo), `text` being a photo's caption."""
    found = [(m, p) for m, p in fake.calls if m in ("sendMessage", "sendPhoto")]
    return [{**p, "text": p.get("text") or p.get("caption") or ""} for _, p in found]


async def command(fake: FakeBotAPI, app: App, text: str, **kw: Any) -> None:
    """Send one command and wait for its answer (and the board edit it started)."""
    before = len(posts(fake))
    await fake.push(fake.message(text, chat_id=CHAT, **kw))
    async with fake._changed:  # the answer: a message, or a photo with its caption
        await asyncio.wait_for(fake._changed.wait_for(lambda: len(posts(fake)) > before), 60)
    await app.boards.drain()


def edits(fake: FakeBotAPI) -> list[dict[str, Any]]:
    """The board's edits: its new card and caption (editMessageMedia) or its text."""
    out = []
    for method, params in fake.calls:
        if method == "editMessageMedia":
            media = params["media"]
            media = json.loads(media) if isinstance(media, str) else media
            out.append(
                {
                    **params,
                    "text": media.get("caption") or "",
                    "parse_mode": media.get("parse_mode"),
                }
            )
        elif method == "editMessageText":
            out.append(params)
    return out


async def post_board(fake: FakeBotAPI, app: App, text: str = "/game board", **kw: Any) -> int:
    pins = len(fake.sent("pinChatMessage"))
    await command(fake, app, text, **kw)
    pinned = await fake.wait_for("pinChatMessage", count=pins + 1)
    board = posts(fake)[-1]
    assert "Live board" in board["text"] or "Tabellone in diretta" in board["text"]
    assert pinned[-1]["disable_notification"] in (True, "true", "True")
    return int(pinned[-1]["message_id"])


async def test_damage_edits_the_pinned_board_and_posts_no_new_board(tmp_path: Path) -> None:
    fake, timers = FakeBotAPI(), Timers()
    await fake.start()
    try:
        async with bot(fake, tmp_path / "tg.sqlite3", timers) as app:
            await command(fake, app, "/game new gen Skirmish")
            await command(fake, app, "/unit add Guards wounds=10")
            board_id = await post_board(fake, app)
            await timers.advance(60, app.boards)
            await command(fake, app, "/unit damage Guards 3")
            (edit,) = edits(fake)
            assert int(edit["message_id"]) == board_id and int(edit["chat_id"]) == CHAT
            assert "7/10" in edit["text"] and edit["parse_mode"] == "HTML"
            boards = [m for m in posts(fake) if "Live board" in m["text"]]
            assert len(boards) == 1  # the damage's answer is no second board
    finally:
        await fake.stop()


async def test_a_burst_of_five_changes_is_coalesced(tmp_path: Path) -> None:
    fake, timers = FakeBotAPI(), Timers()
    await fake.start()
    try:
        async with bot(fake, tmp_path / "tg.sqlite3", timers) as app:
            await command(fake, app, "/game new gen")
            await command(fake, app, "/unit add Guards wounds=10")
            board_id = await post_board(fake, app)
            await timers.advance(60, app.boards)
            for _ in range(5):
                await command(fake, app, "/unit damage Guards 1")
            assert len(edits(fake)) == 1 and "9/10" in edits(fake)[0]["text"]  # the first at once
            await timers.advance(app.boards.every, app.boards)  # the rest wait for one edit
            assert len(edits(fake)) == 2
            assert {int(e["message_id"]) for e in edits(fake)} == {board_id}
            assert "5/10" in edits(fake)[-1]["text"]  # the last state is the one shown
    finally:
        await fake.stop()


async def test_after_a_restart_the_same_message_is_edited(tmp_path: Path) -> None:
    fake, timers = FakeBotAPI(), Timers()
    db = tmp_path / "tg.sqlite3"
    await fake.start()
    try:
        async with bot(fake, db, timers) as app:
            await command(fake, app, "/game new gen")
            await command(fake, app, "/unit add Guards wounds=10")
            board_id = await post_board(fake, app)
        async with bot(fake, db, Timers()) as app:
            await command(fake, app, "/unit damage Guards 2")
            (edit,) = edits(fake)
            assert int(edit["message_id"]) == board_id and "8/10" in edit["text"]
    finally:
        await fake.stop()


async def test_a_deleted_board_is_forgotten_quietly_and_posted_again(tmp_path: Path) -> None:
    fake, timers = FakeBotAPI(), Timers()
    await fake.start()
    try:
        async with bot(fake, tmp_path / "tg.sqlite3", timers) as app:
            await command(fake, app, "/game new gen", language="it")
            await command(fake, app, "/unit add Guards wounds=10", language="it")
            first = await post_board(fake, app, "/partita tabellone", language="it")
            gone = {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: message to edit not found",
            }
            fake.fail_next("editMessageMedia", 400, gone)
            await timers.advance(60, app.boards)
            sent = len(posts(fake))
            await command(fake, app, "/unit damage Guards 1", language="it")
            assert len(posts(fake)) == sent + 1  # only the command's answer: no error message
            await timers.advance(60, app.boards)
            await command(fake, app, "/unit damage Guards 1", language="it")
            assert len(edits(fake)) == 1  # forgotten: not edited again
            second = await post_board(fake, app, "/partita tabellone", language="it")
            assert second != first
            await timers.advance(60, app.boards)
            await command(fake, app, "/unit damage Guards 1", language="it")
            assert int(edits(fake)[-1]["message_id"]) == second
            assert "7/10" in edits(fake)[-1]["text"]
            assert "Tabellone in diretta" in edits(fake)[-1]["text"]
    finally:
        await fake.stop()


async def test_no_right_to_pin_is_no_error(tmp_path: Path) -> None:
    fake, timers = FakeBotAPI(), Timers()
    await fake.start()
    try:
        async with bot(fake, tmp_path / "tg.sqlite3", timers) as app:
            await command(fake, app, "/game new gen")
            refused = {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: not enough rights to manage pinned messages",
            }
            fake.fail_next("pinChatMessage", 400, refused)
            board_id = await post_board(fake, app)
            await timers.advance(60, app.boards)
            await command(fake, app, "/unit add Guards wounds=4")
            (edit,) = edits(fake)
            assert int(edit["message_id"]) == board_id and "Guards" in edit["text"]
    finally:
        await fake.stop()


async def test_the_board_is_a_photo_with_its_card(tmp_path: Path) -> None:
    fake, timers = FakeBotAPI(), Timers()
    await fake.start()
    try:
        async with bot(fake, tmp_path / "tg.sqlite3", timers) as app:
            await command(fake, app, "/game new gen")
            await command(fake, app, "/unit add Guards wounds=10")
            await post_board(fake, app)
            (photo,) = fake.sent("sendPhoto")
            assert photo["photo"]["filename"] == "board.png" and "Guards" in photo["caption"]
            await timers.advance(60, app.boards)
            await command(fake, app, "/unit damage Guards 3")
            (edit,) = fake.sent("editMessageMedia")
            assert edit["media"] and any(
                isinstance(v, dict) and v.get("content", b"").startswith(b"\x89PNG")
                for v in edit.values()
            )
    finally:
        await fake.stop()


async def test_a_board_longer_than_a_caption_keeps_its_photo_current(tmp_path: Path) -> None:
    """A board whose text is longer than a photo caption goes out as its text, then its card
    without caption: an edit updates both messages (the text and the card), not the text
    alone with the card left showing the old state."""
    fake, timers = FakeBotAPI(), Timers()
    await fake.start()
    try:
        async with bot(fake, tmp_path / "tg.sqlite3", timers) as app:
            await command(fake, app, "/game new gen")
            army = "\n".join(f"Guardia reale della marca n. {i:02} wounds=10" for i in range(30))
            await command(fake, app, "/army add\n" + army)
            board_id = await post_board(fake, app)
            (photo,) = await fake.wait_for("sendPhoto", count=1)
            assert "caption" not in photo or not photo["caption"]  # the text went first
            card_id = fake._message_id  # the card is the last message posted
            await timers.advance(60, app.boards)
            await command(fake, app, "/unit damage «Guardia reale della marca n. 07» 3")
            # the card's id may have been stored after the advance: its edit then waits
            await timers.advance(app.boards.every, app.boards)
            text_edits = fake.sent("editMessageText")
            media_edits = fake.sent("editMessageMedia")
            assert [int(e["message_id"]) for e in text_edits] == [board_id]
            assert "7/10" in text_edits[0]["text"]
            assert [int(e["message_id"]) for e in media_edits] == [card_id]
            (new_card,) = [
                v for v in media_edits[0].values() if isinstance(v, dict) and "content" in v
            ]
            assert new_card["content"].startswith(b"\x89PNG")
            assert new_card["content"] != photo["photo"]["content"]  # the new state's card
    finally:
        await fake.stop()
