"""rules_core.systems.wow.transitions without the bot: what each /wow command does to a game."""

from __future__ import annotations

import pytest

from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.wow import cards
from rules_core.systems.wow import system as wow
from rules_core.systems.wow import transitions as wt
from rules_core.systems.wow.settings import WowSettings

ANN = Player(user_id="A", name="Ann")
BOB = Player(user_id="B", name="Bob")
DEFAULTS = WowSettings()


def game() -> GameState:
    state = GameState(system="wow", name="t", organiser="A", players=[ANN, BOB], order=["A", "B"])
    state = tr.add_unit(state, "Jaina", ANN, {"health": 6, "armor": 1, "resist": 2, "honor": 10})
    return tr.add_unit(state, "Thrall", BOB, {"health": 5, "armor": 2, "resist": 1, "honor": 10})


def with_fireball(state: GameState) -> GameState:
    return wt.add_card(
        state, DEFAULTS, "Jaina", name="Fireball", cost=3, power=4, kind="magical",
        range_=5, crit="damage:1",
    )  # fmt: skip


def test_defence_dice_are_armor_against_physical_and_resist_against_magical() -> None:
    """601.2: the defender rolls Armor against a physical attack, Resist against a magical."""
    thrall = tr.find_unit(game(), "Thrall")
    phys = wt.attack_request(power=3, defense=None, kind=None, crit=None, target=thrall)
    magic = wt.attack_request(power=3, defense=None, kind="magical", crit=None, target=thrall)
    assert (phys.type, phys.defense) == ("physical", 2)
    assert (magic.type, magic.defense) == ("magical", 1)
    given = wt.attack_request(power=3, defense=5, kind="magical", crit=None, target=thrall)
    assert given.defense == 5


def test_a_card_gives_power_type_and_crit_unless_overridden() -> None:
    state = with_fireball(game())
    card = wt.find_actor_card(state, "Jaina", "fire")
    assert card is not None
    req = wt.attack_request(power=None, defense=None, kind=None, crit=None, card=card)
    assert (req.power, req.type, req.crit_damage) == (4, "magical", 1)
    mine = wt.attack_request(power=2, defense=0, kind="physical", crit="effect", card=card)
    assert (mine.power, mine.type, mine.crit_damage, mine.crit_effect) == (2, "physical", 0, True)


def test_power_is_needed_and_a_heal_card_is_not_an_attack() -> None:
    with pytest.raises(UserError) as err:
        wt.attack_request(power=None, defense=None, kind=None, crit=None)
    assert err.value.key == "wow.power_needed"
    renew = cards.make_card("Renew", 1, 2, "heal", None, "heal:1")
    with pytest.raises(UserError) as err:
        wt.attack_request(power=None, defense=None, kind=None, crit=None, card=renew)
    assert err.value.key == "wow.card_not_attack"
    req = wt.heal_request(power=None, rerolls=0, crit=None, card=renew)
    assert (req.power, req.crit_heal) == (2, 1)
    fire = cards.make_card("Fireball", 3, 4, "magical", None, None)
    with pytest.raises(UserError) as err:
        wt.heal_request(power=None, rerolls=0, crit=None, card=fire)
    assert err.value.key == "wow.card_not_heal"


def test_applying_a_card_attack_pays_the_card_and_keeps_the_turn_open() -> None:
    """300.5: the cost is paid and the card exhausted; 501: the turn begins and goes on."""
    state = with_fireball(game())
    done = wt.apply_result(state, DEFAULTS, "Thrall", 2, heal=False, actor="Jaina", card="Fireball")
    assert tr.find_unit(done.state, "Thrall").wounds_left == 3
    assert wt.personal_clock(done.state, "Jaina") == 4
    assert cards.find_card(tr.find_unit(done.state, "Jaina"), "Fireball").exhausted
    clocks = wow.clocks_of(done.state)
    assert clocks.turn == "jaina" and clocks.striker is None
    assert tr.find_unit(state, "Thrall").wounds_left == 5  # the input is left alone


def test_a_kill_by_an_attack_scores_for_the_attackers_player() -> None:
    """403.2c: 4 VP for the kill, to the attacking character's player."""
    done = wt.apply_result(game(), DEFAULTS, "Thrall", 9, heal=False, actor="Jaina")
    assert done.state.score() == {"A": 4, "B": 0}
    assert ("wow.kill_vp", {"unit": "Thrall", "vp": 4, "player": "Ann"}) in done.notes


def test_check_play_refuses_a_character_whose_clock_is_not_level() -> None:
    """500.3: only a character whose Personal Clock equals the Master Clock may start a turn."""
    state = game()
    state = wow.moved(state, tr.find_unit(state, "Jaina"))
    with pytest.raises(UserError) as err:
        wt.check_play(state, tr.find_unit(state, "Jaina"), None)
    assert err.value.key == "wow.not_ready"


