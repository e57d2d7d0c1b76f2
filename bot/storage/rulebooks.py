"""Imported rulebooks: passages indexed for full-text search (FTS5 on SQLite, a tsvector on
PostgreSQL, see `tsquery`), visible only in their scope (one chat, or every chat when the
operator imported them from the command line)."""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel

from bot.storage.conn import Connection, Row
from bot.storage.util import fetch_all, fetch_one, iso
from rules_core.rules.index import fts_match, search_terms
from rules_core.rules.splitter import SplitResult
from rules_core.rules.text import fold

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
    conn: Connection,
    *,
    scope: str,
    system: str,
    title: str,
    split: SplitResult,
    imported_by: str,
    now: datetime,
) -> int:
    row = await fetch_one(
        conn,
        "INSERT INTO rulebooks (scope, system, title, unit, passages, imported_by, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (scope, system, title, split.unit, len(split.passages), imported_by, iso(now)),
    )
    assert row is not None
    book = int(row[0])
    if conn.dialect == "postgresql":
        await conn.executemany(
            "INSERT INTO passages (rulebook_id, location, number, page, heading, body, search) "
            f"VALUES (?, ?, ?, ?, ?, ?, {PG_DOCUMENT})",
            [
                (
                    book,
                    p.location,
                    p.number,
                    p.page,
                    heading,
                    p.text,
                    tokens(heading),
                    tokens(p.text),
                )
                for p in split.passages
                for heading in [HEADING_SEP.join(p.heading)]
            ],
        )
        return book
    for p in split.passages:
        heading = HEADING_SEP.join(p.heading)
        passage = await fetch_one(
            conn,
            "INSERT INTO passages (rulebook_id, location, number, page, heading, body) "
            "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            (book, p.location, p.number, p.page, heading, p.text),
        )
        assert passage is not None
        await conn.execute(
            "INSERT INTO passages_fts (rowid, heading, body) VALUES (?, ?, ?)",
            (passage[0], heading, p.text),
        )
    return book


async def listing(conn: Connection, scope: str) -> list[RulebookInfo]:
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


async def remove(conn: Connection, scope: str, book: int) -> bool:
    """Delete a rulebook of exactly this scope (a chat cannot remove the operator's books)."""
    if (
        await fetch_one(conn, "SELECT id FROM rulebooks WHERE id = ? AND scope = ?", (book, scope))
        is None
    ):
        return False
    if conn.dialect == "sqlite":
        await conn.execute(
            "DELETE FROM passages_fts WHERE rowid IN "
            "(SELECT id FROM passages WHERE rulebook_id = ?)",
            (book,),
        )
    await conn.execute("DELETE FROM passages WHERE rulebook_id = ?", (book,))
    await conn.execute("DELETE FROM rulebooks WHERE id = ?", (book,))
    return True


def match_expression(query: str) -> str | None:
    """An FTS5 query from free text: every stem as a prefix, any of them may match."""
    return fts_match(_terms(query), prefix=True)


def _terms(query: str) -> list[str]:
    return [t for t in search_terms(query) if len(t) >= 2]


# PostgreSQL has no FTS5: a `tsvector` column with the 'simple' configuration (no stemming, no
# stop words: the query's stems are prefixes, as with FTS5) over text whose case and accents
# were folded and whose words were split here exactly as FTS5's unicode61 tokenizer splits
# them (letters and digits; everything else separates). Headings weigh 4 to a body's 1, as in
# `bm25(passages_fts, 4.0, 1.0)`; ranking is ts_rank's (not BM25), see README.
PG_DOCUMENT = "setweight(to_tsvector('simple', ?), 'A') || setweight(to_tsvector('simple', ?), 'D')"
PG_RANK = "ts_rank('{0.25, 0.25, 0.25, 1.0}', p.search, t.q, 1)"
_WORD = re.compile(r"[^\W_]+")


def tokens(text: str) -> str:
    """`text` as FTS5's unicode61 tokenizer (remove_diacritics 2) sees it: folded words,
    separated by single spaces."""
    return " ".join(_WORD.findall(fold(text)))


def tsquery(query: str) -> str | None:
    """The PostgreSQL twin of `match_expression`: each stem a phrase of its words (`<->`), its
    last word a prefix (`:*`) when it has 3 characters or more, any of them may match (`|`)."""
    phrases = []
    for term in _terms(query):
        words = tokens(term).split()
        if words:
            star = ":*" if len(words[-1]) >= 3 else ""
            phrases.append(" <-> ".join(words) + star)
    return " | ".join(dict.fromkeys(phrases)) or None


async def search(
    conn: Connection, scope: str, query: str, system: str | None, limit: int = 3
) -> list[PassageHit]:
    from rules_core.rules.models import RULE_NUMBER

    select = (
        "SELECT p.rulebook_id, b.title, b.system, b.unit, p.location, p.number, p.page, "
        "p.heading, p.body FROM passages p JOIN rulebooks b ON b.id = p.rulebook_id "
    )
    where = "b.scope IN (?, ?) AND (CAST(? AS TEXT) IS NULL OR b.system = ?)"
    params: list[object] = [scope, EVERY_CHAT, system, system]
    numbers = RULE_NUMBER.findall(query)
    rows: list[Row] = []
    if numbers:
        rows = await fetch_all(
            conn,
            select + f"WHERE p.number = ? AND {where} ORDER BY p.id LIMIT ?",
            (numbers[0], *params, limit),
        )
    if conn.dialect == "postgresql":
        pg_query = tsquery(query)
        if len(rows) < limit and pg_query is not None:
            rows += await fetch_all(
                conn,
                select + "CROSS JOIN (SELECT to_tsquery('simple', CAST(? AS TEXT)) AS q) AS t "
                f"WHERE p.search @@ t.q AND {where} ORDER BY {PG_RANK} DESC, p.id LIMIT ?",
                (pg_query, *params, limit - len(rows)),
            )
        return [_hit(r) for r in rows]
    expression = match_expression(query)
    if len(rows) < limit and expression is not None:
        rows += await fetch_all(
            conn,
            select + "JOIN passages_fts f ON f.rowid = p.id "
            f"WHERE passages_fts MATCH ? AND {where} "
            "ORDER BY bm25(passages_fts, 4.0, 1.0) LIMIT ?",
            (expression, *params, limit - len(rows)),
        )
    return [_hit(r) for r in rows]


def _hit(r: Row) -> PassageHit:
    return PassageHit(
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
