"""What an inline query asks for (bot/adapters/telegram_inline.py), on the real registry."""

from __future__ import annotations

import pytest

from bot.adapters.telegram_inline import inline_command
from bot.commands import build_registry

REGISTRY = build_registry()


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ("2d6+3", "/roll 2d6+3"),
        ("  d20 save ", "/roll d20 save"),
        ("roll 4d6kh3", "/roll 4d6kh3"),
        ("tira 10d6>=4", "/roll 10d6>=4"),
        ("/roll d6", "/roll d6"),
        ("roll 2d6+", "/roll 2d6+"),  # asked for a roll: the adapter says it is not one
        ("rule charge wm", "/rule charge system=wm"),
        ("regola carica aos", "/rule carica system=aos"),
        ("charge", "/rule charge"),  # not dice: a rule
        ("stealth system=inf", "/rule stealth system=inf"),
        ('rule "Forward to Victory" aos', '/rule "Forward to Victory" system=aos'),
        ("rule wm", "/rule wm"),  # a lone game id is the query itself
    ],
)
def test_query_becomes_a_command(query: str, text: str) -> None:
    command = inline_command(query, REGISTRY)
    assert command is not None and command.text == text
    assert inline_command(command.query, REGISTRY) == command  # a "switch inline" button's query


@pytest.mark.parametrize("query", ["", "   ", "roll", "regola "])
def test_nothing_to_do_is_none(query: str) -> None:
    assert inline_command(query, REGISTRY) is None
