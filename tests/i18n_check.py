"""Finds words of the other language on a screen: English on an Italian reply, Italian on an
English one. A word is foreign when it is common in the other language (Zipf frequency ≥ 3 in
wordfreq's corpora) and clearly more common there than in the screen's own language (by ≥ 1).
Game codes and names the books keep in both languages are allowed (ALLOWED, or `allow=`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from wordfreq import zipf_frequency

from bot.i18n import Lang

# Kept as they are in both languages' books and screens: stat codes, dice, units of measure;
# and words spelled alike in both whose frequency misleads (English "dice", Italian "schema";
# WARMACHINE's English "solo", a model type).
_CODES = """
arm def mat rat pow str spd cmd fury focus warcaster warjack warlock warbeast feat
ph bs cc wip bts mov ava swc cap lof ko ok id vs max min
d3 d6 d8 d10 d12 d20 df cp per
dice schema
solo
"""
# Words the Italian books themselves use (WoW: "Master Clock", "Personal Clock", "Pet", "buff",
# "Booster Draft"; Age of Sigmar: "round di battaglia"). A game's engineer adds their book's own
# loanwords here.
_BOOK_LOANWORDS = """
clock master personal pet totem battleground round cortex buff draft
"""
ALLOWED: frozenset[str] = frozenset(_CODES.split()) | frozenset(_BOOK_LOANWORDS.split())

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)


@cache
def _zipf(word: str, lang: str) -> float:
    return zipf_frequency(word, lang)


def is_foreign(word: str, lang: Lang) -> bool:
    other = "en" if lang == "it" else "it"
    w = word.lower()
    if len(w) < 3 or w in ALLOWED:
        return False
    if word.isupper() and len(word) <= 4:  # a stat code as the books print it: FOR, DIF, PB
        return False
    theirs, ours = _zipf(w, other), _zipf(w, lang)
    return theirs >= 3.0 and theirs - ours >= 1.0


def foreign_words(lang: Lang, text: str, allow: Iterable[str] = ()) -> list[str]:
    """The words of `text` that belong to the other language (placeholders like `{name}` and
    the words in `allow`, e.g. unit names of the test, are skipped)."""
    allowed = {a.lower() for a in allow}
    words = _WORD.findall(_PLACEHOLDER.sub(" ", text))
    return [w for w in words if w.lower() not in allowed and is_foreign(w, lang)]
