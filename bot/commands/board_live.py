"""The live board: each chat's one board message, edited in place after every change.

How it flows. `/game board` answers with a reply marked `live_board`; the adapter posts it as a
message of its own, pins it if it may, and calls `posted(chat, message id, reply)`, which stores
the id with the game (bot/storage/boards.py), so a restarted bot edits the same message.
After a command that wrote the chat's game commits (`Context.game_changed`, set by the one write
path in bot/session.py), the dispatcher calls `changed(chat)`. The board is then redrawn from
the game as stored and handed to the platform's `BoardEditor` (each adapter `attach`es one);
adapters never touch storage for it.

Coalescing: at most one edit per chat every `every` seconds. The first change after a quiet
spell is shown at once; changes within the next `every` seconds wait for one edit at its end,
which draws the state of that moment, so the last state is always the one shown. An edit that
would show what the message already shows is skipped. Time comes from `clock` and delayed edits
are scheduled with `timer` (the event loop's `call_later` by default): tests inject both.

A message deleted on the platform (the edit answers "not found") is forgotten quietly; the
next `/game board` posts a new one. Any other failure (the platform's flood limit, a network
error) is tried once more `every` seconds later, and again with the next change.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from collections.abc import Callable
from datetime import datetime
from typing import Literal, Protocol

from bot import i18n
from bot.protocol import Attachment, Reply
from bot.storage import boards, games
from bot.storage import settings as settings_repo
from bot.storage.db import Database
from bot.workers import WorkerPool
from rules_core.game.models import GameState

log = logging.getLogger(__name__)

EDIT_EVERY = 5.0  # seconds: at most one edit of a chat's board in this time
EditResult = Literal["ok", "gone", "failed"]


class BoardEditor(Protocol):
    """What an adapter does for the live board: replace the message's content with `reply`.
    "gone" when the platform says the message no longer exists, "failed" for anything else
    (logged; the next change tries again)."""

    async def edit_board(self, chat_key: str, message_id: str, reply: Reply) -> EditResult: ...


class Handle(Protocol):
    def cancel(self) -> None: ...


Timer = Callable[[float, Callable[[], None]], Handle]


def loop_timer(delay: float, fn: Callable[[], None]) -> Handle:
    return asyncio.get_running_loop().call_later(delay, fn)


def digest(reply: Reply) -> str:
    """What a board message shows, in short: an edit to the same is skipped."""
    shown = hashlib.blake2s(reply.model_dump_json(include={"title", "blocks", "fields"}).encode())
    for picture in reply.attachments:  # the same facts draw the same bytes
        shown.update(picture.content)
    return shown.hexdigest()


def platform_of(chat_key: str) -> str:
    return chat_key.split(":", 1)[0]


class LiveBoards:
    def __init__(
        self,
        db: Database,
        wall: Callable[[], datetime],
        *,
        clock: Callable[[], float] = time.monotonic,
        timer: Timer = loop_timer,
        every: float = EDIT_EVERY,
        pool: WorkerPool | None = None,
    ) -> None:
        self.db = db
        self.pool = pool  # draws the board card (None: text only)
        self.wall = wall  # the date stored with a board
        self.clock = clock
        self.timer = timer
        self.every = every
        self.editors: dict[str, BoardEditor] = {}
        self.last: dict[str, float] = {}  # when each chat's board was last drawn
        self.waiting: dict[str, Handle | None] = {}  # chats with an edit to come (None: at once)
        self.shown: dict[str, str] = {}  # a digest of what each board message shows
        self.tasks: set[asyncio.Task[None]] = set()
        self.retried: set[str] = set()  # chats whose last edit failed and was tried again

    def attach(self, platform: str, editor: BoardEditor) -> None:
        self.editors[platform] = editor

    def detach(self, platform: str) -> None:
        self.editors.pop(platform, None)

    async def posted(self, chat_key: str, message_id: str, reply: Reply) -> None:
        """The adapter posted the chat's board `reply` as `message_id`: edit that message from
        now on."""
        lang = str((reply.data or {}).get("lang") or i18n.DEFAULT_LANG)
        async with self.db.transaction() as conn:
            game = await games.active(conn, chat_key)
            if game is None:  # ended meanwhile: nothing left to keep up to date
                return
            await boards.put(conn, chat_key, game.id, message_id, lang, self.wall())
        self.last[chat_key] = self.clock()  # just drawn: the next change counts from here
        self.shown[chat_key] = digest(reply)

    def changed(self, chat_key: str) -> None:
        """The chat's game was written (and committed): refresh its board, coalesced."""
        if platform_of(chat_key) not in self.editors or chat_key in self.waiting:
            return  # no platform to edit on, or an edit to come will draw this state too
        wait = self.last.get(chat_key, -math.inf) + self.every - self.clock()
        if wait <= 0:
            self.waiting[chat_key] = None
            self._start(chat_key)
        else:
            self.waiting[chat_key] = self.timer(wait, lambda: self._start(chat_key))

    def _start(self, chat_key: str) -> None:
        task = asyncio.get_running_loop().create_task(self.refresh(chat_key))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def refresh(self, chat_key: str) -> None:
        """Draw the chat's board as its game is now and edit the message. Never raises."""
        self.waiting.pop(chat_key, None)
        try:
            await self._refresh(chat_key)
        except Exception:
            log.exception("live board of %s not refreshed", chat_key)

    async def _refresh(self, chat_key: str) -> None:
        editor = self.editors.get(platform_of(chat_key))
        if editor is None:
            return
        async with self.db.transaction(write=False) as conn:
            board = await boards.get(conn, chat_key)
            if board is None:
                return
            chat = await settings_repo.chat_lang(conn, chat_key)
            pictures = await settings_repo.chat_images(conn, chat_key)
        from bot.commands.board import board_reply  # the game views load when a board is drawn

        lang = i18n.normalize_lang(chat) or i18n.normalize_lang(board.lang) or i18n.DEFAULT_LANG
        reply = board_reply(lang, board.game, live=True)
        if pictures and self.pool is not None:
            reply = await self.with_card(reply, board.game.state, lang)
        drawn = digest(reply)
        if self.shown.get(chat_key) == drawn:
            return
        self.last[chat_key] = self.clock()  # an edit: the next waits `every` seconds
        result = await editor.edit_board(chat_key, board.message_id, reply)
        if result == "ok":
            self.shown[chat_key] = drawn
            self.retried.discard(chat_key)
        elif result == "failed" and chat_key not in self.retried:
            self.retried.add(chat_key)
            self.changed(chat_key)  # waits `every` seconds: the edit just made counts
        elif result == "gone":
            log.info("live board of %s was deleted; forgotten", chat_key)
            self.shown.pop(chat_key, None)
            async with self.db.transaction() as conn:
                await boards.forget(conn, chat_key, board.message_id)

    async def with_card(self, reply: Reply, state: GameState, lang: i18n.Lang) -> Reply:
        """The board with its card, as `/game board` has it (the same bytes for the same board,
        so an unchanged board is still skipped); without it when the picture fails."""
        from bot.commands.board import CARD
        from bot.images.board_card import board_facts, render_board_card
        from bot.images.render import MIME, png
        from bot.render import plain

        assert self.pool is not None
        try:
            content = await png(self.pool, render_board_card, board_facts(state, lang), lang)
        except Exception:  # the text board still goes out
            log.warning("board card of the live board not drawn", exc_info=True)
            return reply
        alt = plain.render(reply)
        image = Attachment(filename=CARD, content=content, mime=MIME, alt=alt)
        return reply.model_copy(update={"attachments": [image]})

    async def drain(self) -> None:
        """Wait for the edits under way (tests; shutdown)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def stop(self) -> None:
        """Drop the edits still to come and finish those under way."""
        for handle in self.waiting.values():
            if handle is not None:
                handle.cancel()
        self.waiting.clear()
        await self.drain()
