"""Every rule entry as a player sees it, in both languages: no developer notes (bracketed
markers, TODO, internal section numbers, transcript lines or offsets) and a reference to the
printed book (issue #21)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from bot import i18n
from bot.commands.rules import entry_reply, ref_text
from bot.protocol import Reply
from bot.render import plain
from bot.rules_data import rule_index
from rules_core.rules.models import SYSTEMS

DEVELOPER_NOTES = re.compile(
    r"\[(?:BG|SEED|AMBIG|TODO|FIXME|NB|\?)\]|\bTODO\b|\bFIXME\b|\bXXX\b|§\s*\d|\bL\d{2,}\b|@\d{3,}"
    r"|\bpassim\b|\(sic\)"
)


@dataclass
class Reader:
    lang: i18n.Lang

    def t(self, key: str, /, **params: Any) -> str:
        return i18n.t(self.lang, key, **params)


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_every_entry_renders_without_developer_notes(system: str, lang: i18n.Lang) -> None:
    reader = Reader(lang)
    shown = 0
    for entry in rule_index().entries.values():
        if entry.system != system:
            continue
        title, blocks, buttons = entry_reply(reader, entry)
        text = plain.render(Reply(title=title, blocks=blocks, buttons=buttons))
        found = DEVELOPER_NOTES.search(text)
        assert found is None, f"{entry.id} ({lang}): {found.group()!r} in\n{text}"
        assert ref_text(reader, entry.ref), f"{entry.id}: no reference to the book"
        assert "📖" in text
        shown += 1
    assert shown > 50


def test_the_marker_check_catches_what_it_is_for() -> None:
    for bad in ("[BG] C3", "(§8.2-14)", "see L1527-1557", "C5 @7110", "TODO: write", "[SEED]"):
        assert DEVELOPER_NOTES.search(bad), bad
    for fine in ("p. 43, «Linea di vista»", "rule 301.2", "section 13.3", "2d6 + MAT", "L'arma"):
        assert not DEVELOPER_NOTES.search(fine), fine


@pytest.mark.parametrize(
    ("system", "pattern"),
    [
        ("wm", r"^pp?\. \d+"),
        ("inf", r"^pp?\. \d+"),
        ("aos", r"^(?:sections? \d+\.\d|“)"),
        ("wow", r"^rules? \d{3}"),
        ("c5", r"“|Confrontation 3"),
    ],
)
def test_references_take_each_books_form(system: str, pattern: str) -> None:
    """Pages where the book has them, AoS sections, WoW rule numbers, C5 section titles."""
    reader = Reader("en")
    refs = [ref_text(reader, e.ref) for e in rule_index().entries.values() if e.system == system]
    odd = [r for r in refs if not re.search(pattern, r)]
    assert len(odd) <= len(refs) // 50, odd[:5]  # a few entries name only a section title


# A command named in an entry's text: the command word, its subcommand, `option=value` words.
_COMMAND = re.compile(r"/[a-z0-9_]+(?: [a-z_]+)?(?: [a-z_]+=[^\s;,)]+)*")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_entries_name_commands_as_their_reader_types_them(lang: i18n.Lang) -> None:
    # "Il bot lo tira con /aos pray" put an English command on an Italian screen: an entry's
    # text names a command, its options and their choices in its own language (/aos prega).
    from bot.commands import lazy_registry
    from bot.commands.local_names import typed_example
    from bot.rules_data import load_entries

    registry = lazy_registry()
    wrong = []
    for entry in load_entries():
        texts = [entry.summary] + ([entry.details] if entry.details is not None else [])
        for text in texts:
            for match in _COMMAND.finditer(text.get(lang)):
                typed = match.group(0).rstrip(".")
                if typed_example(registry, typed, lang) != typed:
                    wrong.append((entry.id, typed, typed_example(registry, typed, lang)))
    assert wrong == []


def test_italian_infinity_entries_use_the_italian_books_attributes() -> None:
    # The walk: "Si lanciano con il PH" where the Italian book and the bot's own screens say
    # FIS (CD, PB, VOL, F for BS, BTS, WIP, W): 32 in 30 entries.
    from bot.rules_data import load_entries

    english = re.compile(r"\b(PH|BS|BTS|WIP|W)\b")
    found = {
        entry.id: english.findall(text.get("it"))
        for entry in load_entries()
        if entry.system == "inf"
        for text in [entry.summary] + ([entry.details] if entry.details is not None else [])
        if english.search(text.get("it"))
    }
    assert found == {}
