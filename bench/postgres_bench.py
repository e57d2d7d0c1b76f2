"""Several bot processes on one database: commands/s and latency for SQLite with one process and
PostgreSQL with 1, 2 and 4 processes, with the commands spread over 100 chats and concentrated
on one chat.

Each process is a real `App` in its own interpreter (`python -m bench.postgres_bench --child`),
as a deployment runs them; every process keeps WINDOW commands in flight (a bot serving many
chats at once), the four kinds of `commands_bench` rotating. Throughput is all the commands
divided by the time from the first process's start to the last one's end; latency is each
command's time from being sent to its reply, waits for its chat's lock included.

The PostgreSQL server is started here (tests/pg_server.py, durable: fsync on, synchronous_commit
off, like SQLite's synchronous=NORMAL) on this machine, so it competes with the bot processes
for the same cores; `main()` skips with a printed reason when no server can start.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app import App
from bot.protocol import Request

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = int(os.environ.get("BENCH_PG_COMMANDS", "2400"))  # per scenario, all processes
WINDOW = int(os.environ.get("BENCH_PG_WINDOW", "16"))  # commands in flight per process
SPREAD_CHATS = 100
ORGANISER, OPPONENT = "a", "b"
SETUP = [
    ("/game new aos Bench", ORGANISER),
    ("/game join", OPPONENT),
    # wounds enough that a thousand attacks on one chat never wipe the target out
    ("/unit add Horde models=40 wounds=99 save=5 bravery=6", OPPONENT),
    ("/unit add Knights models=5 wounds=2 save=4 bravery=7", ORGANISER),
    ("/aos weapon Knights Sword attacks=2 hit=3 wound=3 rend=1 damage=1", ORGANISER),
]
KINDS = [
    "/roll 2d6+3",
    "/aos attack attacker=Knights target=Horde apply",
    "/rule charge",
    "/game status",
]


def request(chat: int, text: str, user: str = ORGANISER) -> Request:
    return Request(
        platform="console", chat_key=f"bench:{chat}", user_id=user, user_name=user, text=text
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@dataclass
class Result:
    label: str
    processes: int
    chats: int
    per_s: float
    p50_ms: float
    p99_ms: float
    errors: int
    bot_cpu_ms: float  # CPU time of the bot processes per command
    server_cpu_ms: float  # CPU time of the PostgreSQL server's processes per command


def server_cpu_s(pid: int | None) -> float:
    """CPU seconds (user + system) used so far by a server and its backends, live or ended
    (Linux /proc)."""
    if pid is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid:  # the postmaster, with the backends it has reaped
            total += sum(int(f) for f in fields[11:15]) / tick
        elif int(fields[1]) == pid:  # a live backend (fields[1]: its parent's pid)
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


async def prepare(target: Path | str, chats: int) -> None:
    app = App(target)
    await app.start()
    try:
        for chat in range(chats):
            for text, user in SETUP:
                reply = await app.handle(request(chat, text, user))
                if reply.error is not None:
                    raise RuntimeError(f"{text}: {reply.error}")
    finally:
        await app.stop()


async def child(target: str, chats: int, count: int, offset: int) -> dict[str, Any]:
    """One bot process: `count` commands over `chats` chats, WINDOW at a time."""
    app = App(target)
    await app.start()
    latencies: list[float] = []
    errors = 0
    try:
        for i in range(2 * WINDOW):  # warm-up: caches filled, the pool's connections open
            await app.handle(request(i % chats, KINDS[i % len(KINDS)]))
        print("ready", flush=True)
        sys.stdin.readline()
        # Each process's commands go to chats drawn at random (its own seed), as a public
        # bot's updates arrive: two processes meet on one chat only as often as chance has it.
        rng = random.Random(offset)
        queue = [(rng.randrange(chats), i) for i in range(offset, offset + count)]
        queue.reverse()

        async def worker() -> None:
            nonlocal errors
            while queue:
                chat, i = queue.pop()
                text = KINDS[i % len(KINDS)]
                t = time.perf_counter()
                reply = await app.handle(request(chat, text))
                latencies.append(time.perf_counter() - t)
                errors += reply.error is not None

        started = time.monotonic()  # CLOCK_MONOTONIC: one clock for every process
        cpu = time.process_time()
        await asyncio.gather(*(worker() for _ in range(WINDOW)))
        cpu = time.process_time() - cpu
        ended = time.monotonic()
    finally:
        await app.stop()
    return {
        "started": started,
        "ended": ended,
        "cpu": cpu,
        "latencies": latencies,
        "errors": errors,
    }


def scenario(
    label: str, target: Path | str, processes: int, chats: int, server: int | None = None
) -> Result:
    asyncio.run(prepare(target, chats))
    share = COMMANDS // processes
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.postgres_bench",
                "--child",
                str(target),
                str(chats),
                str(share),
                str(i * share),
            ],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(processes)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError(f"{label}: a process did not start")
        server_before = server_cpu_s(server)
        for proc in procs:  # released together
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        outs = []
        for proc in procs:
            out, _ = proc.communicate(timeout=600)
            if proc.returncode != 0:
                raise RuntimeError(f"{label}: a process failed")
            outs.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    server_used = server_cpu_s(server) - server_before  # includes the processes' stop
    wall = max(o["ended"] for o in outs) - min(o["started"] for o in outs)
    every = [x for o in outs for x in o["latencies"]]
    return Result(
        label=label,
        processes=processes,
        chats=chats,
        per_s=len(every) / wall,
        p50_ms=statistics.median(every) * 1e3,
        p99_ms=percentile(every, 0.99) * 1e3,
        errors=sum(o["errors"] for o in outs),
        bot_cpu_ms=sum(o["cpu"] for o in outs) / len(every) * 1e3,
        server_cpu_ms=server_used / len(every) * 1e3,
    )


def run_all() -> tuple[list[Result], str]:
    """Every scenario; the PostgreSQL server's version. Raises ServerUnavailable."""
    from tests.pg_server import PostgresServer

    results = []
    server = PostgresServer(durable=True).start()
    try:
        databases = _databases(server)
        with tempfile.TemporaryDirectory() as tmp:
            for chats in (SPREAD_CHATS, 1):
                where = "100 chats" if chats > 1 else "one chat"
                path = Path(tmp) / f"bench-{chats}.sqlite3"
                results.append(scenario(f"SQLite, 1 process, {where}", path, 1, chats))
                for processes in (1, 2, 4):
                    url = databases.pop(0)
                    label = f"PostgreSQL, {processes} process{'es' * (processes > 1)}, {where}"
                    pid = server.process.pid if server.process is not None else None
                    results.append(scenario(label, url, processes, chats, pid))
        return results, server.version
    finally:
        server.stop()


