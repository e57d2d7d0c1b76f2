"""A warjack's damage grid given after the unit is added (/unit set NAME grid=): a BattleScribe
file has no grid (the Mk II data prints no damage for warjacks), so an imported warjack had
one damage box, disabled by its first point, and no way to get its grid (/unit set refused
grid=). Damage is recorded on a warjack's grid (pp. 65-66, L3644-3647, L3712-3719)."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from tests.army.battlescribe_files import ros
from tests.helpers import say

GRID = "......|..L..M|...MC.|...MC.|..R..M|H....."
ANN = Player(user_id="ann", name="Ann")


def game() -> GameState:
    state = GameState(system="wm", name="t", organiser="ann", players=[ANN], order=["ann"])
    return tr.add_unit(state, "Lancer", ANN, {"def": 12, "arm": 18}, {"kind": "warjack"})


def test_a_grid_is_given_to_a_warjack_that_has_none() -> None:
    state = tr.set_stats(game(), "Lancer", {}, {"grid": GRID})
    lancer = state.units[0]
    assert lancer.stats["boxes"] == 36 and lancer.max_wounds == 36
    hit = tr.damage(state, "Lancer", 3, column=2)
    assert not hit.units[0].destroyed and hit.units[0].damage == 3


def test_a_grid_is_not_replaced_nor_given_after_damage() -> None:
    """Changing a grid would move the marks already on it; a unit already hurt would lose its
    damage: both are refused (add the unit again)."""
    with_grid = tr.set_stats(game(), "Lancer", {}, {"grid": GRID})
    with pytest.raises(UserError) as err:
        tr.set_stats(with_grid, "Lancer", {}, {"grid": GRID})
    assert err.value.key == "wm.grid_already"
    hurt = tr.damage(tr.set_stats(game(), "Lancer", {"boxes": 5}), "Lancer", 1)
    with pytest.raises(UserError) as err:
        tr.set_stats(hurt, "Lancer", {}, {"grid": GRID})
    assert err.value.key == "wm.grid_after_damage"


async def test_an_imported_warjack_is_told_to_take_its_grid_and_takes_it(
    app: App, tmp_path: object
) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "cygnar.ros"
    path.write_bytes(ros("wm_mk2"))
    chat = "console:wm-grid-later"
    assert (await say(app, "/game new wm", user="ann", chat=chat)).ok
    reply = await say(app, f"/army import file={path}", user="ann", chat=chat, lang="it")
    text = plain.render(reply)
    assert "Lancer: mancanti: CMD; nessuna griglia dei danni nel file" in text, text
    assert "Stormwall" in text and "Trencher Infantry: " not in text  # warjacks only
    set_ = await say(app, f"/unita imposta Lancer griglia={GRID}", user="ann", chat=chat, lang="it")
    assert set_.error is None, plain.render(set_)
    shown = plain.render(await say(app, "/unit show Lancer", user="ann", chat=chat, lang="en"))
    assert "36/36" in shown, shown
