"""A button that acts on game state carries the turn it was made for: pressed after that turn
ended, it answers "this turn has already ended" and changes nothing. Pressing a button runs its
stored command text, exactly as the Telegram and Discord adapters do (see
tests/telegram/test_stale_buttons.py and tests/discord/test_stale_buttons.py for the real
clients)."""

from __future__ import annotations

from bot.app import App
from bot.protocol import Button, Reply
from tests.helpers import say

CHAT = "telegram:-400"
NAMES = {"1": "Ann", "2": "Bruno", "3": "Cat"}


async def as_user(app: App, user: str, text: str, **kw: object) -> Reply:
    return await say(app, text, user=user, name=NAMES.get(user, user), chat=CHAT, **kw)  # type: ignore[arg-type]


def ok(reply: Reply) -> Reply:
    assert reply.error is None, reply.error
    return reply


def button(reply: Reply, label: str) -> Button:
    found = [b for b in reply.buttons if b.label == label]
    assert len(found) == 1, reply.buttons
    return found[0]


async def current(app: App) -> tuple[int, str]:
    turn = ok(await as_user(app, "1", "/turn"))
    assert turn.data is not None
    return turn.data["round"], turn.data["current"]


async def test_pressing_a_stale_end_turn_button_changes_nothing(app: App) -> None:
    ok(await as_user(app, "1", "/game new gen"))
    ok(await as_user(app, "2", "/game join"))
    ok(await as_user(app, "3", "/game join"))
    passed = ok(await as_user(app, "1", "/turn end"))  # Bruno's turn, with its button
    end = button(passed, "End turn")
    assert await current(app) == (1, "2")

    first = ok(await as_user(app, "1", end.command))  # the organiser ends Bruno's turn
    assert first.mentions == ["3"] and await current(app) == (1, "3")
    events = ok(await as_user(app, "1", "/log 50")).data["events"]  # type: ignore[index]

    again = await as_user(app, "1", end.command)  # pressed twice: Cat's turn is not ended
    assert again.error is not None and again.error.code == "game.turn_over"
    assert again.blocks[0][0].text == "This turn has already ended." and again.ephemeral
    assert len(again.blocks) == 1  # no syntax line: the user typed nothing wrong
    assert await current(app) == (1, "3")
    assert ok(await as_user(app, "1", "/log 50")).data["events"] == events  # type: ignore[index]

    italian = await as_user(app, "3", end.command, lang="it")
    assert italian.error is not None and italian.error.message == "Questo turno è già finito."

    # The button of the turn that is running works, for its player.
    fresh = button(first, "End turn")
    ok(await as_user(app, "3", fresh.command))
    assert await current(app) == (2, "1")


async def test_a_stale_button_is_stale_for_the_player_on_turn_too(app: App) -> None:
    """Alternating activations (Confrontation) come back to the same player in the same round:
    the button of their first activation must not end the second."""
    ok(await as_user(app, "1", "/game new c5"))
    ok(await as_user(app, "2", "/game join"))
    shown = ok(await as_user(app, "1", "/turn"))
    ann_first = button(shown, "End turn")
    ok(await as_user(app, "1", ann_first.command))
    ok(await as_user(app, "2", "/turn end"))
    assert await current(app) == (1, "1")  # Ann again, same round
    stale = await as_user(app, "1", ann_first.command)
    assert stale.error is not None and stale.error.code == "game.turn_over"
    assert await current(app) == (1, "1")


async def test_typed_turn_end_needs_no_guard(app: App) -> None:
    ok(await as_user(app, "1", "/game new gen"))
    ok(await as_user(app, "2", "/game join"))
    ok(await as_user(app, "1", "/turn end"))
    ok(await as_user(app, "1", "/turn end"))  # the organiser means it: two turns pass
    assert await current(app) == (2, "1")


async def test_a_button_is_stale_once_whose_turn_changes_any_way(app: App) -> None:
    ok(await as_user(app, "1", "/game new gen"))
    ok(await as_user(app, "2", "/game join"))
    ok(await as_user(app, "3", "/game join"))
    end = button(ok(await as_user(app, "1", "/turn")), "End turn")  # Ann's turn
    ok(await as_user(app, "1", "/round next"))  # Ann's turn again, but a new round
    stale = await as_user(app, "1", end.command)
    assert stale.error is not None and stale.error.code == "game.turn_over"
    end = button(ok(await as_user(app, "1", "/turn")), "End turn")
    ok(await as_user(app, "1", "/turn order @Bruno @Ann @Cat"))
    stale = await as_user(app, "1", end.command)
    assert stale.error is not None and stale.error.code == "game.turn_over"
    assert await current(app) == (2, "2")


async def test_a_button_acts_again_after_undo_brings_its_turn_back(app: App) -> None:
    ok(await as_user(app, "1", "/game new gen"))
    ok(await as_user(app, "2", "/game join"))
    end = button(ok(await as_user(app, "1", "/turn")), "End turn")
    ok(await as_user(app, "1", end.command))
    ok(await as_user(app, "1", "/undo"))  # Ann's turn is back: so is its button
    ok(await as_user(app, "1", end.command))
    assert await current(app) == (1, "2")


async def test_pressing_a_stale_done_button_changes_nothing(app: App) -> None:
    ok(await as_user(app, "1", "/campaign new League"))
    ok(await as_user(app, "2", "/campaign join"))
    ok(await as_user(app, "3", "/campaign join"))
    passed = ok(await as_user(app, "1", "/done"))  # Bruno's turn
    done = button(passed, "Done")
    first = ok(await as_user(app, "1", done.command))  # the organiser ends it
    assert first.mentions == ["3"]
    again = await as_user(app, "1", done.command)
    assert again.error is not None and again.error.code == "game.turn_over"
    assert again.blocks[0][0].text == "This turn has already ended."
    status = ok(await as_user(app, "2", "/campaign status"))
    assert status.data is not None and (status.data["turn"], status.data["current"]) == (2, "3")
    italian = ok(await as_user(app, "3", "/done", lang="it"))
    assert [b.label for b in italian.buttons] == ["Fatto"]


async def test_a_done_button_is_stale_when_a_join_changes_whose_turn_it_is(app: App) -> None:
    ok(await as_user(app, "1", "/campaign new League"))
    ok(await as_user(app, "2", "/campaign join"))
    ok(await as_user(app, "1", "/done"))  # turn 1: Bruno's
    done = button(ok(await as_user(app, "2", "/done")), "Done")  # turn 2: Ann's
    ok(await as_user(app, "3", "/campaign join"))  # three players: turn 2 is Cat's now
    stale = await as_user(app, "1", done.command)
    assert stale.error is not None and stale.error.code == "game.turn_over"
    status = ok(await as_user(app, "2", "/campaign status"))
    assert status.data is not None and (status.data["turn"], status.data["current"]) == (2, "3")


async def test_roll_again_carries_no_guard(app: App) -> None:
    rolled = ok(await say(app, "/roll 2d6"))
    again = button(rolled, "Roll again")
    assert again.command == "/roll 2d6"
