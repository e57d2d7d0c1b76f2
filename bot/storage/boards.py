"""Live boards: each chat's one board message (`/game board`), which the bot edits after every
change to its game. What is kept is the platform's message id, the game it shows and the
language it was posted in; the message itself lives on the platform."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.storage.conn import Connection
from bot.storage.games import _G_COLUMNS, StoredGame, _stored
from bot.storage.util import fetch_one, iso


@dataclass(frozen=True)
class Board:
    chat_key: str
    message_id: str
    lang: str
    game: StoredGame  # the game it shows, as stored now


async def get(conn: Connection, chat_key: str) -> Board | None:
    row = await fetch_one(
        conn,
        f"SELECT b.message_id, b.lang, {_G_COLUMNS} FROM live_boards b "
        "JOIN games g ON g.id = b.game_id WHERE b.chat_key = ?",
        (chat_key,),
    )
    if row is None:
        return None
    return Board(chat_key, str(row[0]), str(row[1]), _stored(tuple(row[2:])))


async def put(
    conn: Connection, chat_key: str, game_id: int, message_id: str, lang: str, now: datetime
) -> None:
    """The chat's board is now this message (an earlier one is no longer edited)."""
    await conn.execute(
        "INSERT INTO live_boards (chat_key, game_id, message_id, lang, posted_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat_key) DO UPDATE SET "
        "game_id = excluded.game_id, message_id = excluded.message_id, "
        "lang = excluded.lang, posted_at = excluded.posted_at",
        (chat_key, game_id, message_id, lang, iso(now)),
    )


async def forget(conn: Connection, chat_key: str, message_id: str) -> None:
    """Stop editing that message (deleted on the platform); a newer board stays."""
    await conn.execute(
        "DELETE FROM live_boards WHERE chat_key = ? AND message_id = ?", (chat_key, message_id)
    )
