"""A player's Order pools are those of the combat groups they have (L573-577): walking as a new
player with one combat group, /game status read 'Lieutenant 1, orders 0, orders group 2 0,
orders group 3 0', two pools of groups that player never had."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.inf.system import recount
from tests.helpers import say

PA, PB = Player(user_id="a", name="Ann"), Player(user_id="b", name="Bob")
PROFILE = {"cc": 13, "bs": 11, "ph": 10, "wip": 12, "arm": 1, "bts": 0, "w": 1, "type": 1}


def test_L573_only_the_groups_a_player_has_get_a_pool() -> None:
    state = GameState(system="inf", name="t", organiser="a", players=[PA, PB], order=["a", "b"])
    state = tr.add_unit(state, "A1", PA, {**PROFILE, "lt": 1})
    state = tr.add_unit(state, "A2", PA, dict(PROFILE))
    state = tr.add_unit(state, "A3", PA, {**PROFILE, "group": 3})
    recount(state, "a")
    assert state.resources["player:a"] == {"orders": 2, "orders3": 1, "lt": 1}
    later = state.clone()
    later.units = [u for u in later.units if u.name != "A3"]
    recount(later, "a")
    assert later.resources["player:a"] == {"orders": 2, "lt": 1}  # group 3's pool is gone


async def test_L573_the_status_line_names_no_empty_group(app: App) -> None:
    assert (await say(app, "/game new inf T", user="ann", name="Ann")).ok
    assert (await say(app, "/game join", user="bob", name="Bob")).ok
    line = "/unit add Angus cc=17 bs=12 ph=13 wip=13 arm=1 bts=0 w=1 type=1 lt=1"
    assert (await say(app, line, user="ann")).ok
    assert (await say(app, "/phase next", user="ann")).ok
    assert (await say(app, "/inf orders", user="ann")).ok  # the turn's Orders, counted
    text = plain.render(await say(app, "/game status", user="ann"))
    assert "group 2" not in text and "group 3" not in text
    assert "orders 1" in text
