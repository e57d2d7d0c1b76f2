"""/rule answers a player can trust: it says when it is not sure, takes the game from the
query, lists every game that has an answer, cites the printed book and shows no developer notes.
Each test names the defect it reproduces (issue #21)."""

from __future__ import annotations

import re

from bot.app import App
from bot.render import plain
from tests.helpers import say

READER_UNSAFE = re.compile(r"\bL\d{2,}|@\d{3,}|§|\[(?:BG|SEED|AMBIG)\]|TODO|FIXME")


async def test_camuffamento_in_infinity_is_mimetismo(app: App) -> None:
    """It answered "Munizione ordinaria" with full confidence."""
    reply = await say(app, "/rule camuffamento system=inf")
    assert reply.ok and reply.data is not None
    assert reply.data["id"] == "inf.camouflage"
    assert reply.data["confident"] is True


async def test_a_game_named_in_the_query_selects_it(app: App) -> None:
    """`/rule wm line of sight` answered an Infinity ammunition entry."""
    reply = await say(app, "/rule wm line of sight")
    assert reply.ok and reply.data is not None
    assert (reply.data["id"], reply.data["system"]) == ("wm.line_of_sight", "wm")
    assert reply.data["query"] == "line of sight"


async def test_no_game_and_several_answers_lists_one_line_per_game(app: App) -> None:
    """`/rule line of sight` in a chat with no game answered Confrontation's entry alone."""
    reply = await say(app, "/rule line of sight")
    assert reply.ok and reply.data is not None
    assert reply.data["confident"] is False
    games = {row["system"] for row in reply.data["games"]}
    assert {"wm", "wow", "inf", "c5"} <= games
    assert len({b.command for b in reply.buttons}) == len(reply.data["games"])
    text = plain.render(reply)
    for label in ("WARMACHINE", "Infinity", "Confrontation", "WoW"):
        assert label in text


async def test_references_are_the_printed_book_not_transcript_lines(app: App) -> None:
    """References read "L1527-1557" or "@7110"."""
    for query, system, expected in [
        ("line of sight", "wm", r"\bp\. \d+"),
        ("line of sight", "c5", r"Linea di vista"),
        ("line of fire", "inf", r"\bp\. \d+"),
        ("301.2", "wow", r"\brules? [\d., ]*301\.2\b"),
        ("rend", "aos", r"\bsections? 1?\d\.\d"),
    ]:
        reply = await say(app, f"/rule {query} system={system}")
        assert reply.ok and reply.data is not None, query
        text = plain.render(reply)
        assert not READER_UNSAFE.search(text), text
        assert re.search(expected, str(reply.data["ref"])), (query, reply.data["ref"])


async def test_confrontation_replies_carry_no_developer_markers(app: App) -> None:
    """Confrontation answers ended with [BG], [SEED], [AMBIG]."""
    for command in ("/c5 test value=4 dice=3", "/c5 wound str=8 res=6 dice=2,5"):
        reply = await say(app, command, lang="it")
        assert reply.ok, (command, reply.error)
        text = plain.render(reply)
        assert not READER_UNSAFE.search(text), text
