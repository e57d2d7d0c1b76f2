"""bot/flood.py's lanes on their own: order, waits merged, the bounded queue's one note. Time
is a fake clock that only the lane's `sleep` moves: nothing waits for real."""

from __future__ import annotations

import asyncio

from bot.flood import Lanes, RateLimited


class Platform:
    """A chat platform that lets `per_window` messages through, then refuses for `window` s."""

    def __init__(self, per_window: int, window: float = 60.0) -> None:
        self.now = 0.0
        self.per_window = per_window
        self.window = window
        self.sent: list[str] = []
        self.refusals = 0
        self.window_start = 0.0
        self.in_window = 0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)

    async def send(self, key: str, item: str) -> None:
        if self.now - self.window_start >= self.window:
            self.window_start, self.in_window = self.now, 0
        if self.in_window >= self.per_window:
            self.refusals += 1
            raise RateLimited(self.window_start + self.window - self.now)
        self.in_window += 1
        self.sent.append(f"{key}:{item}")


def merge(items: list[str]) -> list[str]:
    return [" + ".join(items)]


def answer(text: str, gate: asyncio.Event | None = None):  # type: ignore[no-untyped-def]
    async def job() -> list[str]:
        if gate is not None:
            await gate.wait()
        return [text]

    return job


async def test_commands_are_answered_in_order_and_waits_are_merged() -> None:
    platform = Platform(per_window=3)
    lanes: Lanes[str, str] = Lanes(platform.send, merge, clock=platform.clock, sleep=platform.sleep)
    for i in range(8):
        assert lanes.submit("chat", answer(f"c{i}")) is None
    await lanes.drain()
    assert platform.sent == ["chat:c0", "chat:c1", "chat:c2", "chat:c3 + c4 + c5 + c6 + c7"]
    assert platform.refusals == 1 and platform.now == 60.0


async def test_a_full_queue_is_told_once_and_nothing_queued_is_lost() -> None:
    platform = Platform(per_window=100)
    lanes: Lanes[str, str] = Lanes(
        platform.send, merge, limit=3, clock=platform.clock, sleep=platform.sleep
    )
    gate = asyncio.Event()  # the first command is still running while the others arrive
    assert lanes.submit("chat", answer("c0", gate)) is None
    await asyncio.sleep(0)
    verdicts = [lanes.submit("chat", answer(f"c{i}")) for i in range(1, 7)]
    assert verdicts[:3] == [None, None, None]
    assert verdicts[3] is not None and verdicts[3] >= 3  # "wait N s", once
    assert verdicts[4:] == [0.0, 0.0]  # already told: no second note
    gate.set()
    await lanes.drain()
    assert platform.sent == ["chat:c0", "chat:c1", "chat:c2", "chat:c3"]
    # the queue emptied: a new overflow would be told again
    assert lanes.submit("chat", answer("c7")) is None
    await lanes.drain()


async def test_chats_do_not_wait_for_each_other() -> None:
    platform = Platform(per_window=100)
    lanes: Lanes[str, str] = Lanes(platform.send, merge, clock=platform.clock, sleep=platform.sleep)
    gate = asyncio.Event()
    lanes.submit("slow", answer("s0", gate))
    lanes.submit("fast", answer("f0"))
    for _ in range(5):
        await asyncio.sleep(0)
    assert platform.sent == ["fast:f0"]
    gate.set()
    await lanes.drain()
    assert platform.sent == ["fast:f0", "slow:s0"]
