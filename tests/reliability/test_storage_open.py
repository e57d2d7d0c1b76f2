"""Opening the database as a real process (`wargame-bot ask --json`) when the file is not a
normal writable database: read-only files and folders in both journal modes still read, and
every unusable path ends with one clear sentence, exit 2 and (with --json) exactly one JSON
object on stdout: never a traceback, never a "Syntax:" line.

Read-only is tested for real: the children run without root's permission override (see
tests/reliability/unprivileged.py), so chmod binds them as it binds any other user."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import i18n
from bot.app import App
from bot.storage.db import schema_version
from tests.helpers import say
from tests.reliability.unprivileged import obey_permissions, permissions_apply

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(sys.executable).parent / "wargame-bot"


def ask(db: Path, text: str, *, lang: str = "en") -> tuple[int, dict[str, Any], str]:
    """Run `wargame-bot ask --json` on `db` obeying permission bits; (exit code, the one JSON
    object it printed, stderr)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "WARGAME_BOT_BUSY_SECONDS": "5",
    }
    done = subprocess.run(
        [str(CLI), "ask", "--json", "--lang", lang, "--db", str(db), text],
        capture_output=True,
        text=True,
        cwd=db.parent if db.parent.is_dir() else ROOT,
        env=env,
        preexec_fn=obey_permissions(),
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout  # exactly one JSON object, even on failure
    payload = json.loads(lines[0])
    assert isinstance(payload, dict)
    return done.returncode, payload, done.stderr


def refused(
    db: Path, key: str, langs: tuple[str, ...] = ("en",), **params: object
) -> dict[str, Any]:
    """`/roll 2d6` on `db` ends with exit 2 and the storage message `key` (in `langs`)."""
    for lang in langs:
        code, payload, _ = ask(db, "/roll 2d6", lang=lang)
        expected = i18n.t(lang, key, path=db, **params)  # type: ignore[arg-type]
        assert code == 2, payload
        assert payload["ok"] is False and payload["error"]["code"] == key, payload
        assert payload["error"]["message"] == expected
        assert payload["text"] == expected  # the sentence alone: no "Syntax:" line
    return payload


async def make_database(path: Path, journal: str = "wal") -> int:
    """A database holding one roll; returns the roll's id."""
    app = App(path)
    await app.start()
    try:
        reply = await say(app, "/roll d6 dice=4", chat="console:local")
        assert reply.ok and reply.data is not None
    finally:
        await app.stop()
    if journal != "wal":
        with sqlite3.connect(path) as conn:
            assert conn.execute(f"PRAGMA journal_mode = {journal}").fetchone()[0] == journal
        conn.close()
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-shm").exists()
    return int(reply.data["id"])


@pytest.fixture
def restore_modes(tmp_path: Path) -> Iterator[None]:
    """Give every path under tmp_path its write bits back, so pytest can clean up."""
    yield
    for folder, _, files in os.walk(tmp_path):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)


@pytest.mark.usefixtures("restore_modes")
@pytest.mark.parametrize(
    ("journal", "folder_read_only"),
    [("wal", True), ("delete", False), ("delete", True), ("wal", False)],
)
async def test_a_read_only_database_reads_and_refuses_writes_in_one_sentence(
    tmp_path: Path, journal: str, folder_read_only: bool
) -> None:
    folder = tmp_path / "volume"
    folder.mkdir()
    db = folder / "bot.sqlite3"
    roll = await make_database(db, journal)
    db.chmod(0o444)
    if folder_read_only:
        folder.chmod(0o555)  # a read-only volume: not even a -shm or -journal file can be made
    assert permissions_apply(str(db)), "the child could still write a 0444 file"
    before = db.read_bytes()

    code, payload, _ = ask(db, "/roll history")
    assert code == 0 and payload["ok"], payload
    assert [r["id"] for r in payload["data"]["rolls"]] == [roll]

    code, payload, _ = ask(db, "/roll 2d6")
    message = i18n.t("en", "storage.read_only")
    assert code == 2 and payload["error"] == {"code": "storage.read_only", "message": message}
    assert payload["text"] == message  # no "Syntax:" line after a storage error
    assert db.read_bytes() == before
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == journal  # not switched
    conn.close()


@pytest.mark.usefixtures("restore_modes")
async def test_an_unreadable_file_is_one_sentence(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    await make_database(db)
    db.chmod(0o000)
    refused(db, "storage.open.unreadable")


@pytest.mark.usefixtures("restore_modes")
async def test_a_read_only_file_of_an_older_schema_says_it_needs_an_upgrade(
    tmp_path: Path,
) -> None:
    db = tmp_path / "bot.sqlite3"
    await make_database(db)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 6")
    conn.close()
    db.chmod(0o444)
    refused(db, "storage.open.needs_upgrade", found=6, latest=schema_version())


def test_a_folder_given_as_the_database_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "db").mkdir()
    refused(tmp_path / "db", "storage.open.is_directory", langs=("en", "it"))


def test_the_database_folder_is_created_on_start(tmp_path: Path) -> None:
    db = tmp_path / "new" / "deeper" / "bot.sqlite3"
    code, payload, _ = ask(db, "/roll 2d6")
    assert code == 0 and payload["ok"], payload
    assert db.is_file()


def test_a_folder_that_cannot_be_created_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    refused(tmp_path / "file" / "sub" / "bot.sqlite3", "storage.open.no_folder")


@pytest.mark.usefixtures("restore_modes")
def test_a_new_file_in_a_read_only_folder_is_one_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    refused(folder / "bot.sqlite3", "storage.open.read_only_folder")


async def test_a_corrupt_file_is_one_sentence_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    app = App(db)
    await app.start()
    try:
        for i in range(40):
            await say(app, f"/roll 20d6 {'x' * 200} {i}")
    finally:
        await app.stop()
    raw = bytearray(db.read_bytes())
    raw[4096 * 2 : 4096 * 2 + 512] = os.urandom(512)
    db.write_bytes(bytes(raw))
    refused(db, "storage.open.corrupt", langs=("it",))
    assert db.read_bytes() == raw


def test_a_file_that_is_not_sqlite_is_one_sentence(tmp_path: Path) -> None:
    db = tmp_path / "notes.sqlite3"
    db.write_bytes(b"these are my notes, not a database\n" * 10)
    refused(db, "storage.open.not_sqlite")


async def test_a_newer_schema_is_one_sentence(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    await make_database(db)
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {schema_version() + 1}")
    conn.close()
    refused(db, "storage.open.newer_schema", found=schema_version() + 1, latest=schema_version())
