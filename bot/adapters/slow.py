"""Showing that a command is still working, driven by the real wait.

After `SLOW_AFTER` seconds without a reply the chat is told the bot is on it ("typing…" on
Telegram, a deferred "thinking…" reply on Discord): a light command is answered at once with
nothing else, a heavy one (odds computing in a worker, a rulebook import) shows it is coming,
whatever the command declared in advance. Adapters call `with_notice`; it is the only timing
logic they share.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

SLOW_AFTER = 1.0
"""Seconds of waiting before the chat is told."""
TYPING_EVERY = 4.5
"""Telegram shows "typing…" for 5 s (or until the next message): renewed this often."""


async def with_notice(
    work: Awaitable[T],
    notify: Callable[[], Awaitable[object]],
    *,
    after: float = SLOW_AFTER,
    every: float | None = None,
) -> T:
    """`await work`, calling `notify()` once the work has taken `after` seconds, and again every
    `every` seconds while it lasts (never again when None). The work runs to its end whatever
    `notify` does: an error there is logged, not raised."""
    task = asyncio.ensure_future(work)
    wait = after
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=wait)
            if done:
                return task.result()
            try:
                await notify()
            except Exception:
                log.warning("could not show that a command is working", exc_info=True)
            if every is None:
                return await task
            wait = every
    except asyncio.CancelledError:
        task.cancel()
        raise
