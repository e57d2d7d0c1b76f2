"""Who may act, and what they are told when they may not: a player off turn hears whose turn it
is (not "only the organiser"), and a player who left the game changes nothing in it."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.protocol import Reply
from tests.helpers import say

CHAT = "telegram:-300"
NAMES = {"1": "Ann", "2": "Bruno", "3": "Cat"}


async def as_user(app: App, user: str, text: str, **kw: object) -> Reply:
    return await say(app, text, user=user, name=NAMES.get(user, user), chat=CHAT, **kw)  # type: ignore[arg-type]


def ok(reply: Reply) -> Reply:
    assert reply.error is None, reply.error
    return reply


def refused(reply: Reply, code: str) -> str:
    assert reply.error is not None and reply.error.code == code, reply.error
    return reply.error.message


async def state_of(app: App) -> dict[str, object]:
    status = ok(await as_user(app, "1", "/game status"))
    assert status.data is not None
    return status.data["state"]  # type: ignore[no-any-return]


async def three_player_game(app: App) -> None:
    ok(await as_user(app, "1", "/game new gen"))
    ok(await as_user(app, "2", "/game join"))
    ok(await as_user(app, "3", "/game join"))
    ok(await as_user(app, "2", "/unit add Knights wounds=5"))
    ok(await as_user(app, "3", "/unit add Archers wounds=5"))
    ok(await as_user(app, "1", "/turn end"))  # Bruno's turn


@pytest.mark.parametrize(
    ("command", "lang", "expected"),
    [
        ("/turn end", "en", "It's Bruno's turn"),
        ("/turn end", "it", "tocca a Bruno"),
        ("/phase next", "en", "It's Bruno's turn"),
        ("/unit damage Knights 1", "en", "It's Bruno's turn"),
        ("/unit cond Knights add pinned", "it", "tocca a Bruno"),
    ],
)
async def test_a_player_off_turn_is_told_whose_turn_it_is(
    app: App, command: str, lang: str, expected: str
) -> None:
    await three_player_game(app)
    before = await state_of(app)
    message = refused(await as_user(app, "3", command, lang=lang), "perm.not_your_turn")
    assert expected in message and "organi" not in message
    assert await state_of(app) == before


async def test_a_spectator_is_told_whose_turn_it_is_too(app: App) -> None:
    await three_player_game(app)
    message = refused(await as_user(app, "7", "/turn end"), "perm.not_your_turn")
    assert "Bruno" in message


async def test_done_off_turn_names_the_player_on_turn(app: App) -> None:
    ok(await as_user(app, "1", "/campaign new League"))
    ok(await as_user(app, "2", "/campaign join"))
    ok(await as_user(app, "3", "/campaign join"))
    ok(await as_user(app, "1", "/done"))  # Bruno's turn
    for lang, expected in (("en", "It's Bruno's turn"), ("it", "tocca a Bruno")):
        message = refused(
            await as_user(app, "3", "/done", lang=lang), "perm.campaign_not_your_turn"
        )
        assert expected in message and "organi" not in message
    status = ok(await as_user(app, "3", "/campaign status"))
    assert status.data is not None and status.data["current"] == "2"
    passed = ok(await as_user(app, "2", "/done"))  # Bruno himself may
    assert passed.mentions == ["3"]


@pytest.mark.parametrize(
    "command",
    [
        "/unit damage Knights 1",
        "/unit heal Knights 1",
        "/unit set Knights wounds=7",
        "/unit cond Knights add pinned",
        "/unit remove Knights",
        "/res add cp 1 unit=Knights",
        "/unit add Reserves wounds=2",
        "/unit damage Archers 1",
        "/aos attack attacks=1 hit=2 wound=2 damage=1 target=Archers apply dice=6,6",
    ],
)
async def test_a_player_who_left_changes_no_unit(app: App, command: str) -> None:
    system = "aos" if command.startswith("/aos") else "gen"
    ok(await as_user(app, "1", f"/game new {system}"))
    ok(await as_user(app, "2", "/game join"))
    ok(await as_user(app, "3", "/game join"))
    ok(await as_user(app, "2", "/unit add Knights wounds=5"))
    ok(await as_user(app, "3", "/unit add Archers wounds=5"))
    ok(await as_user(app, "1", "/turn end"))  # Bruno's turn: he could attack Archers
    ok(await as_user(app, "2", "/game leave"))
    before = await state_of(app)
    refused(await as_user(app, "2", command), "perm.players_only")
    assert await state_of(app) == before


async def test_rejoining_gives_back_the_rights_on_ones_units(app: App) -> None:
    ok(await as_user(app, "1", "/game new gen"))
    ok(await as_user(app, "2", "/game join"))
    ok(await as_user(app, "2", "/unit add Knights wounds=5"))
    ok(await as_user(app, "2", "/game leave"))
    refused(await as_user(app, "2", "/unit heal Knights 1"), "perm.players_only")
    ok(await as_user(app, "2", "/game join"))
    ok(await as_user(app, "2", "/unit damage Knights 1"))
    ok(await as_user(app, "1", "/unit damage Knights 1"))  # the organiser still manages it
