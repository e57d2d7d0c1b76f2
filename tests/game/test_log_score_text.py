"""Text and data agree (issue 21 item 9, the /log and /score parts): /log's reply and its data
never carry catalogue codes such as `game.diff.damage`, and `/score add 5 reason` keeps the
reason (it was taken for a player's name and refused)."""

from __future__ import annotations

import json

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from tests.helpers import say

CHAT = "console:log"


async def as_(app: App, user: str, name: str, text: str, lang: str = "en") -> Reply:
    reply = await say(app, text, user=user, name=name, chat=CHAT, lang=lang)
    assert reply.error is None, plain.render(reply)
    return reply


async def setup(app: App) -> None:
    await as_(app, "1", "Ann", "/game new gen")
    await as_(app, "2", "Bob", "/game join")
    await as_(app, "1", "Ann", "/unit add Orcs wounds=5")


async def test_score_add_keeps_the_reason(app: App) -> None:
    await setup(app)
    reply = await as_(app, "1", "Ann", "/score add 5 objective taken")
    assert reply.data is not None and reply.data["reason"] == "objective taken"
    assert "objective taken" in plain.render(reply)
    log = await as_(app, "1", "Ann", "/log 1")
    assert "objective taken" in plain.render(log)
    # A player's name still selects the player, and the rest is the reason.
    reply = await as_(app, "1", "Ann", "/score add 2 Bob held the bridge")
    assert reply.data is not None
    assert reply.data["player"] == "2" and reply.data["reason"] == "held the bridge"
    assert reply.data["total"] == 2


async def test_log_shows_no_catalogue_codes(app: App) -> None:
    await setup(app)
    await as_(app, "1", "Ann", "/unit damage Orcs 3")
    await as_(app, "1", "Ann", "/score add 1 first blood")
    for lang in ("en", "it"):
        log = await as_(app, "1", "Ann", "/log", lang=lang)
        shown = plain.render(log) + json.dumps(log.data, ensure_ascii=False)
        assert "game.diff" not in shown and "game." not in shown, shown
        assert log.data is not None
        changes = [c for e in log.data["events"] for c in e["changes"]]
        kinds = {c["kind"] for c in changes}
        assert {"damage", "score"} <= kinds
        texts = [c["text"] for c in changes]
        assert all(t and t in plain.render(log) for t in texts)
    it = plain.render(await as_(app, "1", "Ann", "/log", lang="it"))
    assert "Orcs: 3 danni" in it


async def test_a_long_command_in_the_log_and_undo_shows_it_was_cut(app: App) -> None:
    # The walk: /registro cut a command at 80 characters with nothing to say so, so the log
    # showed `dadi=6,5` for a command typed with `dadi=6,5,4,4,3`: a different command.
    await setup(app)
    reason = "held the bridge against the whole orc warband until the end of the fifth round"
    await as_(app, "1", "Ann", f"/score add 1 {reason}")
    shown = plain.render(await as_(app, "1", "Ann", "/log 1"))
    line = next(row for row in shown.splitlines() if "/score add" in row)
    assert line.rstrip("`").endswith("…") and reason not in line
    undone = plain.render(await as_(app, "1", "Ann", "/undo"))
    assert "…" in undone and reason not in undone


async def test_the_log_counts_wounds_as_the_board_does(app: App) -> None:
    # The walk: an Infinity model with W 1 took 1 wound; the board drew 0/1, the log said
    # "1/2 rimaste" (its internal count: Dead at W + 1).
    chat = {"user": "1", "name": "Ann", "chat": "console:log-inf"}
    assert (await say(app, "/game new inf", **chat)).ok
    assert (await say(app, "/unit add Angus cc=14 bs=12 ph=12 wip=13 arm=1 bts=0 w=1", **chat)).ok
    assert (await say(app, "/unit damage Angus 1", **chat)).ok
    log = plain.render(await say(app, "/registro 1", lang="it", **chat))
    assert "Angus: 1 danno, 0/1 rimaste" in log, log
