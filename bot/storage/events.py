"""The event log: one row per state change of a chat (who, when, the command text, and what the
change did to the game), which powers `/log`, `/undo` and the campaign journal.

A game change is stored as a delta (`bot.storage.delta`) from the state before it to the state
after it, not as two copies of the game: one `/unit damage` in a 200-unit game is about a
hundred bytes instead of two 90 KB documents. The state before an event is the state after the
game's previous event, so states are rebuilt by replaying deltas forward from a snapshot: the
first event of a game, and then one event in every `SNAPSHOT_EVERY`, also stores the whole
state before it (`base`), which bounds both the replay needed to read any event and the cost of
a damaged row. A row with neither (a campaign step) carries no game state.

Game changes are written by `bot.storage.games.save_change` (never call `add` with game states
yourself: the version check that makes the chain of states exact lives there). Campaign steps
(a turn passed, a pause) are written with `add` and no states; they are part of the journal but
not undoable. Migration 0008 converted the logs of older versions (see `convert_log`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.storage import delta
from bot.storage.conn import Connection
from bot.storage.util import dumps, fetch_all, fetch_one, iso, parse_iso
from rules_core.game.models import GameState

log = logging.getLogger(__name__)

MAX_COMMAND = 500
# A 200-unit game is ~90 KB: one snapshot per 100 changes adds ~0.9 KB to each change on
# average, and reading any event replays at most 100 small deltas.
SNAPSHOT_EVERY = 100


class EventRecord(BaseModel):
    # Validators are built on first use, not at import: most processes use few models.
    model_config = ConfigDict(defer_build=True)
    id: int
    user_id: str
    user_name: str
    command: str
    kind: str
    before: GameState | None
    after: GameState | None
    undone: bool
    created_at: datetime
    game_id: int | None = None


async def add(
    conn: Connection,
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
    patch = base = None
    if before is not None or after is not None:
        old = before.model_dump(mode="json") if before is not None else None
        new = after.model_dump(mode="json") if after is not None else None
        patch = dumps(delta.diff(old, new))
        if game_id is None or await _snapshot_due(conn, game_id):
            base = dumps(old)
    row = await fetch_one(
        conn,
        "INSERT INTO events (chat_key, game_id, user_id, user_name, command, kind, patch, "
        "base, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (chat_key, game_id, user_id, user_name, command[:MAX_COMMAND], kind, patch, base, iso(now)),
    )
    assert row is not None
    return int(row[0])


async def _snapshot_due(conn: Connection, game_id: int) -> bool:
    """True for a game's first change and when `SNAPSHOT_EVERY` changes followed the last
    snapshot (both counts read backwards on the `events_snapshots` and `events_by_game`
    indexes, so this costs the same in a long game as in a short one)."""
    row = await fetch_one(
        conn,
        "SELECT COUNT(*) FROM events WHERE game_id = ?1 AND id >= "
        "(SELECT MAX(id) FROM events WHERE game_id = ?1 AND base IS NOT NULL)",
        (game_id,),
    )
    since = int(row[0]) if row is not None else 0
    return since == 0 or since >= SNAPSHOT_EVERY


_COLUMNS = "id, user_id, user_name, command, kind, undone, created_at, game_id, patch, base"


@dataclass(frozen=True)
class _Row:
    id: int
    user_id: str
    user_name: str
    command: str
    kind: str
    undone: bool
    created_at: str
    game_id: int | None
    patch: str | None
    base: str | None

    @classmethod
    def of(cls, row: Iterable[Any]) -> _Row:
        i, uid, name, command, kind, undone, at, game_id, patch, base = row
        return cls(
            int(i),
            str(uid),
            str(name),
            str(command),
            str(kind),
            bool(undone),
            str(at),
            int(game_id) if game_id is not None else None,
            patch,
            base,
        )


async def _fetch(conn: Connection, where: str, params: tuple[object, ...]) -> list[_Row]:
    rows = await fetch_all(conn, f"SELECT {_COLUMNS} FROM events WHERE {where}", params)
    return [_Row.of(r) for r in rows]


async def _with_history(conn: Connection, shown: list[_Row]) -> list[_Row]:
    """`shown` (in id order) preceded by, for each game in it, the rows from the game's last
    snapshot up to its first shown row: what replaying needs to rebuild their states."""
    first: dict[int, _Row] = {}
    for row in shown:
        if row.game_id is not None:
            first.setdefault(row.game_id, row)
    extra: list[_Row] = []
    for game_id, row in first.items():
        if row.base is not None or row.patch is None:
            continue
        extra += await _fetch(
            conn,
            "game_id = ?1 AND id < ?2 AND id >= (SELECT MAX(id) FROM events "
            "WHERE game_id = ?1 AND base IS NOT NULL AND id < ?2) ORDER BY id",
            (game_id, row.id),
        )
    if not extra:
        return shown
    return sorted([*extra, *shown], key=lambda r: r.id)


def _replay(rows: list[_Row], wanted: set[int] | None = None) -> Iterator[EventRecord]:
    """Each row (in id order) as an event with its states, rebuilt from snapshots and deltas;
    with `wanted`, only those ids are yielded (the others only move the chain forward). The
    records are built one at a time, so a long journal never holds every state at once."""
    docs: dict[int | None, Any] = {}  # each game's state after its latest replayed row
    last: tuple[Any, GameState | None] = (None, None)  # the latest (document, its model)
    for row in rows:
        show = wanted is None or row.id in wanted
        before = after = None
        if row.patch is not None:
            if row.base is not None:
                old = json.loads(row.base)
            elif row.game_id in docs:
                old = docs[row.game_id]
            else:
                # Cannot happen through `add` (a game's first change has a snapshot): shown
                # without states rather than with wrong ones.
                log.warning("event %s has no state to start from; shown without it", row.id)
                if show:
                    yield _record(row, None, None)
                continue
            new = delta.apply(old, json.loads(row.patch))
            docs[row.game_id] = new
            if not show:
                continue
            # The next row's "before" is usually this row's "after": validated once for both.
            before = last[1] if last[0] is old else _model(old)
            after = _model(new)
            last = (new, after)
        if show:
            yield _record(row, before, after)


def _model(doc: Any) -> GameState | None:
    return GameState.model_validate(doc) if doc is not None else None


def _record(row: _Row, before: GameState | None, after: GameState | None) -> EventRecord:
    return EventRecord(
        id=row.id,
        user_id=row.user_id,
        user_name=row.user_name,
        command=row.command,
        kind=row.kind,
        before=before,
        after=after,
        undone=row.undone,
        created_at=parse_iso(row.created_at),
        game_id=row.game_id,
    )


async def recent(conn: Connection, game_id: int, limit: int) -> list[EventRecord]:
    """The game's last `limit` events, newest first."""
    shown = await _fetch(conn, "game_id = ? ORDER BY id DESC LIMIT ?", (game_id, limit))
    shown.reverse()
    rows = await _with_history(conn, shown)
    found = list(_replay(rows, {r.id for r in shown}))
    found.reverse()
    return found


