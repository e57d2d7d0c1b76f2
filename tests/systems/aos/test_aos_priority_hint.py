"""A priority roll made without `apply` in a game of two players sets nothing: walking as a new
player, its reply named the winner and stopped, so the turn order and the starting command
points (4.1-4.1.1, L237-243) were never written and nothing said how. The reply now gives the
command that records it. Lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

ANN = {"user": "ann", "name": "Ann"}
BOB = {"user": "bob", "name": "Bob"}


async def test_L237_a_priority_roll_not_applied_says_how_to_record_it(app: App) -> None:
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/game join", **BOB)).ok
    en = plain.render(await say(app, "/aos priority dice=5,3", **ANN))
    assert "Priority: Ann" in en
    assert "/aos priority apply goes=first dice=5,3" in en  # the same roll, recorded
    it = plain.render(await say(app, "/aos priorita dadi=2,6", lang="it", **ANN))
    assert "/aos priorita applica va=primo dadi=2,6" in it and "Bob" in it
    assert not foreign_words("it", it, allow=("Ann", "Bob"))
    applied = plain.render(await say(app, "/aos priority apply goes=first dice=5,3", **ANN))
    assert "goes=first" not in applied  # recorded: nothing left to type
    alone = plain.render(await say(app, "/aos priority dice=5,3", chat="other", **ANN))
    assert "apply" not in alone  # no game: nothing to record
