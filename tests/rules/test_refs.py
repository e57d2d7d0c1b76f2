"""Reader references: computed once from the transcripts by scripts/build_refs.py into
data/systems/*/refs.toml (the bot never reads the transcripts); checked here on small texts
written for the test, on facts of the books, and, when $WARGAME_RULEBOOKS is set, against the
transcripts themselves."""

from __future__ import annotations

import pytest

from bot.rules_data import rule_index
from scripts import build_refs
from tests.rulebooks import rulebooks_dir


def test_page_numbers_come_from_the_page_number_lines() -> None:
    """A bare number that is the next page ends that page; table values never do."""
    text = "\n".join(["title", "26", "rule text", "12", "more", "27", "other", "28"])
    ends = build_refs.page_ends(text, 26)
    assert ends == [(2, 26), (6, 27), (8, 28)]
    assert [build_refs.page_of(ends, line) for line in (1, 2, 3, 4, 6, 7, 8)] == [
        26,
        26,
        27,
        27,
        27,
        28,
        28,
    ]
    ref = build_refs.paged_ref("Carica, L3-7", ends)
    assert (ref.pages, ref.titles) == ([27, 28], ["Carica"])


def test_sources_become_section_and_rule_numbers_with_their_headings() -> None:
    aos = "1.0 CONCETTI BASE\ntext\n13.3 SEQUENZA D'ATTACCO\ntext\ntext"
    headings = build_refs.aos_headings(aos)
    assert build_refs.aos_ref("13.3, L4", headings).titles == ["Sequenza d'attacco"]
    assert build_refs.aos_ref("L5", headings).sections == ["13.3"]  # from the line alone
    wow = "301.Buff e Debuff\n301.1Un buff...\n301.2Un debuff...\n"
    assert build_refs.wow_ref("Regola 301.2 (L3)", wow).rules == ["301.2"]
    assert build_refs.wow_ref("L3", wow).rules == ["301.2"]
    assert build_refs.wow_ref("Regole 602.1-602.1a", wow).rules == ["602.1–602.1a"]


def test_confrontation_headings_are_found_in_the_one_line_text() -> None:
    text = (
        "Credits. STATO DI SALUTE (18) Il testo... FOR e RES contano. LINEA DI VISTA (23) i "
        "combattenti vedono... PAURA (59) Un combattente Coraggioso ABILITA' Le Abilità qui"
    )
    headings = build_refs.c5_headings(text)
    assert [(h[1], h[2]) for h in headings] == [
        ("STATO DI SALUTE", 18),
        ("LINEA DI VISTA", 23),
        ("PAURA", 59),
        ("ABILITA'", None),
    ]
    at = text.index("combattenti vedono")
    ref = build_refs.c5_ref(f"C5 @{at}", headings)
    assert (ref.titles, ref.c3_pages) == (["Linea di vista"], [23])
    assert build_refs.sentence_case("ABILITA'") == "Abilità"
    assert build_refs.c5_ref("Confrontation 3, movimento (BG)", headings).c3


@pytest.mark.parametrize(
    ("entry", "field", "value"),
    [
        ("wm.knocked_down", "pages", [63]),  # "Atterrato (p.63)": the book's own cross-reference
        ("wm.line_of_sight", "pages", [43]),
        ("inf.line_of_fire", "pages", [5]),
        ("aos.rend", "sections", ["13.3", "22.2.2"]),
        ("wow.line_of_sight", "rules", ["405.3"]),
        ("c5.line_of_sight", "c3_pages", [23]),
    ],
)
def test_shipped_references(entry: str, field: str, value: object) -> None:
    ref = rule_index().entries[entry].ref
    assert ref is not None and getattr(ref, field) == value


def test_the_shipped_references_are_what_the_transcripts_give() -> None:
    """refs.toml is written by the script from the entries' sources: stale data fails here."""
    rulebooks_dir()  # skips, or fails under WARGAME_REQUIRE_RULEBOOKS=1, without them
    assert build_refs.main(["--check"]) == 0
