"""The live board on Discord end to end: the real discord.py client against the fake Discord.
`/game board` posts the board as a channel message of the bot's and pins it (the caller gets
an ephemeral note); a change edits that message (PATCH, no new message), a burst is coalesced,
a restart keeps editing it, a deleted one is forgotten. Clock and timer: tests/board/timers.py."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.app import App
from tests.board.timers import Timers
from tests.discord import harness
from tests.discord.fake_discord import CHANNEL_ID, FakeDiscord
from tests.discord.harness import interact, sub
from tests.helpers import say

CHAT = f"discord:{CHANNEL_ID}"
SLOW = 120.0  # never defer: the board card may take seconds on a busy machine
EPHEMERAL = 64


async def setup_game(app: App) -> None:
    await say(app, "/game new gen Skirmish", chat=CHAT, user="42", name="Ann")
    await say(app, "/unit add Guards wounds=10", chat=CHAT, user="42")


def posts(fake: FakeDiscord) -> list[tuple[str, Any]]:
    return [(p, b) for m, p, b in fake.calls if m == "POST" and p.endswith("/messages")]


def edits(fake: FakeDiscord) -> list[tuple[str, Any]]:
    return [(p, b) for m, p, b in fake.calls if m == "PATCH" and "/channels/" in p]


def description(body: Any) -> str:
    embed = body["embeds"][0]
    return f"{embed.get('title') or ''}\n{embed.get('description') or ''}"


async def post_board(fake: FakeDiscord, app: App, locale: str = "en-US") -> str:
    """`/game board`: the note the caller sees, the board posted and pinned; its message id."""
    pins = len([c for c in fake.calls if c[0] == "PUT" and "/pins/" in c[1]])
    payload = fake.interaction(2, sub("game", "board"), locale=locale)
    note = await interact(fake, payload)
    assert note["data"]["flags"] & EPHEMERAL
    pinned = await fake.wait_for(lambda m, p, b: m == "PUT" and "/pins/" in p, count=pins + 1)
    path, body = posts(fake)[-1]
    assert path == f"/channels/{CHANNEL_ID}/messages"
    assert "Guards" in description(body)
    return pinned[-1][1].rsplit("/", 1)[-1]


async def damage(fake: FakeDiscord, app: App, amount: int) -> None:
    await interact(fake, fake.interaction(2, sub("unit", "damage", name="Guards", amount=amount)))
    await app.boards.drain()


async def test_damage_edits_the_posted_board_not_a_new_message(tmp_path: Path) -> None:
    async with harness.running(tmp_path, defer_after=SLOW) as env:
        timers = Timers()
        timers.drive(env.app.boards)
        await setup_game(env.app)
        board_id = await post_board(env.fake, env.app)
        note = (await env.fake.callbacks())[-1]
        assert "live board is posted" in note["data"]["embeds"][0]["description"]
        posted = len(posts(env.fake))
        await timers.advance(60, env.app.boards)
        await damage(env.fake, env.app, 3)
        ((path, body),) = edits(env.fake)
        assert path == f"/channels/{CHANNEL_ID}/messages/{board_id}"
        assert "7/10" in description(body) and "Live board" in description(body)
        assert len(posts(env.fake)) == posted  # the board was edited, not posted again
        assert body["allowed_mentions"]["parse"] == []  # an edit pings nobody


async def test_a_burst_of_five_changes_is_coalesced(tmp_path: Path) -> None:
    async with harness.running(tmp_path, defer_after=SLOW) as env:
        timers = Timers()
        timers.drive(env.app.boards)
        await setup_game(env.app)
        board_id = await post_board(env.fake, env.app)
        await timers.advance(60, env.app.boards)
        for _ in range(5):
            await damage(env.fake, env.app, 1)
        assert len(edits(env.fake)) == 1 and "9/10" in description(edits(env.fake)[0][1])
        await timers.advance(env.app.boards.every, env.app.boards)
        assert len(edits(env.fake)) == 2
        assert all(p.endswith(f"/{board_id}") for p, _ in edits(env.fake))
        assert "5/10" in description(edits(env.fake)[-1][1])


async def test_after_a_restart_the_same_message_is_edited(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        async with harness.running(tmp_path, "dc.sqlite3", fake=fake, defer_after=SLOW) as env:
            Timers().drive(env.app.boards)
            await setup_game(env.app)
            board_id = await post_board(fake, env.app)
        async with harness.running(tmp_path, "dc.sqlite3", fake=fake, defer_after=SLOW) as env:
            Timers().drive(env.app.boards)
            await damage(fake, env.app, 2)
            ((path, body),) = edits(fake)
            assert path.endswith(f"/{board_id}") and "8/10" in description(body)
    finally:
        await fake.stop()


async def test_a_deleted_board_is_forgotten_and_posted_again(tmp_path: Path) -> None:
    async with harness.running(tmp_path, defer_after=SLOW) as env:
        timers = Timers()
        timers.drive(env.app.boards)
        await setup_game(env.app)
        first = await post_board(env.fake, env.app, locale="it")
        env.fake.deleted.add(first)
        await timers.advance(60, env.app.boards)
        await damage(env.fake, env.app, 1)
        await timers.advance(60, env.app.boards)
        await damage(env.fake, env.app, 1)
        assert len(edits(env.fake)) == 1  # found gone once, then forgotten
        second = await post_board(env.fake, env.app, locale="it")
        assert second != first
        await timers.advance(60, env.app.boards)
        await damage(env.fake, env.app, 1)
        path, body = edits(env.fake)[-1]
        assert path.endswith(f"/{second}") and "7/10" in description(body)
        assert "Tabellone in diretta" in description(body)


async def test_no_right_to_pin_is_no_error(tmp_path: Path) -> None:
    async with harness.running(tmp_path, defer_after=SLOW) as env:
        env.fake.pin_refused = True
        Timers().drive(env.app.boards)
        await setup_game(env.app)
        await post_board(env.fake, env.app)
        note = (await env.fake.callbacks())[-1]
        assert "live board is posted" in note["data"]["embeds"][0]["description"]


async def test_a_channel_the_bot_cannot_post_in_gets_the_board_as_the_answer(
    tmp_path: Path,
) -> None:
    async with harness.running(tmp_path, defer_after=SLOW) as env:
        Timers().drive(env.app.boards)
        await setup_game(env.app)
        env.fake.failures.append(
            (f"/channels/{CHANNEL_ID}/messages", 403, {"message": "Missing Access", "code": 50001})
        )
        answer = await interact(env.fake, env.fake.interaction(2, sub("game", "board")))
        text = answer["data"]["embeds"][0]["description"]
        assert "Guards" in text and "cannot post" in text and "Live board" not in text
        assert not re.search(r"Traceback", text)
