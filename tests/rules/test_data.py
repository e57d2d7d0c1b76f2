"""The shipped rule entries: every file valid, every glossary term of every digest findable by
its Italian and by its English name (../shared/rules-digests, section 5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.rules_data import load_entries, load_file, rule_files, rule_index
from rules_core.rules.models import SYSTEMS

DIGESTS = Path(__file__).resolve().parents[2].parent / "shared" / "rules-digests"
DIGEST_OF = {
    "wm": "warmachine.md",
    "aos": "age-of-sigmar.md",
    "wow": "wow-minis.md",
    "inf": "infinity.md",
    "c5": "confrontation.md",
}
IT_HEADERS = {"italian", "italian (as in text)", "it"}
NAME_MATCHES = {"name", "prefix", "fuzzy", "number"}


def glossary_rows(system: str) -> list[tuple[str, str]]:
    """(Italian, English) of every row of the glossary's Italian|English tables (other tables
    there, like WoW's list of example cards, are not glossaries)."""
    text = (DIGESTS / DIGEST_OF[system]).read_text(encoding="utf-8")
    section = text[text.index("\n## 5") : text.index("\n## 6")]
    rows = []
    in_glossary = False
    for line in section.splitlines():
        if not line.startswith("|"):
            in_glossary = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if set("".join(cells)) <= {"-", " ", ":"}:
            continue
        if cells[0].lower() in IT_HEADERS:
            in_glossary = cells[1].lower().startswith(("en", "english"))
            continue
        if in_glossary and len(cells) >= 3:
            rows.append((cells[0], cells[1]))
    return rows


def variants(cell: str) -> list[str]:
    """The ways a glossary cell names a term: 'FOR (Forza)' -> FOR, Forza, 'FOR (Forza)'."""
    cell = cell.replace("*", "").replace("`", "")
    bare_cell = re.sub(r"\s*\([^)]*\)", "", cell).strip()
    out = [cell, bare_cell]
    for part in re.split(r"\s*(?:/|;|,| vs\.? | or | o )\s*", cell):
        inner = re.findall(r"\(([^)]*)\)", part)
        bare = re.sub(r"\s*\([^)]*\)", "", part).strip()
        out += [p.strip() for p in [part, bare, *inner] if p.strip()]
    return list(dict.fromkeys(v for v in out if len(v) >= 2))


def findable(system: str, cell: str) -> bool:
    index = rule_index()
    return any(
        hit.how in NAME_MATCHES
        for variant in variants(cell)
        for hit in index.search(variant, system=system, limit=3)
    )


def test_every_rule_file_is_valid() -> None:
    files = rule_files()
    assert files, "no rule files shipped"
    for path in files:
        assert load_file(path), f"{path} has no entries"
    entries = load_entries()
    assert {e.system for e in entries} == set(SYSTEMS)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_glossary_term_is_found_by_both_names(system: str) -> None:
    rows = glossary_rows(system)
    assert len(rows) > 50, "glossary parse failed"
    missing = [
        (lang, cell)
        for it, en in rows
        for lang, cell in (("it", it), ("en", en))
        if cell and not findable(system, cell)
    ]
    assert missing == [], f"{len(missing)} of {2 * len(rows)} glossary names not found"
