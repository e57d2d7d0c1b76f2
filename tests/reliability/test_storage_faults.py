"""Storage under faults: a read-only or full database, older schemas, corrupted files, and a
process killed mid-stream (SIGKILL) losing nothing it had acknowledged."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from bot import i18n
from bot.app import App
from bot.render import plain
from bot.storage.conn import LOCK_CHAT, chat_lock_key
from bot.storage.db import Database, SqliteDatabase, StorageError, migrations, schema_version
from tests.helpers import say

WRITER = """
import asyncio, sys
from bot.app import App
from bot.protocol import Request

async def main() -> None:
    app = App(sys.argv[1])
    await app.start()
    i = 0
    while True:
        i += 1
        reply = await app.handle(Request(platform="console", chat_key="console:crash",
                                         user_id="w", user_name="w", text=f"/roll d6 n{i}"))
        print(reply.data["id"], flush=True)  # acknowledged: the transaction has committed

asyncio.run(main())
"""


def test_sigkill_loses_no_acknowledged_command(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.stdout is not None
    acknowledged = []
    for line in proc.stdout:
        acknowledged.append(int(line))
        if len(acknowledged) >= 150:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = {row[0] for row in conn.execute("SELECT id FROM rolls")}
    assert set(acknowledged) <= stored


async def test_after_a_kill_the_bot_serves_again(tmp_path: Path) -> None:
    test_sigkill_loses_no_acknowledged_command(tmp_path)
    app = App(tmp_path / "crash.sqlite3")
    await app.start()
    try:
        reply = await say(app, "/roll d6", chat="console:crash")
        assert reply.ok and reply.data is not None and reply.data["id"] > 150
    finally:
        await app.stop()


async def test_read_only_database_refuses_writes_clearly_and_still_reads(
    app: App, db_target: Path | str
) -> None:
    first = await say(app, "/roll d6 dice=4")
    assert first.ok
    if isinstance(app.db, SqliteDatabase):
        await app.db.conn.execute("PRAGMA query_only = ON")  # what SQLite does on a read-only file
    else:  # what a hot standby (a read-only replica) does: every transaction is read-only
        admin = await asyncpg.connect(str(db_target))
        name = str(db_target).rsplit("/", 1)[1]
        await admin.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
        await admin.close()
        await app.stop()
        await app.start()
        assert app.db.read_only
    refused = await say(app, "/roll d6 dice=5")
    assert refused.error is not None and refused.error.code == "storage.read_only"
    assert "Traceback" not in plain.render(refused)
    history = await say(app, "/roll history")
    assert history.ok and history.data is not None
    assert [r["id"] for r in history.data["rolls"]] == [first.data["id"]]  # type: ignore[index]
    assert (await say(app, "/odds 2d6")).ok


async def test_full_disk_refuses_writes_clearly_and_leaves_nothing_half_written(
    tmp_path: Path,
) -> None:
    """SQLite's page limit stands for a full disk (a PostgreSQL server's full disk is its
    DiskFullError, told the same way: see bot/storage/postgres.py)."""
    app = App(tmp_path / "full.sqlite3")
    await app.start()
    try:
        await fill_the_disk(app)
    finally:
        await app.stop()


async def fill_the_disk(app: App) -> None:
    assert isinstance(app.db, SqliteDatabase)
    await say(app, "/roll d6 dice=4")
    async with app.db.conn.execute("PRAGMA page_count") as cur:
        pages = (await cur.fetchone())[0]  # type: ignore[index]
    await app.db.conn.execute(f"PRAGMA max_page_count = {pages}")
    label = "x" * 250
    outcomes = [await say(app, f"/roll 20d6 {label}") for _ in range(40)]
    failed = [r for r in outcomes if r.error is not None]
    assert failed, "the page limit never filled up"
    assert {r.error.code for r in failed} == {"storage.disk_full"}  # type: ignore[union-attr]
    await app.db.conn.execute("PRAGMA max_page_count = 1073741823")
    history = await say(app, "/roll history 50")
    assert history.data is not None
    saved = [r for r in outcomes if r.ok]
    assert len(history.data["rolls"]) == 1 + len(saved)


@pytest.mark.parametrize("version", [v for v, _, _ in migrations()][:-1] or [0])
async def test_every_earlier_schema_migrates_with_its_data(tmp_path: Path, version: int) -> None:
    path = tmp_path / f"v{version}.sqlite3"
    with sqlite3.connect(path) as conn:
        for number, _, sql in migrations():
            if number <= version:
                conn.executescript(sql)
        conn.execute(f"PRAGMA user_version = {version}")
        conn.execute(
            "INSERT INTO rolls (chat_key, user_id, user_name, expression, faces, seed, result, "
            "created_at) VALUES ('console:old', 'u', 'Old', '2d6', ?, NULL, ?, "
            "'2026-01-01T00:00:00+00:00')",
            (json.dumps([3, 4]), json.dumps([{"total": 7}])),
        )
        if "number" in {r[1] for r in conn.execute("PRAGMA table_info(rolls)")}:
            conn.execute("UPDATE rolls SET number = 1")  # as that version's bot wrote it
    app = App(path)
    await app.start()
    try:
        async with app.db.conn.execute("PRAGMA user_version") as cur:
            assert (await cur.fetchone())[0] == schema_version()  # type: ignore[index]
        shown = await say(app, "/roll show 1", chat="console:old")
        assert shown.ok and shown.data is not None and shown.data["total"] == 7
    finally:
        await app.stop()


async def test_corrupted_database_is_refused_and_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite3"
    db = Database(path)
    await db.open()
    async with db.transaction() as conn:
        for i in range(300):
            await conn.execute("INSERT INTO kv (key, value) VALUES (?, ?)", (f"k{i}", "v" * 200))
    await db.close()
    raw = bytearray(path.read_bytes())
    page = 4096
    raw[page * 2 : page * 2 + 512] = os.urandom(512)  # scribble over a b-tree page
    path.write_bytes(bytes(raw))
    before = path.read_bytes()
    with pytest.raises(StorageError):
        await Database(path).open()
    assert path.read_bytes() == before


async def test_a_writer_waits_out_a_lock_longer_than_one_sqlite_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Another process holds the write lock through several of SQLite's own waits: the
    command keeps trying (with backoff) and succeeds once the lock is released."""
    monkeypatch.setenv("WARGAME_BOT_BUSY_SECONDS", "120")
    path = tmp_path / "held.sqlite3"
    app = App(path)
    await app.start()
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        caplog.set_level(logging.DEBUG, logger="bot.storage.db")
        task = asyncio.create_task(say(app, "/roll d6 dice=4"))
        retries: list[logging.LogRecord] = []
        while len(retries) < 2 and not task.done():  # waits on events, not on a clock
            await asyncio.sleep(0.05)
            retries = [r for r in caplog.records if "database busy" in r.getMessage()]
        holder.execute("COMMIT")
        reply = await task
        assert reply.ok, plain.render(reply)
        assert len(retries) >= 2
    finally:
        holder.close()
        await app.stop()


