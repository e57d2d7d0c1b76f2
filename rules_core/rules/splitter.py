"""Split a rulebook's text into passages by the book's own structure.

Structure recognised: numbered rules and sections ("100.1", "10.2.3", "105.Dadi", "1.0 CONCETTI
BASE"), Markdown headings, ALL-CAPS heading lines, short title lines between blank lines, and bare
page-number lines (which set the page and are dropped). Each passage keeps its heading path and
where it starts: a line number, or a character offset for a book transcribed as one long line.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

MAX_PASSAGE = 1000
SINGLE_LINE_MIN = 5000  # a text with this many characters on very few lines is one "long line"

_PAGE = re.compile(r"^\s*(?:pag(?:ina)?\.?\s*)?(\d{1,3})\s*$", re.IGNORECASE)
_RULE_TITLE = re.compile(r"^\s*(\d{1,3})\.\s*([A-ZÀ-Ý].{1,80})$")  # "105.Dadi"
_DOTTED = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,3}){1,3}[a-z]?)\s*(\S.*)$")  # "1.2.1 X", "100.1Ogni"
_JOINING = ("DI ", "DEI ", "DEL ", "DELLE ", "DELLA ", "E ", "A ", "IN ", "DA ", "PER ")
_MARKDOWN = re.compile(r"^\s*(#{1,6})\s+(.+?)\s*#*\s*$")
_UPPER = re.compile(r"[A-ZÀ-Ý]")
_LOWER = re.compile(r"[a-zà-ÿ]")
# An inline ALL-CAPS heading in a one-line book: after a sentence end, 2+ capitalised words,
# optionally closed by a page reference "(18)".
_INLINE_HEADING = re.compile(
    r"(?:(?<=[.!?:»”\"] )|^)((?:[A-ZÀ-Ý][A-ZÀ-Ý'’]+|DI|E|DEI|DEL|DELLE|A|IN|DA)"
    r"(?:\s+(?:[A-ZÀ-Ý][A-ZÀ-Ý'’]*|DI|E|DEI|DEL|DELLE|A|IN|DA|/|—|-)){1,8}(?:\s+\(\d{1,3}\))?)"
    r"(?=\s+[A-ZÀ-Ý\-\"“(][a-zà-ÿ ,'’])"
)


@dataclass
class Passage:
    heading: list[str]
    location: int  # 1-based line number, or 0-based character offset (see `unit`)
    text: str
    number: str | None = None
    page: int | None = None


@dataclass
class Heading:
    title: str
    location: int
    level: int
    number: str | None = None


@dataclass
class SplitResult:
    unit: str  # "line" or "offset"
    headings: list[Heading] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)


def is_caps_heading(line: str) -> bool:
    text = line.strip()
    if not 3 <= len(text) <= 80 or text.endswith((".", ",", ";")):
        return False
    upper, lower = len(_UPPER.findall(text)), len(_LOWER.findall(text))
    return upper >= 3 and lower <= upper * 0.1


def is_title_line(line: str, before: str, after: str) -> bool:
    """A short sentence-case title standing alone between blank lines."""
    text = line.strip()
    if not 4 <= len(text) <= 60 or before.strip() or after.strip():
        return False
    if text[-1] in ".,;:!?)" or not text[0].isupper() or text[0].isdigit():
        return False
    return len(text.split()) <= 9 and not text.startswith(("*", "-", "•"))


def split_text(text: str) -> SplitResult:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if len(lines) <= 3 and len(text) >= SINGLE_LINE_MIN:
        return _split_long_line(text)
    return _split_lines(lines)


def _split_lines(lines: list[str]) -> SplitResult:
    result = SplitResult(unit="line")
    # Caps lines that recur on many pages are running headers, not headings.
    counts: dict[str, int] = {}
    for line in lines:
        if is_caps_heading(line):
            counts[line.strip()] = counts.get(line.strip(), 0) + 1
    running = {text for text, n in counts.items() if n >= 3}
    path: list[Heading] = []
    body: list[str] = []
    start = 1
    number: str | None = None
    page: int | None = None
    last_heading_line = -1

    def flush() -> None:
        if any(b.strip() for b in body):
            _emit(result, [h.title for h in path], start, "\n".join(body).strip(), number, page)
        body.clear()

    def push(heading: Heading) -> None:
        while path and path[-1].level >= heading.level:
            path.pop()
        path.append(heading)
        result.headings.append(heading)

    for index, line in enumerate(lines):
        lineno = index + 1
        stripped = line.strip()
        if not stripped:
            body.append("")
            continue
        page_match = _PAGE.match(stripped)
        if page_match and len(stripped) <= 9:
            page = int(page_match.group(1))
            continue
        if stripped in running:
            continue
        before = lines[index - 1] if index else ""
        after = lines[index + 1] if index + 1 < len(lines) else ""
        heading: Heading | None = None
        md = _MARKDOWN.match(line)
        rule_title = _RULE_TITLE.match(line)
        dotted = _DOTTED.match(line)
        if md:
            numbered_title = re.match(r"(\d{1,3}(?:\.\d{1,3}){0,3}[a-z]?)\s", md.group(2))
            num_md = numbered_title.group(1) if numbered_title else None
            heading = Heading(md.group(2), lineno, len(md.group(1)), num_md)
        elif rule_title and not rule_title.group(2).rstrip().endswith("."):
            num = rule_title.group(1)
            heading = Heading(f"{num} {rule_title.group(2).strip()}", lineno, 2, num)
        elif dotted:
            num, rest = dotted.group(1), dotted.group(2).strip()
            if is_caps_heading(rest):
                heading = Heading(f"{num} {rest}", lineno, 2 + num.count("."), num)
            else:
                flush()
                start, number = lineno, num
                body.append(stripped)
                continue
        elif is_caps_heading(stripped):
            if (
                last_heading_line == lineno - 1
                and path
                and (len(stripped.split()) <= 2 or stripped.startswith(_JOINING))
            ):
                path[-1].title += " " + stripped  # a heading wrapped onto a second line
                last_heading_line = lineno
                continue
            heading = Heading(stripped, lineno, 1)
        elif path and is_title_line(line, before, after):
            heading = Heading(stripped, lineno, min(3, path[-1].level + 1))
        if heading is not None:
            flush()
            push(heading)
            start, number = lineno + 1, heading.number
            last_heading_line = lineno
            continue
        if not any(b.strip() for b in body):
            start = lineno
        body.append(stripped)
    flush()
    return result


def _split_long_line(text: str) -> SplitResult:
    result = SplitResult(unit="offset")
    marks = [(m.start(1), m.group(1)) for m in _INLINE_HEADING.finditer(text)]
    marks = [(pos, title) for pos, title in marks if len(title.replace(" ", "")) >= 5]
    bounds = [*marks, (len(text), "")]
    if marks and marks[0][0] > 0:
        _emit(result, [], 0, text[: marks[0][0]].strip(), None, None)
    for (pos, title), (next_pos, _) in itertools.pairwise(bounds):
        result.headings.append(Heading(title.strip(), pos, 1))
        body = text[pos + len(title) : next_pos].strip()
        if body:
            _emit(result, [title.strip()], pos, body, None, None)
    return result


def _emit(
    result: SplitResult,
    heading: list[str],
    location: int,
    body: str,
    number: str | None,
    page: int | None,
) -> None:
    """Add a passage, cut at paragraph (then sentence) boundaries into pieces of MAX_PASSAGE."""
    body = re.sub(r"\n{3,}", "\n\n", body)
    while len(body) > MAX_PASSAGE:
        cut = body.rfind("\n\n", 0, MAX_PASSAGE)
        if cut < MAX_PASSAGE // 3:
            cut = body.rfind(". ", 0, MAX_PASSAGE) + 1
        if cut < MAX_PASSAGE // 3:
            cut = MAX_PASSAGE
        result.passages.append(Passage(heading, location, body[:cut].strip(), number, page))
        body = body[cut:].strip()
    if body:
        result.passages.append(Passage(heading, location, body, number, page))
