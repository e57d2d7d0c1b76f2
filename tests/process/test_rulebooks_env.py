"""Where the rulebook transcripts come from (tests/rulebooks.py): unset they skip with one
reason in pytest's summary; required (CI) or named but incomplete, they fail."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.rulebooks import BOOKS, ENV, REQUIRE_ENV, SKIP_REASON, problem

ROOT = Path(__file__).resolve().parents[2]


def test_unset_skips_and_required_fails() -> None:
    assert problem({}) == ("skip", SKIP_REASON)
    assert problem({REQUIRE_ENV: "0"}) == ("skip", SKIP_REASON)
    outcome, reason = problem({REQUIRE_ENV: "1"}) or ("", "")
    assert outcome == "fail" and ENV in reason


def test_a_named_directory_must_hold_every_transcript(tmp_path: Path) -> None:
    for name in list(BOOKS.values())[:4]:
        (tmp_path / name).write_text("x")
    outcome, reason = problem({ENV: str(tmp_path)}) or ("", "")
    assert outcome == "fail" and BOOKS["c5"] in reason
    (tmp_path / BOOKS["c5"]).write_text("x")
    assert problem({ENV: str(tmp_path)}) is None
    assert problem({ENV: str(tmp_path), REQUIRE_ENV: "1"}) is None


def pytest_run(environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in (ENV, REQUIRE_ENV)}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "tests/rules/test_splitter.py",
            "-k",
            "table_of_contents or transcript",
        ],
        cwd=ROOT,
        env={**env, **environ},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_summary_shows_one_skip_reason_and_ci_turns_it_into_failures() -> None:
    skipped = pytest_run({})
    assert skipped.returncode == 0, skipped.stdout
    reasons = [line for line in skipped.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(reasons) == 1 and reasons[0].endswith(SKIP_REASON), skipped.stdout
    assert reasons[0].startswith(f"SKIPPED [{len(BOOKS) + 1}] ")

    required = pytest_run({REQUIRE_ENV: "1"})
    assert required.returncode == 1
    assert f"{len(BOOKS) + 1} failed" in required.stdout and "skipped" not in required.stdout