async def last_undoable(conn: Connection, game_id: int) -> EventRecord | None:
    """The most recent change not undone yet (undo events themselves are not undoable), so
    repeated `/undo` walks further back."""
    shown = await _fetch(
        conn,
        "game_id = ? AND undone = 0 AND kind != 'undo' ORDER BY id DESC LIMIT 1",
        (game_id,),
    )
    if not shown:
        return None
    rows = await _with_history(conn, shown)
    return next(_replay(rows, {shown[0].id}))


async def of_chat(conn: Connection, chat_key: str, since: datetime) -> Iterator[EventRecord]:
    """Every event of the chat since `since`, oldest first, with its states (the journal),
    built one at a time as the iterator is read (a campaign's journal may span thousands)."""
    shown = await _fetch(
        conn, "chat_key = ? AND created_at >= ? ORDER BY id", (chat_key, iso(since))
    )
    rows = await _with_history(conn, shown)
    return _replay(rows, {r.id for r in shown} if len(rows) != len(shown) else None)


async def mark_undone(conn: Connection, event_id: int) -> None:
    await conn.execute("UPDATE events SET undone = 1 WHERE id = ?", (event_id,))


# --- migration 0008: before/after snapshots to deltas ---------------------------------------

CONVERT_BATCH = 50  # rows read at a time: old rows hold two whole games each


async def convert_log(conn: Connection) -> None:
    """Rewrite every event of the old format (`before`/`after` snapshots) as a delta, with a
    snapshot where `add` would put one and wherever an old row's `before` is not the state
    after the game's previous change (so even an inconsistent old log replays exactly as it
    read). Runs inside the migration's transaction."""
    previous: dict[int | None, Any] = {}
    since: dict[int | None, int] = {}
    last = 0
    while True:
        rows = await fetch_all(
            conn,
            "SELECT id, game_id, before, after FROM events WHERE id > ? ORDER BY id LIMIT ?",
            (last, CONVERT_BATCH),
        )
        if not rows:
            return
        updates = []
        for event_id, game_id, before, after in rows:
            last = int(event_id)
            if before is None and after is None:
                continue
            old = json.loads(before) if before is not None else None
            new = json.loads(after) if after is not None else None
            chained = game_id is not None and game_id in previous
            count = since.get(game_id, 0)
            if not chained or count >= SNAPSHOT_EVERY or not delta.same(previous[game_id], old):
                base, count = dumps(old), 0
            else:
                base = None
            previous[game_id] = new
            since[game_id] = count + 1
            updates.append((dumps(delta.diff(old, new)), base, event_id))
        await conn.executemany("UPDATE events SET patch = ?, base = ? WHERE id = ?", updates)
