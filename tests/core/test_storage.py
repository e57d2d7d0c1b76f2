"""The storage layer on both backends (SQLite file, real PostgreSQL server: see tests/pg.py),
plus what only one of them has (SQLite's WAL file, PostgreSQL's schema_version table, URLs)."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from bot import i18n
from bot.config import Settings
from bot.health import check, heartbeat_path
from bot.rules_import import extract
from bot.storage import buttons, rolls, rulebooks, settings
from bot.storage.db import Database, StorageError, migrations, schema_version
from bot.storage.postgres import redact, to_postgres
from rules_core.errors import UserError
from tests.pg_server import free_port
from tests.rulebooks import BOOKS, read_book

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


async def test_fresh_database_is_at_the_latest_version(db_target: Path | str) -> None:
    db = Database(db_target)
    await db.open()
    try:
        async with db.transaction(write=False) as conn:
            if db.dialect == "sqlite":
                version = await conn.fetch_one("PRAGMA user_version")
                journal = await conn.fetch_one("PRAGMA journal_mode")
                assert journal is not None and journal[0] == "wal"
            else:
                version = await conn.fetch_one("SELECT version FROM schema_version")
        assert version is not None and version[0] == schema_version(db.dialect)
    finally:
        await db.close()


def test_both_backends_have_the_same_migration_numbers_from_postgresql_s_first() -> None:
    """A SQLite migration added without its PostgreSQL twin (or the reverse) fails here."""
    lite = [v for v, _, _ in migrations("sqlite")]
    pg = [v for v, _, _ in migrations("postgresql")]
    assert lite == sorted(set(lite)) and pg == sorted(set(pg))
    assert [v for v in lite if v >= pg[0]] == pg
    assert schema_version("sqlite") == schema_version("postgresql")


async def test_reopening_keeps_data_and_applies_nothing_twice(db_target: Path | str) -> None:
    db = Database(db_target)
    await db.open()
    async with db.transaction() as conn:
        await settings.set_chat_lang(conn, "console:x", "it", NOW)
    await db.close()
    db = Database(db_target)
    await db.open()
    async with db.transaction(write=False) as conn:
        assert await settings.chat_lang(conn, "console:x") == "it"
        assert await settings.chat_lang(conn, "console:y") is None
    await db.close()


async def test_transaction_rolls_back_on_error(db_target: Path | str) -> None:
    db = Database(db_target)
    await db.open()
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await settings.kv_set(conn, "k", "v")
            raise RuntimeError("boom")
    async with db.transaction(write=False) as conn:
        assert await settings.kv_get(conn, "k") is None
    await db.close()


async def test_total_changes_moves_only_when_rows_are_written(db_target: Path | str) -> None:
    """`Context.active_game` trusts the first read while this count has not moved."""
    db = Database(db_target)
    await db.open()
    try:
        async with db.transaction() as conn:
            start = conn.total_changes
            await settings.kv_get(conn, "nothing")
            assert await conn.execute("UPDATE kv SET value = 'x' WHERE key = 'absent'") == 0
            assert conn.total_changes == start
            await settings.kv_set(conn, "k", "v")
            assert conn.total_changes == start + 1
            await buttons.save(conn, "telegram:1", "/roll d6", NOW)  # INSERT ... (no RETURNING)
            await rolls.add(  # INSERT ... RETURNING
                conn,
                chat_key="telegram:1",
                user_id="u",
                user_name="Ann",
                expression="d6",
                faces=[3],
                seed=1,
                result=[{"total": 3}],
                now=NOW,
            )
            assert conn.total_changes >= start + 3  # SQLite also counts its trigger's update
    finally:
        await db.close()


async def test_rolls_are_scoped_to_their_chat(db_target: Path | str) -> None:
    db = Database(db_target)
    await db.open()
    async with db.transaction() as conn:
        ident = await rolls.add(
            conn,
            chat_key="telegram:1",
            user_id="u",
            user_name="Ann",
            expression="2d6",
            faces=[3, 4],
            seed=2**62,
            result=[{"total": 7}],
            now=NOW,
        )
    async with db.transaction(write=False) as conn:
        record = await rolls.get(conn, "telegram:1", ident)
        assert record is not None and record.faces == [3, 4] and record.seed == 2**62
        assert await rolls.get(conn, "telegram:2", ident) is None
        assert [r.number for r in await rolls.recent(conn, "telegram:1", 5)] == [ident]
    await db.close()


async def test_button_payloads_are_short_and_chat_scoped(db_target: Path | str) -> None:
    db = Database(db_target)
    await db.open()
    async with db.transaction() as conn:
        ident = await buttons.save(conn, "telegram:1", "/roll " + "d6+" * 100 + "1", NOW)
        assert await buttons.save(conn, "telegram:1", "/roll " + "d6+" * 100 + "1", NOW) == ident
        assert len(ident) <= 32
        assert await buttons.load(conn, "telegram:1", ident) is not None
        assert await buttons.load(conn, "telegram:2", ident) is None
    await db.close()


async def test_a_named_lock_has_one_holder_until_released(db_target: Path | str) -> None:
    """What a Telegram poller's election stands on (see `Database.try_hold`)."""
    first, second = Database(db_target), Database(db_target)
    await first.open()
    await second.open()
    try:
        held = await first.try_hold("telegram-poller")
        assert held is not None and await held.alive()
        assert await second.try_hold("telegram-poller") is None
        other = await second.try_hold("another-name")
        assert other is not None
        await other.release()
        await held.release()
        assert not await held.alive()
        again = await second.try_hold("telegram-poller")
        assert again is not None
        await again.release()
    finally:
        await first.close()
        await second.close()


