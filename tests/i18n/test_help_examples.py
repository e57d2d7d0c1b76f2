"""/help's examples in the reader's language (#24): an Italian reader sees each example as they
would type it, command, option names, choices, stats and sample names in Italian
(`/unita aggiungi Guardie modelli=5 ferite=1`, not `/unita aggiungi Guards models=5 wounds=1`),
and the example still runs the same command."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.commands import build_registry
from bot.commands.core import shown_example
from bot.commands.local_names import text_names
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

REGISTRY = build_registry()
ITALIAN = text_names(REGISTRY, "it")
NAMES = {"Jaina", "Thrall", "Anduin", "Liberators", "Cygnar", "Lord", "Drake", "Vindictors", "Ann",
         "Bob", "Rexxar", "gen", "wow", "wm", "aos", "Crusader", "Defender", "Deathripper",
         "Warhammer"}  # fmt: skip


def _cases() -> list[object]:
    return [
        pytest.param(spec, example, id=example) for spec in REGISTRY for example in spec.examples
    ]


@pytest.mark.parametrize(("spec", "example"), _cases())
def test_an_italian_example_is_italian_and_runs_the_same_command(spec, example) -> None:  # type: ignore[no-untyped-def]
    shown = shown_example(REGISTRY, ITALIAN, spec, example, "it")
    assert REGISTRY.find(shown).spec.path == spec.path, shown
    rest = shown.split(" ", len(ITALIAN[spec.path].split()))[-1]
    assert foreign_words("it", rest, allow=NAMES) == [], shown


@pytest.mark.parametrize(
    ("lang", "command", "example"),
    [
        ("it", "/aiuto unita aggiungi", '/unita aggiungi "Gigante di Ferro" ferite=12'),
        ("it", "/aiuto unita aggiungi", "/unita aggiungi Guardie modelli=5 ferite=1"),
        ("en", "/help unit add", "/unit add Guards models=5 wounds=1"),
        ("it", "/aiuto wow", "/wow famiglio Lupo padrone=Rexxar"),
        ("it", "/aiuto salva", "/salva fuoco /tira 2d6+3 fuoco"),
        ("it", "/aiuto wow carta", '/wow carta aggiungi Jaina carta="Palla di Fuoco" costo=3'),
    ],
)
async def test_help_shows_examples_in_the_readers_language(
    app: App, lang: str, command: str, example: str
) -> None:
    assert example in plain.render(await say(app, command, lang=lang))
