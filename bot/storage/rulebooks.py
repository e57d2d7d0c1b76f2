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
    if conn.dialect == "postgresql":
        return await _add_postgresql(conn, scope, system, title, split, imported_by, now)
    row = await fetch_one(
        conn,
        "INSERT INTO rulebooks (scope, system, title, unit, passages, imported_by, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (scope, system, title, split.unit, len(split.passages), imported_by, iso(now)),
    )
    assert row is not None
    book = int(row[0])
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


async def _add_postgresql(
    conn: Connection,
    scope: str,
    system: str,
    title: str,
    split: SplitResult,
    imported_by: str,
    now: datetime,
) -> int:
    """The passages with their tsvector and their length in words (for BM25's length
    normalisation; the book keeps the sum, for the average)."""
    passages = []
    for p in split.passages:
        heading = HEADING_SEP.join(p.heading)
        words = (tokens(heading), tokens(p.text))
        length = sum(len(w.split()) for w in words)
        passages.append((p.location, p.number, p.page, heading, p.text, length, *words))
    row = await fetch_one(
        conn,
        "INSERT INTO rulebooks (scope, system, title, unit, passages, imported_by, created_at, "
        "tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (scope, system, title, split.unit, len(passages), imported_by, iso(now),
         sum(p[5] for p in passages)),
    )  # fmt: skip
    assert row is not None
    book = int(row[0])
    await conn.executemany(
        "INSERT INTO passages (rulebook_id, location, number, page, heading, body, tokens, "
        f"search) VALUES (?, ?, ?, ?, ?, ?, ?, {PG_DOCUMENT})",
        [(book, *p) for p in passages],
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
# them (letters and digits; everything else separates). Ranking follows FTS5's BM25 (k1 1.2,
# b 0.75, a heading occurrence counting 4 and a body one 1, each stem's inverse document
# frequency over every imported passage, the passage's length in words against the average),
# counting a stem's occurrences in the tsvector; one stand-in: a phrase ("p+s") counts as often
# as its rarest word. README "Several processes: PostgreSQL" says how often the backends agree.
PG_DOCUMENT = "setweight(to_tsvector('simple', ?), 'A') || setweight(to_tsvector('simple', ?), 'D')"
K1, B = 1.2, 0.75
_WORD = re.compile(r"[^\W_]+")


def tokens(text: str) -> str:
    """`text` as FTS5's unicode61 tokenizer (remove_diacritics 2) sees it: folded words,
    separated by single spaces."""
    return " ".join(_WORD.findall(fold(text)))


def tsqueries(query: str) -> list[tuple[str, list[str]]]:
    """The PostgreSQL twin of `match_expression`, one per stem: its tsquery (a phrase of its
    words, `<->`, the last word a prefix, `:*`, when it has 3 characters or more) and a LIKE
    pattern per word (to count the stem's occurrences in a passage)."""
    out: dict[str, list[str]] = {}
    for term in _terms(query):
        words = tokens(term).split()
        if words:
            prefix = len(words[-1]) >= 3
            query_text = " <-> ".join(words) + (":*" if prefix else "")
            out[query_text] = [*words[:-1], words[-1] + ("%" if prefix else "")]
    return list(out.items())


def _pg_ranked(select: str, where: str, terms: list[tuple[str, list[str]]]) -> str:
    """Passages matching any of `terms`, best first (see the comment above). Parameters: each
    term's tsquery, then each term's word patterns, then `where`'s, then the limit."""
    values = ", ".join(f"({i}, to_tsquery('simple', CAST(? AS TEXT)))" for i in range(len(terms)))
    # A stem's weighted count in the passage (a phrase: its rarest word's).
    count = (
        "(SELECT COALESCE(SUM(CASE WHEN w = 'A' THEN 4.0 ELSE 1.0 END), 0) "
        "FROM unnest(p.search) AS u (lexeme, positions, weights) "
        "CROSS JOIN LATERAL unnest(u.weights) AS w WHERE u.lexeme LIKE ?)"
    )
    joins, score = [], []
    for i, (_, patterns) in enumerate(terms):
        counts = ", ".join(count for _ in patterns)
        joins.append(f"CROSS JOIN (SELECT q, idf FROM t WHERE k = {i}) AS t{i}")
        joins.append(f"CROSS JOIN LATERAL (SELECT LEAST({counts}) AS f) AS f{i}")
        score.append(
            f"t{i}.idf * f{i}.f * {K1 + 1} / (f{i}.f + {K1} * "
            f"({1 - B} + {B} * p.tokens / GREATEST(n.avgdl, 1)))"
        )
    any_term = " || ".join(f"t{i}.q" for i in range(len(terms)))
    return (
        "WITH n AS (SELECT CAST(COALESCE(SUM(passages), 0) AS FLOAT8) AS total, "
        "CAST(COALESCE(SUM(tokens), 0) AS FLOAT8) / GREATEST(SUM(passages), 1) AS avgdl "
        "FROM rulebooks), "
        "t AS (SELECT v.k, v.q, "
        "GREATEST(LN((n.total - d.df + 0.5) / (d.df + 0.5)), 0.000001) AS idf "
        f"FROM (VALUES {values}) AS v (k, q) CROSS JOIN n "
        "CROSS JOIN LATERAL (SELECT CAST(COUNT(*) AS FLOAT8) AS df FROM passages x "
        "WHERE x.search @@ v.q) AS d) "
        + select
        + "CROSS JOIN n "
        + " ".join(joins)
        + f" WHERE p.search @@ ({any_term}) AND {where} ORDER BY "
        + " + ".join(score)
        + " DESC, p.id LIMIT ?"
    )


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
        terms = tsqueries(query)
        if len(rows) < limit and terms:
            patterns = [pattern for _, words in terms for pattern in words]
            rows += await fetch_all(
                conn,
                _pg_ranked(select, where, terms),
                (*(q for q, _ in terms), *patterns, *params, limit - len(rows)),
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