# --- SQLite only ----------------------------------------------------------------------------


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


# --- PostgreSQL only ------------------------------------------------------------------------


def test_a_postgresql_url_selects_postgresql_and_a_path_sqlite() -> None:
    url = "postgresql://bot:secret@db.example:5432/wargame?sslmode=require"
    assert Settings(wargame_bot_db=url).db_path == url
    assert Settings(wargame_bot_db="data/bot.sqlite3").db_path == Path("data/bot.sqlite3")
    assert Database(url).dialect == "postgresql"
    assert Database(Path("x.sqlite3")).dialect == "sqlite"
    assert redact(url) == "postgresql://bot@db.example:5432/wargame"
    with pytest.raises(ValueError, match="postgresql"):
        Settings(wargame_bot_db="mysql://bot@db/wargame")


def test_placeholders_become_numbered_outside_quotes_and_comments() -> None:
    sql = "SELECT '?', \"a?\" FROM t WHERE a = ? AND b = ?2 -- why?\nAND c = ?"
    assert (
        to_postgres(sql) == "SELECT '?', \"a?\" FROM t WHERE a = $1 AND b = $2 -- why?\nAND c = $2"
    )


async def test_postgresql_newer_schema_is_refused(pg_url: str) -> None:
    raw = await asyncpg.connect(pg_url)
    await raw.execute("UPDATE schema_version SET version = version + 5")
    await raw.close()
    with pytest.raises(StorageError, match="newer") as caught:
        await Database(pg_url).open()
    assert "postgresql://postgres@127.0.0.1" in str(caught.value)


async def test_processes_starting_together_migrate_an_empty_database_once(
    empty_pg_database: str,
) -> None:
    dbs = [Database(empty_pg_database) for _ in range(4)]
    await asyncio.gather(*(db.open() for db in dbs))
    try:
        async with dbs[0].transaction(write=False) as conn:
            assert await conn.fetch_all("SELECT version FROM schema_version") == [
                (schema_version("postgresql"),)
            ]
    finally:
        for db in dbs:
            await db.close()


async def test_an_unreachable_server_is_one_localized_sentence_without_the_password() -> None:
    url = f"postgresql://bot:hunter2@127.0.0.1:{free_port()}/wargame"
    db = Database(url, busy_seconds=5)
    with pytest.raises(StorageError) as caught:
        await db.open()
    assert caught.value.key == "storage.open.unreachable"
    for lang in ("en", "it"):
        text = caught.value.message(lang)
        assert "hunter2" not in text and "127.0.0.1" in text
    assert caught.value.message("it") != caught.value.message("en")


async def test_a_missing_database_is_named(pg_url: str) -> None:
    url = pg_url.rsplit("/", 1)[0] + "/no_such_database"
    with pytest.raises(StorageError) as caught:
        await Database(url).open()
    assert caught.value.key == "storage.open.no_database"
    assert "no_such_database" in caught.value.message("it")


