"""Option names to read carry their accents (#24 item 5): /help's option lines, the syntax
line's placeholders and option names and the errors say `quantità`, `UNITÀ`, `[difficoltà=N]`;
Discord's picker keeps the ASCII name it needs (`quantita`), and both are typed."""

from __future__ import annotations

import re

import pytest
from wordfreq import zipf_frequency

from bot import i18n
from bot.app import App
from bot.commands import build_registry
from bot.commands.local_names import syntax, typed_name
from bot.render import plain
from tests.helpers import say


@pytest.mark.parametrize(
    ("command", "shown", "not_shown"),
    [
        ("/aiuto unita danno", "quantità: ", "quantita: "),
        ("/aiuto unita danno", "NOME QUANTITÀ", "QUANTITA"),
        ("/aiuto aos tabella", "/aos tabella UNITÀ RIGHE…", "UNITA "),
        ("/aiuto c5 prova", "difficoltà: ", "difficolta: "),
        ("/unita danno Guardie tre", "QUANTITÀ deve essere", "QUANTITA deve"),
    ],
)
async def test_an_option_to_read_has_its_accent(
    app: App, command: str, shown: str, not_shown: str
) -> None:
    text = plain.render(await say(app, command, lang="it", chat="console:accents"))
    assert shown in text and not_shown not in text, text


async def test_the_accented_and_the_plain_name_are_both_typed(app: App) -> None:
    chat = "console:accents-typed"
    await say(app, "/partita nuova gen", lang="it", chat=chat)
    await say(app, "/unita aggiungi Guardie ferite=5", lang="it", chat=chat)
    for typed in ("/c5 prova valore=5 difficoltà=7", "/c5 prova valore=5 difficolta=7"):
        reply = await say(app, typed, lang="it", chat=chat, seed=1)
        assert reply.error is None, reply.error


async def test_english_names_are_unchanged(app: App) -> None:
    text = plain.render(await say(app, "/help unit damage", lang="en", chat="console:accents-en"))
    assert "/unit damage NAME AMOUNT" in text


async def test_the_syntax_line_of_an_error_carries_the_accents(app: App) -> None:
    text = plain.render(await say(app, "/c5 ferita forza=99", lang="it", chat="console:acc-err"))
    assert "penalita" not in text, text
    # a long syntax is cut after its first options (App.short_usage): abilità is among them
    text = plain.render(await say(app, "/wm attacco tipo=pugno", lang="it", chat="console:acc-err"))
    assert "[abilità=N]" in text and "abilita" not in text, text


_FINAL = {"a": "à", "e": "èé", "i": "ì", "o": "ò", "u": "ù"}


def _unaccented(word: str) -> str | None:
    """The accented Italian word `word` is missing its accent from (`penalita` -> `penalità`),
    judged by wordfreq: the accented form is a common word and clearly more common."""
    low = word.lower()
    if not low.isascii() or len(low) < 3 or low[-1] not in _FINAL:
        return None
    for accent in _FINAL[low[-1]]:
        form = low[:-1] + accent
        if (
            zipf_frequency(form, "it") >= 2.0
            and zipf_frequency(form, "it") > zipf_frequency(low, "it") + 0.5
        ):
            return form
    return None


def test_no_italian_syntax_line_drops_an_accent() -> None:
    """Every command's Italian syntax line: its options and placeholders (not the command's
    own words, which stay ASCII to be typed on Telegram) have their accents."""
    registry = build_registry()
    missing = {}
    for spec in registry:
        head = typed_name(registry, spec, "it")
        line = syntax(registry, spec, "it").removeprefix(head)
        for word in re.findall(r"[^\W\d_]+", line):
            if (form := _unaccented(word)) is not None:
                missing[f"{head} {word}"] = form
    assert missing == {}


def test_the_accent_sweep_sees_a_missing_accent() -> None:
    assert _unaccented("penalita") == "penalità" and _unaccented("PROBABILITA") == "probabilità"
    assert _unaccented("ferite") is None and _unaccented("penalità") is None


def test_a_command_word_typed_with_its_accent_finds_the_command() -> None:
    """Command names stay ASCII for Telegram (`/unita`), but a player may type the word as it
    is written: `/unità aggiungi` was "unknown command"."""
    registry = build_registry()
    checked = []
    for spec in registry:
        words = typed_name(registry, spec, "it").lstrip("/").split()
        written = [_unaccented(w) or w for w in words]
        if written == words:
            continue
        checked.append(" ".join(written))
        for typed in (" ".join(written), " ".join(written).upper()):
            assert registry.find(f"/{typed}").spec is spec, typed
    assert "unità aggiungi" in checked and "aos priorità" in checked, checked


async def test_a_stat_typed_with_its_accent_is_the_stat(app: App) -> None:
    # `/unità aggiungi Thrall velocità=5` was "not a stat=number pair": the names are ASCII
    # (`velocita`), as command words are, and the accent is folded away the same way.
    chat = {"chat": "console:accents-stats", "lang": "it"}
    assert (await say(app, "/partita nuova wow", **chat)).ok
    added = await say(app, "/unità aggiungi Thrall salute=6 velocità=5 armatura=2", **chat)
    assert added.ok, added.error
    status = await say(app, "/partita stato", **chat)
    assert status.data is not None
    (unit,) = status.data["state"]["units"]
    assert unit["stats"]["speed"] == 5, unit
    refused = await say(app, "/unità aggiungi Rexxar difesa=4", **chat)
    assert refused.error is not None and "velocità" in refused.error.message, refused.error


def test_no_italian_stat_name_drops_an_accent() -> None:
    """Every game's stat names as an Italian sentence lists them (`valide: salute, velocità…`):
    a name missing its accent has an `accents` entry, so `i18n.readable` gives it back."""
    catalogue = i18n.catalogue("it")
    missing = {
        key: word
        for key, word in catalogue.items()
        if key.startswith("game.stat.")
        for part in word.split("_")
        if _unaccented(part) and i18n.readable("it", part) == part
    }
    assert not missing, missing


def test_no_italian_help_example_drops_an_accent() -> None:
    """Found walking /aiuto c5: the syntax lines said `[difficoltà=N]` and the examples under
    them `difficolta=7`, `abilita=rigenerazione`. An example's words after the command (option
    names, flags, choices; the command's own words stay ASCII) carry their accents too."""
    from bot.commands.local_names import typed_example

    registry = build_registry()
    missing = {}
    for spec in registry:
        head = typed_name(registry, spec, "it")
        for example in spec.examples:
            line = typed_example(registry, example, "it").removeprefix(head)
            keys = re.findall(r"([^\W\d]+)=", line) + [
                w for w in line.split() if "=" not in w and w.isalpha()
            ]
            for word in keys:
                for part in word.split("_"):
                    if (form := _unaccented(part)) is not None:
                        missing[f"{head} {word}"] = form
    assert missing == {}
