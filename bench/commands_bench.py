"""Commands end to end: the real registry and dispatcher (`bot.app.App`) on a real SQLite file,
100 chats each with its own Age of Sigmar game, four kinds of command interleaved across them.

Run by `python -m bench` in child processes (`python -m bench.commands_bench`), so that the
memory figures are the bot's alone: once pinned to one CPU (`BENCH_PIN=1`, the goal's "one
core") and once free to use every core; the last line printed is a JSON summary for the table.

- latency: each command awaited alone, one after another, chat after chat (service time);
- throughput: commands per second of wall time and per second of CPU time of this process (the
  dispatcher runs on one core; aiosqlite's worker thread is included in the CPU time);
- concurrency: the same mix sent 100 at a time (one per chat) with `asyncio.gather`;
- memory: VmRSS after setup and every 2,500 commands up to 10,000 in this one process.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiosqlite
import aiosqlite.core as aiosqlite_core

from bot.app import App
from bot.protocol import Reply, Request
from rules_core.dice import DiceSource, parse, roll_command

CHATS = 100
MEASURED = int(os.environ.get("BENCH_COMMANDS", "10000"))
CONCURRENT_BATCHES = 20  # x CHATS commands
ORGANISER, OPPONENT = "a", "b"

SETUP = [
    ("/game new aos Bench", ORGANISER),
    ("/game join", OPPONENT),
    ("/unit add Horde models=40 wounds=5 save=5 bravery=6", OPPONENT),
    ("/unit add Knights models=5 wounds=2 save=4 bravery=7", ORGANISER),
    ("/aos weapon Knights Sword attacks=2 hit=3 wound=3 rend=1 damage=1", ORGANISER),
]
KINDS = {
    "roll": "/roll 2d6+3",
    "attack+apply": "/aos attack attacker=Knights target=Horde apply",
    "rule": "/rule charge",
    "game status": "/game status",
}


def vm_rss_mb(pid: int | str = "self") -> float:
    """Resident set size from /proc/<pid>/status, in MB (10**6 bytes)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024 / 1e6
    raise RuntimeError("no VmRSS")


def request(chat: int, text: str, user: str = ORGANISER) -> Request:
    return Request(
        platform="console",
        chat_key=f"bench:{chat}",
        user_id=user,
        user_name=user.upper(),
        text=text,
    )


def schedule(count: int, start: int = 0) -> list[tuple[int, str]]:
    """(chat, kind) for `count` commands: chat after chat, the kind rotating per round."""
    kinds = list(KINDS)
    out = []
    for i in range(start, start + count):
        chat, rnd = i % CHATS, i // CHATS
        out.append((chat, kinds[(rnd + chat) % len(kinds)]))
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def check(reply: Reply, what: str) -> None:
    if reply.error is not None:
        raise RuntimeError(f"{what}: {reply.error}")


