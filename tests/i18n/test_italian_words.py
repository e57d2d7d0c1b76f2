"""Every name an Italian reader is shown for a command is Italian (#24 item 2): the command as
typed (`text_names`: `/c5 ferire`), each option's name and each choice's word (what the syntax
lines, the errors and Discord's picker show: `caratteristica=tir`, `iniziativa=somma`), by
`foreign_words`; and each still answers the same command and value."""

from __future__ import annotations

import pytest

from bot.commands import build_registry
from bot.commands.local_names import choice_word, option_names, text_names
from bot.commands.registry import convert_value
from tests.i18n_check import foreign_words

REGISTRY = build_registry()
ITALIAN = text_names(REGISTRY, "it")


def _words(name: str) -> str:
    return name.replace("_", " ").replace("-", " ")


def test_every_commands_italian_name_is_italian() -> None:
    found = {
        name: bad
        for path, name in ITALIAN.items()
        if (bad := foreign_words("it", _words(name), allow={path[0]}))
    }
    assert found == {}


@pytest.mark.parametrize("spec", list(REGISTRY), ids=lambda s: s.name)
def test_every_option_and_choice_an_italian_sees_is_italian(spec) -> None:  # type: ignore[no-untyped-def]
    local = option_names(spec, "it")
    found = {}
    for opt in spec.options:
        if bad := foreign_words("it", _words(local[opt.name])):
            found[local[opt.name]] = bad
        for code in opt.choices:
            word = choice_word(opt, code, "it")
            if bad := foreign_words("it", _words(word)):
                found[f"{local[opt.name]}={word}"] = bad
            assert convert_value(opt, word) == code, (opt.name, word)
    assert found == {}
