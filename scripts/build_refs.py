"""Reader references for the built-in rule entries, computed once from the rulebook transcripts.

Each entry's `source` says where our Italian transcript holds its rule (line numbers `L1527`,
character offsets `@7110`, section or rule numbers): useful to whoever writes entries, useless to
a player holding the printed book. This script turns every source into what the reader can
follow and writes data/systems/<id>/refs.toml, which the bot reads (it never needs the
transcripts at run time):

- WARMACHINE and Infinity: printed page numbers (the transcripts keep the page-number lines;
  each sits at the end of its page) and the section title the entry names;
- Age of Sigmar: section numbers with their headings (`13.3 Sequenza d'attacco`);
- WoW Miniatures: rule numbers with the title of their three-digit rule;
- Confrontation 5: the title of the section that holds the offset (the one-line transcript keeps
  its ALL-CAPS headings) and the Confrontation 3 page a heading cites.

Run by hand after changing entries' sources:

    WARGAME_RULEBOOKS=/path/to/transcripts .venv/bin/python scripts/build_refs.py [--check]

`--check` writes nothing and exits 1 when a committed refs.toml differs from what it computes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from bot.paths import RULEBOOK_TRANSCRIPTS, rulebooks_dir

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "systems"
NAMES = {
    "wm": "WARMACHINE",
    "aos": "Age of Sigmar",
    "wow": "WoW Miniatures",
    "inf": "Infinity",
    "c5": "Confrontation 5",
}
# The first printed page each transcript's page-number lines start from.
FIRST_PAGE = {"wm": 26, "inf": 1}

LINES = re.compile(r"\bL(\d+)(?:\s*[-–]\s*L?(\d+))?")
OFFSETS = re.compile(r"@(\d+)")
C3_PAGES = re.compile(r"C3 p\. (\d+)(?: e (\d+))?")
AOS_SECTION = re.compile(r"\b(\d{1,2}\.\d(?:\.\d)?)\b")
WOW_RULE = re.compile(r"\b(\d{3}(?:\.\d+[a-z]?)?)(?:\s*-\s*(\d{3}(?:\.\d+[a-z]?)?))?")


@dataclass
class Ref:
    pages: list[int] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    c3_pages: list[int] = field(default_factory=list)
    c3: bool = False  # from the Confrontation 3 rulebook, which the C5 text amends

    def toml(self) -> str:
        parts = []
        for key in ("pages", "sections", "rules", "titles", "c3_pages"):
            values = getattr(self, key)
            if values:
                parts.append(f"{key} = {json.dumps(values, ensure_ascii=False)}")
        if self.c3:
            parts.append("c3 = true")
        return "{ " + ", ".join(parts) + " }"


def sentence_case(heading: str) -> str:
    """'LINEA DI VISTA' -> 'Linea di vista'; "ABILITA'" -> 'Abilità' (the book's apostrophe
    accents). Headings already in mixed case are kept."""
    text = re.sub(r"\s+", " ", heading).strip(" -–")
    text = re.sub(r"\s*[-–]\s+|\s+[-–]\s*", " – ", text)  # "I FEDELI- FEDE" reads "I fedeli – fede"
    if text != text.upper():
        return text[:1].upper() + text[1:]
    accents = {"A": "À", "E": "È", "I": "Ì", "O": "Ò", "U": "Ù"}
    text = re.sub(r"([AEIOU])['’](?=\s|$)", lambda m: accents[m.group(1)], text)
    lower = text.lower()
    return lower[:1].upper() + lower[1:]


def line_ranges(source: str) -> list[tuple[int, int]]:
    return [(int(a), int(b or a)) for a, b in LINES.findall(source)]


def source_title(source: str) -> str | None:
    """The words before the first locator: 'Linea di vista, L1527-1557' -> 'Linea di vista'."""
    head = re.split(r",?\s*(?:\bL\d|@\d|\bC5\b|\(C3)", source, maxsplit=1)[0]
    head = re.sub(r"^(?:\d{1,2}\.\d(?:\.\d)?(?:\s*(?:e|-)\s*\d{1,2}\.\d(?:\.\d)?)*)\s*", "", head)
    head = head.strip(" ,;")
    return head or None


# --- page-numbered books (WARMACHINE, Infinity) ------------------------------------------------


def page_ends(text: str, first: int) -> list[tuple[int, int]]:
    """(line, page) for each page-number line, in order: a bare number equal to the next page
    (table cells and stat values that happen to be bare numbers never match the sequence)."""
    ends = []
    expected = first
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() == str(expected):
            ends.append((number, expected))
            expected += 1
    return ends


def page_of(ends: list[tuple[int, int]], line: int) -> int:
    """The printed page holding `line`: page N runs up to and including its marker line."""
    at = bisect_right([end for end, _ in ends], line - 1)
    return ends[min(at, len(ends) - 1)][1]


def paged_ref(source: str, ends: list[tuple[int, int]]) -> Ref:
    pages: set[int] = set()
    for start, stop in line_ranges(source):
        pages.update(range(page_of(ends, start), page_of(ends, stop) + 1))
    title = source_title(source)
    return Ref(pages=sorted(pages), titles=[title] if title else [])


# --- Age of Sigmar: numbered sections ----------------------------------------------------------

AOS_HEADING = re.compile(r"^(\d{1,2}\.\d(?:\.\d)?)\s+(.+)$")


def aos_headings(text: str) -> list[tuple[int, str, str]]:
    return [
        (number, m.group(1), sentence_case(m.group(2)))
        for number, line in enumerate(text.splitlines(), start=1)
        if (m := AOS_HEADING.match(line.strip()))
    ]


def aos_ref(source: str, headings: list[tuple[int, str, str]]) -> Ref:
    lead = source.split(",")[0] if re.match(r"^\d", source) else ""
    sections = list(dict.fromkeys(AOS_SECTION.findall(lead)))
    if not sections:
        for start, _ in line_ranges(source):
            before = [h for h in headings if h[0] <= start]
            if before:
                sections.append(before[-1][1])
        sections = list(dict.fromkeys(sections))
    titles = []
    for section in sections[:2]:
        named = [h for h in headings if h[1] == section]
        if named:
            titles.append(named[0][2])
    if not sections and (title := source_title(source)):
        titles.append(title)  # before section 1.0 (the Player's Code)
    return Ref(sections=sections, titles=titles)


# --- WoW Miniatures: rule numbers -------------------------------------------------------------

WOW_HEADING = re.compile(r"^(\d{3})\.\s*(\D.*?)\.?$")
WOW_RULE_LINE = re.compile(r"^(\d{3}\.\d+[a-z]?)")


def wow_ref(source: str, text: str) -> Ref:
    lines = text.splitlines()
    headings = {m.group(1): m.group(2).strip() for line in lines if (m := WOW_HEADING.match(line))}
    words = LINES.sub("", source)
    rules = ["–".join(p for p in pair if p) for pair in WOW_RULE.findall(words)]
    if not rules:
        for start, _ in line_ranges(source):
            for line in reversed(lines[:start]):
                if m := WOW_RULE_LINE.match(line):
                    rules.append(m.group(1))
                    break
    rules = list(dict.fromkeys(rules))
    title = headings.get(rules[0][:3]) if rules else None
    return Ref(rules=rules, titles=[title] if title else [])


# --- Confrontation 5: ALL-CAPS headings of the one-line transcript -----------------------------

_UPPER = "A-ZÀÈÉÌÒÙ"
C5_HEADING = re.compile(
    rf"(?<![\w’'])([{_UPPER}][{_UPPER}'’]*(?:[ \-–]+[{_UPPER}][{_UPPER}'’]*)*)"
    r"(\s*\((?:pag\.?\s*|p\.\s*)?(\d+)(?:\s*PA)?\))?"
)
STATS = {"FOR", "RES", "ATT", "DIF", "COR", "PAU", "DIS", "INI", "MOV", "POT", "PF", "FT", "PA"}
# Capitals that are not headings: the cover, table cells of the contact table, emphasis.
NOT_HEADINGS = {
    "EVOLUZIONE DELLE REGOLE PER LA TERZA EDIZIONE DI CONFRONTATION",
    "QUESTA EDIZIONE DELLE REGOLE INTEGRA E SOSTITUISCE QUELLE PRESENTATE NELLA VERSIONE",
    "RISULTATI DI",
    "NATURALE SUI TEST",
    "FANTERIA",
    "CREATURA",
    "CAVALLERIA",
    "CRATURA GRANDE",
    "RESISTENZA",
    "UN SOLO",
    "IMMEDIATAMENTE",
}
# Chapter titles printed right before a section heading: the section is the useful part.
CHAPTERS = (
    "CONDIZIONI DI GIOCO",
    "AZIONI ED AREE D'EFFETTO I MISTICI",
    "EQUIPAGGIAMENTI E SEGNALINI",
    "LITURGIA E RELIQUIE",
)


def c5_headings(text: str) -> list[tuple[int, str, int | None]]:
    found = []
    for m in C5_HEADING.finditer(text):
        words = [w for w in re.split(r"[ \-–]+", m.group(1)) if w]
        while len(words) > 1 and len(words[-1]) == 1:  # the next sentence's capital
            words.pop()
        heading = m.group(1)[: m.group(1).rfind(words[-1]) + len(words[-1])]
        letters = sum(c.isalpha() for c in heading)
        short = len(words) == 1 and letters < 6 and not m.group(3)  # "PAURA (59)" is one
        if letters < 5 or all(w in STATS for w in words) or short:
            continue
        if heading in NOT_HEADINGS:
            continue
        for chapter in CHAPTERS:
            if heading.startswith(chapter + " ") and heading != chapter:
                heading = heading[len(chapter) + 1 :]
        heading = heading.replace("COSTITUZIONEARMATA", "COSTITUZIONE ARMATA")
        page = int(m.group(3)) if m.group(3) and "PA" not in (m.group(2) or "") else None
        found.append((m.start(), heading, page))
    return found


def c5_ref(source: str, headings: list[tuple[int, str, int | None]]) -> Ref:
    """The section title the entry's writer read it under when the source names one (the
    columns of the transcript are interleaved, so the heading before an offset is sometimes
    a neighbour's), else the heading before each offset."""
    starts = [h[0] for h in headings]
    named = source_title(source) if not source.startswith("C5") else None
    titles: list[str] = [named] if named else []
    c3_pages: list[int] = []
    for offset in (int(o) for o in OFFSETS.findall(source)):
        at = bisect_right(starts, offset) - 1
        if at >= 0:
            _, heading, page = headings[at]
            if not named:
                titles.append(sentence_case(heading))
            if page is not None and page != 15 and (not named or not c3_pages):
                c3_pages.append(page)  # "(pag 15)" cites the C5 booklet itself
    for a, b in C3_PAGES.findall(source):
        c3_pages += [int(a)] + ([int(b)] if b else [])
    from_c3 = not OFFSETS.search(source)
    if from_c3:
        title = source.split(",", 1)[-1].replace("(BG)", "").strip() if "," in source else ""
        titles = [sentence_case(title)] if title and "passim" not in title else []
    return Ref(
        titles=list(dict.fromkeys(titles))[:2],
        c3_pages=sorted(set(c3_pages)),
        c3=from_c3,
    )


