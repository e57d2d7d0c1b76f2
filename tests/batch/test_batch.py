"""Multi-line messages through the dispatcher on a real database: several command lines run in
order as one transaction, one reply summarising each line, a refused line leaves everything
as it was and says where, why and the correct syntax."""

from __future__ import annotations

from typing import Any

from bot.app import App
from bot.batch import MAX_LINES
from bot.protocol import Reply
from bot.render import plain
from tests.helpers import say

CHAT = "telegram:-900"

TEN_UNIT_LINES = [
    "/unit add Liberators save=4 wounds=2 move=5",
    "/unit add Judicators save=4 wounds=2 move=5",
    '/unit add "Lord Celestant" save=3 wounds=6',
    "/unit add Prosecutors save=4 wounds=2 move=12",
    "/unit add «Knight Questor» save=3 wounds=5",
    "/unit add Retributors save=4 wounds=3",
    "/unit add Sequitors save=4 wounds=2",
    "/unit add Castigators save=4 wounds=2",
    "/unit add Evocators save=4 wounds=2",
    "/unit add Vanguard save=4 wounds=2",
]
TEN_UNITS = "\n".join(["/game new aos", *TEN_UNIT_LINES])


async def ann(app: App, text: str, **kw: Any) -> Reply:
    return await say(app, text, user="1", name="Ann", chat=CHAT, **kw)


def ok(reply: Reply) -> Reply:
    assert reply.error is None, plain.render(reply)
    return reply


async def snapshot(app: App) -> tuple[Any, int]:
    status = await say(app, "/game status", chat=CHAT)
    log = await say(app, "/log 50", chat=CHAT)
    assert status.data and log.data
    return status.data["state"], len(log.data["events"])


async def test_a_game_and_ten_units_in_one_message(app: App) -> None:
    reply = ok(await ann(app, TEN_UNITS))
    assert reply.data is not None
    lines = reply.data["lines"]
    assert [entry["line"] for entry in lines] == list(range(1, 12))
    assert [entry["command"] for entry in lines] == ["game new"] + ["unit add"] * 10
    text = plain.render(reply)
    assert "11 commands run" in text and "Line 11:" in text and "Vanguard" in text
    state, _ = await snapshot(app)
    assert [u["name"] for u in state["units"]][:3] == ["Liberators", "Judicators", "Lord Celestant"]
    assert len(state["units"]) == 10 and "Knight Questor" in [u["name"] for u in state["units"]]


async def test_a_refused_line_leaves_the_game_unchanged(app: App) -> None:
    ok(await ann(app, "/game new aos"))
    ok(await ann(app, "/unit add Guards save=4"))
    before = await snapshot(app)
    text = "\n".join(
        [
            "/unit add Liberators save=4",
            "/unit damage Guards 1",
            "/unit add Judicators save=tanta",
            "/unit add Prosecutors save=4",
        ]
    )
    reply = await ann(app, text, lang="it")
    assert reply.error is not None and reply.data == {"line": 3}
    message = plain.render(reply)
    assert "Riga 3:" in message and "save=tanta" in message
    assert "Sintassi" in message and "/unit add NAME" in message
    assert "Non è cambiato nulla" in message
    assert await snapshot(app) == before  # neither Liberators nor the damage on line 2


async def test_an_unknown_command_on_a_later_line_names_that_line(app: App) -> None:
    ok(await ann(app, "/game new aos"))
    before = await snapshot(app)
    reply = await ann(app, "/unit add Guards save=4\n\n/unti add Orcs save=5")
    assert reply.error is not None and reply.data == {"line": 3}
    assert "Line 3:" in plain.render(reply) and "/unti" in plain.render(reply)
    assert await snapshot(app) == before


async def test_rolls_of_a_refused_message_are_not_logged(app: App) -> None:
    reply = await ann(app, "/roll 2d6\n/roll 3d6+")
    assert reply.error is not None
    history = ok(await ann(app, "/roll history"))
    assert history.data == {"rolls": []}


async def test_an_army_list_keeps_taking_the_rest_of_the_message(app: App) -> None:
    good = "/game new aos\n/army add\nLiberators x5 save=4 wounds=2\nJudicators x5 save=4"
    reply = ok(await ann(app, good))
    assert reply.data is not None and len(reply.data["lines"]) == 2
    state, _ = await snapshot(app)
    assert [u["name"] for u in state["units"]] == ["Liberators", "Judicators"]


async def test_one_command_over_two_lines_is_no_batch(app: App) -> None:
    reply = ok(await ann(app, "/roll 2d6 first line\nsecond line"))
    assert reply.command == "roll" and reply.data is not None and "lines" not in reply.data


async def test_limits_refuse_the_whole_message(app: App) -> None:
    ok(await ann(app, "/game new aos"))
    before = await snapshot(app)
    many = "\n".join(f"/unit add U{i} save=4" for i in range(MAX_LINES + 1))
    reply = await ann(app, many)
    assert reply.error is not None and reply.error.code == "batch.too_many_lines"
    assert "at most 50" in plain.render(reply)
    big = "\n".join(f"/roll 1d6 {'x' * 250}" for _ in range(40))
    reply = await ann(app, big, lang="it")
    assert reply.error is not None and reply.error.code == "batch.too_big"
    assert "8 KB" in plain.render(reply)
    assert await snapshot(app) == before


async def test_lang_on_one_line_is_followed_by_the_next(app: App) -> None:
    reply = ok(await ann(app, "/lang it\n/roll 1d6", admin=True))
    assert "Riga 2:" in plain.render(reply)


async def test_an_admin_only_line_refuses_the_batch_for_others(app: App) -> None:
    reply = await ann(app, "/roll 1d6\n/lang it")
    assert reply.error is not None and reply.error.code == "perm.admin_only"
    history = ok(await ann(app, "/roll history"))
    assert history.data == {"rolls": []}


async def test_heavy_work_in_a_batch_is_refused_past_its_held_time(app: App) -> None:
    """A batch's one transaction can't pause for a worker, so heavy work held it (and every
    other chat's writes) for up to the worker's whole deadline; now only briefly, then the
    line is refused whole and nothing is written."""
    ok(await ann(app, "/game new aos"))
    # No time at all: work sent to a worker can't be back before the deadline (a warm worker
    # computes 300d20 in milliseconds now, so any positive time would be a race).
    app.batch_held_seconds = 0.0
    reply = await ann(app, "/unit add Liberators save=4 wounds=2\n/odds 300d20")
    assert reply.error is not None and reply.error.code == "batch.too_heavy"
    assert reply.data == {"line": 2}
    units = ok(await ann(app, "/unit list"))
    assert "Liberators" not in plain.render(units)
    app.batch_held_seconds = 30.0  # the same message, with time to spare, runs
    ok(await ann(app, "/unit add Liberators save=4 wounds=2\n/odds 3d6"))