async def test_busy_is_said_only_after_the_deadline_and_without_a_syntax_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WARGAME_BOT_BUSY_SECONDS", "1.5")
    path = tmp_path / "held.sqlite3"
    app = App(path)
    await app.start()
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        started = time.monotonic()
        reply = await say(app, "/roll d6")
        waited = time.monotonic() - started
        holder.execute("ROLLBACK")
        assert reply.error is not None and reply.error.code == "storage.busy"
        assert waited >= 1.5  # it tried for the whole deadline before giving up
        assert plain.render(reply) == i18n.t("en", "storage.busy")
        assert (await say(app, "/roll d6")).ok  # and nothing is stuck afterwards
    finally:
        holder.close()
        await app.stop()


@asynccontextmanager
async def chat_held(url: str, chat: str) -> AsyncIterator[tuple[App, asyncpg.Connection]]:
    """An App on `url`, and another process's command on `chat` in its transaction: the chat's
    lock taken."""
    app = App(url)
    await app.start()
    holder = await asyncpg.connect(url)
    try:
        await holder.execute("BEGIN")
        await holder.execute("SELECT pg_advisory_xact_lock($1, $2)", LOCK_CHAT, chat_lock_key(chat))
        yield app, holder
    finally:
        await holder.close()
        await app.stop()


async def test_postgresql_a_command_waits_for_its_chat_and_then_succeeds(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WARGAME_BOT_BUSY_SECONDS", "120")
    async with chat_held(pg_url, "console:test") as (app, holder):
        task = asyncio.create_task(say(app, "/roll d6 dice=4"))
        while not task.done():  # until the command is seen waiting for the lock
            waiting = await holder.fetchval(
                "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            )
            if waiting:
                break
            await asyncio.sleep(0.02)
        assert not task.done()
        other = await say(app, "/roll d6 dice=3", chat="console:other")  # not held up
        assert other.ok
        await holder.execute("COMMIT")
        reply = await task
        assert reply.ok, plain.render(reply)


async def test_postgresql_busy_is_said_only_after_the_deadline(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WARGAME_BOT_BUSY_SECONDS", "1.5")
    async with chat_held(pg_url, "console:test") as (app, holder):
        started = time.monotonic()
        reply = await say(app, "/roll d6", lang="it")
        waited = time.monotonic() - started
        await holder.execute("ROLLBACK")
        assert reply.error is not None and reply.error.code == "storage.busy"
        assert waited >= 1.5
        assert plain.render(reply) == i18n.t("it", "storage.busy")
        assert (await say(app, "/roll d6")).ok


async def test_postgresql_connections_killed_by_the_server_cost_no_command(
    pg_url: str,
) -> None:
    """Every connection of the pool killed by the server (a restart, a failover): a dead
    connection is found at BEGIN, before anything was sent, and replaced, so no command is
    lost to it (one lost in the middle of its transaction says nothing was saved)."""
    app = App(pg_url)
    await app.start()
    try:
        assert (await say(app, "/roll d6")).ok
        admin = await asyncpg.connect(pg_url)
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'wargame-bot' AND pid != pg_backend_pid()"
        )
        await admin.close()
        replies = [await say(app, "/roll d6") for _ in range(3)]
        assert [r.error for r in replies] == [None, None, None]
    finally:
        await app.stop()
