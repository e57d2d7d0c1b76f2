"""Text normalisation for rule search: case and accents folded, punctuation dropped, words
stemmed in Italian and English (the two languages players ask in)."""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from typing import Any

_WORD = re.compile(r"[0-9a-z+]+(?:\.[0-9]+)*[a-z]?")


@cache
def _stemmers() -> tuple[Any, Any]:
    """Loaded on the first stem: `fold` alone (the command registry) needs no stemmer."""
    import snowballstemmer

    return snowballstemmer.stemmer("italian"), snowballstemmer.stemmer("english")


def fold(text: str) -> str:
    """Lower case without accents (`Unità` -> `unita`), the form names are compared in."""
    if text.isascii():  # most names and commands: nothing to decompose
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return plain.replace("’", "'")


def words(text: str) -> list[str]:
    """Folded words; keeps rule numbers ("301.2a") and '+' inside words ("p+s") whole."""
    return _WORD.findall(fold(text).replace("'", " "))


def name_key(text: str) -> str:
    """The form names are compared in: folded words joined by single spaces."""
    return " ".join(words(text))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    if not word.isalpha() or len(word) < 4:
        return word
    italian, english = _stemmers()
    it: str = italian.stemWord(word)
    en: str = english.stemWord(word)
    return min(it, en, key=len)


def stems(text: str) -> list[str]:
    return [stem(w) for w in words(text)]
