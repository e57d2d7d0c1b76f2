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
from rules_core.systems.c5 import combat
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


def test_a_recorded_combat_alternates_the_blows_and_counts_the_dice() -> None:
    """Digest §3.1 (passes of arms alternate, one attack die each, the initiative winner first):
    Abel (2 attack dice) won the initiative against the Orc (1 die). Abel strikes, then the
    Orc, then Abel's last die; a blow out of turn is refused naming whose blow it is; with no
    dice left the combat ends."""
    state, notes = combat.start(duel(COMBAT), "Abel", "Orc", (2, 1))
    assert notes == [("c5.note.combat_started", {"a": "Abel", "b": "Orc", "unit": "Abel"})]
    with pytest.raises(UserError) as err:
        c5tr.check_blow(state, "Orc", "Abel")
    assert err.value.key == "c5.not_your_blow" and err.value.params["unit"] == "Abel"
    state, notes = c5tr.blow(state, "Abel", "Orc", True, 1, False, None)
    assert ("c5.note.next_blow", {"unit": "Orc", "n": 1}) in notes
    assert state.units[1].damage == 1
    c5tr.check_blow(state, "Orc", "Abel")  # now the Orc's
    state, notes = c5tr.blow(state, "Orc", "Abel", False, 0, False, None)  # a miss: a die spent
    assert notes == [("c5.note.next_blow", {"unit": "Abel", "n": 1})]
    state, notes = c5tr.blow(state, "Abel", "Orc", False, 0, False, None)
    assert notes == [("c5.note.combat_over", {"a": "Abel", "b": "Orc"})]
    assert combat.combats(state) == []
    c5tr.check_blow(state, "Orc", "Abel")  # no combat recorded: either may strike again


def test_contrattacco_a_parry_by_2_or_more_wins_an_attack_die() -> None:
    """@64709: Contrattacco gives the defender one more attack die when its defence beats the
    parried attack by 2 or more (1 or more printed on a Character's card); Ambidestro on any
    parry (@53372). The Orc has no attack die left, parries Abel's blow by 2 and strikes."""
    state, _ = combat.start(duel(COMBAT), "Abel", "Orc", (2, 0), ("none", "contrattacco"))
    state, notes = c5tr.blow(state, "Abel", "Orc", False, 0, False, parried_by=1)
    assert notes == [("c5.note.next_blow", {"unit": "Abel", "n": 1})]  # by 1: no die
    state, notes = c5tr.blow(state, "Abel", "Orc", False, 0, False, parried_by=2)
    assert notes[0] == ("c5.note.counter_die", {"unit": "Orc"})
    assert notes[1] == ("c5.note.next_blow", {"unit": "Orc", "n": 1})
    state, notes = c5tr.blow(state, "Orc", "Abel", True, 5, False, None)  # Abel dies
    assert ("c5.note.combat_over", {"a": "Orc", "b": "Abel"}) in notes


def test_a_combat_opens_only_in_the_combat_phase_between_two_living_fighters() -> None:
    for state, args, key in (
        (duel(1), ("Abel", "Orc", (1, 1)), "c5.melee_not_combat"),
        (duel(COMBAT), ("Abel", "Abel", (1, 1)), "c5.combat_two_fighters"),
        (duel(COMBAT), ("Abel", "Orc", (0, 0)), "c5.combat_no_dice"),
    ):
        with pytest.raises(UserError) as err:
            combat.start(state, *args)  # type: ignore[arg-type]
        assert err.value.key == key
    state, _ = combat.start(duel(COMBAT), "Abel", "Orc", (1, 1))
    with pytest.raises(UserError) as err:
        combat.start(state, "Orc", "Abel", (1, 1))
    assert err.value.key == "c5.already_in_combat"


async def test_a_recorded_combat_through_the_commands(app: App) -> None:
    """/c5 combat records the exchange; each player records their own fighter's blow in turn,
    a miss spends its die too, an out-of-turn blow is refused naming whose blow it is, and the
    combat ends with the last die. Italian screens."""
    await setup(app)
    for _ in range(2):
        assert (await say(app, "/phase next", user="ann", chat=CHAT)).ok  # -> combat
    opened = await say(
        app, "/c5 combattimento Abel Orc attacchi=1,1", user="bob", chat=CHAT, lang="it"
    )
    assert opened.ok, opened.error
    assert "il primo colpo è di Abel" in plain.render(opened)
    early = await say(
        app, "/c5 mischia attaccante=Orc bersaglio=Abel applica dadi=6,2,4,5", user="bob",
        chat=CHAT, lang="it",
    )  # fmt: skip
    assert early.error is not None and early.error.code == "c5.not_your_blow"
    assert "il colpo tocca a Abel su Orc" in early.error.message
    miss = await say(
        app, "/c5 mischia attaccante=Abel bersaglio=Orc applica dadi=1,6", user="ann",
        chat=CHAT, lang="it",
    )  # fmt: skip
    assert miss.ok, miss.error
    assert "Il prossimo colpo è di Orc (1 dado d'attacco rimasto)." in plain.render(miss)
    back = await say(
        app, "/c5 melee attacker=Orc target=Abel apply dice=6,2,4,5", user="bob", chat=CHAT
    )
    assert back.ok, back.error
    assert "The combat between Orc and Abel is over." in plain.render(back)
    status = (await say(app, "/game status", user="ann", chat=CHAT)).data
    assert status is not None and "c5_combats" not in status["state"]["extra"]


