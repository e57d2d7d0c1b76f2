"""Games: one active game per chat key, archived (never deleted) when it ends.

Every state change goes through `save_change`: it writes the new state only if the row still
has the version that was read (optimistic concurrency) and, in the same transaction, one event
(`bot.storage.events`) holding the command text and the whole state before and after, so
`/log` can show it and `/undo` can put the exact earlier state back.

Command handlers normally don't call `save_change` directly but
`bot.commands.game.apply_change(ctx, mutate, kind, ...)`, which loads the chat's game, checks
the caller's rights, applies a pure transition, saves it as ONE event and retries on a version
conflict. Game-system commands (`/aos attack target=X apply`) use that same call, so their
changes are logged and undone exactly like `/unit damage`.
"""

from __future__ import annotations

from datetime import datetime

import aiosqlite
from pydantic import BaseModel

from bot.storage import events
from bot.storage.util import fetch_all, fetch_one, iso, parse_iso
from rules_core.errors import UserError
from rules_core.game.models import GameState


class StoredGame(BaseModel):
    id: int
    chat_key: str
    version: int
    state: GameState
    created_at: datetime


async def active(conn: aiosqlite.Connection, chat_key: str) -> StoredGame | None:
    row = await fetch_one(
        conn,
        "SELECT id, chat_key, version, state, created_at FROM games "
        "WHERE chat_key = ? AND status = 'active'",
        (chat_key,),
    )
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
    await events.add(
        conn,
        chat_key=game.chat_key,
        game_id=game.id,
        user_id=user_id,
        user_name=user_name,
        command=command,
        kind=kind,
        now=now,
        before=game.state,
        after=new_state,
    )
    return game.model_copy(update={"version": game.version + 1, "state": new_state})


async def history(conn: aiosqlite.Connection, chat_key: str, limit: int) -> list[StoredGame]:
    rows = await fetch_all(
        conn,
        "SELECT id, chat_key, version, state, created_at FROM games WHERE chat_key = ? "
        "ORDER BY id DESC LIMIT ?",
        (chat_key, limit),
    )
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
