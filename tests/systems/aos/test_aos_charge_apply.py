"""A charge that reaches is marked (11.0-11.1, L427-431; the charged condition, 17.1.1 L673): /aos
charge had no `apply`, so a new player's unit that charged was never known to have charged
(no cover for it, L673; a unit that charged is eligible to fight, 12.1, L451) unless they found
`/unit cond … add charged` themselves. Lines refer to
../shared/seeds/001_3302d92f440b0a0b.txt."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.aos import transitions as aos_tr
from tests.helpers import say

ANN = {"user": "ann", "name": "Ann"}
BOB = {"user": "bob", "name": "Bob"}


def test_L363_a_unit_that_charged_is_marked_for_the_turn() -> None:
    players = [Player(user_id="a", name="Ann"), Player(user_id="b", name="Bob")]
    state = GameState(system="aos", name="t", organiser="a", players=players, order=["a", "b"])
    state = tr.add_unit(state, "Lord", players[0], {"wounds": 6})
    new = aos_tr.charged(state, "Lord")
    marks = [(c.name, c.until) for c in tr.find_unit(new, "Lord").conditions]
    assert marks == [("charged", "end-of-turn")]
    assert tr.find_unit(state, "Lord").conditions == []  # the state given is not changed


async def test_L363_charge_apply_marks_a_charge_that_reaches(app: App) -> None:
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/game join", **BOB)).ok
    assert (await say(app, "/unit add Lord wounds=6", **ANN)).ok
    for _ in range(3):
        assert (await say(app, "/phase next", **ANN)).ok  # charge
    short = await say(app, "/aos charge target=Lord distance=9 apply dice=1,2", **ANN)
    assert short.ok, short.error
    assert "charged" not in plain.render(await say(app, "/game status"))
    bare = await say(app, "/aos charge target=Lord apply dice=4,4", **ANN)
    assert bare.error is not None and bare.error.code == "aos.charge_apply_needs_distance"
    assert "distance=" in plain.render(bare)
    foe = await say(app, "/aos charge target=Lord distance=7 apply dice=4,4", **BOB)
    assert foe.error is not None  # not Bob's unit
    line = "/aos carica bersaglio=Lord distanza=7 applica dadi=4,4"
    done = await say(app, line, lang="it", **ANN)
    assert done.ok, done.error
    assert "Lord ha caricato" in plain.render(done)
    status = plain.render(await say(app, "/game status"))
    assert "charged (this turn)" in status
    history = await say(app, "/roll history 5")
    assert history.data is not None and len(history.data["rolls"]) == 2  # no refused roll
