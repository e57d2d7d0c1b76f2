"""Issue 22 (Confrontation): replies cite the book by its section names ("Lanciare i dadi",
"Tabelle", "Abilità"...), never the digest's internal numbers (§8.2-14) or character
offsets (@4060), in either language."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

LOCALES = Path(__file__).resolve().parents[3] / "data" / "locales"
INTERNAL = re.compile(r"§|@\d|\bdigest\b|\[(SEED|BG|AMBIG)\]", re.IGNORECASE)


def strings(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for value in node.values() for s in strings(value)]
    return []


@pytest.mark.parametrize("lang", ["en", "it"])
def test_c5_catalogue_cites_no_internal_numbers(lang: str) -> None:
    catalogue = tomllib.loads((LOCALES / lang / "c5.toml").read_text(encoding="utf-8"))
    found = [s for s in strings(catalogue) if INTERNAL.search(s)]
    assert found == []


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_source_line_names_a_book_section(lang: str) -> None:
    """Each /c5 reply closes with its sources: C5 rules name the section in quotes."""
    catalogue = tomllib.loads((LOCALES / lang / "c5.toml").read_text(encoding="utf-8"))
    for name, line in catalogue["c5"]["src"].items():
        if "C5" in line:
            assert re.search(r"“[^”]+”|«[^»]+»", line), name
