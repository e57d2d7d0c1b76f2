"""What a handler gets: the request, its converted options, the language, one open
transaction, the clock and a dice source."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import aiosqlite

from bot import i18n
from bot.commands.spec import CommandSpec
from bot.protocol import Request
from bot.storage import games
from bot.storage.games import StoredGame
from rules_core.dice import DiceSource

if TYPE_CHECKING:
    from bot.app import App


@dataclass
class Context:
    app: App
    request: Request
    spec: CommandSpec
    opts: dict[str, Any]
    lang: i18n.Lang
    conn: aiosqlite.Connection
    now: datetime
    first_read: games.ChatRead | None = None  # read by the dispatcher with the language

    async def active_game(self) -> StoredGame | None:
        """The chat's active game: the dispatcher's first read while this connection has written
        nothing since, otherwise read again."""
        read = self.first_read
        if read is not None and read.changes == self.conn.total_changes:
            return read.game()
        return await games.active(self.conn, self.request.chat_key)

    def t(self, key: str, /, **params: Any) -> str:
        return i18n.t(self.lang, key, **params)

    def dice(self, given: list[int] | None = None) -> DiceSource:
        """The dice for this command: the players' own faces, a fixed seed, or fresh random."""
        if given:
            return DiceSource.given(given)
        if self.request.seed is not None:
            return DiceSource.seeded(self.request.seed)
        return DiceSource.random()

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.app.clock
