"""Complete catalogues (#24 item 1): every area's file has the same keys in both languages, and
no entry carries a word of the other language.

What a screen quotes is not prose and is skipped: a command as typed (`/game new`, with its
subcommand words from the registry), option syntax (`system=`, `wounds=3`), the books' titles
and product names (PROPER_NAMES). A plural table (`{one = …, other = …}`) counts as one key:
each language has its own CLDR categories.

The game systems' and dice catalogues belong to their engineers: a file whose entries still
carry foreign words is marked `xfail(strict=True)` with its owner, so it flips to a failure
(and the mark is removed) the day it is clean.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot import i18n
from bot.commands import build_registry
from bot.paths import data_dir
from tests.i18n_check import foreign_words

LOCALES = data_dir() / "locales"
FILES = sorted(p.stem for p in (LOCALES / "en").glob("*.toml"))
PLURAL = {"zero", "one", "two", "few", "many", "other"}
# Titles and product names, the same in both languages.
PROPER_NAMES = {
    "age", "sigmar", "confrontation", "warmachine", "miniatures", "battlescribe", "new",
    "recruit", "discord", "telegram", "postgresql", "sqlite", "word", "wow", "infinity", "world",
    "warcraft",
}  # fmt: skip
# Open for each owner: the files whose entries still have foreign words. Remove a file's line
# when it is clean (the strict xfail fails the day it passes).
OWNERS: dict[tuple[str, str], str] = {}
_OPTION = re.compile(r"(?:--[\w-]+|[\w-]+=(?:[\w|,.:%<>+-]*\w)?)")
# All capitals: a stat's code as the books print it (FOR, POT), a placeholder (NOME), a setting
_CODE = re.compile(r"\b[A-Z][A-Z0-9_]*[A-Z0-9]\b")
_COMMAND = re.compile(r"/([a-z0-9_-]+)((?: [a-z_-]+)*)")


def entries(lang: str, stem: str) -> dict[str, str]:
    out: dict[str, str] = {}
    with (LOCALES / lang / f"{stem}.toml").open("rb") as fh:
        i18n._flatten("", tomllib.load(fh), out)
    return out


def keys(flat: dict[str, str]) -> set[str]:
    """Keys with a plural table's categories folded into the table's own key."""
    return {k.rsplit(".", 1)[0] if k.rsplit(".", 1)[-1] in PLURAL else k for k in flat}


_REGISTRY = build_registry()


def _drop_command(match: re.Match[str]) -> str:
    """`/game new SISTEMA` -> ` SISTEMA`: the command's words are what the user types, in
    either language; prose after them stays to be checked."""
    group = _REGISTRY.canonical([match.group(1)])[0]
    words = match.group(2).split()
    subs = set(_REGISTRY.words_under((group,)))
    kept = words
    while kept and kept[0] in subs:
        kept = kept[1:]
    return " " + " ".join(kept)


def prose(text: str) -> str:
    """The words of an entry a reader reads as language (see the module docstring)."""
    text = _COMMAND.sub(_drop_command, text)
    return _CODE.sub(" ", _OPTION.sub(" ", text))


def foreign(lang: i18n.Lang, stem: str) -> dict[str, list[str]]:
    found = {
        key: foreign_words(lang, prose(text), allow=PROPER_NAMES)
        for key, text in entries(lang, stem).items()
        # option names are syntax (`quantita=`), and so are their accented forms (`accents.`)
        if not key.startswith(("discord.options.", "accents."))
    }
    return {key: words for key, words in found.items() if words}


@pytest.mark.parametrize("stem", FILES)
def test_each_file_has_the_same_keys_in_both_languages(stem: str) -> None:
    en, it = keys(entries("en", stem)), keys(entries("it", stem))
    assert (sorted(en - it), sorted(it - en)) == ([], [])


def test_a_key_in_one_language_only_is_found(tmp_path: Path) -> None:
    assert keys({"a.b": "x", "c.one": "1 d", "c.other": "{n} d"}) == {"a.b", "c"}
    assert keys({"a.b": "x"}) ^ keys({"a.b": "x", "a.c": "y"}) == {"a.c"}


def _cases() -> list[object]:
    out: list[object] = []
    for lang in i18n.LANGS:
        for stem in FILES:
            owner = OWNERS.get((lang, stem))
            marks = (
                [pytest.mark.xfail(strict=True, reason=f"foreign words; owner: {owner}")]
                if owner
                else []
            )
            out.append(pytest.param(lang, stem, marks=marks, id=f"{lang}-{stem}"))
    return out


@pytest.mark.parametrize(("lang", "stem"), _cases())
def test_no_entry_carries_a_word_of_the_other_language(lang: i18n.Lang, stem: str) -> None:
    assert foreign(lang, stem) == {}


def test_what_the_check_skips_and_what_it_finds() -> None:
    assert prose("prima chiudila con /game end.").split() == ["prima", "chiudila", "con", "."]
    assert prose("/game new spiega /roll").split() == ["spiega"]
    assert prose("per esempio wounds=3 models=5 o until=").split() == ["per", "esempio", "o"]
    assert foreign_words("it", prose("fase hero: usa /game new")) == ["hero"]
    assert foreign_words("en", prose("Dead (Morto) after /unit damage")) == ["Morto"]
    # A stat code in capitals, as the books print it (C5's FOR), is no English word; "for" is.
    assert foreign_words("it", "ATT 5 FOR 6 DIF 4, for the win") == ["for", "the", "win"]
