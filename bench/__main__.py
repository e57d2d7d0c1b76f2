"""`make bench`: every benchmark, measured in one run, then one summary table with ratios
against peers (d20, icepool) and the project's goals, and the machine it ran on."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench import (
    dice_bench,
    games_bench,
    headline_bench,
    images_bench,
    memory_bench,
    postgres_bench,
    rules_bench,
    storage_bench,
)
from bench.timing import markdown, table

ROOT = Path(__file__).resolve().parents[1]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> str:
    return (
        f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()} {platform.machine()}"
    )


def commands(pin: bool) -> dict[str, Any]:
    """The command benchmark in a child process: its memory figures are the bot's alone."""
    return child("bench.commands_bench", BENCH_PIN="1" if pin else "0")


def child(module: str, **env: str) -> dict[str, Any]:
    """Run `python -m module` and read the JSON summary on its last line."""
    out = subprocess.run(
        [sys.executable, "-m", module],
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def verdict(ok: bool) -> str:
    return "yes" if ok else "NO"


def main() -> int:
    started = time.perf_counter()
    load = os.getloadavg()[0]
    headline = headline_bench.main()
    print()
    dice = dice_bench.main()
    print()
    games = games_bench.main()
    print()
    rules = rules_bench.main()
    print()
    cmd = commands(pin=True)
    free = commands(pin=False)
    kinds = cmd["kinds"]
    print(
        f"Commands through App + SQLite, {cmd['chats']} chats each with its own AoS game "
        f"(setup {cmd['setup_s']:.1f} s), {cmd['commands']:,} commands interleaved across them, "
        f"the process pinned to CPU {cmd['pinned_cpu']}:"
    )
    print(
        table(
            ["command", "p50", "p99", "max"],
            [
                [k, f"{v['p50_ms']:.2f} ms", f"{v['p99_ms']:.2f} ms", f"{v['max_ms']:.1f} ms"]
                for k, v in kinds.items()
            ],
        )
    )
    print(
        f"  one at a time: {cmd['per_s_wall']:,.0f} commands/s wall, {cmd['per_s_cpu']:,.0f}"
        f" per CPU-second; 100 at once (one per chat, {cmd['concurrent_commands']:,}): "
        f"{cmd['concurrent_per_s_wall']:,.0f}/s wall"
    )
    print(
        f"  the same, not pinned (the aiosqlite thread may run on another core): "
        f"{free['per_s_wall']:,.0f} commands/s one at a time, "
        f"{free['concurrent_per_s_wall']:,.0f}/s 100 at once, p50 {free['p50_ms']:.2f} ms, "
        f"p99 {free['p99_ms']:.2f} ms; one aiosqlite call {free['round_trip_ms']:.3f} ms"
    )
    print(
        f"  floor: `2d6+3` through the dice engine alone (no App, no SQLite): "
        f"{cmd['floor_roll_per_s']:,.0f}/s"
    )
    trips = ", ".join(f"{k} {v}" for k, v in cmd["round_trips"].items())
    print(
        f"  aiosqlite calls per command: {trips}; one call (a hop to its thread and back) "
        f"costs {cmd['round_trip_ms']:.3f} ms here"
    )
    rss = cmd["rss_mb"]
    print("  RSS of that process: " + ", ".join(f"{mb:.1f} MB after {n:,}" for n, mb in rss))
    print()
    stall = child("bench.stall_bench")
    alone, during, on_loop = stall["alone"], stall["during"], stall["on_loop"]
    print(
        f"One heavy message and {stall['chats']} chats (issue 19): light commands (/roll 2d6, "
        f"/game status) started {stall['light_per_s']:.0f}/s while the heaviest accepted odds "
        f"computed in the worker pool ({stall['pool_size']} worker): `/odds {stall['slowest']}` "
        f"(the slowest at the edge of the budget, {stall['heavy_s']['slowest']:.2f} s) and "
        f"`/odds {stall['largest']}` (the largest reply, {stall['heavy_s']['largest']:.2f} s), "
        f"three times each:"
    )
    print(
        table(
            ["light commands", "n", "p50", "p99", "max"],
            [
                [
                    name,
                    str(v["n"]),
                    f"{v['p50_ms']:.2f} ms",
                    f"{v['p99_ms']:.2f} ms",
                    f"{v['max_ms']:.1f} ms",
                ]
                for name, v in (
                    ("alone", alone),
                    ("while the heavy ones compute", during),
                    ("heavy work on the event loop (before)", on_loop),
                )
            ],
        )
    )
    print(
        f"  peak RSS while they ran: {stall['peak_rss_mb']:.1f} MB, bot and worker together "
        f"(the bot alone {stall['peak_main_mb']:.1f} MB)"
    )
    print()
    mem = memory_bench.main()
    print()
    pictures = images_bench.main()
    print()
    store = storage_bench.main()
    print()
    scaling = postgres_bench.main()
    growth = rss[-1][1] - rss[0][1]
    late_growth = rss[-1][1] - rss[len(rss) // 2][1]
    elapsed = time.perf_counter() - started

    def ratio(value: float) -> str:
        return f"{value:.1f}x"

    rows = [[r.what, r.ours, r.today, r.goal, verdict(r.met)] for r in headline.rows]
    rows.append(
        [
            "dice exact odds vs icepool (25 expressions)",
            "both cold",
            ratio(dice.odds_vs_icepool),
            ">= 10x",
            verdict(dice.odds_vs_icepool >= 10),
        ]
    )
    for game, value in games.ratios.items():
        rows.append(
            [
                f"{game} attack chain odds vs icepool",
                "both cold",
                ratio(value),
                ">= 10x",
                verdict(value >= 10),
            ]
        )
    rows += [
        [
            "probabilities vs icepool, largest difference",
            f"{max(dice.worst_diff, games.worst_diff):.1e}",
            "",
            "<= 1e-9",
            verdict(max(dice.worst_diff, games.worst_diff) <= 1e-9),
        ],
        [
            "commands/s, one core (roll/attack+apply/rule/status)",
            f"{cmd['per_s_wall']:,.0f}/s",
            f"{cmd['per_s_cpu']:,.0f}/CPU-s; dice alone {cmd['floor_roll_per_s']:,.0f}/s",
            ">= 1,000/s",
            verdict(cmd["per_s_wall"] >= 1000),
        ],
        [
            "commands/s, 100 chats at once, one core",
            f"{cmd['concurrent_per_s_wall']:,.0f}/s",
            f"not pinned: {free['per_s_wall']:,.0f}/s alone, "
            f"{free['concurrent_per_s_wall']:,.0f}/s at once",
            ">= 1,000/s",
            verdict(cmd["concurrent_per_s_wall"] >= 1000),
        ],
        [
            "command latency p50 / p99 (all four kinds)",
            f"{cmd['p50_ms']:.2f} / {cmd['p99_ms']:.2f} ms",
            "",
            "p99 <= 10 ms",
            verdict(cmd["p99_ms"] <= 10),
        ],
        [
            "light command p99, 20 chats, heaviest message computing",
            f"{during['p99_ms']:.2f} ms",
            f"alone {alone['p99_ms']:.2f} ms; on the loop {on_loop['max_ms']:,.0f} ms",
            "p99 <= 20 ms",
            verdict(during["p99_ms"] <= 20),
        ],
        [
            "peak RSS meanwhile (bot + worker)",
            f"{stall['peak_rss_mb']:.1f} MB",
            f"bot alone {stall['peak_main_mb']:.1f} MB",
            "<= 300 MB",
            verdict(stall["peak_rss_mb"] <= 300),
        ],
        [
            "/rule latency p50 / p99 (rule relevance queries)",
            f"{rules.command_p50_ms:.2f} / {rules.command_p99_ms:.2f} ms",
            "",
            "p99 <= 5 ms",
            verdict(rules.command_p99_ms <= 5),
        ],
        [
            "RSS `wargame-bot run` idle, everything loaded",
            f"{mem.loaded_mb:.1f} MB",
            f"{mem.banner_mb:.1f} MB bare",
            "<= 120 MB",
            verdict(mem.loaded_mb <= 120),
        ],
        [
            f"RSS growth over {cmd['commands']:,} commands (App, 1 process)",
            f"{rss[0][1]:.1f} -> {rss[-1][1]:.1f} MB",
            f"+{growth:.1f} MB (+{late_growth:.1f} in 2nd half)",
            "bounded",
            verdict(late_growth <= 2.0),
        ],
        [
            "event log bytes per change, 200-unit game",
            f"{store.row_bytes_avg:,.0f} B",
            f"typical {store.row_bytes_typical:,.0f} B, file +{store.file_bytes_per_change:,.0f}"
            f" B; before deltas {store.old_bytes_per_change:,} B",
            "<= 2 KB",
            verdict(store.row_bytes_avg <= 2048),
        ],
        [
            "write commands/s, synchronous NORMAL / FULL",
            f"{store.per_s['NORMAL']:,.0f} / {store.per_s['FULL']:,.0f}",
            "NORMAL is the default (README: Reliability)",
            "measured",
            "-",
        ],
    ]
    rows += [
        [
            f"image render p50 / p99: {r.name}",
            f"{r.p50_ms:.0f} / {r.p99_ms:.0f} ms",
            f"CPU p50 {r.cpu_p50_ms:.0f} ms, {r.size:,} B PNG, warm worker",
            f"<= {images_bench.GOAL_MS:.0f} ms each",
            verdict(r.met),
        ]
        for r in pictures
    ]
    if scaling is None:
        rows.append(["PostgreSQL, 2 processes vs 1", "skipped", "no server", ">= 1.6x", "-"])
    else:
        per_s = {(r.processes, r.chats, r.label.split(",")[0]): r.per_s for r in scaling}
        spread = postgres_bench.SPREAD_CHATS
        two = per_s[(2, spread, "PostgreSQL")] / per_s[(1, spread, "PostgreSQL")]
        four = per_s[(4, spread, "PostgreSQL")] / per_s[(1, spread, "PostgreSQL")]
        rows.append(
            [
                f"PostgreSQL, 2 processes vs 1 ({spread} chats)",
                f"{per_s[(2, spread, 'PostgreSQL')]:,.0f}/s",
                f"{two:.2f}x; 4 processes {four:.2f}x; SQLite 1 process "
                f"{per_s[(1, spread, 'SQLite')]:,.0f}/s",
                ">= 1.6x",
                verdict(two >= 1.6),
            ]
        )
    print()
    print(f"Summary — {machine()}; load average {load:.1f} when the run started")
    headers = ["measure", "ours", "ratio / peer (issue #26 rows: today)", "goal", "met"]
    print(table(headers, rows))
    if games.slower:
        print("icepool was faster on: " + "; ".join(games.slower))
    print(f"(make bench took {elapsed:.0f} s)")
    print()
    print("The same as Markdown (README, Benchmarks):")
    print(markdown(headers, rows))
    return 0 if join_threads() else 1


def join_threads() -> bool:
    """Every non-daemon thread joined: one left running (an App never stopped keeps its
    aiosqlite worker) would keep this process alive after its last line. The worker pool's
    processes (and their manager threads) are stopped first, as they would be at exit."""
    from bot import workers

    workers.shared().shutdown()
    left = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
    for thread in left:
        thread.join(timeout=5)
    alive = [t.name for t in left if t.is_alive()]
    if alive:
        print(f"bench: threads still running: {', '.join(alive)}", file=sys.stderr)
        sys.stderr.flush()
        os._exit(1)  # say so and end, rather than hang
    return True


if __name__ == "__main__":
    sys.exit(main())
