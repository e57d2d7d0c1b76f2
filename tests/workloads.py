"""Functions the worker-pool tests run in worker processes (they must be importable there, so
they live in a module, not in a test file), and `GatedPool`, a real pool whose calls wait in the
worker until the test lets them go on: a heavy command that lasts exactly as long as a test
wants, with no clock involved."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bot.images.render import picture
from bot.workers import WorkerPool

T = TypeVar("T")


def pid() -> int:
    return os.getpid()


def gated(fifo: str, fn: Callable[..., Any], *args: Any) -> Any:
    """`fn(*args)` once the test opens `fifo` for writing and closes it: a worker that stays busy
    exactly as long as the test wants, with no clock involved (never opened: busy forever)."""
    with open(fifo, encoding="utf-8") as gate:
        gate.read()
    return fn(*args)


def allocate(megabytes: int) -> int:
    """Hold `megabytes` of memory at once (past the worker's cap: MemoryError)."""
    block = bytearray(megabytes * 1024 * 1024)
    return len(block)


def make_fifo(folder: Path) -> Path:
    path = folder / "gate"
    os.mkfifo(path)
    return path


class GatedPool(WorkerPool):
    """The real pool, whose calls wait in the worker on a FIFO the test opens when it wants them
    to go on, and which records every call it is given."""

    def __init__(self, fifo: Path, *, min_deadline: float = 0.0, **kwargs: Any) -> None:
        """`min_deadline`: every call may run at least this long, whatever deadline its caller
        gives (odds 10 s, a picture 15 s), for tests about something else than deadlines: on a
        loaded machine a cold worker (nice +5) can take longer to import matplotlib."""
        super().__init__(1, **kwargs)
        self.fifo = fifo
        self.min_deadline = min_deadline
        self.gate = True
        self.calls: list[str] = []
        self.entered = asyncio.Event()

    async def run(self, fn: Callable[..., T], *args: Any, deadline: float | None = None) -> T:
        self.calls.append(fn.__name__)
        if self.min_deadline:
            deadline = max(self.deadline if deadline is None else deadline, self.min_deadline)
        if not self.gate or fn is picture:  # the gate holds the computation, not its picture
            return await super().run(fn, *args, deadline=deadline)
        self.entered.set()
        call: Any = gated
        result: T = await super().run(call, str(self.fifo), fn, *args, deadline=deadline)
        return result

    async def open_gate(self) -> None:
        """Let the call waiting in the worker go on. Opening a FIFO for writing blocks until the
        worker opens it for reading, so it is done in a thread: the event loop must go on
        (the call reaches the worker only once the loop has seen the worker start)."""

        def release() -> None:
            with self.fifo.open("w", encoding="utf-8") as gate:
                gate.write("go")

        await asyncio.to_thread(release)
