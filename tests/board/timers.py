"""A clock and a timer the tests drive for the live board's coalescing: nothing sleeps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.commands.board_live import LiveBoards
from bot.protocol import Reply


@dataclass
class Pending:
    at: float
    fn: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class Timers:
    now: float = 1000.0
    pending: list[Pending] = field(default_factory=list)

    def clock(self) -> float:
        return self.now

    def timer(self, delay: float, fn: Callable[[], None]) -> Pending:
        handle = Pending(self.now + delay, fn)
        self.pending.append(handle)
        return handle

    def waiting(self) -> list[Pending]:
        return [p for p in self.pending if not p.cancelled]

    def drive(self, boards: LiveBoards) -> None:
        boards.clock = self.clock
        boards.timer = self.timer

    async def advance(self, seconds: float, boards: LiveBoards) -> None:
        """Time passes: the timers due fire, and the edits they start finish."""
        self.now += seconds
        due = [p for p in self.waiting() if p.at <= self.now]
        self.pending = [p for p in self.pending if p not in due]
        for handle in due:
            handle.fn()
        await boards.drain()


@dataclass
class Editor:
    """A platform that records each edit and answers `result`."""

    result: str = "ok"
    edits: list[tuple[str, str, Reply]] = field(default_factory=list)

    async def edit_board(self, chat: str, message_id: str, reply: Reply) -> Any:
        self.edits.append((chat, message_id, reply))
        return self.result
