"""`wargame-bot import-roster FILE --chat KEY --user ID` as a real process on a real file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.army.battlescribe_files import ros, rosz

CHAT = "telegram:-100777"


def run(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    env = dict(os.environ, WARGAME_BOT_DB=str(tmp_path / "cli.sqlite3"))
    env.pop("DISCORD_TOKEN", None)
    env.pop("TELEGRAM_TOKEN", None)
    proc = subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def ask(tmp_path: Path, text: str, user: str = "42") -> dict[str, Any]:
    code, out, err = run(tmp_path, "ask", "--json", "--chat", CHAT, "--user", user, text)
    assert code == 0, out + err
    payload: dict[str, Any] = json.loads(out)
    return payload


def test_import_roster_adds_the_units_for_the_player(tmp_path: Path) -> None:
    ask(tmp_path, "/game new wm")
    file = tmp_path / "cygnar.rosz"
    file.write_bytes(rosz(("cygnar.ros", ros("wm"))))
    code, out, err = run(
        tmp_path, "import-roster", str(file), "--chat", CHAT, "--user", "42", "--save", "Cygnar"
    )
    assert code == 0, out + err
    assert "Units added for 42: 3." in out and "Roster Cygnar saved" in out
    assert "Ironclad: missing: CMD" in out  # as the screens name the stat
    state = ask(tmp_path, "/game status")["data"]["state"]
    assert [u["name"] for u in state["units"]] == [
        "Commander Coleman Stryker",
        "Ironclad",
        "Stormblade Infantry",
    ]
    assert {u["owner"] for u in state["units"]} == {"42"}
    log = ask(tmp_path, "/log")["data"]["events"]
    assert log[0]["command"] == "/army import cygnar.rosz"
    # Saved for Telegram user 42: they load it from any Telegram chat.
    assert ask(tmp_path, "/army list")["data"]["rosters"][0]["name"] == "Cygnar"


def test_import_roster_refuses_bad_files_and_changes_nothing(tmp_path: Path) -> None:
    ask(tmp_path, "/game new aos")
    before = ask(tmp_path, "/game status")["data"]["state"]
    bad = tmp_path / "army.rosz"
    bad.write_bytes(b"<roster/>")  # not a zip
    code, out, err = run(tmp_path, "import-roster", str(bad), "--chat", CHAT, "--user", "42")
    assert code == 2 and "isn't a readable zip file" in out
    code, out, err = run(
        tmp_path, "import-roster", str(tmp_path / "missing.ros"), "--chat", CHAT, "--user", "42"
    )
    assert code == 2 and "There is no file" in err
    code, out, err = run(tmp_path, "import-roster", str(bad), "--user", "42")
    assert code == 2 and "--chat" in err  # argparse: the chat is required
    assert ask(tmp_path, "/game status")["data"]["state"] == before