def test_card_bar_limit_and_removal() -> None:
    """The default `card_limit` of 2 (101.2a): a third card is refused."""
    state = with_fireball(game())
    state = wt.add_card(
        state, DEFAULTS, "Jaina", name="Frostbolt", cost=2, power=3, kind="magical",
        range_=None, crit=None,
    )  # fmt: skip
    with pytest.raises(UserError) as err:
        wt.add_card(
            state, DEFAULTS, "Jaina", name="Blink", cost=1, power=None, kind="other",
            range_=None, crit=None,
        )  # fmt: skip
    assert err.value.key == "wow.too_many_cards"
    with pytest.raises(UserError) as err:
        wt.add_card(
            state, DEFAULTS, "Jaina", name="Blink", cost=None, power=None, kind="other",
            range_=None, crit=None,
        )  # fmt: skip
    assert err.value.key == "wow.card_needs_cost"
    state, removed = wt.remove_card(state, DEFAULTS, "Jaina", "frost")
    assert removed.name == "Frostbolt"
    assert [c.name for c in cards.cards_of(tr.find_unit(state, "Jaina"))] == ["Fireball"]


def test_turns_act_react_and_moved() -> None:
    """408.2 / 300.5 (act pays cost and cards), 300.3 (react: no turn), 501.3b (moved: +1)."""
    state = with_fireball(game())
    turn = wt.take_turn(state, tr.find_unit(state, "Jaina"), moved_only=False, cards=["fire"])
    assert (turn.before, turn.after, turn.played) == (1, 4, ["Fireball"])
    assert wow.clocks_of(turn.state).turn is None
    moved = wt.take_turn(turn.state, tr.find_unit(turn.state, "Thrall"), moved_only=True)
    assert (moved.before, moved.after) == (1, 2)
    react = wt.take_turn(
        state, tr.find_unit(state, "Jaina"), moved_only=False, cards=["Fireball"], react=True
    )
    assert react.after == 4 and wow.clocks_of(react.state).turn is None
    with pytest.raises(UserError) as err:
        wt.take_turn(state, tr.find_unit(state, "Jaina"), moved_only=False, react=True)
    assert err.value.key == "wow.react_needs_card"


def test_a_character_waiting_to_respawn_is_no_target() -> None:
    # A code audit: a destroyed character waiting to respawn could still be attacked (paying
    # the card for nothing) and healed back into play (and killed again for more VP). It is
    # out of play (403.3, L546) and no target (407.1).
    state = game()
    jaina = tr.find_unit(state, "Jaina")
    thrall = tr.find_unit(state, "Thrall")
    dead = tr.damage(state, "Thrall", thrall.max_wounds)
    with pytest.raises(UserError) as raised:
        wt.check_target(dead, jaina, tr.find_unit(dead, "Thrall"), heal=False)
    assert raised.value.key == "wow.target_out_of_play"


def test_a_teammate_never_scores_an_allys_death() -> None:
    # A code audit: in a 2v2, damage no attack caused killed A1 during teammate A2's turn and
    # A2 got the 4 VP for its own ally (a teammate's character is an ally, 400.2).
    a1, a2 = Player(user_id="a1", name="A1", side="X"), Player(user_id="a2", name="A2", side="X")
    b1, b2 = Player(user_id="b1", name="B1", side="Y"), Player(user_id="b2", name="B2", side="Y")
    players = [a1, b1, a2, b2]
    state = GameState(
        system="wow", name="t", organiser="a1", players=players, order=[p.user_id for p in players]
    )
    state = tr.add_unit(state, "Hero", a1, {"health": 5})
    clocks = wow.clocks_of(state)
    clocks.last_active = "a2"
    state = wow.with_clocks(state, clocks)
    assert wow.scorer(state, tr.find_unit(state, "Hero")) is None
    clocks.last_active = "b1"
    assert wow.scorer(wow.with_clocks(state, clocks), tr.find_unit(state, "Hero")) == "b1"


def test_in_a_team_game_the_team_left_of_the_active_team_chooses() -> None:
    # A code audit: 500.3c counts a team as one player. Seats a1, b1, a2, b2 (a1/a2 side X,
    # b1/b2 side Y); a1 took the last turn; the tied characters are a2's and b2's. Team X is
    # the active one, so team Y chooses (through b2, who owns one): the bot named a2.
    a1, a2 = Player(user_id="a1", name="A1", side="X"), Player(user_id="a2", name="A2", side="X")
    b1, b2 = Player(user_id="b1", name="B1", side="Y"), Player(user_id="b2", name="B2", side="Y")
    players = [a1, b1, a2, b2]
    state = GameState(
        system="wow", name="t", organiser="a1", players=players, order=[p.user_id for p in players]
    )
    state = tr.add_unit(state, "Alpha", a2, {"health": 5})
    state = tr.add_unit(state, "Beta", b2, {"health": 5})
    clocks = wow.clocks_of(state)
    clocks.last_active = "a1"
    assert wow.next_chooser(wow.with_clocks(state, clocks)) == "b2"
    # Both tied characters on team X: team X chooses, through its first seat left of b1.
    state = tr.add_unit(tr.remove_unit(state, "Beta"), "Gamma", a1, {"health": 5})
    clocks.last_active = "b1"
    assert wow.next_chooser(wow.with_clocks(state, clocks)) == "a2"
    # Without sides, every player is their own team: the next seat left of the active one.
    solo = state.model_copy(
        update={"players": [p.model_copy(update={"side": None}) for p in players]}
    )
    clocks.last_active = "a1"
    assert wow.next_chooser(wow.with_clocks(solo, clocks)) == "a2"
