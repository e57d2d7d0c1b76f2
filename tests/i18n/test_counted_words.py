"""A number is followed by a word in its number: "1 ferita", never "1 ferite" (#24's rule:
plural forms by rule, with Babel). A walk found "1 ferite assegnate un modello alla volta" under
an Age of Sigmar attack; the sweep found the same in ten more entries. Every plain entry (not a
plural table) of both languages is written out with each count set to 1, and no counted noun of
the catalogues' own plural tables, nor one of the participles below, may follow a lone 1. Counts
that are limits (always 2 or more: `{limit}`, `{max}`...) are set to 20."""

from __future__ import annotations

import re

import pytest

from bot import i18n

PLURAL = {"zero", "one", "two", "few", "many", "other"}
# Placeholders that are bounds the code sets, never 1 (a limit of one would be no limit).
BOUNDS = {"limit", "max", "min", "most", "pages", "seconds", "lines", "kb", "rows", "honor"}
# Plural words that follow a count and are no table's noun (participles, agreement).
MORE = {
    "it": {"indicati", "usati", "necessari", "assegnate", "rimaste", "spesi", "scatti", "voci"},
    "en": {"wounds", "cards", "entries", "ticks", "points"},
}
COUNT = re.compile(r"\{n\} (\w+)")
LONE_ONE = re.compile(r"(?<![\w.,/#+-])1 (?:non )?(\w+)")  # "1 non salvate" too
# Words of the tables that follow a count but do not inflect (or are no noun).
INVARIABLE = {
    "it": {"non", "round"},
    "en": {"won", "mortal", "unsaved", "damage", "defence", "attack", "slain", "Open", "finished"},
}
# Entries whose count is never 1 where they are said, and why.
NEVER_ONE = {
    "odds.each_repeat": "said only for a roll repeated 2 or more times (N#)",
    "inf.coordinated": "{orders} is already counted text ('2 Ordini'); a Coordinated Order has 2+",
}


def counted_nouns(lang: i18n.Lang) -> set[str]:
    """The words the catalogue's own plural tables put after a count (`{n} modelli`)."""
    cat = i18n.catalogue(lang)
    return {
        word
        for key, text in cat.items()
        if key.rsplit(".", 1)[-1] == "other"
        for word in COUNT.findall(text)
    } - INVARIABLE[lang] | MORE[lang]


def plain_entries(lang: i18n.Lang) -> dict[str, str]:
    cat = i18n.catalogue(lang)
    return {k: v for k, v in cat.items() if k.rsplit(".", 1)[-1] not in PLURAL}


@pytest.mark.parametrize("lang", ["it", "en"])
def test_no_plain_entry_puts_a_plural_word_after_a_count_of_one(lang: i18n.Lang) -> None:
    nouns = counted_nouns(lang)
    found = {}
    for key, text in plain_entries(lang).items():
        if key in NEVER_ONE:
            continue
        params = {p: 20 if p in BOUNDS else 1 for p in i18n.placeholders(text)}
        written = text.format_map(params)
        words = [w for w in LONE_ONE.findall(written) if w.lower() in nouns]
        if words:
            found[key] = written
    assert found == {}


def test_the_sweep_finds_what_the_walk_found() -> None:
    assert "ferite" in counted_nouns("it") and "indicati" in counted_nouns("it")
    written = "{n} ferite assegnate un modello alla volta".format_map({"n": 1})
    assert LONE_ONE.findall(written) == ["ferite"]


@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("it", 1, "1 ferita assegnata un modello alla volta → uccisi: 1"),
        ("it", 3, "3 ferite assegnate un modello alla volta → uccisi: 1"),
        ("en", 1, "1 wound allocated model by model → slain: 1"),
        ("en", 2, "2 wounds allocated model by model → slain: 1"),
    ],
)
def test_an_aos_allocation_is_counted(lang: i18n.Lang, n: int, expected: str) -> None:
    assert i18n.t(lang, "aos.step.allocate", n=n, slain=1) == expected
