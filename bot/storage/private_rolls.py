"""Private rolls and re-rolls (migration 0012), beside the roll log (bot.storage.rolls).

A private roll has its number in the chat's log from the start, but the log's row shows nothing
(`HIDDEN`, no faces) until it is revealed; here wait what was rolled (`payload`, canonical JSON),
the salt and the SHA-256 commitment shown to the chat at roll time. Revealing writes the roll
into its log row, so `/roll show N` shows it like any other from then on. A re-roll is a new
roll of the log; `roll_rerolls` says which roll and which positions it re-rolled.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.storage.conn import Connection
from bot.storage.util import dumps, fetch_one, iso

HIDDEN = "/roll private"  # what the roll log shows of a private roll before it is revealed


class PrivateRoll(BaseModel):
    # Validators are built on first use, not at import: most processes use few models.
    model_config = ConfigDict(defer_build=True)
    number: int
    user_id: str
    payload: str
    salt: str
    commitment: str
    revealed: bool

    def content(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.payload)
        return loaded


def canonical(content: dict[str, Any]) -> str:
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def commit(salt: str, payload: str) -> str:
    """The commitment: SHA-256 of `salt:payload`, which anyone can recompute at reveal time."""
    return hashlib.sha256(f"{salt}:{payload}".encode()).hexdigest()


async def add(
    conn: Connection, chat_key: str, number: int, user_id: str, payload: str, salt: str
) -> str:
    commitment = commit(salt, payload)
    await conn.execute(
        "INSERT INTO private_rolls (chat_key, number, user_id, payload, salt, commitment) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (chat_key, number, user_id, payload, salt, commitment),
    )
    return commitment


async def get(conn: Connection, chat_key: str, number: int) -> PrivateRoll | None:
    row = await fetch_one(
        conn,
        "SELECT number, user_id, payload, salt, commitment, revealed_at FROM private_rolls "
        "WHERE chat_key = ? AND number = ?",
        (chat_key, number),
    )
    if row is None:
        return None
    return PrivateRoll(
        number=int(row[0]),
        user_id=str(row[1]),
        payload=str(row[2]),
        salt=str(row[3]),
        commitment=str(row[4]),
        revealed=row[5] is not None,
    )


async def reveal(
    conn: Connection,
    chat_key: str,
    number: int,
    *,
    expression: str,
    faces: list[int],
    seed: int | None,
    result: list[dict[str, Any]],
    now: datetime,
) -> None:
    """Write the roll into its log row and mark it revealed."""
    await conn.execute(
        "UPDATE rolls SET expression = ?, faces = ?, seed = ?, result = ? "
        "WHERE chat_key = ? AND number = ?",
        (expression, dumps(faces), seed, dumps(result), chat_key, number),
    )
    await conn.execute(
        "UPDATE private_rolls SET revealed_at = ? WHERE chat_key = ? AND number = ?",
        (iso(now), chat_key, number),
    )


async def add_reroll(
    conn: Connection, chat_key: str, number: int, original: int, positions: list[int]
) -> None:
    await conn.execute(
        "INSERT INTO roll_rerolls (chat_key, number, original, positions) VALUES (?, ?, ?, ?)",
        (chat_key, number, original, dumps(positions)),
    )


async def reroll_of(conn: Connection, chat_key: str, number: int) -> tuple[int, list[int]] | None:
    """The roll that roll `number` re-rolled and the positions, if it is a re-roll."""
    row = await fetch_one(
        conn,
        "SELECT original, positions FROM roll_rerolls WHERE chat_key = ? AND number = ?",
        (chat_key, number),
    )
    return (int(row[0]), list(json.loads(str(row[1])))) if row else None
