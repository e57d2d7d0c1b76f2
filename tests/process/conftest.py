"""Run `wargame-bot` as a real process: the installed console script, in an empty working
directory, with the user's folders (XDG) and the database under the test's tmp_path and no
token or locale inherited from whoever runs the suite."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

BOT = str(Path(sys.executable).with_name("wargame-bot"))
SCRUB = ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "WARGAME_BOT_LOG_LEVEL", "LC_ALL", "LC_MESSAGES")


@dataclass
class Cli:
    root: Path
    env: dict[str, str] = field(default_factory=dict)

    @property
    def cwd(self) -> Path:
        return self.root / "work"

    @property
    def db(self) -> Path:
        return Path(self.env["WARGAME_BOT_DB"])

    @property
    def exports(self) -> Path:
        return Path(self.env["XDG_DATA_HOME"]) / "wargame-bot" / "exports"

    def run(
        self, *args: str, input: str | None = "", **env: str
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [BOT, *args],
            input=input,
            cwd=self.cwd,
            env={**self.env, **env},
            capture_output=True,
            text=True,
            timeout=120,
        )


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    env = {k: v for k, v in os.environ.items() if k not in SCRUB}
    env.update(
        LANG="C.UTF-8",
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_STATE_HOME=str(tmp_path / "state"),
        WARGAME_BOT_DB=str(tmp_path / "db" / "bot.sqlite3"),
    )
    (tmp_path / "work").mkdir()
    (tmp_path / "db").mkdir()
    return Cli(tmp_path, env)
