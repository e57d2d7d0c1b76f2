"""Games: one active game per chat key, archived (never deleted) when it ends.

Every state change goes through `save_change`: it writes the new state only if the row still
has the version that was read (optimistic concurrency) and, in the same transaction, one event
(`bot.storage.events`) holding the command text and what the change did (a delta from the
state before to the state after), so `/log` can show it and `/undo` can put the exact earlier
state back. The event log rebuilds each event's states by chaining: the state before an event
is the state after the game's previous one, which holds because only `save_change` writes a
game's state and only when the row still has the version that was read.

Command handlers normally don't call `save_change` directly but
`bot.session.apply_change(ctx, mutate, kind, ...)`, which loads the chat's game, checks
the caller's rights, applies a pure transition, saves it as ONE event and retries on a version
conflict. Game-system commands (`/aos attack target=X apply`) use that same call, so their
changes are logged and undone exactly like `/unit damage`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from bot.storage import events
from bot.storage.conn import Connection, Row
from bot.storage.util import fetch_all, fetch_one, iso, parse_iso
from rules_core.errors import UserError
from rules_core.game.models import GameState


class StoredGame(BaseModel):
    # Validators are built on first use, not at import: most processes use few models.
    model_config = ConfigDict(defer_build=True)
    id: int  # internal: events and campaigns refer to it; never shown
    number: int  # the game's number in its chat: what users see
    chat_key: str
    version: int
    state: GameState
    created_at: datetime


_COLUMNS = "id, number, chat_key, version, state, created_at"
_G_COLUMNS = ", ".join(f"g.{c}" for c in _COLUMNS.split(", "))  # the same, from `games g`


def _stored(row: Row) -> StoredGame:
    return StoredGame(
        id=row[0],
        number=row[1],
        chat_key=row[2],
        version=row[3],
        state=GameState.model_validate_json(str(row[4])),
        created_at=parse_iso(str(row[5])),
    )


async def active(conn: Connection, chat_key: str) -> StoredGame | None:
    row = await fetch_one(
        conn, f"SELECT {_COLUMNS} FROM games WHERE chat_key = ? AND status = 'active'", (chat_key,)
    )
    return _stored(row) if row is not None else None


@dataclass(frozen=True)
class ChatRead:
    """A command's first read: the chat's language setting and the row of its active game, in
    one query (one hop to the database thread instead of two). `changes` is the connection's
    `total_changes` at that moment: while it is unchanged, nothing was written since and the
    row is still what the database holds (the transaction keeps other writers out)."""

    lang: str | None
    row: tuple[object, ...] | None
    changes: int

    def game(self) -> StoredGame | None:
        """Parsed afresh on each call: a caller may change what it gets."""
        return _stored(self.row) if self.row is not None else None


async def chat_read(conn: Connection, chat_key: str) -> ChatRead:
    """Also where a command's write transaction takes its chat (`Connection.lock_chat`): every
    command reads this first, so commands on one chat run one at a time in every process."""
    await conn.lock_chat(chat_key)
    row = await fetch_one(
        conn,
        f"SELECT s.lang, {_G_COLUMNS} FROM (SELECT CAST(? AS TEXT) AS k) AS q "
        "LEFT JOIN chat_settings s ON s.chat_key = q.k "
        "LEFT JOIN games g ON g.chat_key = q.k AND g.status = 'active'",
        (chat_key,),
    )
    assert row is not None  # the outer query always yields its one row
    lang = str(row[0]) if row[0] else None
    game = tuple(row[1:]) if row[1] is not None else None
    return ChatRead(lang=lang, row=game, changes=conn.total_changes)


async def create(conn: Connection, chat_key: str, state: GameState, now: datetime) -> StoredGame:
    if await active(conn, chat_key) is not None:
        raise UserError("game.already_active")
    # Numbered like rolls (see `rolls.add`): the chat's highest plus one, in the one statement.
    row = await fetch_one(
        conn,
        "INSERT INTO games (chat_key, number, system, name, organiser, state, created_at, "
        "updated_at) VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM games "
        "WHERE chat_key = ?), ?, ?, ?, ?, ?, ?) RETURNING id, number",
        (
            chat_key,
            chat_key,
            state.system,
            state.name,
            state.organiser,
            state.model_dump_json(),
            iso(now),
            iso(now),
        ),
    )
    assert row is not None
    return StoredGame(
        id=row[0], number=row[1], chat_key=chat_key, version=1, state=state, created_at=now
    )


async def save_change(
    conn: Connection,
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
    changed = await conn.execute(
        "UPDATE games SET state = ?, status = ?, version = version + 1, updated_at = ? "
        "WHERE id = ? AND version = ?",
        (new_state.model_dump_json(), new_state.status, iso(now), game.id, game.version),
    )
    if changed != 1:
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


async def history(conn: Connection, chat_key: str, limit: int) -> list[StoredGame]:
    rows = await fetch_all(
        conn,
        f"SELECT {_COLUMNS} FROM games WHERE chat_key = ? ORDER BY id DESC LIMIT ?",
        (chat_key, limit),
    )
    return [_stored(r) for r in rows]


async def numbers(conn: Connection, chat_key: str) -> dict[int, int]:
    """Internal id -> number in the chat, for every game of the chat (journals and exports
    hold internal ids and show numbers)."""
    rows = await fetch_all(conn, "SELECT id, number FROM games WHERE chat_key = ?", (chat_key,))
    return {int(r[0]): int(r[1]) for r in rows}
