"""Plural forms by the language's CLDR rule (Babel), numbers and percentages per locale, and the
foreign-word finder the screen tests use."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot import i18n
from bot.i18n import fmt_num, fmt_pct, plural_category, tn
from tests.i18n_check import foreign_words


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A counted message as a catalogue table, in both languages."""
    entries = {
        "en": {"t.models.one": "{n} model", "t.models.other": "{n} models"},
        "it": {"t.models.one": "{n} modello", "t.models.other": "{n} modelli"},
    }
    real = i18n.catalogue

    def fake(lang: i18n.Lang) -> dict[str, str]:
        return {**real(lang), **entries[lang]}

    monkeypatch.setattr(i18n, "catalogue", fake)


@pytest.mark.usefixtures("counted")
@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("it", 1, "1 modello"),
        ("it", 2, "2 modelli"),
        ("it", 0, "0 modelli"),
        ("it", 1000, "1.000 modelli"),
        ("it", 1_000_000, "1.000.000 modelli"),  # CLDR 'many': no entry, falls back to 'other'
        ("en", 1, "1 model"),
        ("en", 0, "0 models"),
        ("en", 1000, "1,000 models"),
    ],
)
def test_counted_messages_follow_the_plural_rule(lang: i18n.Lang, n: int, expected: str) -> None:
    assert tn(lang, "t.models", n) == expected


def test_plural_categories_come_from_cldr() -> None:
    assert [plural_category("it", n) for n in (0, 1, 2, 1.5)] == ["other", "one", "other", "other"]
    assert plural_category("it", 1_000_000) == "many"
    assert plural_category("en", 1) == "one"


@pytest.mark.parametrize(
    ("lang", "x", "digits", "expected"),
    [
        ("it", 7, 2, "7,00"),
        ("en", 7, 2, "7.00"),
        ("it", 7.5, None, "7,5"),
        ("it", 7, None, "7"),
        ("it", 1234.567, None, "1.234,57"),
        ("en", 1234.567, None, "1,234.57"),
    ],
)
def test_numbers_are_written_the_language_s_way(
    lang: i18n.Lang, x: float, digits: int | None, expected: str
) -> None:
    assert fmt_num(lang, x, digits) == expected


@pytest.mark.parametrize(
    ("lang", "p", "expected"),
    [
        ("it", 0.125, "12,5%"),
        ("en", 0.125, "12.5%"),
        ("it", 7 / 12, "58,3%"),
        ("it", 0.0004, "<0,1%"),
        ("en", 0.99996, ">99.9%"),
        ("it", 0, "0%"),
        ("en", 1, "100%"),
    ],
)
def test_percentages_never_round_to_a_false_certainty(
    lang: i18n.Lang, p: float, expected: str
) -> None:
    assert fmt_pct(lang, p) == expected


def test_plural_tables_in_the_catalogues_have_an_other_form() -> None:
    """Every counted message (a table with plural categories) has `other` in both languages."""
    root = Path(i18n.data_dir()) / "locales"
    categories = {"zero", "one", "two", "few", "many", "other"}
    for lang in i18n.LANGS:
        for file in sorted((root / lang).glob("*.toml")):
            stack = [tomllib.loads(file.read_text(encoding="utf-8"))]
            while stack:
                for value in stack.pop().values():
                    if isinstance(value, dict):
                        if value and set(value) <= categories:
                            assert "other" in value, f"{file}: {value}"
                        else:
                            stack.append(value)


def test_foreign_words_are_found_on_both_screens() -> None:
    assert foreign_words("it", "Fase hero: save 4+, bravery 7, tocca a Marco") == [
        "hero",
        "save",
        "bravery",
    ]
    assert foreign_words("en", "Morto (Dead), Indenne, per model") == ["Morto", "Indenne"]
    assert foreign_words("it", "Il warjack ha 3 punti focus; ARM 18, {name} ferito") == []
    assert foreign_words("en", "Gorgon has {n} boxes marked", allow=["Gorgon"]) == []
