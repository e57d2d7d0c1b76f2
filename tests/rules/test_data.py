"""The shipped rule entries: every file valid, every glossary term of every digest findable by
its Italian and by its English name (the digests' section 5, kept in tests/fixtures/glossary)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.rules_data import load_entries, load_file, rule_files, rule_index
from rules_core.rules.models import SYSTEMS

GLOSSARY = Path(__file__).resolve().parents[1] / "fixtures" / "glossary"
NAME_MATCHES = {"name", "prefix", "fuzzy", "number"}


def glossary_rows(system: str) -> list[tuple[str, str]]:
    """(Italian, English) of every glossary term of the system's digest, as the project keeps
    them in tests/fixtures/glossary (refreshed from the digests by refresh.py there)."""
    lines = (GLOSSARY / f"{system}.tsv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "italian\tenglish"
    rows = [line.split("\t") for line in lines[1:] if line]
    return [(it, en) for it, en in rows]


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
