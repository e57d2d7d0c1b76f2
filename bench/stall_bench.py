"""One message must never stall the bot (issue 19): light commands from 20 chats while the
heaviest accepted messages compute, through the real dispatcher, worker pool and SQLite file.

Run by `python -m bench` in a child process (`python -m bench.stall_bench`), so that the memory
figures are the bot's and its workers' alone; the last line printed is a JSON summary.

- the heavy messages: the slowest of kinds of odds each taken at the edge of the budget
  (measured here, cold), and the one with the largest accepted reply (`/odds 100d100`, 9,901
  values); every run a slightly different N, so that no cache of the worker answers it;
- the light load: `/roll 2d6` and `/game status` from 20 chats, one started every 5 ms (200/s,
  a fifth of what the bot serves), each timed from its start to its reply;
- measured: light latency alone, then while each heavy message runs three times in a worker,
  then once more with the heavy work on the event loop (as it was before the pool) for contrast;
  peak RSS of the bot process plus its workers, sampled every 5 ms while the heavy ones run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bench.commands_bench import percentile, vm_rss_mb
from bot.app import App
from bot.commands.odds_view import odds_views
from bot.protocol import Reply, Request
from bot.workers import WorkerPool
from rules_core.budget import Budget
from rules_core.dice import parse
from rules_core.dice.odds import _dice_dist, charge_odds
from rules_core.errors import UserError

T = TypeVar("T")

CHATS = 20
TICK = 0.005
LIGHT = ("/roll 2d6", "/game status")
BASELINE_COMMANDS = 600
ROUNDS = 3
LARGEST = "{}d100"
# Kinds of heavy odds: each is taken with the largest N the budget accepts (see `edge`).
PATTERNS = (
    "{}d2!",
    "{}d4!",
    "{}d6!",
    "{}d10!",
    "{}d10!>=8",
    "{}d20r1",
    "{}d12r1",
    "{}d10r<=3",
    "{}d20kh10",
    "{}d1000",
    "d1000*d{}",
)


def accepted(text: str, listed: bool = False) -> bool:
    """Whether the budget accepts `text`; `listed`: with every value listed in the reply (a
    wider distribution is accepted too, but summed up instead of listed)."""
    budget = Budget()
    try:
        costs = charge_odds(parse(text), budget)
    except UserError:
        return False
    return not listed or sum(c.values for c in costs) <= budget.limits.reply


def edge(pattern: str, listed: bool = False) -> int:
    """The largest N from 1 to 500 for which the budget accepts `pattern` with N."""
    lo, hi = 1, 501
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if accepted(pattern.format(mid), listed) else (lo, mid)
    return lo


class InlinePool(WorkerPool):
    """The heavy work on the event loop, as before the pool: for the contrast only."""

    async def run(self, fn: Callable[..., T], *args: Any, deadline: float | None = None) -> T:
        return fn(*args)


def request(chat: str, text: str) -> Request:
    return Request(platform="console", chat_key=chat, user_id="u", user_name="U", text=text)


def check(reply: Reply, what: str) -> None:
    if reply.error is not None:
        raise RuntimeError(f"{what}: {reply.error}")


def slowest() -> tuple[str, float]:
    """The pattern whose edge of the budget takes longest here (computed cold)."""
    timed = []
    for pattern in PATTERNS:
        _dice_dist.cache_clear()
        t = time.perf_counter()
        odds_views(pattern.format(edge(pattern)))
        timed.append((time.perf_counter() - t, pattern))
    seconds, pattern = max(timed)
    return pattern, seconds


def heavy_messages(pattern: str, count: int, listed: bool = False) -> list[str]:
    """`count` messages just under the edge of `pattern`: as heavy, and each new to the
    worker's caches (they are keyed by the dice, their number included)."""
    top = edge(pattern, listed)
    return [pattern.format(max(1, top - i)) for i in range(count)]


