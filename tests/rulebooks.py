"""The five rulebook transcripts: tests that need them read the directory named by
$WARGAME_RULEBOOKS. Unset, they skip with one reason; with $WARGAME_REQUIRE_RULEBOOKS=1 (CI)
a missing directory fails instead, so they never skip silently. A directory that is named but
lacks a transcript always fails: someone asked for them and would not see the gap otherwise."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ENV = "WARGAME_RULEBOOKS"
REQUIRE_ENV = "WARGAME_REQUIRE_RULEBOOKS"
SKIP_REASON = f"rulebook transcripts not available: set {ENV} to their directory"

# system -> transcript file name, as laid out in the rulebook directory.
BOOKS = {
    "wm": "000_a386fedfef0f54d6.txt",
    "aos": "001_3302d92f440b0a0b.txt",
    "wow": "002_1d2de6f2890ae553.txt",
    "inf": "003_27b81155ce3a4b9f.txt",
    "c5": "004_860f6fb4adb088a0.txt",
}


def problem(environ: os._Environ[str] | dict[str, str]) -> tuple[str, str] | None:
    """("skip" | "fail", reason), or None when every transcript is readable."""
    raw = environ.get(ENV, "").strip()
    required = environ.get(REQUIRE_ENV, "").strip() not in ("", "0")
    if not raw:
        if required:
            return "fail", f"{REQUIRE_ENV}=1 but {ENV} is not set"
        return "skip", SKIP_REASON
    folder = Path(raw).expanduser()
    missing = [name for name in BOOKS.values() if not (folder / name).is_file()]
    if missing:
        return "fail", f"{ENV}={raw}: missing {', '.join(missing)}"
    return None


def rulebooks_dir() -> Path:
    """The transcripts' directory; skips or fails the calling test when they are not there.
    Called from the test body (not a fixture) so that every skip is raised at this one line
    and pytest's summary folds them into one reason."""
    found = problem(os.environ)
    if found is not None:
        outcome, reason = found
        if outcome == "skip":
            pytest.skip(reason)
        pytest.fail(reason, pytrace=False)
    return Path(os.environ[ENV]).expanduser()


def read_book(name: str) -> str:
    """One transcript's text, by file name (see BOOKS)."""
    return (rulebooks_dir() / name).read_text(encoding="utf-8")
