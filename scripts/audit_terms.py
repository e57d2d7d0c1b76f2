"""Every term a book indexes, checked against the rule entries' names: prints the terms that no
entry answers to by name, so that each gets an entry or an alias (issue #21, "everyday words").

Sources, one per book (read from $WARGAME_RULEBOOKS):
- WARMACHINE: the book's Italian-English glossary ("Abbattuto - Boxed" lines, pp. 96-97);
- Age of Sigmar: the rules index ("abilità di comando..... 7");
- Infinity: every skill, weapon or item the book names with its English name ("Alzarsi [Get Up]:");
- WoW Miniatures: the title of every numbered rule ("404.Muoversi e Teleportarsi");
- Confrontation 5: every ability of the abilities chapter ("Accanito (Passiva) :").

    WARGAME_RULEBOOKS=/path/to/transcripts .venv/bin/python scripts/audit_terms.py [system]
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.paths import RULEBOOK_TRANSCRIPTS as BOOKS
from bot.rules_data import rule_index
from rules_core.rules.text import name_key


def wm_terms(text: str) -> Iterator[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Abbattuto - Boxed"))
    for line in lines[start:]:
        if line.startswith("TRADUZIONE"):
            break
        parts = re.split(r"\s+[-–]\s*|\s*[-–]\s+", line)
        if len(parts) >= 2:
            yield from (p.strip() for p in parts if p.strip())


def aos_terms(text: str) -> Iterator[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "INDICE DELLE REGOLE")
    for line in lines[start + 1 :]:
        if m := re.match(r"^(.+?)\.{3,}", line.strip()):
            yield m.group(1).strip()


def inf_terms(text: str) -> Iterator[str]:
    for m in re.finditer(r"^([^\n\[]{3,60}?)\s*(?:\([^)]*\)\s*)?\[([^\]\n]{2,60})\]", text, re.M):
        yield m.group(1).strip(" •")
        yield m.group(2).strip()


def wow_terms(text: str) -> Iterator[str]:
    for m in re.finditer(r"^\d{3}\.\s*(\D[^\n]*?)\.?$", text, re.M):
        yield m.group(1).strip()


def c5_terms(text: str) -> Iterator[str]:
    start, end = text.find("ABILITA' Le Abilità"), text.find("ABILITA' DELLE MACCHINE")
    ability = re.compile(r"([A-ZÀ-Ý][\w'’-]*(?: [\w'’-]+){0,3}?)(?:/X)? \((?:Passiva|Attiva)")
    for m in ability.finditer(text[start:end]):
        yield m.group(1).strip()


TERMS = {"wm": wm_terms, "aos": aos_terms, "inf": inf_terms, "wow": wow_terms, "c5": c5_terms}


def missing(system: str, text: str) -> list[str]:
    index = rule_index()
    known = {
        name_key(n) for e in index.entries.values() if e.system == system for n in e.names.all()
    }
    out = []
    for term in dict.fromkeys(TERMS[system](text)):
        key = name_key(re.sub(r"\s*\([^)]*\)", "", term))
        if key and key not in known:
            out.append(term)
    return out


def main() -> int:
    folder = Path(os.environ.get("WARGAME_RULEBOOKS", "")).expanduser()
    systems = sys.argv[1:] or list(BOOKS)
    for system in systems:
        text = (folder / BOOKS[system]).read_text(encoding="utf-8")
        terms = missing(system, text)
        print(f"== {system}: {len(terms)} terms no entry answers to")
        for term in terms:
            print("  " + term)
    return 0


if __name__ == "__main__":
    sys.exit(main())
