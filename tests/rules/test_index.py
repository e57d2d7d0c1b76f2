"""Search ranking on a small hand-made set of entries (the shipped data has its own tests)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.rules.index import Hit, RuleIndex, fts_match, search_terms
from rules_core.rules.models import RuleEntry, check_collection


def book_ref(ref: str) -> dict[str, object]:
    """'p. 60' -> a page, 'rule 301.2' -> a rule number, '13.3 Sequenza' -> a section."""
    if ref.startswith("p. "):
        return {"pages": [int(ref[3:])]}
    if ref.startswith("rule "):
        return {"rules": [ref[5:]]}
    number, _, title = ref.partition(" ")
    return {"sections": [number], "titles": [title] if title else []}


def entry(
    ident: str, it: list[str], en: list[str], summary: str, ref: str, **kw: object
) -> RuleEntry:
    return RuleEntry.model_validate(
        {
            "id": ident,
            "kind": kw.pop("kind", "ability"),
            "names": {"it": it, "en": en, "abbr": kw.pop("abbr", [])},
            "summary": {"it": summary, "en": summary},
            "source": f"L1, {ref}",
            "ref": book_ref(ref),
            **kw,
        }
    )


ENTRIES = [
    entry("inf.camo", ["Mimetismo"], ["Camouflage", "Camo"], "Hidden as a marker.", "p. 60"),
    entry(
        "inf.fire",
        ["Fuoco"],
        ["Fire"],
        "Burning ammunition: save again until it fails.",
        "p. 88",
        kind="ammo",
    ),
    entry(
        "inf.da",
        ["Doppia Azione"],
        ["Double Action"],
        "Two saves per hit.",
        "p. 87",
        kind="ammo",
        abbr=["DA"],
    ),
    entry(
        "wm.stealth",
        ["Furtività"],
        ["Stealth"],
        "Ranged attacks from far away miss.",
        "p. 33",
        see_also=["wm.boost"],
    ),
    entry(
        "wm.boost",
        ["Potenziato", "tiro potenziato"],
        ["Boosted", "Boost"],
        "Spend focus to roll one extra die on an attack or damage roll.",
        "p. 29",
    ),
    entry("wow.reroll", ["Ritirare"], ["Reroll"], "Reroll dice at once.", "rule 105.3"),
    entry("wow.buff", ["Buff"], ["Buff"], "A lasting good effect.", "rule 301.2"),
    entry("aos.rend", ["Perforazione"], ["Rend"], "Worsens the save roll.", "13.3 Sequenza"),
]
INDEX = RuleIndex(ENTRIES)


@pytest.mark.parametrize(
    ("query", "expected", "how"),
    [
        ("Stealth", "wm.stealth", "name"),
        ("furtivita", "wm.stealth", "name"),  # accents optional
        ("FURTIVITÀ", "wm.stealth", "name"),
        ("stelth", "wm.stealth", "fuzzy"),  # a typo
        ("mimetismo", "inf.camo", "name"),
        ("camo", "inf.camo", "name"),
        ("DA", "inf.da", "name"),  # an abbreviation
        ("come funziona il Fuoco?", "inf.fire", "name"),  # question words dropped
        ("what does rend do", "aos.rend", "name"),
        ("301.2", "wow.buff", "number"),
        ("105", "wow.reroll", "number"),
        ("potenz", "wm.boost", "prefix"),
        ("extra die focus", "wm.boost", "text"),  # only in the summary
    ],
)
def test_best_hit(query: str, expected: str, how: str) -> None:
    hits = INDEX.search(query)
    assert hits, query
    assert (hits[0].entry.id, hits[0].how) == (expected, how)


def test_system_filter_and_limit() -> None:
    assert all(h.entry.system == "wm" for h in INDEX.search("fire", system="wm"))
    assert INDEX.search("fire", system="inf")[0].entry.id == "inf.fire"
    assert len(INDEX.search("a", limit=2)) <= 2


def test_exact_name_outranks_fuzzy_and_text() -> None:
    hits = INDEX.search("boost")
    assert hits[0].entry.id == "wm.boost" and hits[0].how == "name"


def test_validation_rejects_bad_entries() -> None:
    with pytest.raises(ValueError, match="1-5 sentences"):
        entry("wm.x", ["X"], ["X"], "One. Two. Three. Four. Five. Six.", "p. 1")
    with pytest.raises(ValueError, match="id must look like"):
        entry("chess.x", ["X"], ["X"], "Fine.", "p. 1")
    bad = [*ENTRIES, entry("wm.y", ["Y"], ["Y"], "Fine.", "p. 1", see_also=["wm.nothing"])]
    assert check_collection(bad) == ["wm.y: see_also wm.nothing does not exist"]


@pytest.fixture(scope="module")
def shipped() -> RuleIndex:
    from bot.rules_data import rule_index

    return rule_index()


def ids(hits: list[Hit]) -> list[tuple[str, float]]:
    return [(h.entry.id, h.score) for h in hits]


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_passes_skipped_by_limit_never_change_the_answer(shipped: RuleIndex, data: Any) -> None:
    """A search stops early once its top `limit` outrank every later pass; the answer is the
    same as the first `limit` hits of a deep search, where nothing is skipped."""
    names = sorted({n for e in shipped.entries.values() for n in e.names.all()})
    name = data.draw(st.sampled_from(names))
    cut = data.draw(st.integers(1, max(1, len(name))))
    query = data.draw(st.sampled_from([name, name[:cut], name[:cut] + name[cut + 1 :]]))
    system = data.draw(st.sampled_from([None, "wm", "aos", "wow", "inf", "c5"]))
    limit = data.draw(st.integers(1, 4))
    assert ids(shipped.search(query, system, limit)) == ids(
        shipped.search(query, system, 200)[:limit]
    )


def test_text_matches_are_ranked_within_the_asked_system() -> None:
    """More than 20 entries of other games match a word better than the one of this game: the
    full-text pass still finds it (the game is filtered in the query, not after the top 20)."""
    others = [
        entry(f"aos.w{i}", [f"W{i}"], [f"W{i}"], "Ward ward ward.", "p. 1") for i in range(30)
    ]
    mine = entry("wm.x", ["X"], ["X"], "A long sentence that mentions a ward once.", "p. 2")
    index = RuleIndex([*others, mine])
    assert [h.entry.id for h in index.search("ward", system="wm")] == ["wm.x"]


def test_full_text_terms_drop_question_words_and_short_prefixes() -> None:
    assert search_terms("come funziona il test di comando?") == search_terms("test comando")
    assert fts_match(["p+s"], prefix=True) == '"p s"'  # "s"* would match half a book
    assert fts_match(["fer", "di"], prefix=True) == '"fer"* OR "di"'
    assert fts_match(["fer"], prefix=False) == '"fer"'
    assert fts_match(["+", ""], prefix=True) is None


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=80))
def test_any_text_gives_a_valid_full_text_query(text: str) -> None:
    """Whatever a user types, the MATCH expression is accepted by SQLite's FTS5, and it finds
    a passage made of the very terms it was built from."""
    import sqlite3

    terms = search_terms(text)
    expression = fts_match(terms, prefix=True)
    if expression is None:
        return
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='unicode61 remove_diacritics 2')")
    db.execute("INSERT INTO t VALUES (?)", (" ".join(terms),))
    found = db.execute("SELECT count(*) FROM t WHERE t MATCH ?", (expression,)).fetchall()
    assert found == [(1,)], (text, terms, expression)


def test_titles_read_as_headings() -> None:
    lower = entry("aos.x", ["carica"], ["charge roll"], "Fine.", "p. 1")
    assert (lower.names.title("en"), lower.names.title("it")) == ("Charge roll", "Carica")
    assert entry("wm.x", ["P+F"], ["P+S"], "Fine.", "p. 1").names.title("en") == "P+S"
