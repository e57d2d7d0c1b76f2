"""Golden tests, issue 22 (Confrontation): melee blows in the combat phase, struck by either
fighter in turn.

Book: the combat phase ("fase di combattimento", named by Implacabile/X in "Abilità") is where
melees are fought; a combat is fought in passes of arms ("passo d'arme": Consapevolezza,
Spadaccino in "Abilità") in which both fighters strike, the defender too (Contrattacco,
Ambidestro: a defender earns attack dice). Digest §3.1 (C3 skeleton) and §4.1 item 3.
"""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.c5 import transitions as c5tr
from tests.helpers import say

ANN = Player(user_id="A", name="Ann")
BOB = Player(user_id="B", name="Bob")
COMBAT = 2  # strategic, activation, combat, mystic, maintenance


def duel(phase: int) -> GameState:
    state = GameState(system="c5", name="t", organiser="A", players=[ANN, BOB], order=["A", "B"])
    state = tr.add_unit(state, "Abel", ANN, {"att": 5, "str": 7, "def": 4, "res": 6})
    state = tr.add_unit(state, "Orc", BOB, {"att": 4, "str": 8, "def": 3, "res": 7})
    state.phase = phase
    return state


@pytest.mark.parametrize("phase", [0, 1, 3, 4])
def test_a_blow_is_applied_only_in_the_combat_phase(phase: int) -> None:
    """Digest §4.1: melees are fought in the combat phase, after all activations."""
    with pytest.raises(UserError) as err:
        c5tr.check_blow(duel(phase), "Abel", "Orc")
    assert err.value.key == "c5.melee_not_combat"


def test_either_fighter_strikes_in_the_combat_phase() -> None:
    """Passes of arms: the attacker's blow, then the defender's on the attacker."""
    state = duel(COMBAT)
    assert c5tr.check_blow(state, "Abel", "Orc") == "A"  # whose fighter strikes
    assert c5tr.check_blow(state, "Orc", "Abel") == "B"  # the counter-blow, Bob's
    assert c5tr.check_blow(state, None, "Abel") is None  # typed values: nobody's fighter


def test_a_dead_fighter_strikes_no_more() -> None:
    """@5779: the fighter dies when his last wound is gone; he takes no further pass."""
    state, _ = c5tr.wound(duel(COMBAT), "Orc", 5, stunned=False)
    with pytest.raises(UserError) as err:
        c5tr.check_blow(state, "Orc", "Abel")
    assert err.value.key == "c5.attacker_dead"


CHAT = "console:c5duel"


async def setup(app: App) -> None:
    assert (await say(app, "/game new c5 Duel", user="ann", chat=CHAT)).ok
    assert (await say(app, "/game join", user="bob", chat=CHAT)).ok
    assert (await say(app, "/unit add Abel att=5 str=7 def=4 res=6", user="ann", chat=CHAT)).ok
    assert (await say(app, "/unit add Orc att=4 str=8 def=3 res=7", user="bob", chat=CHAT)).ok


async def test_melee_apply_outside_the_combat_phase_is_refused_and_changes_nothing(
    app: App,
) -> None:
    await setup(app)
    early = await say(
        app, "/c5 melee attacker=Abel target=Orc apply dice=5,4,3", user="ann", chat=CHAT
    )
    assert early.error is not None and early.error.code == "c5.melee_not_combat"
    assert "combat phase" in plain.render(early)
    status = plain.render(await say(app, "/game status", user="ann", chat=CHAT))
    assert "Orc" in status and "4/4" in status and "INI ATT" not in status


async def test_the_defenders_player_records_the_counter_blow(app: App) -> None:
    await setup(app)
    for _ in range(2):
        assert (await say(app, "/phase next", user="ann", chat=CHAT)).ok  # -> combat
    # Ann's Abel strikes the Orc: attack 5+5, wound dice 4,3 (row 3, R 4+7-7=4 -> 1 wound)
    first = await say(
        app, "/c5 melee attacker=Abel target=Orc apply dice=5,4,3", user="ann", chat=CHAT
    )
    assert first.ok, first.error
    assert first.data is not None and first.data["applied"]["wounds"] == 1
    assert "Orc may strike back" in plain.render(first)
    # Bob's Orc strikes back on Ann's turn: the pass of arms is his, no turn needed
    back = await say(
        app, "/c5 melee attacker=Orc target=Abel apply dice=6,2,4,5", user="bob", chat=CHAT
    )
    assert back.ok, plain.render(back)
    assert back.data is not None and back.data["applied"]["unit"] == "Abel"
    # Bob can't strike with Ann's fighter
    stolen = await say(
        app, "/c5 melee attacker=Abel target=Orc apply dice=5,4,3", user="bob", chat=CHAT
    )
    assert stolen.error is not None and stolen.error.code == "perm.not_your_unit"
