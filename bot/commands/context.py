"""What a handler gets: the request, its converted options, the language, one open
transaction, the clock, a dice source, the message's budget and `offload` for heavy work."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

from bot import i18n
from bot.commands.args import Args
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec
from bot.protocol import Reply, Request
from bot.storage import games
from bot.storage.conn import Connection
from bot.storage.games import StoredGame
from bot.workers import WorkerPool
from rules_core.budget import Budget
from rules_core.dice import DiceSource
from rules_core.errors import UserError


def need_admin(request: Request) -> None:
    """Only a chat admin may do this (an `admin_only` command, or changing a chat setting
    that anyone may see)."""
    if not request.admin:
        raise UserError("perm.admin_only")


class Host(Protocol):
    """What a command may use of the application running it (`bot.app.App` is one): the command
    list (for /help), the clock, the worker pool and where the campaign pages are. A protocol,
    not `App`, so commands never import upwards."""

    @property
    def registry(self) -> Registry: ...
    @property
    def clock(self) -> Callable[[], datetime]: ...
    @property
    def pool(self) -> WorkerPool: ...
    @property
    def web_url(self) -> str | None: ...  # the campaign pages' base URL; None when off


T = TypeVar("T")
A = TypeVar("A", bound=Args)


@dataclass
class Context:
    app: Host
    request: Request
    spec: CommandSpec
    opts: dict[str, Any]
    lang: i18n.Lang
    conn: Connection
    now: datetime
    first_read: games.ChatRead | None = None  # read by the dispatcher with the language
    budget: Budget = field(default_factory=Budget)  # the whole message's, shared by its parts
    # Set by the dispatcher: closes the transaction while a worker computes (see bot.app).
    pause: Callable[[], AbstractAsyncContextManager[None]] | None = None
    # Set for a multi-line message, whose one transaction can't pause: the seconds heavy work
    # may hold it (other chats' writes wait meanwhile) before the line is refused.
    held_seconds: float | None = None
    game_changed: bool = False  # the chat's game was written (bot.session): refresh its board
    # Work on the reply that waits until the command's transaction is committed (a picture of
    # what a command wrote: rendering it must not hold the write transaction), run by the
    # dispatcher in order (bot.app).
    after_commit: list[Callable[[Reply], Awaitable[Reply]]] = field(default_factory=list)

    def args(self, cls: type[A]) -> A:
        """This command's options, typed: `cls` is the class its spec declares (`args=`)."""
        if self.spec.args is not cls:  # a handler reading another command's class: a bug
            raise TypeError(f"{self.spec.name} declares {self.spec.args}, not {cls.__name__}")
        return cls.from_options(self.opts)

    async def active_game(self) -> StoredGame | None:
        """The chat's active game: the dispatcher's first read while this connection has written
        nothing since, otherwise read again."""
        read = self.first_read
        if read is not None and read.changes == self.conn.total_changes:
            return read.game()
        return await games.active(self.conn, self.request.chat_key)

    async def offload(
        self, fn: Callable[..., T], *args: Any, light: bool = False, deadline: float | None = None
    ) -> T:
        """`fn(*args)`, a pure computation: inline when `light` (see `bot.workers.is_light`),
        else in the worker pool with its deadline, with this command's transaction closed
        meanwhile so other chats go on. Call it before the command writes anything; what was
        read before may have changed when it returns (game saves are version-checked).
        `deadline`: seconds the call may run, the pool's own when None."""
        if light:
            return fn(*args)
        if self.pause is None:
            held = self.held_seconds
            limit = held if deadline is None or (held is not None and held < deadline) else deadline
            try:
                return await self.app.pool.run(fn, *args, deadline=limit)
            except UserError as err:
                # Past the held time, or no worker free within it: the transaction can't wait.
                if held is None or limit != held or err.key not in ("work.too_slow", "work.busy"):
                    raise
                raise UserError("batch.too_heavy") from None
        async with self.pause():
            self.first_read = None  # read again afterwards: others may have written meanwhile
            return await self.app.pool.run(fn, *args, deadline=deadline)

    async def resume(self, conn: Connection) -> None:
        """The transaction begun again after `offload`: its connection, its chat locked again."""
        self.conn = conn
        if not self.spec.readonly:
            await conn.lock_chat(self.request.chat_key)

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