async def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        app = App(Path(tmp) / "bench.sqlite3")
        await app.start()
        try:
            t0 = time.perf_counter()
            for chat in range(CHATS):
                for text, user in SETUP:
                    check(await app.handle(request(chat, text, user)), text)
            setup_s = time.perf_counter() - t0
            for chat, kind in schedule(4 * CHATS, start=MEASURED):  # warm-up: every cache filled
                check(await app.handle(request(chat, KINDS[kind])), kind)
            round_trips = await count_round_trips(app)
            trip_s = await round_trip_time(Path(tmp) / "bench.sqlite3")
            rss = [(0, vm_rss_mb())]
            latencies: dict[str, list[float]] = {k: [] for k in KINDS}
            wall0, cpu0 = time.perf_counter(), time.process_time()
            for n, (chat, kind) in enumerate(schedule(MEASURED), 1):
                t = time.perf_counter()
                reply = await app.handle(request(chat, KINDS[kind]))
                latencies[kind].append(time.perf_counter() - t)
                check(reply, kind)
                if n % 2_500 == 0:
                    rss.append((n, vm_rss_mb()))
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
            # 100 chats at once: one command per chat in flight, the next batch when all are done.
            plan = schedule(CONCURRENT_BATCHES * CHATS)
            cwall0, ccpu0 = time.perf_counter(), time.process_time()
            for b in range(CONCURRENT_BATCHES):
                batch = plan[b * CHATS : (b + 1) * CHATS]
                replies = await asyncio.gather(
                    *(app.handle(request(c, KINDS[k])) for c, k in batch)
                )
                for reply, (_, kind) in zip(replies, batch, strict=True):
                    check(reply, kind)
            cwall, ccpu = time.perf_counter() - cwall0, time.process_time() - ccpu0
            db_bytes = (Path(tmp) / "bench.sqlite3").stat().st_size
        finally:
            await app.stop()  # an App left open keeps its SQLite thread, and us, alive
    source = DiceSource.seeded(1)
    floor = min(_floor(source) for _ in range(5))
    every = [x for v in latencies.values() for x in v]
    return {
        "chats": CHATS,
        "setup_s": setup_s,
        "commands": MEASURED,
        "wall_s": wall,
        "cpu_s": cpu,
        "per_s_wall": MEASURED / wall,
        "per_s_cpu": MEASURED / cpu,
        "concurrent_commands": len(plan),
        "concurrent_per_s_wall": len(plan) / cwall,
        "concurrent_per_s_cpu": len(plan) / ccpu,
        "p50_ms": statistics.median(every) * 1e3,
        "p99_ms": percentile(every, 0.99) * 1e3,
        "kinds": {
            k: {
                "p50_ms": statistics.median(v) * 1e3,
                "p99_ms": percentile(v, 0.99) * 1e3,
                "max_ms": max(v) * 1e3,
            }
            for k, v in latencies.items()
        },
        "floor_roll_per_s": 1 / floor,
        "round_trips": round_trips,
        "round_trip_ms": trip_s * 1e3,
        "rss_mb": rss,
        "db_mb": db_bytes / 1e6,
    }


async def count_round_trips(app: App) -> dict[str, int]:
    """aiosqlite calls (each one a hop to its worker thread and back) per kind of command,
    counted on one warm chat by wrapping aiosqlite's dispatch for the duration."""
    calls = 0
    original: Any = aiosqlite_core.Connection._execute

    async def counting(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return await original(self, fn, *args, **kwargs)

    out: dict[str, int] = {}
    aiosqlite_core.Connection._execute = counting  # type: ignore[method-assign]
    try:
        for kind, text in KINDS.items():
            calls = 0
            check(await app.handle(request(0, text)), kind)
            out[kind] = calls
    finally:
        aiosqlite_core.Connection._execute = original  # type: ignore[method-assign]
    return out


async def round_trip_time(path: Path) -> float:
    """Seconds for one aiosqlite call (`SELECT 1`, one hop to its thread and back)."""
    async with aiosqlite.connect(path) as conn:
        n = 2_000
        t = time.perf_counter()
        for _ in range(n):
            await conn.execute_fetchall("SELECT 1")  # one hop
        return (time.perf_counter() - t) / n


def _floor(source: DiceSource) -> float:
    """Seconds per `/roll 2d6+3` through the dice engine alone (parse + roll, no App)."""
    n = 2_000
    t = time.perf_counter()
    for _ in range(n):
        roll_command(parse("2d6+3"), source)
    return (time.perf_counter() - t) / n


def pin_to_one_cpu() -> int | None:
    """Run this process (and the aiosqlite thread it will start) on one CPU: the goal is set
    per core, and on a small VM a hop between threads on two cores costs more than the work."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def main() -> int:
    pinned = pin_to_one_cpu() if os.environ.get("BENCH_PIN") == "1" else None
    result = asyncio.run(run())
    result["pinned_cpu"] = pinned
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
