"""Roll and game numbers are counted per chat: `/roll show 3` is this chat's third roll, and no
chat sees another's activity or can guess its numbers (issue 18, section 4)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from bot.storage.db import migrations
from tests.helpers import say

HERE = "telegram:-100"
THERE = "telegram:-200"


def ok(reply: Reply) -> Reply:
    assert reply.error is None, reply.error
    return reply


async def test_rolls_are_numbered_per_chat(app: App) -> None:
    for _ in range(3):
        ok(await say(app, "/roll d6", chat=THERE))
    first = ok(await say(app, "/roll 2d6 dice=3,4", chat=HERE))
    assert first.data is not None and first.data["id"] == 1
    assert "Roll #1" in plain.render(first)
    second = ok(await say(app, "/roll d20 dice=17", chat=HERE))
    assert second.data is not None and second.data["id"] == 2

    shown = ok(await say(app, "/roll show 1", chat=HERE))
    assert shown.data is not None and shown.data["total"] == 7 and shown.data["id"] == 1
    assert "Roll #1" in plain.render(shown)
    # This chat made two rolls: a third is nobody's, whatever other chats rolled.
    missing = await say(app, "/roll show 3", chat=HERE)
    assert missing.error is not None and missing.error.code == "roll.not_found"

    history = ok(await say(app, "/roll history", chat=HERE))
    assert history.data is not None
    assert [r["id"] for r in history.data["rolls"]] == [2, 1]
    assert "#2 " in plain.render(history) and "#4" not in plain.render(history)
    there = ok(await say(app, "/roll history", chat=THERE))
    assert [r["id"] for r in there.data["rolls"]] == [3, 2, 1]  # type: ignore[index]


async def test_attack_rolls_share_the_chats_numbering(app: App) -> None:
    ok(await say(app, "/roll d6", chat=THERE))
    ok(await say(app, "/aos attack attacks=2 hit=3 wound=4 dice=1,1", chat=HERE))
    after = ok(await say(app, "/roll d6 dice=2", chat=HERE))
    assert after.data is not None and after.data["id"] == 2
    shown = ok(await say(app, "/roll show 1", chat=HERE))
    assert "/aos attack" in plain.render(shown)


async def test_games_are_numbered_per_chat(app: App) -> None:
    for _ in range(2):
        ok(await say(app, "/game new gen", chat=THERE))
        ok(await say(app, "/game end", chat=THERE))
    created = ok(await say(app, '/game new gen "Here"', chat=HERE))
    assert created.data is not None and created.data["game"] == 1
    status = ok(await say(app, "/game status", chat=HERE))
    assert status.data is not None and status.data["game"] == 1
    ended = ok(await say(app, "/game end", chat=HERE))
    assert ended.data is not None and ended.data["game"] == 1
    ok(await say(app, "/game new gen", chat=HERE))
    history = ok(await say(app, "/game history", chat=HERE))
    assert history.data == {"games": [{"id": 2, "status": "active"}, {"id": 1, "status": "ended"}]}
    text = plain.render(history)
    assert "#1" in text and "#2" in text and "#3" not in text and "#4" not in text


async def test_campaign_journal_and_export_number_games_per_chat(app: App) -> None:
    for _ in range(3):
        ok(await say(app, "/game new gen", chat=THERE))
        ok(await say(app, "/game end", chat=THERE))
    ok(await say(app, "/campaign new League", chat=HERE))
    ok(await say(app, "/game new gen Opening", chat=HERE))
    ok(await say(app, "/roll 2d6 dice=1,2", chat=HERE))
    journal = ok(await say(app, "/campaign journal", chat=HERE))
    assert "#1 R1" in plain.render(journal) and "#4" not in plain.render(journal)
    assert {e["game_id"] for e in journal.data["entries"]} <= {None, 1}  # type: ignore[index]
    export = ok(await say(app, "/campaign export", chat=HERE))
    report = export.attachments[0].content.decode()
    assert "## Game #1: Opening" in report and "#4" not in report


async def test_concurrent_rolls_in_one_chat_never_share_a_number(tmp_path: Path) -> None:
    """Two connections (as two processes would have) rolling at once in one chat."""
    path = tmp_path / "busy.sqlite3"
    first, second = App(path), App(path)
    await first.start()
    await second.start()
    try:
        replies = await asyncio.gather(
            *(say(app, "/roll d6", chat=HERE) for _ in range(20) for app in (first, second))
        )
        numbers = sorted(ok(r).data["id"] for r in replies)  # type: ignore[index]
        assert numbers == list(range(1, 41))
        games = await asyncio.gather(
            *(say(app, "/game new gen", chat=f"console:{i}") for i, app in enumerate([first] * 5))
        )
        assert {ok(g).data["game"] for g in games} == {1}  # type: ignore[index]
    finally:
        await first.stop()
        await second.stop()


async def test_the_migration_numbers_existing_rows_per_chat_in_order(tmp_path: Path) -> None:
    """A database from before per-chat numbers gets them in the order its rows were made."""
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for version, _, sql in migrations():
        if version > 6:
            break
        conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;")
    chats = [HERE, THERE, HERE, HERE, THERE]
    for i, chat in enumerate(chats):
        conn.execute(
            "INSERT INTO rolls (chat_key, user_id, user_name, expression, faces, seed, result, "
            "created_at) VALUES (?, 'u', 'U', 'd6', '[4]', NULL, '[{\"total\": 4}]', ?)",
            (chat, f"2026-01-01T00:00:0{i}+00:00"),
        )
    state = '{"system": "gen", "name": "G", "organiser": "u"}'
    for chat, status in [(THERE, "ended"), (HERE, "ended"), (THERE, "active"), (HERE, "active")]:
        conn.execute(
            "INSERT INTO games (chat_key, system, name, organiser, status, state, created_at, "
            "updated_at) VALUES (?, 'gen', 'G', 'u', ?, ?, '2026-01-01', '2026-01-01')",
            (chat, status, state),
        )
    conn.close()

    app = App(path)
    await app.start()
    try:
        here = ok(await say(app, "/roll history", chat=HERE))
        assert [r["id"] for r in here.data["rolls"]] == [3, 2, 1]  # type: ignore[index]
        there = ok(await say(app, "/roll history", chat=THERE))
        assert [r["id"] for r in there.data["rolls"]] == [2, 1]  # type: ignore[index]
        again = ok(await say(app, "/roll d6", chat=THERE))
        assert again.data is not None and again.data["id"] == 3
        games = ok(await say(app, "/game history", chat=HERE))
        assert [g["id"] for g in games.data["games"]] == [2, 1]  # type: ignore[index]
        ok(await say(app, "/game end", user="u", chat=HERE))
        new = ok(await say(app, "/game new gen", chat=HERE))
        assert new.data is not None and new.data["game"] == 3
    finally:
        await app.stop()