def _databases(server: Any) -> list[str]:
    import asyncpg

    async def make() -> list[str]:
        admin = await asyncpg.connect(server.url())
        try:
            names = [f"bench{i}" for i in range(6)]
            for name in names:
                await admin.execute(f"CREATE DATABASE {name}")
            return [server.url(name) for name in names]
        finally:
            await admin.close()

    return asyncio.run(make())


def main() -> list[Result] | None:
    from bench.timing import table
    from tests.pg_server import ServerUnavailable

    print(
        f"Several processes, one database: {COMMANDS:,} commands per scenario, {WINDOW} in "
        f"flight per process, {os.cpu_count()} cores for the bot processes and the server"
    )
    try:
        results, version = run_all()
    except ServerUnavailable as exc:
        print(f"  skipped: {exc}")
        return None
    print(f"  ({version}, started here, fsync on, synchronous_commit off)")
    base = {r.chats: r.per_s for r in results if r.label.startswith("PostgreSQL, 1 ")}
    rows = [
        [
            r.label,
            f"{r.per_s:,.0f}/s",
            f"{r.per_s / base[r.chats]:.2f}x" if r.label.startswith("PostgreSQL") else "",
            f"{r.p50_ms:.1f} ms",
            f"{r.p99_ms:.1f} ms",
            f"{r.bot_cpu_ms:.2f} + {r.server_cpu_ms:.2f} ms"
            if r.label.startswith("PostgreSQL")
            else f"{r.bot_cpu_ms:.2f} ms",
            f"{r.per_s * (r.bot_cpu_ms + r.server_cpu_ms) / 1e3:.1f}",
            str(r.errors),
        ]
        for r in results
    ]
    headers = ["scenario", "commands", "vs 1 PG process", "p50", "p99", "CPU/command", "cores"]
    print(table([*headers, "errors"], rows))
    print(
        "  CPU/command: the bot processes' + the server's CPU time per command; cores: how many"
        " cores that kept busy on average"
    )
    cores = os.cpu_count() or 1
    for chats in (SPREAD_CHATS, 1):
        one = next(r for r in results if r.chats == chats and r.label.startswith("PostgreSQL, 1 "))
        two = next(r for r in results if r.chats == chats and r.label.startswith("PostgreSQL, 2 "))
        ceiling = cores * 1e3 / (two.bot_cpu_ms + two.server_cpu_ms)
        print(
            f"  {chats} chat{'s' * (chats > 1)}: at the 2-process CPU cost, {cores} cores shared "
            f"with the server do at most {ceiling:,.0f} commands/s, "
            f"{ceiling / one.per_s:.2f}x one process; one bot process alone uses "
            f"{one.per_s * one.bot_cpu_ms / 1e3:.2f} cores"
        )
    return results


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        target, chats, count, offset = sys.argv[2:6]
        result = asyncio.run(child(target, int(chats), int(count), int(offset)))
        print(json.dumps(result))
    else:
        main()
