"""`wargame-bot ask` as a subprocess: the public JSON shape and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def ask(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    env = dict(os.environ, WARGAME_BOT_DB=str(tmp_path / "ask.sqlite3"))
    env.pop("DISCORD_TOKEN", None)
    env.pop("TELEGRAM_TOKEN", None)
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--json", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout + proc.stderr
    return proc.returncode, json.loads(lines[0])


def test_roll_json_shape_and_reproducible_seed(tmp_path: Path) -> None:
    code, out = ask(tmp_path, "--seed", "42", "/roll 3d6+2 fire")
    assert code == 0
    assert set(out) == {"ok", "command", "text", "data", "error", "files"} and out["files"] == []
    assert out["ok"] is True and out["error"] is None and out["command"] == "roll"
    data = out["data"]
    assert {"id", "expression", "total", "successes", "dice", "seed"} <= set(data)
    assert data["seed"] == 42 and data["successes"] is None
    faces = data["dice"][0]["faces"]
    assert data["dice"][0]["sides"] == 6 and len(faces) == 3
    assert data["total"] == sum(faces) + 2
    _, again = ask(tmp_path, "--seed", "42", "/roll 3d6+2 fire")
    assert again["data"]["dice"][0]["faces"] == faces
    assert again["data"]["id"] == data["id"] + 1


def test_user_error_exit_2_and_italian(tmp_path: Path) -> None:
    code, out = ask(tmp_path, "--lang", "it", "/roll 2d")
    assert code == 2
    assert out["ok"] is False and out["data"] is None
    assert out["error"]["code"].startswith("dice.")
    assert "Sintassi" in out["text"]


def test_odds_json_distribution(tmp_path: Path) -> None:
    code, out = ask(tmp_path, "/odds 2d6")
    assert code == 0
    data = out["data"]
    assert data["distribution"][0][0] == 2
    assert abs(data["distribution"][0][1] - 1 / 36) < 1e-12
    assert abs(data["mean"] - 7) < 1e-12
    assert [v for v, _ in data["distribution"]] == list(range(2, 13))
