"""A bad environment variable ends the bot with one line naming it and exit 2, never a
traceback (the container's log shows what to fix)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"WARGAME_BOT_SYNCHRONOUS": "sometimes"}, "WARGAME_BOT_SYNCHRONOUS"),
        ({"WARGAME_BOT_METRICS_PORT": "http"}, "WARGAME_BOT_METRICS_PORT"),
        ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "0,5"}, "DISCORD_SHARD_IDS"),
    ],
)
def test_a_bad_setting_is_one_line_and_exit_2(
    tmp_path: Path, env: dict[str, str], named: str
) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "/roll d6"],
        capture_output=True,
        text=True,
        env={**os.environ, "WARGAME_BOT_DB": str(tmp_path / "x.sqlite3"), **env},
        cwd=tmp_path,
        timeout=60,
    )
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and "Traceback" not in run.stderr


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path: Path) -> None:
    """`wargame-bot ask … | head -1`: the pipe closes before the reply is printed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "ask", "/help"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "WARGAME_BOT_DB": str(tmp_path / "x.sqlite3")},
        cwd=tmp_path,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the child can write anything
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err
