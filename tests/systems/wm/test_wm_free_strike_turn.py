"""A free strike is made in the other player's turn (p. 51, «Attacchi di opportunità»,
L2149-2159: an enemy leaving a model's melee range): its player records it with `apply`,
which a normal attack out of turn still is not."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say
from tests.systems.wm.test_wm_walk_turn import game


async def test_a_free_strike_is_applied_in_the_other_players_turn(app: App) -> None:
    """Walking: Bob's Juggernaut free-struck Ann's Stryker as it walked away in Ann's turn,
    and '/wm attack … mods=free_strike apply' was refused with 'it is Ann's turn'."""
    chat = "console:wm-free-strike-turn"
    await game(app, chat)
    status = plain.render(await say(app, "/game status", user="ann", chat=chat))
    assert "ann" in status.lower()
    normal = await say(
        app,
        "/wm attack attacker=Juggernaut target=Stryker type=melee pow=12 apply dice=6,6,6,6",
        user="bob",
        chat=chat,
    )
    assert normal.error is not None and normal.error.code == "perm.not_your_turn"
    free = await say(
        app,
        "/wm attack attacker=Juggernaut target=Stryker type=melee pow=12 mods=free_strike"
        " apply dice=6,6,6,6,6",
        user="bob",
        chat=chat,
    )
    assert free.ok, plain.render(free)
    assert free.data is not None and free.data["applied"]["unit"] == "Stryker"
    # Bob's rights come from his attacking model: Ann's own unit can't make his free strike.
    theirs = await say(
        app,
        "/wm attack attacker=Stryker target=Juggernaut type=melee pow=6 mods=free_strike apply"
        " dice=6,6,6,6,6",
        user="bob",
        chat=chat,
    )
    assert theirs.error is not None and theirs.error.code == "perm.not_your_unit"