def test_an_automatic_failure_lets_a_counter_fighter_forgo_its_defence_die() -> None:
    """@64709 (Contrattacco), @53372 (Ambidestro): when the attack test fails automatically,
    the defender's player may keep the defence die or give it up for one more attack die (a
    code audit: the recorded combat never offered it). The Orc, Ambidestro, has no attack
    die; Abel's first blow fails by the natural-1 rule; the Orc takes the die and strikes."""
    state, _ = combat.start(duel(COMBAT), "Abel", "Orc", (2, 0), ("none", "ambidestro"))
    state, notes = c5tr.blow(state, "Abel", "Orc", False, 0, False, None, auto_failed=True)
    assert notes == [
        ("c5.note.counter_choice", {"unit": "Orc"}),
        ("c5.note.next_blow", {"unit": "Abel", "n": 1}),
    ]
    with pytest.raises(UserError) as err:
        combat.forgo(state, "Abel")  # the choice is the defender's
    assert err.value.key == "c5.no_counter_choice" and err.value.params["unit"] == "Abel"
    state, notes = combat.forgo(state, "Orc")
    assert notes == [
        ("c5.note.counter_forgo", {"unit": "Orc"}),
        ("c5.note.next_blow", {"unit": "Orc", "n": 1}),
    ]
    c5tr.check_blow(state, "Orc", "Abel")  # the Orc's blow now
    with pytest.raises(UserError) as err:
        combat.forgo(state, "Orc")  # once per failed attack
    assert err.value.key == "c5.no_counter_choice"


def test_the_choice_keeps_a_combat_with_no_dice_open_and_is_only_after_an_automatic_failure() -> (
    None
):
    """Abel's last die fails automatically: the combat stays open for the Orc's choice (no
    blow meanwhile); keeping the defence die is ending it. A plain miss (a declared difficulty
    not reached) or a defender without Contrattacco/Ambidestro offers no choice."""
    state, _ = combat.start(duel(COMBAT), "Abel", "Orc", (1, 0), ("none", "contrattacco"))
    state, notes = c5tr.blow(state, "Abel", "Orc", False, 0, False, None, auto_failed=True)
    assert notes == [("c5.note.counter_choice_last", {"unit": "Orc"})]
    with pytest.raises(UserError) as err:
        c5tr.check_blow(state, "Abel", "Orc")
    assert err.value.key == "c5.counter_choice_pending" and err.value.params["unit"] == "Orc"
    kept, notes = combat.end(state, "Orc")  # keeping the defence die
    assert notes == [("c5.note.combat_over", {"a": "Abel", "b": "Orc"})]
    assert combat.combats(kept) == []
    state, _ = combat.forgo(state, "Orc")
    state, notes = c5tr.blow(state, "Orc", "Abel", False, 0, False, None)
    assert notes == [("c5.note.combat_over", {"a": "Orc", "b": "Abel"})]
    for counters, auto in ((("none", "contrattacco"), False), (("none", "none"), True)):
        state, _ = combat.start(duel(COMBAT), "Abel", "Orc", (1, 0), counters)  # type: ignore[arg-type]
        state, notes = c5tr.blow(state, "Abel", "Orc", False, 0, False, None, auto_failed=auto)
        assert notes == [("c5.note.combat_over", {"a": "Abel", "b": "Orc"})]


async def test_the_defenders_player_forgoes_the_defence_die_through_the_command(app: App) -> None:
    """@53372 through the commands (the code audit's example): /c5 combat Abel Orc attacks=2,0
    counter_second=ambidestro; Abel's attack rolls 1 then 5, an automatic failure; Bob takes
    the Orc's attack die and strikes back, where the bot gave Abel the blow and refused his."""
    await setup(app)
    for _ in range(2):
        assert (await say(app, "/phase next", user="ann", chat=CHAT)).ok  # -> combat
    opened = await say(
        app, "/c5 combattimento Abel Orc attacchi=2,0 contrattacco_secondo=ambidestro",
        user="ann", chat=CHAT, lang="it",
    )  # fmt: skip
    assert opened.ok, opened.error
    failed = await say(
        app, "/c5 mischia attaccante=Abel bersaglio=Orc applica dadi=1,5", user="ann",
        chat=CHAT, lang="it",
    )  # fmt: skip
    assert failed.ok, failed.error
    assert failed.data is not None and failed.data["outcome"]["auto_failed"] is True
    assert "/c5 combattimento Orc rinuncia" in plain.render(failed)
    assert (await say(app, "/game join", user="carl", chat=CHAT)).ok
    stolen = await say(app, "/c5 combat Orc forgo", user="carl", chat=CHAT)  # Bob's choice
    assert stolen.error is not None and stolen.error.code == "perm.not_your_unit"
    took = await say(app, "/c5 combattimento Orc rinuncia", user="bob", chat=CHAT, lang="it")
    assert took.ok, took.error
    text = plain.render(took)
    assert "Orc rinuncia al dado di difesa e guadagna un dado d'attacco" in text
    assert "Il prossimo colpo è di Orc (1 dado d'attacco rimasto)." in text
    back = await say(
        app, "/c5 melee attacker=Orc target=Abel apply dice=6,2,4,5", user="bob", chat=CHAT
    )
    assert back.ok, back.error
