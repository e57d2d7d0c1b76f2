"""Text from outside (user input, uploaded file names, imported rulebooks) without the Unicode
control (Cc) and format (Cf) characters: NUL bytes, terminal escapes, bidirectional overrides
and isolates (U+202E would show the rest of a reply line reversed), zero-width spaces, BOMs.
The joiners ZWJ (U+200D) and ZWNJ (U+200C) stay: emoji sequences and some scripts need them.
Tabs become spaces; newlines stay only where text may have several lines."""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cache

JOINERS = frozenset("\u200c\u200d")
# Every line break a text may carry; a multi-line text keeps them as "\n".
_BREAKS = re.compile(r"\r\n|[\r\n\x0b\x0c\x85\u2028\u2029]")


@cache
def _hidden(keep: str) -> re.Pattern[str]:
    """Every Cc and Cf character but the joiners and `keep`, from this Python's own Unicode
    tables (built once per process, about 0.1 s, and only when some text needs it)."""
    chars = [
        chr(c)
        for c in range(sys.maxunicode + 1)
        if unicodedata.category(chr(c)) in ("Cc", "Cf") and chr(c) not in JOINERS | set(keep)
    ]
    return re.compile("[" + "".join(re.escape(c) for c in chars) + "]+")


def _clean(text: str, newline: str) -> str:
    # The usual case, at C speed: nothing to remove (a space is printable, "\n" isn't, but a
    # multi-line text keeps it).
    if (text.replace("\n", "") if newline == "\n" else text).isprintable():
        return text
    text = _BREAKS.sub(newline, text.replace("\t", " "))
    return _hidden(newline.strip(" ")).sub("", text)


def one_line(text: str) -> str:
    """A name or a label: line breaks and tabs become spaces, other Cc and Cf characters go."""
    return _clean(text, " ")


def multi_line(text: str) -> str:
    """A message or a document: line breaks become "\n", tabs spaces, other Cc and Cf go."""
    return _clean(text, "\n")


def shorten(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, its end shown by "…" when it was cut (a cut command
    shown whole would read as another command)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
