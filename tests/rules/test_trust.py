"""/rule answers a player can trust: it says when it is not sure, takes the game from the
query, lists every game that has an answer, cites the printed book and shows no developer notes.
Each test names the defect it reproduces (issue #21)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

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


async def test_not_sure_offers_three_to_five_entries_as_buttons(app: App) -> None:
    """Two entries answer to "focus" in WARMACHINE: neither is given as the rule."""
    reply = await say(app, "/rule how does focus work system=wm")
    assert reply.ok and reply.data is not None
    assert reply.data["confident"] is False
    assert 3 <= len(reply.buttons) <= 5
    assert {"wm.focus_stat", "wm.focus_manipulation"} <= {
        reply.data["id"],
        *reply.data["alternatives"],
    }
    text = plain.render(reply)
    assert text.startswith("Not sure which rule you mean")
    # The console has no buttons: they are a numbered list of the commands they run.
    numbered = [line for line in text.splitlines() if re.match(r"^\d\. ", line)]
    assert [line[0] for line in numbered] == [str(n) for n in range(1, len(reply.buttons) + 1)]
    assert all(b.command in line for b, line in zip(reply.buttons, numbered, strict=True))


async def test_the_chats_game_is_preferred_and_another_games_answer_is_only_offered(
    app: App,
) -> None:
    await say(app, "/game new inf", chat="console:inf")
    reply = await say(app, "/rule line of sight", chat="console:inf")
    assert reply.data is not None
    assert (reply.data["id"], reply.data["confident"]) == ("inf.line_of_fire", True)

    await say(app, "/game new wm", chat="console:wm")
    aro = await say(app, "/rule ARO", chat="console:wm")  # Infinity's word, in a WARMACHINE chat
    assert aro.data is not None and aro.data["confident"] is False
    assert any(b.command == '/rule "ARO" system=inf' and "Infinity" in b.label for b in aro.buttons)
    named = await say(app, "/rule infinity ARO", chat="console:wm")  # unless the query says so
    assert named.data is not None and (named.data["id"], named.data["confident"]) == (
        "inf.aro",
        True,
    )


async def test_a_confident_answer_offers_only_alternatives_found_by_name(app: App) -> None:
    reply = await say(app, "/rule camuffamento system=inf")
    assert reply.data is not None
    labels = {b.label for b in reply.buttons}
    assert "Normal ammunition" not in labels  # was offered for a typo-distance resemblance


def test_ask_json_carries_confident_and_the_readers_ref(tmp_path: Path) -> None:
    env = dict(os.environ, WARGAME_BOT_DB=str(tmp_path / "ask.sqlite3"))
    run = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--json", "--lang", "it", "/rule wm line of sight"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)["data"]
    assert data["confident"] is True and data["id"] == "wm.line_of_sight"
    assert data["ref"] == "p. 43, «Linea di vista»"


async def test_infinity_partial_cover_helps_bts_too(app: App) -> None:
    """Found walking: `/regola copertura parziale` said partial cover gives +3 ARM; the book
    gives -3 BS to the shooter and +3 to ARM or BTS, not against hacking, with the base touching
    the cover (p. 15, L897-905)."""
    for lang, query, words in (
        ("it", "/regola copertura parziale sistema=inf", ("-3 al CD", "ARM o alla PB", "Hacking")),
        ("en", "/rule partial cover system=inf", ("-3 BS", "ARM or BTS", "Hacking")),
    ):
        reply = await say(app, query, lang=lang)
        assert reply.ok and reply.data is not None and reply.data["id"] == "inf.cover"
        text = plain.render(reply)
        assert all(w in text for w in words), text


async def test_a_question_is_not_called_a_rule_nor_is_the_doubt_said_twice(app: App) -> None:
    """`/regola come funziona il focus` was titled "«come funziona il focus» è una regola di più
    giochi", and an unsure answer's first line repeated its title ("Non sono sicuro di quale
    regola intendi" / "Non sono sicuro di quale regola sia …")."""
    for lang in ("it", "en"):
        games = await say(app, "/rule come funziona il focus", lang=lang)
        assert games.ok and games.data is not None and len(games.data["games"]) >= 2
        title = plain.render(games).splitlines()[0]
        assert "come funziona il focus" in title
        assert not re.search(r"è una regola|is a rule", title), title

        unsure = await say(app, "/rule how does focus work system=wm", lang=lang)
        assert unsure.ok and unsure.data is not None and unsure.data["confident"] is False
        first, second = plain.render(unsure).splitlines()[:2]
        opening = " ".join(first.split()[:3])  # "Non sono sicuro" / "Not sure which"
        assert opening not in second, (first, second)
