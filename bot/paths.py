"""Where files live: the shipped data folder (beside the source in a checkout, in the wheel
otherwise) and the console's per-user state and data folders."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import platformdirs


@cache
def data_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "_data", here.parent / "data"):
        if (candidate / "locales").is_dir():
            return candidate
    raise RuntimeError("data folder not found (expected data/locales beside the bot package)")


# Where the console keeps what it writes for its user: never the working tree (a checkout or
# wherever the command was started), but the platform's per-user folders (XDG on Linux).
APP_NAME = "wargame-bot"


def console_history_file() -> Path:
    """The console's line-editing history (a state file: useful, not precious)."""
    return platformdirs.user_state_path(APP_NAME) / "console_history"


def exports_dir() -> Path:
    """Where the console saves the files a reply carries (a campaign export, ...)."""
    return platformdirs.user_data_path(APP_NAME) / "exports"
