"""Saved army rosters, per player and platform (migration 0009).

A roster belongs to `owner_key(chat_key, user_id)`: the platform of the chat it was saved from
and the user's id there. The same person is another owner on another platform (user ids are
the platform's own), and the same user id on two platforms is two people. Within a platform a
roster follows its owner into every chat: it is the user's own setting, the only kind of thing
that crosses chats. Names are compared folded (case and accents); saving a name again
replaces it.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

from bot.storage.conn import Connection
from bot.storage.util import fetch_all, fetch_one, iso
from rules_core.errors import UserError
from rules_core.game.roster import Roster
from rules_core.rules.text import fold

MAX_PER_OWNER = 50
MAX_NAME = 40


class SavedRoster(BaseModel):
    name: str
    system: str
    roster: Roster
    updated_at: str


def owner_key(chat_key: str, user_id: str) -> str:
    """`telegram:42` for Telegram user 42, whatever chat of Telegram they are in."""
    return f"{chat_key.split(':', 1)[0]}:{user_id}"


def clean(name: str) -> str:
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise UserError("army.bad_name", limit=MAX_NAME)
    return name


async def save(conn: Connection, owner: str, name: str, roster: Roster, now: datetime) -> bool:
    """Store `roster` as `name`; True if it replaced one of the same name."""
    name = clean(name)
    key = fold(name)
    # A player may save from two chats at once (two processes on PostgreSQL): one at a time.
    await conn.lock_chat(f"rosters:{owner}")
    existing = await fetch_one(
        conn, "SELECT id FROM rosters WHERE owner = ? AND name_key = ?", (owner, key)
    )
    if existing is None:
        count = await fetch_one(conn, "SELECT COUNT(*) FROM rosters WHERE owner = ?", (owner,))
        if count is not None and int(count[0]) >= MAX_PER_OWNER:
            raise UserError("army.too_many_rosters", limit=MAX_PER_OWNER)
        await conn.execute(
            "INSERT INTO rosters (owner, name, name_key, system, roster, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (owner, name, key, roster.system, roster.model_dump_json(), iso(now), iso(now)),
        )
        return False
    await conn.execute(
        "UPDATE rosters SET name = ?, system = ?, roster = ?, updated_at = ? WHERE id = ?",
        (name, roster.system, roster.model_dump_json(), iso(now), existing[0]),
    )
    return True


def _saved(row: tuple[object, ...]) -> SavedRoster:
    return SavedRoster(
        name=str(row[0]),
        system=str(row[1]),
        roster=Roster.model_validate_json(str(row[2])),
        updated_at=str(row[3]),
    )


async def listing(conn: Connection, owner: str) -> list[SavedRoster]:
    rows = await fetch_all(
        conn,
        "SELECT name, system, roster, updated_at FROM rosters WHERE owner = ? ORDER BY name_key",
        (owner,),
    )
    return [_saved(tuple(r)) for r in rows]


async def get(conn: Connection, owner: str, name: str) -> SavedRoster:
    """The owner's roster called `name`, or the only one whose name starts with it."""
    key = fold(" ".join(name.split()))
    rows = await fetch_all(
        conn,
        "SELECT name, system, roster, updated_at, name_key FROM rosters WHERE owner = ?",
        (owner,),
    )
    exact = [r for r in rows if r[4] == key]
    matches = exact or [r for r in rows if str(r[4]).startswith(key)]
    if len(matches) == 1:
        return _saved(tuple(matches[0]))
    if not matches:
        raise UserError("army.no_roster", name=name[:MAX_NAME])
    names = ", ".join(str(r[0]) for r in matches[:6])
    raise UserError("army.ambiguous_roster", name=name[:MAX_NAME], options=names)


async def delete(conn: Connection, owner: str, name: str) -> str:
    found = await get(conn, owner, name)
    await conn.execute(
        "DELETE FROM rosters WHERE owner = ? AND name_key = ?", (owner, fold(found.name))
    )
    return found.name
