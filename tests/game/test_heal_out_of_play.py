"""Healing follows each book: a destroyed unit is out of play and no heal brings it back, and an
Age of Sigmar heal touches only the wounded model's wounds, never a slain model (14.4, L595).
Found by a code audit: `/unit heal` on 10 Gutrippaz with 3 slain returned 2 models (and the
battleshock roll then counted 2 fewer slain); C5 Regeneration revived a killed Troll (it can't:
@99096, @79745); a WoW character waiting to respawn could be healed back into play (403.3)."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.c5 import transitions as c5_tr
from rules_core.systems.wow import transitions as wow_tr
from tests.helpers import say

ANN = Player(user_id="a", name="Ann")


def game(system: str, name: str, stats: dict[str, int | str]) -> GameState:
    state = GameState(system=system, name="t", organiser="a", players=[ANN], order=["a"])
    return tr.add_unit(state, name, ANN, stats)


def test_an_aos_heal_never_returns_a_slain_model() -> None:
    state = tr.damage(game("aos", "Gutrippaz", {"models": 10, "wounds": 1}), "Gutrippaz", 3)
    with pytest.raises(UserError) as raised:  # nothing to heal: said, not a silent no-op
        tr.heal(state, "Gutrippaz", 2)
    assert raised.value.key == "aos.heal_slain_only"
    pair = tr.damage(game("aos", "Orruks", {"models": 5, "wounds": 2}), "Orruks", 3)
    orruks = tr.find_unit(tr.heal(pair, "Orruks", 3), "Orruks")
    assert (orruks.models_left, orruks.damage) == (4, 2)  # the wounded model's 1 wound only


@pytest.mark.parametrize(
    ("system", "stats"),
    [
        ("aos", {"models": 1, "wounds": 4}),
        ("wm", {"def": 12, "arm": 16, "boxes": 5}),
        ("c5", {"wounds": 4}),
        ("wow", {"health": 5}),
        ("gen", {"wounds": 3}),
    ],
)
def test_a_destroyed_unit_is_not_healed(system: str, stats: dict[str, int | str]) -> None:
    state = game(system, "Troll", stats)
    unit = tr.find_unit(state, "Troll")
    dead = tr.damage(state, "Troll", unit.max_wounds)
    assert tr.find_unit(dead, "Troll").destroyed
    with pytest.raises(UserError) as raised:
        tr.heal(dead, "Troll", 2)
    assert raised.value.key == "game.heal_destroyed"


def test_c5_regeneration_and_a_wow_heal_leave_the_dead_dead() -> None:
    troll = game("c5", "Troll", {"wounds": 4})
    killed = tr.damage(troll, "Troll", 4)
    with pytest.raises(UserError) as raised:
        c5_tr.recover(killed, "Troll", "rigenerazione", 2)
    assert raised.value.key == "game.heal_destroyed"
    b1 = game("wow", "B1", {"health": 5})
    dead = tr.damage(b1, "B1", 5)
    with pytest.raises(UserError) as raised:
        wow_tr.restore_health(dead, "B1", 3)
    assert raised.value.key == "game.heal_destroyed"


@pytest.mark.parametrize(
    ("system", "stats"),
    [
        ("aos", {"models": 5, "wounds": 2}),
        ("wm", {"def": 12, "arm": 16, "boxes": 5}),
        ("c5", {"wounds": 4}),
        ("wow", {"health": 5}),
        ("gen", {"wounds": 3}),
    ],
)
def test_a_heal_that_heals_nothing_says_so(system: str, stats: dict[str, int | str]) -> None:
    unhurt = game(system, "Guards", stats)
    with pytest.raises(UserError) as raised:
        tr.heal(unhurt, "Guards", 1)
    assert raised.value.key in ("game.nothing_to_heal", "c5.heal_unhurt")


async def test_unit_heal_with_nothing_to_heal_says_so_in_one_sentence(app: App) -> None:
    """A code audit: /unit heal on an Age of Sigmar unit at full wounds, or whose only losses
    are slain models (they don't heal, 14.4 L595), answered with the unit's line as if it had
    healed, and wrote an empty change to the log."""
    assert (await say(app, "/game new aos T")).ok
    assert (await say(app, "/unit add Gutrippaz models=10 wounds=1")).ok
    full = await say(app, "/unit heal Gutrippaz 1")
    assert full.error is not None and full.error.code == "game.nothing_to_heal"
    assert "Gutrippaz has no damage to heal" in plain.render(full)
    italian = await say(app, "/unita cura Gutrippaz 1", lang="it")
    assert "Gutrippaz non ha danni da curare" in plain.render(italian)
    assert (await say(app, "/unit damage Gutrippaz 3")).ok
    slain = await say(app, "/unit heal Gutrippaz 2")
    assert slain.error is not None and slain.error.code == "aos.heal_slain_only"
    assert "/aos check rally target=Gutrippaz" in plain.render(slain)
    italian = await say(app, "/unita cura Gutrippaz 2", lang="it")
    assert "/aos prova raccolta bersaglio=Gutrippaz" in plain.render(italian)
    shown = await say(app, "/unit show Gutrippaz")
    assert "7/10" in plain.render(shown)


async def test_a_heal_says_how_much_it_healed_and_refuses_zero(app: App) -> None:
    # The walk: /unita cura Signore 5 with 3 damage healed 3 and said nothing of the 5 asked;
    # /unita cura Signore 0 was accepted silently.
    assert (await say(app, "/game new gen T")).ok
    assert (await say(app, "/unit add Lord wounds=6")).ok
    assert (await say(app, "/unit damage Lord 3")).ok
    zero = await say(app, "/unita cura Lord 0", lang="it")
    assert zero.error is not None and zero.error.code == "cmd.int_range", zero.error
    more = await say(app, "/unita cura Lord 5", lang="it")
    assert more.ok, more.error
    assert "Lord: curate 3 ferite delle 5 indicate (non aveva altri danni)." in plain.render(more)
    assert (await say(app, "/unit damage Lord 2")).ok
    exact = await say(app, "/unit heal Lord 2")
    assert exact.ok and "healed" not in plain.render(exact)
    assert (await say(app, "/unit damage Lord 1")).ok
    english = await say(app, "/unit heal Lord 4")
    assert "Lord: 1 wound healed of the 4 asked (it had no more damage)." in plain.render(english)


async def test_an_option_a_game_has_no_use_for_is_named(app: App) -> None:
    # The walk: /unita danno Gutrippaz 1 modello=11 answered "Questa opzione non vale..."
    # without saying which option.
    assert (await say(app, "/game new aos T")).ok
    assert (await say(app, "/unit add Gutrippaz models=10 wounds=1")).ok
    column = await say(app, "/unita danno Gutrippaz 1 colonna=2", lang="it")
    assert column.error is not None and column.error.code == "game.no_unit_options"
    assert "L'opzione colonna non vale per le unità di questo gioco" in column.error.message
    grid = await say(app, "/unit add Orcs models=5 wounds=1 grid=xx", lang="en")
    assert grid.error is not None and "The option grid does not apply" in grid.error.message
