"""The five rulebook transcripts: tests that need them read the directory named by
$WARGAME_RULEBOOKS. Unset, they skip with one reason; with $WARGAME_REQUIRE_RULEBOOKS=1 (CI)
a missing directory fails instead, so they never skip silently. A directory that is named but
lacks a transcript always fails: someone asked for them and would not see the gap otherwise."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.paths import RULEBOOK_TRANSCRIPTS, RULEBOOKS_ENV, missing_transcripts
from bot.paths import rulebooks_dir as transcripts_folder

ENV = RULEBOOKS_ENV
REQUIRE_ENV = "WARGAME_REQUIRE_RULEBOOKS"
SKIP_REASON = f"rulebook transcripts not available: set {ENV} to their directory"

# system -> transcript file name, as laid out in the rulebook directory.
BOOKS = RULEBOOK_TRANSCRIPTS


def problem(environ: os._Environ[str] | dict[str, str]) -> tuple[str, str] | None:
    """("skip" | "fail", reason), or None when every transcript is readable."""
    folder = transcripts_folder(environ)
    required = environ.get(REQUIRE_ENV, "").strip() not in ("", "0")
    if folder is None:
        if required:
            return "fail", f"{REQUIRE_ENV}=1 but {ENV} is not set"
        return "skip", SKIP_REASON
    missing = missing_transcripts(folder)
    if missing:
        return "fail", f"{ENV}={folder}: missing {', '.join(missing)}"
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
    folder = transcripts_folder()
    assert folder is not None  # problem() found none, so the variable names a directory
    return folder


def read_book(name: str) -> str:
    """One transcript's text, by file name (see BOOKS)."""
    return (rulebooks_dir() / name).read_text(encoding="utf-8")
