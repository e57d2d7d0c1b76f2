"""The event log stores deltas: small per change, every state rebuilt exactly (across snapshots,
undo and the journal), and an old log of whole snapshots converted exactly by its migration."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import App
from bot.protocol import Reply
from bot.storage import events, games
from bot.storage.db import migrations
from rules_core.game import diff
from rules_core.game import transitions as tr
from rules_core.game.models import GameState
from tests.helpers import say

CHAT = "console:log"
START = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
CHANGES = 100  # ordinary changes measured: one snapshot period
DELTAS = next(v for v, name, _ in migrations() if name.endswith("_event_deltas.sql"))


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def ok(reply: Reply) -> Reply:
    assert reply.error is None, reply.error
    return reply


GRID = "......|..L..M|...MC.|...MC.|..R..M|......"


def big_game(units: int, system: str = "gen") -> GameState:
    """Two players and `units` units: warjacks with a damage grid each in "wm"."""
    state = GameState(system=system, name="Big", organiser="1")
    state = tr.join(state, "1", "Ann", None)
    state = tr.join(state, "2", "Bob", None)
    players = state.players
    for i in range(units):
        owner = players[i % 2]
        if system == "wm":
            stats, options = {"def": 12, "arm": 18}, {"grid": GRID}
        else:
            stats, options = {"models": 5, "wounds": 2}, {}
        state = tr.add_unit(state, f"U{i:03}", owner, stats, options)
    return state


def row_bytes(row: tuple[object, ...]) -> int:
    """What one stored event row holds: the length of every value in it."""
    return sum(len(str(v).encode()) for v in row if v is not None)


async def test_an_ordinary_change_in_a_200_unit_game_stores_at_most_2_kb(
    db_target: Path | str,
) -> None:
    app = App(db_target)
    await app.start()
    try:
        ok(await say(app, "/game new wm Big", user="1", name="Ann", chat=CHAT))
        async with app.db.transaction() as conn:
            game = await games.active(conn, CHAT)
            assert game is not None
            await games.save_change(
                conn, game, big_game(200, "wm"), user_id="1", user_name="Ann", command="setup",
                kind="setup", now=START,
            )  # fmt: skip
            found = await conn.fetch_one("SELECT MAX(id) FROM events")
            assert found is not None
            first = found[0]
        for i in range(CHANGES):
            text = f"/unit damage U{(i * 7) % 200:03} 2 column={i % 6 + 1}"
            ok(await say(app, text, user="1", name="Ann", chat=CHAT))
        async with app.db.transaction(write=False) as conn:
            rows = await conn.fetch_all("SELECT * FROM events WHERE id > ?", (first,))
            found = await conn.fetch_one("SELECT state FROM games")
            assert found is not None
            state = found[0]
    finally:
        await app.stop()
    sizes = sorted(row_bytes(r) for r in rows)
    assert len(sizes) == CHANGES and len(state) > 45_000
    assert sum(sizes) / len(sizes) <= 2048, sizes
    assert sizes[-2] <= 2048  # every change but the one carrying the snapshot
    assert CHANGES == events.SNAPSHOT_EVERY  # so the average includes exactly one snapshot


async def test_every_state_is_rebuilt_exactly_across_snapshots_undo_and_the_journal(
    db_target: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(events, "SNAPSHOT_EVERY", 3)
    clock = Clock()
    app = App(db_target, clock=clock)
    script = [
        ("1", "/game new gen Chain"),
        ("2", "/game join"),
        ("1", "/unit add Knights models=3 wounds=2"),
        ("2", "/unit add Orcs models=10 wounds=1"),
        ("2", "/unit add Trolls wounds=6"),
        ("1", "/unit damage Orcs 3"),
        ("1", "/score add 2"),
        ("2", "/unit remove Orcs"),
        ("1", "/unit add Archers models=5"),
        ("1", "/undo"),
        ("1", "/unit damage Trolls 4"),
        ("2", "/unit heal Trolls 1"),
        ("1", "/res add cp 3"),
        ("1", "/round next"),
        ("1", "/unit damage Knights 1"),
        ("1", "/undo"),
        ("1", "/undo"),
        ("1", "/unit add Wolves models=4"),
        ("1", "/game end Ann"),
    ]
    states: list[GameState] = []  # the game after each change, as the games row holds it
    await app.start()
    try:
        for i, (user, text) in enumerate(script):
            clock.now = START + timedelta(minutes=i)
            ok(await say(app, text, user=user, name={"1": "Ann", "2": "Bob"}[user], chat=CHAT))
            async with app.db.transaction(write=False) as conn:
                history = await games.history(conn, CHAT, 1)
            states.append(history[0].state)
        async with app.db.transaction(write=False) as conn:
            game_id = history[0].id
            logged = list(reversed(await events.recent(conn, game_id, 100)))
            recent = await events.recent(conn, game_id, 4)
            whole = list(await events.of_chat(conn, CHAT, START))
            late = list(await events.of_chat(conn, CHAT, START + timedelta(minutes=11)))
            bases = await conn.fetch_all("SELECT COUNT(base) FROM events")
    finally:
        await app.stop()
    assert next(iter(bases))[0] >= 5  # the chain really crosses several snapshots
    assert len(logged) == len(script)
    for i, ev in enumerate(logged):
        assert ev.after == states[i], ev.command
        assert ev.before == (states[i - 1] if i else states[0]), ev.command
    assert [e.model_dump() for e in recent] == [e.model_dump() for e in logged[-4:][::-1]]
    assert [e.model_dump() for e in whole] == [e.model_dump() for e in logged]
    assert [e.model_dump() for e in late] == [e.model_dump() for e in logged[11:]]
    undone = [e.command for e in logged if e.undone]
    assert undone == ["/unit add Archers models=5", "/round next", "/unit damage Knights 1"]


async def test_migration_converts_an_old_log_exactly_and_gives_the_space_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        for number, _, sql in migrations():
            if number < DELTAS:
                conn.executescript(sql)
        conn.execute(f"PRAGMA user_version = {DELTAS - 1}")
        # An old log is not always a perfect chain: one row's "before" is not the state
        # after the change logged before it, and must still read as it was written.
        chain, befores = [big_game(40)], []
        for i in range(230):
            before = chain[-1]
            if i == 120:
                before = before.model_copy(update={"name": "Renamed by hand"})
            befores.append(before)
            chain.append(tr.damage(before, f"U{(i * 3) % 40:03}", 1))
        final = chain[-1]
        conn.execute(
            "INSERT INTO games (id, number, chat_key, system, name, organiser, version, state, "
            "created_at, updated_at) VALUES (1, 1, ?, 'gen', 'Big', '1', ?, ?, ?, ?)",
            (CHAT, len(chain), final.model_dump_json(), START.isoformat(), START.isoformat()),
        )
        old_rows = list(zip(befores, chain[1:], strict=True))
        for i, (before, after) in enumerate(old_rows, start=1):
            conn.execute(
                "INSERT INTO events (chat_key, game_id, user_id, user_name, command, kind, "
                "before, after, undone, created_at) VALUES (?, 1, '1', 'Ann', ?, 'damage', ?, "
                "?, 0, ?)",
                (CHAT, f"/unit damage {i}", before.model_dump_json(), after.model_dump_json(),
                 (START + timedelta(seconds=i)).isoformat()),
            )  # fmt: skip
            if i == 100:  # a campaign step among them: no states
                conn.execute(
                    "INSERT INTO events (chat_key, game_id, user_id, user_name, command, kind, "
                    "created_at) VALUES (?, NULL, '1', 'Ann', '/campaign pass', 'pass', ?)",
                    (CHAT, (START + timedelta(seconds=i)).isoformat()),
                )
    conn.close()
    old_size = path.stat().st_size

    app = App(path)
    await app.start()
    try:
        async with app.db.transaction(write=False) as conn:
            logged = list(reversed(await events.recent(conn, 1, 1000)))
            journal = list(await events.of_chat(conn, CHAT, START))
        assert [(e.before, e.after) for e in logged] == old_rows
        assert [e.kind for e in journal].count("pass") == 1 and len(journal) == len(chain)
        assert logged[120].before is not None and logged[120].before.name == "Renamed by hand"
        assert diff.describe(logged[121].before, logged[121].after) == diff.describe(*old_rows[121])
        undo = ok(await say(app, "/undo", user="1", name="Ann", chat=CHAT))
        assert undo.data == {"undone": logged[-1].id}
        async with app.db.transaction(write=False) as conn:
            game = await games.active(conn, CHAT)
        assert game is not None and game.state == chain[-2]
    finally:
        await app.stop()
    with sqlite3.connect(path) as conn:
        columns = {r[1] for r in conn.execute("PRAGMA table_info(events)")}
        assert "before" not in columns and "after" not in columns
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        patches = [
            json.loads(p) for (p,) in conn.execute("SELECT patch FROM events WHERE game_id = 1")
        ]
    conn.close()
    # 230 old changes and the /undo: each one unit's damage, a small delta
    assert len(patches) == len(chain) and [p for p in patches if len(p) > 2] == []
    assert path.stat().st_size < old_size / 4
