"""Games and their event log.

Every state change goes through `save_change`: it writes the new state with a version check
and one event row holding the command text and the whole state before and after, so `/log`
can show it and `/undo` can put the exact earlier state back. Game-system commands that apply
an attack to a unit use the same call, so they are undone the same way.
"""

from __future__ import annotations

from datetime import datetime

import aiosqlite
from pydantic import BaseModel

from bot.storage.util import iso, parse_iso
from rules_core.errors import UserError
from rules_core.game.models import GameState


class StoredGame(BaseModel):
    id: int
    chat_key: str
    version: int
    state: GameState
    created_at: datetime


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


async def active(conn: aiosqlite.Connection, chat_key: str) -> StoredGame | None:
    async with conn.execute(
        "SELECT id, chat_key, version, state, created_at FROM games "
        "WHERE chat_key = ? AND status = 'active'",
        (chat_key,),
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        return None
    return StoredGame(
        id=row[0],
        chat_key=row[1],
        version=row[2],
        state=GameState.model_validate_json(row[3]),
        created_at=parse_iso(row[4]),
    )


async def active_system(conn: aiosqlite.Connection, chat_key: str) -> str | None:
    game = await active(conn, chat_key)
    return game.state.system if game else None


async def create(
    conn: aiosqlite.Connection, chat_key: str, state: GameState, now: datetime
) -> StoredGame:
    if await active(conn, chat_key) is not None:
        raise UserError("game.already_active")
    cur = await conn.execute(
        "INSERT INTO games (chat_key, system, name, organiser, state, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            chat_key,
            state.system,
            state.name,
            state.organiser,
            state.model_dump_json(),
            iso(now),
            iso(now),
        ),
    )
    assert cur.lastrowid is not None
    return StoredGame(id=cur.lastrowid, chat_key=chat_key, version=1, state=state, created_at=now)


async def save_change(
    conn: aiosqlite.Connection,
    game: StoredGame,
    new_state: GameState,
    *,
    user_id: str,
    user_name: str,
    command: str,
    kind: str,
    now: datetime,
) -> StoredGame:
    """Write the new state (only if nobody changed the game meanwhile) and its event."""
    cur = await conn.execute(
        "UPDATE games SET state = ?, status = ?, version = version + 1, updated_at = ? "
        "WHERE id = ? AND version = ?",
        (new_state.model_dump_json(), new_state.status, iso(now), game.id, game.version),
    )
    if cur.rowcount != 1:
        raise UserError("game.changed_meanwhile")
    await conn.execute(
        "INSERT INTO events (chat_key, game_id, user_id, user_name, command, kind, before, "
        "after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game.chat_key,
            game.id,
            user_id,
            user_name,
            command[:500],
            kind,
            game.state.model_dump_json(),
            new_state.model_dump_json(),
            iso(now),
        ),
    )
    return game.model_copy(update={"version": game.version + 1, "state": new_state})


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


_EVENT_COLUMNS = "id, user_id, user_name, command, kind, before, after, undone, created_at"


async def recent_events(conn: aiosqlite.Connection, game_id: int, limit: int) -> list[EventRecord]:
    async with conn.execute(
        f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? ORDER BY id DESC LIMIT ?",
        (game_id, limit),
    ) as cur:
        return [_event(r) for r in await cur.fetchall()]


async def last_undoable(conn: aiosqlite.Connection, game_id: int) -> EventRecord | None:
    """The most recent change not undone yet (undo events themselves are not undoable)."""
    async with conn.execute(
        f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND undone = 0 "
        "AND kind != 'undo' ORDER BY id DESC LIMIT 1",
        (game_id,),
    ) as cur:
        row = await cur.fetchone()
    return _event(row) if row else None


async def mark_undone(conn: aiosqlite.Connection, event_id: int) -> None:
    await conn.execute("UPDATE events SET undone = 1 WHERE id = ?", (event_id,))


async def history(conn: aiosqlite.Connection, chat_key: str, limit: int) -> list[StoredGame]:
    async with conn.execute(
        "SELECT id, chat_key, version, state, created_at FROM games WHERE chat_key = ? "
        "ORDER BY id DESC LIMIT ?",
        (chat_key, limit),
    ) as cur:
        rows = await cur.fetchall()
    return [
        StoredGame(
            id=r[0],
            chat_key=r[1],
            version=r[2],
            state=GameState.model_validate_json(r[3]),
            created_at=parse_iso(r[4]),
        )
        for r in rows
    ]
