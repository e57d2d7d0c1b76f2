"""A warjack whose Movement system is crippled (p. 67, L3734-3738): base DEF 7, and it can't
run or charge; a slam and a trample are refused with a charge (p. 52, L2303-2306; p. 55,
L2639-2642). The bot refused the charge, the slam and the trample (test_wm_commands'
test_L3736_crippled_movement_refuses_charge_slam_and_trample); a run, recorded as the
condition `ran` (`corsa`: what the feat rule reads, L4447-4448), was taken on any model.
A warjack also pays 1 focus to run or charge (p. 46-47, L1766-1768, L1847-1849), which a
crippled Cortex can't (p. 67, L3731-3733)."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player, Unit
from rules_core.systems.wm import grid
from rules_core.systems.wm import transitions as wt
from tests.helpers import say

# Column 2: 3 damage cripples L; column 3: 11 damage C (then M at 14: columns 2-4 hold M).
GRID = "......|..L..M|...MC.|...MC.|..R..M|H....."
ANN = Player(user_id="ann", name="Ann")


def game(crippled: str = "", kind: str = "warjack") -> GameState:
    """One warjack on GRID with the boxes of the `crippled` systems all marked."""
    g = grid.parse_grid(GRID)
    marks = [cell for key, cells in g.systems().items() if key in crippled for cell in cells]
    stored = grid.Grid(columns=g.columns, marks=marks).model_dump(mode="json")
    jack = Unit(name="Jugger", owner="ann", owner_name="Ann", extra={"grid": stored, "kind": kind})
    return GameState(
        system="wm", name="t", organiser="ann", players=[ANN], order=["ann"], units=[jack]
    )


@pytest.mark.parametrize("typed", ["ran", "corsa", "ha corso", "Corso"])
def test_L3735_a_crippled_movement_cannot_run(typed: str) -> None:
    with pytest.raises(UserError) as err:
        tr.add_condition(game("M"), "Jugger", typed, "end-of-turn")
    assert err.value.key == "wm.movement_no_run"
    ran = tr.add_condition(game("LRH"), "Jugger", typed, "end-of-turn")  # Movement sound
    assert [c.name for c in ran.units[0].conditions] == [typed]


def test_L1767_a_warjack_with_a_crippled_cortex_cannot_pay_to_run() -> None:
    """A warjack spends 1 focus to run (p. 46, L1766-1768) and a crippled Cortex spends none
    (p. 67, L3731-3733); a warcaster, who pays nothing to run, is not stopped by a grid's C."""
    with pytest.raises(UserError) as err:
        tr.add_condition(game("C"), "Jugger", "ran", "end-of-turn")
    assert err.value.key == "wm.cortex_no_run"
    assert tr.add_condition(game("C", kind="warcaster"), "Jugger", "ran", None).units


def test_L1848_a_warjack_with_a_crippled_cortex_cannot_pay_to_charge() -> None:
    charge = wt.AttackInput(mods="charge", pow=12)
    with pytest.raises(UserError) as err:
        wt.with_attacker(charge, game("C").units[0], None)
    assert err.value.key == "wm.cortex_no_charge"
    assert wt.with_attacker(charge, game("C", kind="warcaster").units[0], None).mods == "charge"
    assert wt.with_attacker(charge, game("LRH").units[0], None).mods == "charge"


async def test_a_charge_refused_for_the_cortex_is_said_in_the_readers_words(app: App) -> None:
    chat = "console:wm-cortex-charge"
    assert (await say(app, "/game new wm", user="ann", chat=chat)).ok
    add = "/unit add Jugger mat=6 str=12 def=10 arm=20 base=50 grid=C.....|M.....|L|R|H|."
    assert (await say(app, add, user="ann", chat=chat)).ok
    assert (await say(app, "/unit damage Jugger 1 column=1", user="ann", chat=chat)).ok  # C
    for lang, cmd, words in (
        ("it", "/wm attacco attaccante=Jugger mod=carica pot=5 dif=12 arm=16", "per caricare"),
        ("en", "/wm attack attacker=Jugger mods=charge pow=5 def=12 arm=16", "to charge"),
    ):
        reply = await say(app, cmd, user="ann", chat=chat, lang=lang)
        assert reply.error is not None and reply.error.code == "wm.cortex_no_charge", reply
        assert words in plain.render(reply)


async def test_a_run_refused_is_said_in_the_readers_words(app: App) -> None:
    chat = "console:wm-movement-run"
    assert (await say(app, "/game new wm", user="ann", chat=chat)).ok
    add = "/unit add Jugger mat=6 str=12 def=10 arm=20 base=50 grid=M.....|C.....|L|R|H|."
    assert (await say(app, add, user="ann", chat=chat)).ok
    assert (await say(app, "/unit cond Jugger add ran", user="ann", chat=chat)).ok
    assert (await say(app, "/unit cond Jugger remove ran", user="ann", chat=chat)).ok
    assert (await say(app, "/unit damage Jugger 1 column=1", user="ann", chat=chat)).ok  # M
    for lang, cmd, words in (
        ("it", "/unita cond Jugger add corsa", "Movimento compromesso: non può correre"),
        ("en", "/unit cond Jugger add ran", "Movement is crippled: it can't run"),
    ):
        reply = await say(app, cmd, user="ann", chat=chat, lang=lang)
        assert reply.error is not None and reply.error.code == "wm.movement_no_run", reply
        assert words in plain.render(reply)


async def test_L3736_the_note_says_a_charge_slam_or_trample_stops(app: App) -> None:
    """Crippled while it charges, slams or tramples (a free strike on the way), the model stops
    and its activation ends (p. 67, L3736-3738): the note of the damage says so."""
    chat = "console:wm-movement-note"
    assert (await say(app, "/game new wm", user="ann", chat=chat)).ok
    add = "/unit add Jugger mat=6 str=12 def=10 arm=20 base=50 grid=M.....|C.....|L|R|H|."
    assert (await say(app, add, user="ann", chat=chat)).ok
    for lang, words in (
        ("it", "schiantando o travolgendo, si ferma qui e la sua attivazione termina"),
        ("en", "slamming or trampling, it stops here and its activation ends"),
    ):
        hit = await say(app, "/unit damage Jugger 1 column=1", user="ann", chat=chat, lang=lang)
        assert words in plain.render(hit), plain.render(hit)
        assert (await say(app, "/unit heal Jugger 1", user="ann", chat=chat)).ok