# --- driver ------------------------------------------------------------------------------------


def entries(system: str) -> list[tuple[str, str]]:
    out = []
    for path in sorted((DATA / system / "rules").glob("*.toml")):
        with path.open("rb") as fh:
            out += [(e["id"], e["source"]) for e in tomllib.load(fh)["entry"]]
    return out


def build(system: str, text: str) -> dict[str, Ref]:
    if system in FIRST_PAGE:
        ends = page_ends(text, FIRST_PAGE[system])
        return {ident: paged_ref(source, ends) for ident, source in entries(system)}
    if system == "aos":
        headings = aos_headings(text)
        return {ident: aos_ref(source, headings) for ident, source in entries(system)}
    if system == "wow":
        return {ident: wow_ref(source, text) for ident, source in entries(system)}
    c5 = c5_headings(text)
    return {ident: c5_ref(source, c5) for ident, source in entries(system)}


def render(system: str, refs: dict[str, Ref]) -> str:
    head = [
        f"# Reader references for the {NAMES[system]} rule entries: written by",
        "# scripts/build_refs.py from the rulebook transcripts; do not edit by hand (change the",
        "# entry's `source` and run the script again).",
        "[refs]",
    ]
    return "\n".join([*head, *(f'"{i}" = {r.toml()}' for i, r in refs.items())]) + "\n"


def problems(refs: dict[str, Ref]) -> Iterable[str]:
    for ident, ref in refs.items():
        if not (ref.pages or ref.sections or ref.rules or ref.titles or ref.c3):
            yield f"{ident}: no reference found"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    folder = rulebooks_dir()
    if folder is None:
        print("set WARGAME_RULEBOOKS to the transcripts' directory", file=sys.stderr)
        return 2
    stale = []
    for system, name in RULEBOOK_TRANSCRIPTS.items():
        text = (folder / name).read_text(encoding="utf-8")
        refs = build(system, text)
        bad = list(problems(refs))
        if bad:
            print("\n".join(bad), file=sys.stderr)
            return 1
        target = DATA / system / "refs.toml"
        content = render(system, refs)
        if args.check:
            if not target.is_file() or target.read_text(encoding="utf-8") != content:
                stale.append(str(target.relative_to(ROOT)))
        else:
            target.write_text(content, encoding="utf-8")
            print(f"{target.relative_to(ROOT)}: {len(refs)} references")
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
