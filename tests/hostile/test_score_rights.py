"""Who may add points with `/score add`: a chat setting, `/game settings score=…`, that only
the organiser or a chat admin changes. `organiser` (the default): only they add points, to
anyone; `own_on_turn`: a player also adds to their own score on their turn; `own_any_time`: a
player adds to their own score whenever. Adding to someone else's score is always the
organiser's. A refusal is one sentence and changes nothing."""

from __future__ import annotations

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from tests.helpers import say

CHAT = "telegram:-919"
NAMES = {"1": "Ann", "2": "Bob", "3": "Cat", "9": "Mod"}


async def as_user(app: App, user: str, text: str, **kw: object) -> Reply:
    return await say(app, text, user=user, name=NAMES[user], chat=CHAT, **kw)  # type: ignore[arg-type]


def ok(reply: Reply) -> Reply:
    assert reply.error is None, plain.render(reply)
    return reply


def refused(reply: Reply, code: str) -> str:
    assert reply.error is not None and reply.error.code == code, plain.render(reply)
    assert "Traceback" not in plain.render(reply) and len(plain.render(reply)) < 400
    return reply.error.message


async def scores(app: App) -> dict[str, int]:
    shown = ok(await as_user(app, "1", "/score"))
    assert shown.data is not None
    return shown.data["score"]  # type: ignore[no-any-return]


async def game(app: App) -> None:
    ok(await as_user(app, "1", "/game new gen"))  # Ann organises; her turn first
    ok(await as_user(app, "2", "/game join"))
    ok(await as_user(app, "3", "/game join"))


async def test_by_default_a_player_cannot_add_points_to_their_own_score(app: App) -> None:
    await game(app)
    message = refused(await as_user(app, "2", "/score add 999"), "perm.score_organiser")
    assert "organiser" in message and "/game settings" in message
    refused(await as_user(app, "3", "/score add -5 Cat objective"), "perm.score_organiser")
    italian = refused(
        await as_user(app, "2", "/punti aggiungi 3", lang="it"), "perm.score_organiser"
    )
    assert "organizzatore" in italian
    assert await scores(app) == {"1": 0, "2": 0, "3": 0}
    ok(await as_user(app, "1", "/score add 3 Bob objective"))  # the organiser: anyone's
    ok(await as_user(app, "1", "/score add 2"))
    ok(await as_user(app, "9", "/score add 1 Cat", admin=True))  # a chat admin: anyone's
    assert await scores(app) == {"1": 2, "2": 3, "3": 1}


async def test_the_setting_is_shown_to_all_and_changed_by_the_organiser_or_an_admin(
    app: App,
) -> None:
    await game(app)
    shown = ok(await as_user(app, "3", "/game settings"))
    assert shown.data is not None and shown.data["settings"] == {"score": "organiser"}
    assert "score=organiser" in plain.render(shown) and "(default)" in plain.render(shown)
    italian = ok(await as_user(app, "3", "/game impostazioni", lang="it"))
    assert "punti=organizzatore" in plain.render(italian) and "predefinit" in plain.render(italian)
    refused(await as_user(app, "2", "/game settings score=own_any_time"), "game.settings_admin")
    refused(await as_user(app, "2", "/game settings score=anything"), "cmd.bad_choice")
    changed = ok(await as_user(app, "1", "/game settings score=own_on_turn"))
    assert changed.data is not None and changed.data["settings"] == {"score": "own_on_turn"}
    assert changed.data["changed"] == ["score"]
    ok(await as_user(app, "9", "/game settings score=own_any_time", admin=True))
    again = ok(await as_user(app, "2", "/game settings"))
    assert again.data is not None and again.data["settings"] == {"score": "own_any_time"}
    other = ok(await say(app, "/game settings", chat="telegram:-1"))  # chats are apart
    assert other.data is not None and other.data["settings"] == {"score": "organiser"}
    ok(await as_user(app, "2", "/score add 1"))
    ok(await as_user(app, "1", "/undo"))  # undoes the points, not the setting
    kept = ok(await as_user(app, "2", "/game settings"))
    assert kept.data is not None and kept.data["settings"] == {"score": "own_any_time"}


async def test_own_on_turn_lets_only_the_player_whose_turn_it_is_score_for_themselves(
    app: App,
) -> None:
    await game(app)
    ok(await as_user(app, "1", "/game settings score=own_on_turn"))
    message = refused(await as_user(app, "2", "/score add 1"), "perm.score_on_turn")
    assert "Ann" in message  # whose turn it is
    ok(await as_user(app, "1", "/turn end"))  # Bob's turn
    ok(await as_user(app, "2", "/score add 2 Bob objective"))
    refused(await as_user(app, "2", "/score add 1 Cat"), "perm.organiser_only")
    refused(await as_user(app, "3", "/score add 1"), "perm.score_on_turn")
    assert await scores(app) == {"1": 0, "2": 2, "3": 0}


async def test_own_any_time_lets_a_player_score_for_themselves_only(app: App) -> None:
    await game(app)
    ok(await as_user(app, "1", "/game settings score=own_any_time"))
    ok(await as_user(app, "3", "/score add 5"))  # off turn
    refused(await as_user(app, "3", "/score add 5 Bob"), "perm.organiser_only")
    assert await scores(app) == {"1": 0, "2": 0, "3": 5}