class Load:
    """Light commands started every TICK from the chats in turn; RSS sampled at each tick."""

    def __init__(self, app: App, pool: WorkerPool) -> None:
        self.app = app
        self.pool = pool
        self.latencies: list[float] = []
        self.peak_rss = 0.0
        self.peak_main = 0.0
        self._n = 0
        self._pending: set[asyncio.Task[None]] = set()

    async def one(self) -> None:
        chat = f"bench:{self._n % CHATS}"
        text = LIGHT[(self._n // CHATS) % len(LIGHT)]
        self._n += 1
        t = time.perf_counter()
        reply = await self.app.handle(request(chat, text))
        self.latencies.append(time.perf_counter() - t)
        check(reply, text)

    def sample(self) -> None:
        main = vm_rss_mb()
        total = main
        for pid in self.pool.pids():
            with contextlib.suppress(OSError, RuntimeError):  # a worker being replaced
                total += vm_rss_mb(pid)
        self.peak_main = max(self.peak_main, main)
        self.peak_rss = max(self.peak_rss, total)

    def start_one(self) -> None:
        task = asyncio.create_task(self.one())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def until(self, done: Callable[[], bool]) -> None:
        while not done():
            self.start_one()
            self.sample()
            await asyncio.sleep(TICK)
        await asyncio.gather(*self._pending)

    async def count(self, n: int) -> None:
        start = self._n
        await self.until(lambda: self._n - start >= n)

    async def during(self, text: str) -> float:
        """Light load while `/odds text` runs; the heavy message's own seconds."""
        t = time.perf_counter()
        heavy = asyncio.create_task(self.app.handle(request("bench:heavy", f"/odds {text}")))
        await self.until(heavy.done)
        check(heavy.result(), text)
        return time.perf_counter() - t


def summary(latencies: list[float]) -> dict[str, float]:
    return {
        "n": len(latencies),
        "p50_ms": statistics.median(latencies) * 1e3,
        "p99_ms": percentile(latencies, 0.99) * 1e3,
        "max_ms": max(latencies) * 1e3,
    }


async def setup(app: App) -> None:
    for c in range(CHATS):
        check(await app.handle(request(f"bench:{c}", "/game new aos Bench")), "setup")
        add = "/unit add Horde models=40 wounds=5 save=5 bravery=6"
        check(await app.handle(request(f"bench:{c}", add)), "setup")


async def run() -> dict[str, Any]:
    worst, worst_s = slowest()
    slow = heavy_messages(worst, ROUNDS + 2)
    large = heavy_messages(LARGEST, ROUNDS + 1, listed=True)  # the largest reply listed whole
    with tempfile.TemporaryDirectory() as tmp:
        pool = WorkerPool()
        app = App(Path(tmp) / "stall.sqlite3", pool=pool)
        await app.start()
        try:  # an App left open keeps aiosqlite's thread alive: the bench would never exit
            await setup(app)
            for text in (slow.pop(), large.pop()):  # warm: the worker started, the code loaded
                check(await app.handle(request("bench:heavy", f"/odds {text}")), text)
            load = Load(app, pool)
            await load.count(BASELINE_COMMANDS)
            alone = summary(load.latencies)
            load.latencies, load.peak_rss, load.peak_main = [], 0.0, 0.0
            heavy_s: dict[str, list[float]] = {"slowest": [], "largest": []}
            for slow_text, large_text in zip(slow[:ROUNDS], large, strict=True):
                heavy_s["slowest"].append(await load.during(slow_text))
                heavy_s["largest"].append(await load.during(large_text))
            during = summary(load.latencies)
            peak_rss, peak_main = load.peak_rss, load.peak_main
        finally:
            await app.stop()
            pool.shutdown()

        inline_pool = InlinePool()
        before = App(Path(tmp) / "stall.sqlite3", pool=inline_pool)
        await before.start()
        try:
            inline = Load(before, inline_pool)
            await inline.during(slow[-1])
            on_loop = summary(inline.latencies)
        finally:
            await before.stop()
    return {
        "chats": CHATS,
        "light_per_s": 1 / TICK,
        "slowest": slow[0],
        "slowest_cold_s": worst_s,
        "largest": large[0],
        "heavy_s": {k: statistics.median(v) for k, v in heavy_s.items()},
        "pool_size": pool.size,
        "alone": alone,
        "during": during,
        "on_loop": on_loop,
        "peak_rss_mb": peak_rss,
        "peak_main_mb": peak_main,
    }


def main() -> int:
    print(json.dumps(asyncio.run(run())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
