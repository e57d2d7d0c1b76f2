"""Storage: what one ordinary change costs on disk in a 200-unit game (the event log stores
deltas and a snapshot every `events.SNAPSHOT_EVERY` changes), what reading the log back costs
(/log and /undo replay deltas), and write commands per second with `synchronous=NORMAL` and
`FULL` (the `WARGAME_BOT_SYNCHRONOUS` setting), on a file in the system's temp folder."""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.timing import table
from bot.app import App
from bot.protocol import Reply, Request
from bot.storage import events, games
from rules_core.game import transitions as tr
from rules_core.game.models import GameState

CHAT = "bench:storage"
UNITS = 200
CHANGES = 3 * events.SNAPSHOT_EVERY  # ordinary changes measured, three snapshot periods
GRID = "......|..L..M|...MC.|...MC.|..R..M|......"
SYNC_COMMANDS = 400  # write commands per synchronous mode and round
SYNC_ROUNDS = 3  # modes alternate, best round kept: the disk's noise hits both alike


@dataclass
class StorageResult:
    state_bytes: int
    row_bytes_avg: float  # every stored byte of the event rows, snapshots included
    row_bytes_typical: float  # the median row: an ordinary change without a snapshot
    file_bytes_per_change: float  # what the database file grew by, per change
    old_bytes_per_change: int  # before deltas: the whole game twice per change
    log_ms: float
    undo_ms: float
    per_s: dict[str, float]  # write commands per second by synchronous mode


def big_game() -> GameState:
    """Two players, 200 warjacks with a damage grid each (about 48 KB as JSON)."""
    state = GameState(system="wm", name="Bench", organiser="1")
    state = tr.join(state, "1", "Ann", None)
    state = tr.join(state, "2", "Bob", None)
    for i in range(UNITS):
        owner = state.players[i % 2]
        state = tr.add_unit(
            state, f"U{i:03}", owner, {"def": 12, "arm": 18}, {"grid": GRID}
        )  # fmt: skip
    return state


def request(text: str) -> Request:
    return Request(platform="console", chat_key=CHAT, user_id="1", user_name="Ann", text=text)


def check(reply: Reply) -> None:
    if reply.error is not None:
        raise RuntimeError(f"{reply.command}: {reply.error.message}")


def file_bytes(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path.stat().st_size


async def growth(folder: Path) -> dict[str, float]:
    path = folder / "growth.sqlite3"
    app = App(path)
    await app.start()
    try:
        check(await app.handle(request("/game new wm Bench")))
        async with app.db.transaction() as conn:
            game = await games.active(conn, CHAT)
            assert game is not None
            state = big_game()
            await games.save_change(
                conn, game, state, user_id="1", user_name="Ann", command="setup", kind="setup",
                now=app.clock(),
            )  # fmt: skip
        with sqlite3.connect(path) as raw:
            first = raw.execute("SELECT MAX(id) FROM events").fetchone()[0]
        raw.close()
        size_before = file_bytes(path)
        for i in range(CHANGES):
            check(await app.handle(request(f"/unit damage U{(i * 7) % UNITS:03} 1 column=3")))
        size_after = file_bytes(path)
        log_s, undo_s = [], []
        for _ in range(20):
            started = time.perf_counter()
            check(await app.handle(request("/log 20")))
            log_s.append(time.perf_counter() - started)
        for _ in range(20):
            started = time.perf_counter()
            check(await app.handle(request("/undo")))
            undo_s.append(time.perf_counter() - started)
    finally:
        await app.stop()
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT * FROM events WHERE id > ? LIMIT ?", (first, CHANGES))
        sizes = [sum(len(str(v).encode()) for v in r if v is not None) for r in rows]
    raw.close()
    return {
        "state": len(state.model_dump_json()),
        "avg": sum(sizes) / len(sizes),
        "typical": statistics.median(sizes),
        "file": (size_after - size_before) / CHANGES,
        "log_ms": statistics.median(log_s) * 1000,
        "undo_ms": statistics.median(undo_s) * 1000,
    }


async def writes_per_second(folder: Path, mode: str, round_no: int) -> float:
    """One write command at a time (rolls and game changes alternating), as a chat sends them."""
    app = App(folder / f"sync-{mode}-{round_no}.sqlite3")
    app.db.synchronous = mode
    await app.start()
    try:
        check(await app.handle(request("/game new gen Sync")))
        check(await app.handle(request("/unit add Knights wounds=999")))
        started = time.perf_counter()
        for i in range(SYNC_COMMANDS):
            text = "/roll 2d6" if i % 2 else "/unit damage Knights 1"
            check(await app.handle(request(text)))
        return SYNC_COMMANDS / (time.perf_counter() - started)
    finally:
        await app.stop()


async def run() -> StorageResult:
    with tempfile.TemporaryDirectory(prefix="wargame-storage-bench-") as tmp:
        folder = Path(tmp)
        grown = await growth(folder)
        best: dict[str, float] = {"NORMAL": 0.0, "FULL": 0.0}
        for round_no in range(SYNC_ROUNDS):
            for mode in best:
                best[mode] = max(best[mode], await writes_per_second(folder, mode, round_no))
    return StorageResult(
        state_bytes=int(grown["state"]),
        row_bytes_avg=grown["avg"],
        row_bytes_typical=grown["typical"],
        file_bytes_per_change=grown["file"],
        old_bytes_per_change=2 * int(grown["state"]),
        log_ms=grown["log_ms"],
        undo_ms=grown["undo_ms"],
        per_s=best,
    )


def main() -> StorageResult:
    result = asyncio.run(run())
    print(
        f"Storage: a {UNITS}-unit game ({result.state_bytes / 1000:.0f} KB as JSON), "
        f"{CHANGES} ordinary changes (/unit damage), a snapshot every "
        f"{events.SNAPSHOT_EVERY}:"
    )
    print(
        table(
            ["measure", "value"],
            [
                ["event row bytes per change, snapshots included", f"{result.row_bytes_avg:,.0f}"],
                ["event row bytes, a typical change", f"{result.row_bytes_typical:,.0f}"],
                ["database file growth per change", f"{result.file_bytes_per_change:,.0f}"],
                ["before deltas (both whole states)", f"{result.old_bytes_per_change:,}"],
                ["/log 20 (replays deltas), median", f"{result.log_ms:.1f} ms"],
                ["/undo, median", f"{result.undo_ms:.1f} ms"],
            ]
            + [
                [f"write commands/s, synchronous={mode}", f"{per_s:,.0f}/s"]
                for mode, per_s in result.per_s.items()
            ],
        )
    )
    return result


if __name__ == "__main__":
    main()
