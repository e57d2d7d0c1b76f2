from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage import buttons, rolls, settings
from bot.storage.db import Database, StorageError, migrations, schema_version

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


async def test_fresh_file_is_migrated_to_the_latest_version_in_wal(tmp_path: Path) -> None:
    db = Database(tmp_path / "a.sqlite3")
    await db.open()
    try:
        async with db.conn.execute("PRAGMA user_version") as cur:
            assert (await cur.fetchone())[0] == schema_version()  # type: ignore[index]
        async with db.conn.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"  # type: ignore[index]
    finally:
        await db.close()
    assert [v for v, _, _ in migrations()] == sorted({v for v, _, _ in migrations()})


async def test_reopening_keeps_data_and_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    db = Database(path)
    await db.open()
    async with db.transaction() as conn:
        await settings.set_chat_lang(conn, "console:x", "it", NOW)
    await db.close()
    db = Database(path)
    await db.open()
    async with db.transaction(write=False) as conn:
        assert await settings.chat_lang(conn, "console:x") == "it"
        assert await settings.chat_lang(conn, "console:y") is None
    await db.close()


async def test_transaction_rolls_back_on_error(tmp_path: Path) -> None:
    db = Database(tmp_path / "a.sqlite3")
    await db.open()
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await settings.kv_set(conn, "k", "v")
            raise RuntimeError("boom")
    async with db.transaction(write=False) as conn:
        assert await settings.kv_get(conn, "k") is None
    await db.close()


async def test_not_a_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"my campaign notes, not a database" * 100)
    before = path.read_bytes()
    with pytest.raises(StorageError, match="not a SQLite database"):
        await Database(path).open()
    assert path.read_bytes() == before


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {schema_version() + 5}")
    with pytest.raises(StorageError, match="newer"):
        await Database(path).open()


async def test_rolls_are_scoped_to_their_chat(tmp_path: Path) -> None:
    db = Database(tmp_path / "a.sqlite3")
    await db.open()
    async with db.transaction() as conn:
        ident = await rolls.add(
            conn,
            chat_key="telegram:1",
            user_id="u",
            user_name="Ann",
            expression="2d6",
            faces=[3, 4],
            seed=7,
            result=[{"total": 7}],
            now=NOW,
        )
    async with db.transaction(write=False) as conn:
        record = await rolls.get(conn, "telegram:1", ident)
        assert record is not None and record.faces == [3, 4] and record.seed == 7
        assert await rolls.get(conn, "telegram:2", ident) is None
        assert [r.id for r in await rolls.recent(conn, "telegram:1", 5)] == [ident]
    await db.close()


async def test_button_payloads_are_short_and_chat_scoped(tmp_path: Path) -> None:
    db = Database(tmp_path / "a.sqlite3")
    await db.open()
    async with db.transaction() as conn:
        ident = await buttons.save(conn, "telegram:1", "/roll " + "d6+" * 100 + "1", NOW)
        assert len(ident) <= 32
        assert await buttons.load(conn, "telegram:1", ident) is not None
        assert await buttons.load(conn, "telegram:2", ident) is None
    await db.close()
