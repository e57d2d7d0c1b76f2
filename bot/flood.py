"""Per-chat lanes: a chat's commands run one at a time in the order they came and their answers
go out in that order; no command is ever dropped.

A platform that limits how fast a bot may post (Telegram: about 20 messages a minute in a group,
then HTTP 429 with `retry_after`) makes the lane wait. Meanwhile the lane keeps running the
chat's next commands and holds their answers; when the wait is over everything held is merged
(the platform's `merge`) and sent as few messages as possible. Only a bounded queue can refuse:
over `limit` commands waiting in one chat, the next one is not queued and the chat is told once
to wait N seconds (`Lanes.submit` returns that N; the note is queued like an answer).

Generic over the key (a chat) and what is sent (`Item`): bot/adapters/telegram.py supplies the
send, merge and the items. Time comes from `clock` and waits go through `sleep`, so tests drive
both without waiting for real.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)
Item = TypeVar("Item")

MAX_WAITING = 40  # commands queued per chat before "too many commands"
SECONDS_PER_COMMAND = 1.0  # the pace the wait estimate assumes (Telegram's per-chat second)


class RateLimited(Exception):
    """Raised by a lane's `send`: the platform refused for `seconds` (nothing was sent)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"rate limited for {seconds} s")
        self.seconds = seconds


@dataclass
class Lane(Generic[Item]):
    jobs: deque[Callable[[], Awaitable[list[Item]]]] = field(default_factory=deque)
    outbox: list[Item] = field(default_factory=list)
    blocked_until: float = 0.0
    waited: bool = False  # a wait happened: merge what is held before sending it
    warned: bool = False  # told "too many commands" since the queue was last empty
    task: asyncio.Task[None] | None = None


class Lanes(Generic[K, Item]):
    def __init__(
        self,
        send: Callable[[K, Item], Awaitable[None]],
        merge: Callable[[list[Item]], list[Item]],
        *,
        limit: int = MAX_WAITING,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.send = send
        self.merge = merge
        self.limit = limit
        self.clock = clock
        self.sleep = sleep
        self.lanes: dict[K, Lane[Item]] = {}

    def submit(self, key: K, job: Callable[[], Awaitable[list[Item]]]) -> float | None:
        """Queue a command (`job` runs it and returns what to send). None when queued; when the
        queue is full, the seconds to tell the chat to wait, the first time only (0 after)."""
        lane = self.lanes.setdefault(key, Lane())
        if len(lane.jobs) >= self.limit:
            if lane.warned:
                return 0.0
            lane.warned = True
            return self.wait_estimate(lane)
        lane.jobs.append(job)
        self._wake(key, lane)
        return None

    def post(self, key: K, items: list[Item]) -> None:
        """Send items in the chat's order, without a command (a reminder, a note)."""
        lane = self.lanes.setdefault(key, Lane())
        lane.outbox.extend(items)
        self._wake(key, lane)

    def wait_estimate(self, lane: Lane[Item]) -> float:
        blocked = max(0.0, lane.blocked_until - self.clock())
        return float(max(1, math.ceil(blocked + len(lane.jobs) * SECONDS_PER_COMMAND)))

    def _wake(self, key: K, lane: Lane[Item]) -> None:
        if lane.task is None or lane.task.done():
            lane.task = asyncio.get_running_loop().create_task(self._run(key, lane))

    async def drain(self) -> None:
        """Wait until every lane has run its commands and sent everything."""
        while tasks := [lane.task for lane in self.lanes.values() if lane.task is not None]:
            await asyncio.gather(*tasks, return_exceptions=True)
            if all(t.done() for t in tasks) and not any(
                lane.task is not None and not lane.task.done() for lane in self.lanes.values()
            ):
                break

    async def _run(self, key: K, lane: Lane[Item]) -> None:
        while True:
            if lane.outbox and self.clock() >= lane.blocked_until:
                if lane.waited:
                    lane.outbox = self.merge(lane.outbox)
                    lane.waited = False
                try:
                    await self.send(key, lane.outbox[0])
                except RateLimited as limited:
                    lane.blocked_until = self.clock() + limited.seconds
                    lane.waited = True
                    continue
                except Exception:  # one message lost to an error must not stop the chat
                    log.exception("sending to %s failed", key)
                lane.outbox.pop(0)
            elif lane.jobs:
                job = lane.jobs.popleft()
                if not lane.jobs:
                    lane.warned = False
                try:
                    lane.outbox.extend(await job())
                except Exception:
                    log.exception("a command of %s failed outside the dispatcher", key)
            elif lane.outbox:
                await self.sleep(max(0.0, lane.blocked_until - self.clock()))
            else:
                break
        if self.lanes.get(key) is lane and not lane.jobs and not lane.outbox:
            del self.lanes[key]
