"""A scripted two-player game through the registry on a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app import App
from bot.commands.registry import parse_pairs
from bot.commands.spec import OptionSpec
from bot.protocol import Reply
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game.stat_names import BARE
from rules_core.game.transitions import parse_until
from tests.helpers import say

CHAT = "telegram:-500"


async def ann(app: App, text: str, **kw: object) -> Reply:
    return await say(app, text, user="1", name="Ann", chat=CHAT, **kw)  # type: ignore[arg-type]


async def bob(app: App, text: str, **kw: object) -> Reply:
    return await say(app, text, user="2", name="Bob", chat=CHAT, **kw)  # type: ignore[arg-type]


def ok(reply: Reply) -> Reply:
    assert reply.error is None, reply.error
    return reply


async def test_a_whole_game(app: App) -> None:
    ok(await ann(app, '/game new gen "Border skirmish"'))
    ok(await bob(app, "/game join South"))
    ok(await ann(app, "/unit add Guards models=5 wounds=2 armour=4"))
    ok(await bob(app, '/unit add "Iron Giant" wounds=12'))

    # Ann's turn: she hits Bob's giant (attacks happen on the attacker's turn).
    hit = ok(await ann(app, "/unit damage iron 5"))
    assert hit.data is not None and hit.data["unit"]["damage"] == 5
    ok(await ann(app, "/unit cond iron add burning until=end-of-turn"))
    ok(await ann(app, "/unit cond guards add inspired until=rounds:2"))
    ok(await ann(app, "/res add cp 3"))
    spent = ok(await ann(app, "/res spend cp 2"))
    assert spent.data == {"resource": "cp", "value": 1}
    assert (await ann(app, "/res spend cp 5")).error.code == "game.not_enough"  # type: ignore[union-attr]

    passed = ok(await ann(app, "/turn end"))
    assert passed.mentions == ["2"]  # pings Bob
    status = ok(await bob(app, "/game status"))
    state = status.data["state"]  # type: ignore[index]
    giant = next(u for u in state["units"] if u["name"] == "Iron Giant")
    guards = next(u for u in state["units"] if u["name"] == "Guards")
    assert giant["conditions"] == []  # end-of-turn expired
    assert guards["conditions"][0]["rounds_left"] == 2

    # Bob's turn: 3 damage on the guards kills one model (2 wounds each) and wounds another.
    ok(await bob(app, "/unit damage guards 3"))
    shown = ok(await bob(app, "/unit show guards"))
    assert "4/5" in plain.render(shown) and "7/10" in plain.render(shown)
    ok(await bob(app, "/turn end"))  # back to Ann: round 2
    turn = ok(await ann(app, "/turn"))
    assert turn.data is not None and turn.data["round"] == 2 and turn.data["current"] == "1"
    state = ok(await ann(app, "/game status")).data["state"]  # type: ignore[index]
    guards = next(u for u in state["units"] if u["name"] == "Guards")
    assert guards["conditions"][0]["rounds_left"] == 1

    # Undo twice walks back: Bob's turn end, then Bob's damage.
    ok(await bob(app, "/undo"))
    ok(await bob(app, "/undo"))
    state = ok(await ann(app, "/game status")).data["state"]  # type: ignore[index]
    guards = next(u for u in state["units"] if u["name"] == "Guards")
    assert guards["damage"] == 0 and state["round"] == 1 and state["order"][state["turn"]] == "2"
    log = ok(await ann(app, "/log 20"))
    assert [e["undone"] for e in log.data["events"]][:4] == [False, False, True, True]  # type: ignore[index]

    ok(await ann(app, "/score add 5"))
    ok(await ann(app, "/score add 2 Bob objective"))
    board = ok(await ann(app, "/score"))
    assert board.data == {"score": {"1": 5, "2": 2}}
    ended = ok(await ann(app, "/game end Ann"))
    assert ended.data is not None and ended.data["winner"] == "1"
    assert (await ann(app, "/game status")).error.code == "game.none"  # type: ignore[union-attr]
    history = ok(await ann(app, "/game history"))
    assert history.data == {"games": [{"id": 1, "status": "ended"}]}
    # Ended by mistake: /undo reopens it, exactly as it was; the next end sticks.
    refused = await bob(app, "/undo")
    assert refused.error is not None and refused.error.code == "perm.undo_not_yours"
    ok(await ann(app, "/undo"))
    reopened = ok(await bob(app, "/game status")).data["state"]  # type: ignore[index]
    assert reopened["status"] == "active" and reopened["winner"] is None
    assert reopened["units"][0]["damage"] == 0 and reopened["round"] == 1
    ok(await ann(app, "/game end Ann"))
    ok(await bob(app, "/game new gen"))  # a new game can start
    # ... and the old one can no longer be reopened over it.
    none = await ann(app, "/undo")
    assert none.error is not None and none.error.code == "game.nothing_to_undo"


async def test_names_prefixes_and_accents(app: App) -> None:
    ok(await ann(app, "/game new gen"))
    ok(await ann(app, "/unit add Città"))
    ok(await ann(app, "/unit add Cittadella"))
    assert (await ann(app, "/unit add citta")).error.code == "game.duplicate_unit"  # type: ignore[union-attr]
    assert (await ann(app, "/unit show CITTA")).data["unit"]["name"] == "Città"  # type: ignore[index]
    assert (await ann(app, "/unit show cittad")).data["unit"]["name"] == "Cittadella"  # type: ignore[index]
    amb = await ann(app, "/unit add Cavalry")
    ok(amb)
    ok(await ann(app, "/unit add Cavemen"))
    assert (await ann(app, "/unit show cav")).error.code == "game.ambiguous_unit"  # type: ignore[union-attr]


async def test_other_chats_never_see_this_game(app: App) -> None:
    ok(await ann(app, "/game new gen"))
    ok(await ann(app, "/unit add Guards"))
    other = await say(app, "/unit show Guards", chat="telegram:-999", user="1")
    assert other.error is not None and other.error.code == "game.none"
    ok(await say(app, "/game new gen", chat="telegram:-999", user="1"))
    missing = await say(app, "/unit show Guards", chat="telegram:-999", user="1")
    assert missing.error is not None and missing.error.code == "game.no_unit"


# --- permissions: organiser, admin, owner, other player, spectator ----------------------------

ROLES = {
    "organiser": ("1", False),
    "admin": ("9", True),
    "owner": ("2", False),
    "other": ("3", False),
    "spectator": ("4", False),
}

# (command, roles allowed). Unit "Bob's" belongs to Bob (the owner role, user 2); it is Ann's
# turn, so "other" (Cat, user 3) is neither owner nor on turn.
MATRIX = [
    ("/unit set Bobs wounds=3", {"organiser", "admin", "owner"}),
    ("/unit damage Bobs 1", {"organiser", "admin", "owner"}),
    ("/unit heal Bobs 1", {"organiser", "admin", "owner"}),
    ("/unit cond Bobs add pinned", {"organiser", "admin", "owner"}),
    ("/unit remove Bobs", {"organiser", "admin", "owner"}),
    ("/res add cp 1 unit=Bobs", {"organiser", "admin", "owner"}),
    ("/turn end", {"organiser", "admin"}),
    ("/turn order @Cat @Bob @Ann", {"organiser", "admin"}),
    ("/round next", {"organiser", "admin"}),
    ("/phase next", {"organiser", "admin"}),
    ("/game end", {"organiser", "admin"}),
    ("/score add 1 Cat", {"organiser", "admin"}),  # own points too: /game settings score=
    ("/unit add Extra owner=Cat", {"organiser", "admin", "other"}),
    ("/res add cp 1", {"organiser", "admin", "owner", "other"}),
    ("/unit add Mine", {"organiser", "admin", "owner", "other"}),
    ("/res set cp 2", {"organiser", "admin", "owner", "other"}),
    ("/res spend cp 1", {"organiser", "admin", "owner", "other"}),
    ("/score add 1", {"organiser", "admin"}),
    ("/score add 1 Bob", {"organiser", "admin"}),
    ("/undo", {"organiser", "admin", "owner"}),  # the last change is Bob's /unit add
    ("/game end Bob", {"organiser", "admin"}),
]


@pytest.mark.parametrize(("command", "allowed"), MATRIX)
async def test_permission_matrix(tmp_path: Path, command: str, allowed: set[str]) -> None:
    for role, (user, admin) in ROLES.items():
        app = App(tmp_path / f"{role}.sqlite3")
        await app.start()
        try:
            ok(await say(app, "/game new gen", user="1", name="Ann", chat=CHAT))
            ok(await say(app, "/game join", user="2", name="Bob", chat=CHAT))
            ok(await say(app, "/game join", user="3", name="Cat", chat=CHAT))
            ok(await say(app, "/unit add Bobs", user="2", name="Bob", chat=CHAT))
            reply = await say(app, command, user=user, admin=admin, chat=CHAT)
            if role in allowed:  # a rule of the game may still say no, never a permission
                assert reply.error is None or not reply.error.code.startswith("perm."), (
                    role,
                    command,
                    reply.error,
                )
            else:
                assert reply.error is not None, (role, command)
                assert reply.error.code.startswith("perm."), (role, command, reply.error.code)
        finally:
            await app.stop()


# --- concurrency ------------------------------------------------------------------------------


async def test_fifty_concurrent_changes_from_two_processes_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    first, second = App(path), App(path)
    await first.start()
    await second.start()
    try:
        ok(await say(first, "/game new gen", user="1", name="Ann", chat=CHAT))
        ok(await say(first, "/unit add Target wounds=999", user="1", name="Ann", chat=CHAT))
        replies = await asyncio.gather(
            *[
                say(
                    first if i % 2 else second,
                    "/unit damage Target 1",
                    user="1",
                    name="Ann",
                    chat=CHAT,
                )
                for i in range(50)
            ]
        )
        assert all(r.error is None for r in replies), [r.error for r in replies if r.error]
        state = ok(await say(first, "/game status", chat=CHAT)).data["state"]  # type: ignore[index]
        assert state["units"][0]["damage"] == 50
    finally:
        await first.stop()
        await second.stop()


# --- parsers ----------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_pairs_parse_or_refuse(text: str) -> None:
    try:
        pairs = parse_pairs(OptionSpec("stats", type="pairs"), text)
    except UserError:
        return
    # a number, or a stat written alone for the game to read (`stat_names.BARE`)
    assert all(isinstance(v, int) or v == BARE for v in pairs.values())


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=20), st.from_regex(r"rounds:\d{1,4}", fullmatch=True)))
def test_until_parses_or_refuses(text: str) -> None:
    try:
        kind, rounds = parse_until(text)
    except UserError:
        return
    assert kind in ("end-of-turn", "end-of-round", "rounds", "permanent")
    assert (rounds is not None) == (kind == "rounds")


async def test_a_player_already_in_the_game_chooses_a_side_with_join(app: App) -> None:
    # The walk: the organiser is in the game from /game new, so /partita entra Alleanza said
    # "Sei già in questa partita." and leaving to rejoin changed the seat order. And /partita
    # unisci was taken for /partita esci.
    ok(await ann(app, "/game new wow Arena"))
    ok(await bob(app, "/game join Horde"))
    chose = ok(await ann(app, "/partita entra Alleanza", lang="it"))
    assert "Ann gioca ora per Alleanza." in plain.render(chose)
    status = ok(await ann(app, "/game status"))
    assert status.data is not None
    sides = {p["name"]: p["side"] for p in status.data["state"]["players"]}
    assert sides == {"Ann": "Alleanza", "Bob": "Horde"}
    assert status.data["state"]["order"][0] == "1"  # her seat is kept
    again = await ann(app, "/game join Alleanza")
    assert again.error is not None and again.error.code == "game.already_joined"
    unisci = ok(await say(app, "/partita unisciti", user="c", name="Cid", chat=CHAT, lang="it"))
    assert "Cid entra nella partita." in plain.render(unisci)
