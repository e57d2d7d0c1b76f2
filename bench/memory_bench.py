"""Resident memory of `wargame-bot run` idle, in console mode (no platform tokens; started as
`console`, since `run` with no token and no terminal exits), measured
from outside through /proc/<pid>/status: once right after its banner, and once after every
system, the rule index (built-in entries) and both locales have been loaded by commands."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bench.commands_bench import vm_rss_mb

BIN = Path(sys.executable).parent / "wargame-bot"
READY = "bench-loaded"
# One command of every system and family, both languages, the rule index: everything a
# long-running bot ends up holding.
LOAD = [
    "/help",
    "/roll 4d6kh3",
    "/odds 3d6!",
    "/rule charge",
    '/rule "line of sight" system=wm',
    "/rule cover system=inf",
    "/rule wound system=c5",
    "/rule reroll system=wow",
    "/aos odds attacks=10 hit=3 wound=3 rend=1 damage=1 save=4",
    "/wm odds mat=7 def=12 pow=12 str=10 arm=18",
    "/game new aos Memory",
    "/game status",
    "/lang it",
    "/regola carica",
    "/aiuto",
    "/lang en",
    f"/roll d6 {READY}",
]


@dataclass
class MemoryResult:
    banner_mb: float
    loaded_mb: float
    startup_s: float
    command_errors: int


def _reader(stream: object, lines: queue.Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        lines.put(line)


def _wait_for(lines: queue.Queue[str], marker: str, timeout: float) -> list[str]:
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        seen.append(line)
        if marker in line:
            return seen
    raise RuntimeError(f"wargame-bot run did not print {marker!r}: {''.join(seen)[-2000:]}")


def main() -> MemoryResult:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")}
    with tempfile.TemporaryDirectory() as tmp:
        env["WARGAME_BOT_DB"] = str(Path(tmp) / "memory.sqlite3")
        started = time.perf_counter()
        proc = subprocess.Popen(
            [str(BIN), "console"],  # what `run` is with no token on a terminal
            cwd=tmp,  # no .env of the checkout, history file in the temporary folder
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert proc.stdin is not None and proc.stdout is not None
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
        try:
            _wait_for(lines, "console:local", timeout=60)
            startup = time.perf_counter() - started
            time.sleep(0.5)  # idle
            banner = vm_rss_mb(proc.pid)
            proc.stdin.write("".join(line + "\n" for line in LOAD))
            proc.stdin.flush()
            output = _wait_for(lines, READY, timeout=120)
            time.sleep(0.5)
            loaded = vm_rss_mb(proc.pid)
            errors = sum(1 for line in output if "Syntax:" in line or "nternal error" in line)
        finally:
            proc.stdin.close()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    result = MemoryResult(banner, loaded, startup, errors)
    print(
        f"wargame-bot run (console, idle): {banner:.1f} MB after the banner "
        f"({startup:.1f} s to start), {loaded:.1f} MB with every system, the rule index and "
        f"both locales loaded ({len(LOAD)} commands, {errors} refused)"
    )
    return result
