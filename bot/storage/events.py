"""The event log: one row per state change of a chat (who, when, the command text, and the
game's whole state before and after), which powers `/log`, `/undo` and the campaign journal.

Game changes are written by `bot.storage.games.save_change` (never call `add` with a game
snapshot yourself: the version check lives there). Campaign steps (a turn passed, a pause)
are written with `add` and no snapshots; they are part of the journal but not undoable.
"""

from __future__ import annotations

from datetime import datetime

import aiosqlite
from pydantic import BaseModel

from bot.storage.util import fetch_all, fetch_one, iso, parse_iso
from rules_core.game.models import GameState

MAX_COMMAND = 500


class EventRecord(BaseModel):
    id: int
    user_id: str
    user_name: str
    command: str
    kind: str
    before: GameState | None
    after: GameState | None
    undone: bool
    created_at: datetime


async def add(
    conn: aiosqlite.Connection,
    *,
    chat_key: str,
    game_id: int | None,
    user_id: str,
    user_name: str,
    command: str,
    kind: str,
    now: datetime,
    before: GameState | None = None,
    after: GameState | None = None,
) -> int:
    cur = await conn.execute(
        "INSERT INTO events (chat_key, game_id, user_id, user_name, command, kind, before, "
        "after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            chat_key,
            game_id,
            user_id,
            user_name,
            command[:MAX_COMMAND],
            kind,
            before.model_dump_json() if before is not None else None,
            after.model_dump_json() if after is not None else None,
            iso(now),
        ),
    )
    assert cur.lastrowid is not None
    return cur.lastrowid


_COLUMNS = "id, user_id, user_name, command, kind, before, after, undone, created_at"


def _event(row: aiosqlite.Row | tuple[object, ...]) -> EventRecord:
    before, after = row[5], row[6]
    return EventRecord(
        id=int(str(row[0])),
        user_id=str(row[1]),
        user_name=str(row[2]),
        command=str(row[3]),
        kind=str(row[4]),
        before=GameState.model_validate_json(str(before)) if before else None,
        after=GameState.model_validate_json(str(after)) if after else None,
        undone=bool(row[7]),
        created_at=parse_iso(str(row[8])),
    )


async def recent(conn: aiosqlite.Connection, game_id: int, limit: int) -> list[EventRecord]:
    """The game's last `limit` events, newest first."""
    rows = await fetch_all(
        conn,
        f"SELECT {_COLUMNS} FROM events WHERE game_id = ? ORDER BY id DESC LIMIT ?",
        (game_id, limit),
    )
    return [_event(r) for r in rows]


async def last_undoable(conn: aiosqlite.Connection, game_id: int) -> EventRecord | None:
    """The most recent change not undone yet (undo events themselves are not undoable), so
    repeated `/undo` walks further back."""
    row = await fetch_one(
        conn,
        f"SELECT {_COLUMNS} FROM events WHERE game_id = ? AND undone = 0 "
        "AND kind != 'undo' ORDER BY id DESC LIMIT 1",
        (game_id,),
    )
    return _event(row) if row else None


async def mark_undone(conn: aiosqlite.Connection, event_id: int) -> None:
    await conn.execute("UPDATE events SET undone = 1 WHERE id = ?", (event_id,))