async def test_commands_on_one_chat_wait_for_each_other_and_other_chats_do_not(
    pg_url: str,
) -> None:
    """A transaction holding chat A's lock: another process's transaction on A waits (and, past
    its busy deadline, is told the database is busy); one on chat B goes straight through.
    (SQLite needs no such lock: its one write lock orders every writer.)"""
    holder, other = Database(pg_url), Database(pg_url, busy_seconds=0.3)
    await holder.open()
    await other.open()
    try:
        async with holder.transaction() as conn:
            await conn.lock_chat("telegram:A")
            with pytest.raises(UserError) as caught:
                async with other.transaction() as conn2:
                    await conn2.lock_chat("telegram:A")
            assert caught.value.key == "storage.busy"
            assert i18n.t("it", caught.value.key)
            async with other.transaction() as conn2:
                await conn2.lock_chat("telegram:B")
                await settings.kv_set(conn2, "b", "1")
            async with other.transaction(write=False) as conn2:
                await conn2.lock_chat("telegram:A")  # a read takes no lock
        async with other.transaction() as conn2:  # released with the holder's commit
            await conn2.lock_chat("telegram:A")
    finally:
        await holder.close()
        await other.close()


def test_health_reads_a_postgresql_schema_without_changing_it(pg_url: str) -> None:
    """`wargame-bot health` on PostgreSQL: the schema is checked (read-only), and the heartbeat
    lives in the process's temporary folder, not beside a file."""
    problems, _ = check(pg_url)
    assert problems == [f"no heartbeat at {heartbeat_path(pg_url)}: `wargame-bot run` is not "
                        "serving any platform"]  # fmt: skip
    assert "secret" not in str(heartbeat_path(pg_url.replace("postgres@", "postgres:secret@")))
    elsewhere = f"postgresql://postgres@127.0.0.1:{free_port()}/x"
    assert "cannot be reached" in " ".join(check(elsewhere)[0])


SEARCHES = {
    "numbered.txt": ["105.1a", "Segnatempo", "fango sabbia", "dadi", "vincere la sfida", "turno"],
    "wow": [
        "Personal Clock settato",
        "bersagliare",
        "danno e cura",
        "linea di vista",
        "attacco",
        "movimento",
        "effetti di sostituzione",
        "eroe",
        "dadi",
        "vincere",
    ],
}


async def top_three(target: Path | str, book: bytes, queries: list[str]) -> list[list[str]]:
    db = Database(target)
    await db.open()
    try:
        split = await extract(book, "book.txt")
        async with db.transaction() as conn:
            await rulebooks.add(
                conn, scope="*", system="wow", title="Book", split=split, imported_by="t", now=NOW
            )
        found = []
        async with db.transaction(write=False) as conn:
            for query in queries:
                hits = await rulebooks.search(conn, "telegram:1", query, None, limit=3)
                found.append([f"{h.heading} @{h.location}" for h in hits])
        return found
    finally:
        await db.close()


async def test_rule_search_ranks_alike_on_both_backends(tmp_path: Path, pg_url: str) -> None:
    """FTS5's BM25 on SQLite and the tsvector twin on PostgreSQL give the same three passages,
    in the same order, for the same queries (see bot/storage/rulebooks.py)."""
    book = (Path(__file__).parents[1] / "fixtures/rulebooks/numbered.txt").read_bytes()
    queries = SEARCHES["numbered.txt"]
    lite = await top_three(tmp_path / "a.sqlite3", book, queries)
    assert sum(1 for hits in lite if hits) >= len(queries) - 2
    assert await top_three(pg_url, book, queries) == lite


async def test_rule_search_ranks_alike_on_both_backends_in_a_real_rulebook(
    tmp_path: Path, pg_url: str
) -> None:
    book = read_book(BOOKS["wow"]).encode()
    queries = SEARCHES["wow"]
    lite = await top_three(tmp_path / "a.sqlite3", book, queries)
    assert sum(1 for hits in lite if hits) >= len(queries) - 2
    assert await top_three(pg_url, book, queries) == lite


HOLDER = """
import asyncio, sys
from bot.storage.db import Database

async def main() -> None:
    db = Database(sys.argv[1])
    await db.open()
    held = await db.try_hold("telegram-poller")
    print("held" if held else "refused", flush=True)
    await asyncio.sleep(3600)  # until killed

asyncio.run(main())
"""


async def test_a_named_lock_is_freed_when_its_holder_is_killed(db_target: Path | str) -> None:
    """A poller's process killed with SIGKILL: another process can take over at once."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db_target)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    db = Database(db_target)
    await db.open()
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "held"
        assert await db.try_hold("telegram-poller") is None
        proc.kill()
        proc.wait(timeout=30)
        taken = None
        for _ in range(100):  # the server notices the closed connection within moments
            taken = await db.try_hold("telegram-poller")
            if taken is not None:
                break
            await asyncio.sleep(0.05)
        assert taken is not None
        await taken.release()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        await db.close()
