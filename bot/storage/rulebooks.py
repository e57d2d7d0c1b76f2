"""Imported rulebooks: passages indexed with FTS5, visible only in their scope (one chat, or
every chat when the operator imported them from the command line)."""

from __future__ import annotations

from datetime import datetime

import aiosqlite
from pydantic import BaseModel

from bot.storage.util import fetch_all, fetch_one, iso
from rules_core.rules.index import fts_match, search_terms
from rules_core.rules.splitter import SplitResult

EVERY_CHAT = "*"
HEADING_SEP = " › "


class RulebookInfo(BaseModel):
    id: int
    scope: str
    system: str
    title: str
    passages: int
    created_at: str


class PassageHit(BaseModel):
    rulebook_id: int
    title: str
    system: str
    unit: str
    location: int
    number: str | None
    page: int | None
    heading: str
    body: str


async def add(
    conn: aiosqlite.Connection,
    *,
    scope: str,
    system: str,
    title: str,
    split: SplitResult,
    imported_by: str,
    now: datetime,
) -> int:
    cur = await conn.execute(
        "INSERT INTO rulebooks (scope, system, title, unit, passages, imported_by, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (scope, system, title, split.unit, len(split.passages), imported_by, iso(now)),
    )
    book = cur.lastrowid
    assert book is not None
    for p in split.passages:
        heading = HEADING_SEP.join(p.heading)
        cur = await conn.execute(
            "INSERT INTO passages (rulebook_id, location, number, page, heading, body) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (book, p.location, p.number, p.page, heading, p.text),
        )
        await conn.execute(
            "INSERT INTO passages_fts (rowid, heading, body) VALUES (?, ?, ?)",
            (cur.lastrowid, heading, p.text),
        )
    return book


async def listing(conn: aiosqlite.Connection, scope: str) -> list[RulebookInfo]:
    rows = await fetch_all(
        conn,
        "SELECT id, scope, system, title, passages, created_at FROM rulebooks "
        "WHERE scope IN (?, ?) ORDER BY id",
        (scope, EVERY_CHAT),
    )
    return [
        RulebookInfo(id=r[0], scope=r[1], system=r[2], title=r[3], passages=r[4], created_at=r[5])
        for r in rows
    ]


async def remove(conn: aiosqlite.Connection, scope: str, book: int) -> bool:
    """Delete a rulebook of exactly this scope (a chat cannot remove the operator's books)."""
    if (
        await fetch_one(conn, "SELECT id FROM rulebooks WHERE id = ? AND scope = ?", (book, scope))
        is None
    ):
        return False
    await conn.execute(
        "DELETE FROM passages_fts WHERE rowid IN (SELECT id FROM passages WHERE rulebook_id = ?)",
        (book,),
    )
    await conn.execute("DELETE FROM passages WHERE rulebook_id = ?", (book,))
    await conn.execute("DELETE FROM rulebooks WHERE id = ?", (book,))
    return True


def match_expression(query: str) -> str | None:
    """An FTS5 query from free text: every stem as a prefix, any of them may match."""
    return fts_match([t for t in search_terms(query) if len(t) >= 2], prefix=True)


async def search(
    conn: aiosqlite.Connection, scope: str, query: str, system: str | None, limit: int = 3
) -> list[PassageHit]:
    from rules_core.rules.models import RULE_NUMBER

    select = (
        "SELECT p.rulebook_id, b.title, b.system, b.unit, p.location, p.number, p.page, "
        "p.heading, p.body FROM passages p JOIN rulebooks b ON b.id = p.rulebook_id "
    )
    where = "b.scope IN (?, ?) AND (? IS NULL OR b.system = ?)"
    params: list[object] = [scope, EVERY_CHAT, system, system]
    numbers = RULE_NUMBER.findall(query)
    rows: list[aiosqlite.Row] = []
    if numbers:
        rows = await fetch_all(
            conn,
            select + f"WHERE p.number = ? AND {where} ORDER BY p.id LIMIT ?",
            (numbers[0], *params, limit),
        )
    expression = match_expression(query)
    if len(rows) < limit and expression is not None:
        rows += await fetch_all(
            conn,
            select + "JOIN passages_fts f ON f.rowid = p.id "
            f"WHERE passages_fts MATCH ? AND {where} "
            "ORDER BY bm25(passages_fts, 4.0, 1.0) LIMIT ?",
            (expression, *params, limit - len(rows)),
        )
    return [
        PassageHit(
            rulebook_id=r[0],
            title=r[1],
            system=r[2],
            unit=r[3],
            location=r[4],
            number=r[5],
            page=r[6],
            heading=r[7],
            body=r[8],
        )
        for r in rows
    ]
