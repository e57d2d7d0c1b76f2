"""`make bench` never hangs: a benchmark that fails half-way still closes its App, whose
aiosqlite worker is a non-daemon thread that would keep the interpreter alive forever."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Runs one benchmark with a failure injected right after its App started, then lists the
# non-daemon threads still alive (after a bounded join) and leaves at once (os._exit: a
# leaked thread cannot hang us).
SCRIPT = """
import os, sys, threading
import {module} as bench_module

def boom(*args, **kwargs):
    raise RuntimeError("injected")

setattr(bench_module, {name!r}, boom)
try:
    bench_module.main()
except RuntimeError as e:
    print("raised", e)
# aiosqlite's worker answers close() and only then leaves its loop: give a closing thread time
# to end; a leaked one waits on its queue forever and is still alive after the timeout.
for t in threading.enumerate():
    if t is not threading.main_thread() and not t.daemon:
        t.join(timeout=10)
left = [t.name for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
print("left", left, flush=True)
os._exit(0)
"""


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("bench.rules_bench", "rule_index"),  # right after app.start()
        ("bench.commands_bench", "schedule"),
    ],
)
def test_a_failing_benchmark_closes_its_app(module: str, name: str, tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(module=module, name=name)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert "raised injected" in out.stdout, out.stdout + out.stderr
    assert "left []" in out.stdout, out.stdout + out.stderr
