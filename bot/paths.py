"""Where files live: the shipped data folder (beside the source in a checkout, in the wheel
otherwise) and the console's per-user state and data folders."""

from __future__ import annotations

import os
from collections.abc import Mapping
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


def cache_dir() -> Path:
    """Derived files worth keeping between processes (the parsed catalogues): deleting the
    folder only costs the next start the time to rebuild them."""
    return platformdirs.user_cache_path(APP_NAME)


def console_history_file() -> Path:
    """The console's line-editing history (a state file: useful, not precious)."""
    return platformdirs.user_state_path(APP_NAME) / "console_history"


def exports_dir() -> Path:
    """Where the console saves the files a reply carries (a campaign export, ...)."""
    return platformdirs.user_data_path(APP_NAME) / "exports"


# The five rulebook transcripts, system -> file name in the directory $WARGAME_RULEBOOKS names.
# The bot never reads them at run time: scripts/build_refs.py, the rule benchmark and the tests do.
RULEBOOKS_ENV = "WARGAME_RULEBOOKS"
RULEBOOK_TRANSCRIPTS = {
    "wm": "000_a386fedfef0f54d6.txt",
    "aos": "001_3302d92f440b0a0b.txt",
    "wow": "002_1d2de6f2890ae553.txt",
    "inf": "003_27b81155ce3a4b9f.txt",
    "c5": "004_860f6fb4adb088a0.txt",
}


def rulebooks_dir(environ: Mapping[str, str] = os.environ) -> Path | None:
    """The directory $WARGAME_RULEBOOKS names, or None when it is unset or blank."""
    raw = environ.get(RULEBOOKS_ENV, "").strip()
    return Path(raw).expanduser() if raw else None


def missing_transcripts(folder: Path) -> list[str]:
    """The transcripts' file names that `folder` lacks."""
    return [name for name in RULEBOOK_TRANSCRIPTS.values() if not (folder / name).is_file()]
