"""Issue 22, Age of Sigmar: golden tests from the Italian rulebook, without the bot.
Lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt; ids to the digest's section 6."""

from __future__ import annotations

import pytest

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.aos import battlefield, checks, turns
from rules_core.systems.aos import system as aos_system
from rules_core.systems.aos import transitions as aos_tr
from rules_core.systems.aos.attack import resolve_attack
from rules_core.systems.aos.models import Settings
from rules_core.systems.aos.requests import AttackInput, build_attack

ANN = Player(user_id="a", name="Ann")
BOB = Player(user_id="b", name="Bob")


def game() -> GameState:
    state = GameState(system="aos", name="t", organiser="a", players=[ANN, BOB], order=["a", "b"])
    state = tr.add_unit(state, "Vindictors", ANN, {"models": 5, "wounds": 2, "save": 4})
    return tr.add_unit(
        state, "Gutrippaz", BOB, {"models": 10, "wounds": 1, "save": 5, "bravery": 5}
    )


def at_phase(state: GameState, phase: str) -> GameState:
    new = state.clone()
    new.phase = turns.PHASES.index(phase)
    return new


# --- 11.0 (L427): only a unit within 12" of an enemy may attempt a charge ---------------------


def test_L427_charge_beyond_12_inches_is_not_attempted() -> None:
    check = checks.charge(DiceSource.given([]), distance=12.5)
    assert check.outcome == {"in_range": False, "reaches": False}
    assert check.steps[0].outcome == "out_of_range" and check.steps[0].dice == []


def test_L405_a_unit_within_3_inches_of_an_enemy_cannot_charge() -> None:
    # A code audit: `/aos charge distance=2` rolled and said the charge succeeded.
    for distance in (0.5, 2, 3):
        check = checks.charge(DiceSource.given([]), distance=distance)
        assert check.outcome == {"in_range": False, "reaches": False, "too_close": True}
        assert check.steps[0].dice == []
    assert checks.charge(DiceSource.given([1, 2]), distance=3.5).outcome["reaches"]


def test_L427_R33_charge_within_12_inches_rolls() -> None:
    check = checks.charge(DiceSource.given([6, 6]), distance=12)
    assert check.outcome["in_range"] and check.outcome["reaches"]  # 12 + 1/2 >= 12
    assert checks.charge(DiceSource.given([3, 4]), distance=7.4).outcome["reaches"]  # R33


def test_L323_L327_a_unit_that_ran_or_retreated_cannot_charge_or_shoot() -> None:
    state = aos_tr.run(game(), "Vindictors")
    ran = tr.find_unit(state, "Vindictors")
    with pytest.raises(UserError) as raised:
        aos_tr.may_charge(ran)
    assert raised.value.key == "aos.no_charge_ran"
    with pytest.raises(UserError) as raised:
        aos_tr.may_shoot(at_phase(state, "shooting"), ran)
    assert raised.value.key == "aos.no_shoot_ran"
    aos_tr.may_shoot(at_phase(state, "combat"), ran)  # it still fights
    retreated = tr.add_condition(game(), "Gutrippaz", "retreated", None)
    with pytest.raises(UserError) as raised:
        aos_tr.may_charge(tr.find_unit(retreated, "Gutrippaz"))
    assert raised.value.key == "aos.no_charge_retreated"


# --- 13.4 (L565-571), 8.4 (L333-335): command abilities carry into later rolls ----------------


def with_cp(state: GameState, user: str, cp: int) -> GameState:
    new = state.clone()
    new.resources[f"player:{user}"] = {"cp": cp}
    return new


def test_L565_all_out_attack_adds_1_to_hit_until_the_end_of_the_phase() -> None:
    state = at_phase(with_cp(game(), "a", 2), "combat")
    ability = turns.find_command("all-out attack")
    state, _ = turns.use_command(state, "a", ability, "Vindictors")
    attacker = tr.find_unit(state, "Vindictors")
    hit, save, steps = aos_tr.command_modifiers(state, attacker, None)
    assert (hit, save) == (1, 0)
    assert steps[0].name == "command" and steps[0].outcome == "all_out_attack"
    built = build_attack(
        AttackInput(attacks="4", hit="4", wound="4", hit_mod=hit), None, None, Settings()
    )
    res = resolve_attack(built.request, DiceSource.given([3, 3, 1, 2, 1, 1]), Settings())
    assert res.outcome.hits == 2  # the 3s hit at +1, the 1 and 2 don't
    later = state.clone()
    later.phase += 1  # the end of the phase ends the effect
    assert aos_tr.command_modifiers(later, attacker, None) == (0, 0, [])


def test_L569_all_out_defence_adds_1_to_save_for_the_target() -> None:
    state = at_phase(with_cp(game(), "b", 1), "shooting")
    state, _ = turns.use_command(state, "b", turns.find_command("difesa totale"), "Gutrippaz")
    defender = tr.find_unit(state, "Gutrippaz")
    attacker = tr.find_unit(state, "Vindictors")
    assert aos_tr.command_modifiers(state, attacker, defender)[:2] == (0, 1)


def test_L443_unleash_hell_takes_1_from_the_units_hit_rolls_that_phase() -> None:
    """Unleash Hell's unit shoots in the enemy's charge phase at -1 to hit (11.2, L443): the
    bot spent the CP and then the attack went without the -1 (All-out Attack's +1 is
    carried, 13.4)."""
    state = at_phase(with_cp(game(), "b", 1), "charge")  # Ann's charge phase
    with pytest.raises(UserError) as raised:  # its unit is the one that shoots
        turns.use_command(state, "b", turns.find_command("unleash hell"), None)
    assert raised.value.key == "aos.command_needs_unit"
    state, _ = turns.use_command(state, "b", turns.find_command("unleash hell"), "Gutrippaz")
    shooter = tr.find_unit(state, "Gutrippaz")
    hit, save, steps = aos_tr.command_modifiers(state, shooter, tr.find_unit(state, "Vindictors"))
    assert (hit, save) == (-1, 0)
    assert steps[0].outcome == "unleash_hell" and steps[0].total == -1
    later = state.clone()
    later.phase += 1
    assert aos_tr.command_modifiers(later, shooter, None) == (0, 0, [])


def test_L335_R32_at_the_double_counts_as_having_run() -> None:
    state = at_phase(with_cp(game(), "a", 1), "movement")
    state, _ = turns.use_command(state, "a", turns.find_command("at the double"), "Vindictors")
    unit = tr.find_unit(state, "Vindictors")
    assert turns.has_run(unit)
    with pytest.raises(UserError) as raised:
        aos_tr.may_charge(unit)
    assert raised.value.key == "aos.no_charge_ran"


def test_L565_a_unit_command_needs_its_unit() -> None:
    state = at_phase(with_cp(game(), "a", 1), "combat")
    with pytest.raises(UserError) as raised:
        turns.use_command(state, "a", turns.find_command("all-out attack"), None)
    assert raised.value.key == "aos.command_needs_unit"


def test_L271_commands_keep_to_whose_turn_the_book_names() -> None:
    """A code audit: the bot spent the CP for Redeploy in your own movement phase, Forward to
    Victory in the enemy's charge phase... "your" phase is one in your turn (L271); runs and
    charges happen in your own movement and charge phases (L313, L427)."""
    cases = (  # command, phase, the player whose turn it is not allowed, the allowed one
        ("at the double", "movement", "b", "a"),  # after declaring a run (L335)
        ("redeploy", "movement", "a", "b"),  # the enemy's movement phase (L339)
        ("forward to victory", "charge", "b", "a"),  # after your charge roll (L439)
        ("unleash hell", "charge", "a", "b"),  # after an enemy charge move (L443)
        ("all-out attack", "shooting", "b", "a"),  # "your shooting phase" (L567)
    )
    for name, phase, refused, allowed in cases:
        ability = turns.find_command(name)
        state = at_phase(with_cp(with_cp(game(), "a", 1), "b", 1), phase)  # Ann's turn
        unit = {"a": "Vindictors", "b": "Gutrippaz"}
        with pytest.raises(UserError) as raised:
            turns.use_command(state, refused, ability, unit[refused])
        expected = "aos.own_turn_only" if allowed == "a" else "aos.enemy_turn_only"
        assert raised.value.key == expected, name
        assert raised.value.params["command"] == ability.id
        assert raised.value.params["phase"] == phase
        assert state.resources[f"player:{refused}"]["cp"] == 1  # nothing spent
        _, left = turns.use_command(state, allowed, ability, unit[allowed])
        assert left == 0, name
    # All-out Attack in combat, All-out Defence and Inspiring Presence: either player's turn.
    for name, phase in (
        ("all-out attack", "combat"),
        ("all-out defence", "shooting"),
        ("inspiring presence", "battleshock"),
    ):
        state = at_phase(with_cp(game(), "b", 1), phase)
        turns.use_command(state, "b", turns.find_command(name), "Gutrippaz")


# --- 15.1 (L613), L627: the models slain this turn come from the state ------------------------


def test_L613_slain_this_turn_is_counted_per_unit() -> None:
    state = tr.end_turn(tr.damage(game(), "Gutrippaz", 1))  # 1 slain in Ann's turn
    unit = tr.find_unit(state, "Gutrippaz")
    assert aos_tr.battleshock_slain(state, unit) == 0  # Bob's turn: a new count
    state = tr.damage(state, "Gutrippaz", 3)
    assert aos_tr.battleshock_slain(state, tr.find_unit(state, "Gutrippaz")) == 3
    assert aos_tr.battleshock_slain(state, tr.find_unit(state, "Vindictors")) == 0


def test_L613_first_turn_counts_from_the_full_unit() -> None:
    state = tr.damage(game(), "Gutrippaz", 2)
    assert aos_tr.battleshock_slain(state, tr.find_unit(state, "Gutrippaz")) == 2


def test_L627_R23_rallied_models_still_count_as_slain() -> None:
    state = with_cp(tr.damage(game(), "Gutrippaz", 3), "b", 1)
    state, _ = turns.use_command(state, "b", turns.find_command("rally"), "Gutrippaz")
    state = aos_tr.rallied(state, "Gutrippaz", 1, 1)
    unit = tr.find_unit(state, "Gutrippaz")
    assert unit.models_left == 8 and aos_tr.battleshock_slain(state, unit) == 3


def test_E1_battleshock_from_the_state() -> None:
    # L635: Gutrippaz, Bravery 5, 2 slain this turn, a 3: 5 is not above 5.
    state = tr.damage(game(), "Gutrippaz", 2)
    unit = tr.find_unit(state, "Gutrippaz")
    check = aos_tr.battleshock(5, aos_tr.battleshock_slain(state, unit), DiceSource.given([3]))
    assert check.outcome == {"roll": 5, "die": 3, "fled": 0}


# --- 4.1 (L237): only the winner of the priority roll chooses ---------------------------------


def test_L237_only_the_priority_winner_chooses_who_goes_first() -> None:
    state = aos_tr.priority_rolled(game(), "b")
    assert aos_tr.pending_priority(state) == "b"
    with pytest.raises(UserError) as raised:
        aos_tr.choose_order(state, "a", "b", goes_first=True)
    assert raised.value.key == "aos.priority_not_yours"
    chosen = aos_tr.choose_order(state, "b", "b", goes_first=False)
    assert chosen.order == ["a", "b"] and aos_tr.pending_priority(chosen) is None
    with pytest.raises(UserError) as raised:
        aos_tr.priority_rolled(chosen, "a")  # once per round (L239: no new roll)
    assert raised.value.key == "aos.priority_done"


def test_L625_inspiring_presence_exempts_from_battleshock_that_phase() -> None:
    state = at_phase(with_cp(game(), "b", 1), "battleshock")
    state, _ = turns.use_command(state, "b", turns.find_command("inspiring presence"), "Gutrippaz")
    unit = tr.find_unit(state, "Gutrippaz")
    assert aos_tr.battleshock_exempt(state, unit)
    assert not aos_tr.battleshock_exempt(state, tr.find_unit(state, "Vindictors"))
    assert aos_tr.command_modifiers(state, None, unit) == (0, 0, [])  # no save bonus


def test_L339_a_redeployed_unit_cannot_shoot_later_in_the_turn() -> None:
    """A code audit: Redeploy's unit "can't shoot later in the turn" (8.4, L339) was not marked
    as a unit that ran is, so it could still take Unleash Hell's shots in that charge phase
    (L443)."""
    state = at_phase(with_cp(game(), "b", 2), "movement")  # Ann's movement phase
    state, _ = turns.use_command(state, "b", turns.find_command("rischierarsi"), "Gutrippaz")
    unit = tr.find_unit(state, "Gutrippaz")
    for phase in ("shooting", "charge"):
        with pytest.raises(UserError) as raised:
            aos_tr.may_shoot(at_phase(state, phase), unit)
        assert raised.value.key == "aos.no_shoot_redeployed"
        assert raised.value.params == {"unit": "Gutrippaz"}
    aos_tr.may_shoot(at_phase(state, "combat"), unit)  # it still fights
    aos_tr.may_charge(unit)  # and nothing stops a charge


def test_L269_a_model_issues_at_most_one_command_per_phase() -> None:
    """6.1 (L269): a model can't issue more than 1 command in the same phase. Told who issues
    (`issuer`), the bot spent a second CP for a Lord-Celestant's second command in one phase."""
    state = tr.add_unit(at_phase(with_cp(game(), "a", 2), "combat"), "Lord-Celestant", ANN, {})
    attack, defence = turns.find_command("all-out attack"), turns.find_command("all-out defence")
    state, _ = turns.use_command(state, "a", attack, "Vindictors", issuer="Lord-Celestant")
    with pytest.raises(UserError) as raised:
        turns.use_command(state, "a", defence, "Lord-Celestant", issuer="lord-celestant")
    assert raised.value.key == "aos.issuer_used"
    assert raised.value.params["unit"] == "lord-celestant"
    assert state.resources["player:a"]["cp"] == 1  # nothing spent by the refusal
    # another model may issue it; and in the next phase the Lord-Celestant issues again
    state, left = turns.use_command(state, "a", defence, "Lord-Celestant", issuer="Vindictors")
    assert left == 0
    nxt = at_phase(with_cp(state, "a", 1), "battleshock")
    presence = turns.find_command("inspiring presence")
    turns.use_command(nxt, "a", presence, "Vindictors", issuer="Lord-Celestant")


def test_L262_a_command_is_issued_by_and_given_to_friendly_units_only() -> None:
    """6.1 (L262-263): a friendly model issues the command and a friendly unit receives it,
    paid from the CP of the player who uses it. The organiser, whom the bot lets act for
    anyone, had Bob's Gutrippaz issue (and receive) a command paid from Ann's pool."""
    state = at_phase(with_cp(game(), "a", 2), "combat")
    defence = turns.find_command("all-out defence")
    for unit, issuer in (("Vindictors", "gutrippaz"), ("Gutrippaz", None)):
        with pytest.raises(UserError) as raised:
            turns.use_command(state, "a", defence, unit, issuer=issuer)
        assert raised.value.key == "aos.not_friendly"
        assert raised.value.params["unit"] == "Gutrippaz"
    assert state.resources["player:a"]["cp"] == 2  # nothing spent
    assert turns.aos_state(state).issuers == []
    _, left = turns.use_command(state, "a", defence, "Vindictors", issuer="Vindictors")
    assert left == 1


def test_L339_L403_a_unit_that_cannot_shoot_is_refused_a_shooting_command() -> None:
    """Redeploy's unit can't shoot later in the turn (L339), nor one that ran (L403): Unleash
    Hell (L443) and All-out Attack given as the unit shoots (L567) were accepted, and the CP
    spent, for a shot the game then refused."""
    state = at_phase(with_cp(game(), "b", 3), "movement")
    redeploy = turns.find_command("redeploy")
    state, _ = turns.use_command(state, "b", redeploy, "Gutrippaz")
    charge = at_phase(state, "charge")
    with pytest.raises(UserError) as raised:
        turns.use_command(charge, "b", turns.find_command("unleash hell"), "Gutrippaz")
    assert raised.value.key == "aos.no_shoot_redeployed"
    assert raised.value.params["unit"] == "Gutrippaz"
    assert charge.resources["player:b"]["cp"] == 2
    # All-out Attack in the shooting phase is a shot; in the combat phase it is not.
    ran = at_phase(with_cp(aos_tr.run(game(), "Vindictors"), "a", 2), "shooting")
    attack = turns.find_command("all-out attack")
    with pytest.raises(UserError) as raised:
        turns.use_command(ran, "a", attack, "Vindictors")
    assert raised.value.key == "aos.no_shoot_ran"
    _, left = turns.use_command(at_phase(ran, "combat"), "a", attack, "Vindictors")
    assert left == 1


def test_L411_only_the_player_whose_turn_it_is_shoots_and_each_unit_once() -> None:
    """10.0 (L411): in your shooting phase you pick friendly units that have not shot yet. Bob's
    unit's attack was applied in Ann's shooting phase, and a unit could shoot twice."""
    state = at_phase(game(), "shooting")  # Ann's turn
    vindictors, gutrippaz = tr.find_unit(state, "Vindictors"), tr.find_unit(state, "Gutrippaz")
    with pytest.raises(UserError) as raised:
        aos_tr.may_apply_shot(state, gutrippaz)
    assert raised.value.key == "aos.shoot_not_your_turn"
    assert raised.value.params == {"unit": "Gutrippaz", "name": "Ann"}
    aos_tr.may_apply_shot(state, vindictors)
    shot = aos_tr.attack_wounds(state, "Gutrippaz", 2, vindictors.name)
    assert tr.find_unit(shot, "Gutrippaz").damage == 2
    with pytest.raises(UserError) as raised:
        aos_tr.attack_wounds(shot, "Gutrippaz", 1, "Vindictors")
    assert raised.value.key == "aos.already_shot"
    # The charge phase's shots are Bob's, with Unleash Hell (below); in the combat phase the
    # attacks are the unit's fight: once too (12.1, L451; test_aos_fights.py).
    later = aos_tr.attack_wounds(at_phase(shot, "combat"), "Gutrippaz", 1, "Vindictors")
    with pytest.raises(UserError) as raised:
        aos_tr.attack_wounds(later, "Gutrippaz", 1, "Vindictors")
    assert raised.value.key == "aos.already_fought_weapon"
    # The next shooting phase (Bob's turn) is a new one.
    bobs = shot.clone()
    bobs.turn = 1
    aos_tr.may_apply_shot(bobs, gutrippaz)
    aos_tr.attack_wounds(bobs, "Vindictors", 1, "Gutrippaz")


def shot(unit: str, weapon: str, models: int, target: str = "Vindictors") -> aos_tr.Shot:
    return aos_tr.Shot(unit=unit, weapon=weapon, models=models, target=target)


def test_L443_in_the_enemy_charge_phase_only_unleash_hell_shoots_once_at_the_charger() -> None:
    """11.2 (L443): the other player's unit shoots in the charge phase only when it received
    Unleash Hell, at the unit that made the charge move; and it shoots once (L411). Bob's unit
    shot in Ann's charge phase without the command, and as often as he wrote it."""
    state = tr.add_unit(game(), "Prosecutors", ANN, {"models": 3, "wounds": 2, "save": 4})
    state = at_phase(with_cp(state, "b", 1), "charge")  # Ann's charge phase
    gutrippaz = tr.find_unit(state, "Gutrippaz")
    with pytest.raises(UserError) as raised:
        aos_tr.attack_wounds(state, "Vindictors", 1, "Gutrippaz", shot("Gutrippaz", "Bow", 10))
    assert raised.value.key == "aos.shoot_needs_unleash_hell"
    assert raised.value.params == {"unit": "Gutrippaz"}
    # Ann's own units: a warscroll may give them an attack here (1.6); not refused.
    aos_tr.may_apply_shot(state, tr.find_unit(state, "Vindictors"))
    hell = turns.find_command("unleash hell")
    state, _ = turns.use_command(state, "b", hell, "Gutrippaz")
    fired = aos_tr.attack_wounds(state, "Vindictors", 2, "Gutrippaz", shot("Gutrippaz", "Bow", 6))
    assert tr.find_unit(fired, "Vindictors").damage == 2
    # Its other models and weapons are the same shot, at the same unit...
    aos_tr.may_apply_shot(fired, gutrippaz, shot("Gutrippaz", "Bow", 4))
    aos_tr.may_apply_shot(fired, gutrippaz, shot("Gutrippaz", "Choppa", 10))
    with pytest.raises(UserError) as raised:  # ...but not a second volley
        aos_tr.may_apply_shot(fired, gutrippaz, shot("Gutrippaz", "Bow", 10))
    assert raised.value.key == "aos.already_shot_charge"
    with pytest.raises(UserError) as raised:  # nor at another unit than the charger
        aos_tr.may_apply_shot(fired, gutrippaz, shot("Gutrippaz", "Choppa", 1, "Prosecutors"))
    assert raised.value.key == "aos.unleash_hell_target"
    assert raised.value.params == {"unit": "Gutrippaz", "target": "Vindictors"}
    # The next phase starts afresh (nothing to shoot with there: combat attacks are free).
    aos_tr.attack_wounds(at_phase(fired, "combat"), "Vindictors", 1, "Gutrippaz")


def test_L506_a_unit_shoots_with_all_its_weapons_in_its_one_shooting() -> None:
    """13.1.1 (L506), 13.2 (L520): a shooting unit fires any of its missile weapons and may
    split a weapon's attacks between targets; the bot refused the second weapon of a unit (a
    Hero's pistol after its crossbow) as a second shooting (L411). Each model fires each
    weapon once."""
    state = at_phase(game(), "shooting")  # Ann's turn
    vindictors = tr.find_unit(state, "Vindictors")
    for weapon, models in (("Bow", 3), ("Pistol", 5), ("bow", 2)):  # Bow split 3 + 2
        fired = shot("Vindictors", weapon, models, "Gutrippaz")
        state = aos_tr.attack_wounds(state, "Gutrippaz", 1, "Vindictors", fired)
    for weapon, models in (("Bow", 1), ("Pistol", 5)):
        with pytest.raises(UserError) as raised:
            aos_tr.may_apply_shot(state, vindictors, shot("Vindictors", weapon, models))
        assert raised.value.key == "aos.already_shot"
    assert tr.find_unit(state, "Gutrippaz").damage == 3


def test_L263_L267_every_accepted_command_names_the_ranges_the_players_check() -> None:
    """6.1 (L263-267): a HERO issues commands to units wholly within 12", the General or a
    TOTEM within 18", a champion to its own unit; Rally (L309), Redeploy (L339) and Unleash
    Hell (L443) add their own distances. The bot has no positions: it refuses none of them
    and names each one for the players to check, for every command alike."""
    state = tr.add_unit(game(), "Lord", ANN, {"models": 1, "wounds": 6, "general": 1})
    lord = tr.find_unit(state, "Lord")
    vindictors = tr.find_unit(state, "Vindictors")
    for ability in turns.command_abilities().values():
        checks_ = turns.table_checks(ability, None, "Vindictors")
        assert checks_[0] == ("aos.table_issuer", {"hero": 12, "general": 18})
        extra = {"rally": "beyond_3", "redeploy": "redeploy", "unleash_hell": "unleash_hell"}
        wanted = [f"aos.table_check.{extra[ability.id]}"] if ability.id in extra else []
        assert [key for key, _ in checks_[1:]] == wanted, ability.id
    hell = turns.find_command("unleash hell")
    by_general = turns.table_checks(hell, lord, "Vindictors")
    assert by_general[0] == ("aos.table_general", {"unit": "Lord", "inches": 18})
    by_other = turns.table_checks(hell, vindictors, "Lord")  # not a HERO: only as a TOTEM
    assert by_other[0] == ("aos.table_totem", {"unit": "Vindictors", "inches": 18})
    own = turns.table_checks(turns.find_command("all-out attack"), lord, "Lord")
    assert own == []  # a model's command to its own unit: no distance


def test_L741_L745_an_objective_is_counted_from_the_units_of_the_game() -> None:
    """18.1.1-18.1.2 (L741-745): the weighted count of the models within 6" was in
    battlefield.py, which no command used; /aos objective counts it from stored units (a
    MONSTER 5, another model of Wounds 5+ 2, the rest 1) and says who gains control."""
    state = tr.add_unit(game(), "Knight", ANN, {"models": 1, "wounds": 5})
    state = tr.add_unit(state, "Stardrake", ANN, {"models": 1, "wounds": 16, "monster": 1})
    state = tr.add_unit(state, "Gargant", BOB, {"models": 1, "wounds": 12})
    out = battlefield.objective(state, "Stardrake, Knight, Vindictors:5", "Gutrippaz:9, Gargant")
    assert [(c.unit, c.models, c.each) for c in out.friendly] == [
        ("Stardrake", 1, 5),
        ("Knight", 1, 2),
        ("Vindictors", 5, 1),
    ]
    assert (out.friendly_total, out.enemy_total, out.outcome) == (12, 11, "friendly")  # E3
    tie = battlefield.objective(state, "Vindictors:4", "Gutrippaz:2, Gargant")
    assert (tie.friendly_total, tie.enemy_total, tie.outcome) == (4, 4, "tie")
    alone = battlefield.objective(state, "Gutrippaz:1", None)
    assert alone.outcome == "friendly" and alone.enemy == []
    for friendly, enemy, key in (
        ("Vindictors:6", None, "aos.contenders_left"),
        ("Vindictors:x", None, "aos.bad_contender"),
        ("Vindictors, Gutrippaz", None, "aos.objective_sides"),
        ("Vindictors", "Knight", "aos.objective_sides"),
        ("Vindictors", "Vindictors", "aos.contender_twice"),
    ):
        with pytest.raises(UserError) as raised:
            battlefield.objective(state, friendly, enemy)
        assert raised.value.key == key, (friendly, enemy)


def test_L500_an_attack_targets_enemy_units_only() -> None:
    """13.1 (L500): only enemy units can be an attack's target. An applied attack by Ann's
    unit on another of her units was written, in any phase."""
    state = tr.add_unit(game(), "Prosecutors", ANN, {"models": 3, "wounds": 2, "save": 4})
    for phase in ("shooting", "combat"):
        with pytest.raises(UserError) as raised:
            aos_tr.attack_wounds(at_phase(state, phase), "Prosecutors", 1, "Vindictors")
        assert raised.value.key == "aos.target_friendly"
        assert raised.value.params == {"unit": "Vindictors", "target": "Prosecutors"}
    hit = aos_tr.attack_wounds(at_phase(state, "combat"), "Gutrippaz", 1, "Vindictors")
    assert tr.find_unit(hit, "Gutrippaz").damage == 1


def test_L563_L567_all_out_attack_comes_before_the_units_shots() -> None:
    """13.4 (L563, L567): All-out Attack is used as the unit is picked to shoot, before its
    attacks; the bot took it for a unit that had already shot, and its +1 went on the shots
    still to write."""
    state = at_phase(with_cp(game(), "a", 2), "shooting")  # Ann's shooting phase
    fired = aos_tr.attack_wounds(
        state, "Gutrippaz", 1, "Vindictors", shot("Vindictors", "Bow", 5, "Gutrippaz")
    )
    attack = turns.find_command("all-out attack")
    with pytest.raises(UserError) as raised:
        turns.use_command(fired, "a", attack, "Vindictors")
    assert raised.value.key == "aos.command_after_shot"
    assert raised.value.params == {"command": "all_out_attack", "unit": "Vindictors"}
    assert fired.resources["player:a"]["cp"] == 2
    _, left = turns.use_command(state, "a", attack, "Vindictors")  # before its shots: taken
    assert left == 1


def test_L1225_L1227_a_free_command_spends_no_cp_and_has_no_issuer() -> None:
    """Battalion icons (L1225-1229; warscrolls do the same): a unit receives a command without
    its being issued and without spending CP. Once a shot in the enemy charge phase needs
    Unleash Hell (L443), a Slayers battalion's free one must be recordable with 0 CP."""
    state = at_phase(with_cp(game(), "b", 0), "charge")  # Ann's charge phase, Bob has no CP
    hell = turns.find_command("unleash hell")
    with pytest.raises(UserError) as raised:
        turns.use_command(state, "b", hell, "Gutrippaz")
    assert raised.value.key == "game.not_enough"
    free, left = turns.use_command(state, "b", hell, "Gutrippaz", free=True)
    assert left == 0 and free.resources["player:b"]["cp"] == 0
    aos_tr.may_apply_shot(free, tr.find_unit(free, "Gutrippaz"))  # its shot is taken
    with pytest.raises(UserError) as raised:  # the phase's limits still hold
        turns.use_command(free, "b", hell, "Gutrippaz", free=True)
    assert raised.value.key == "aos.command_used"
    with pytest.raises(UserError) as raised:  # nobody issues a free command
        turns.use_command(state, "b", hell, "Gutrippaz", issuer="Gutrippaz", free=True)
    assert raised.value.key == "aos.free_no_issuer"
    assert turns.table_checks(hell, None, "Gutrippaz", free=True) == [
        ("aos.table_check.unleash_hell", {})
    ]


def test_L506_a_typed_weapon_is_its_own_weapon_beside_the_stored_one() -> None:
    """A unit with one stored weapon and a second one typed in full: the typed attack is
    another weapon of the shooting, not the stored one fired twice."""
    state = at_phase(game(), "shooting")
    unit = tr.find_unit(state, "Vindictors")
    bow = aos_system.make_weapon("Bow", {"attacks": "1", "hit": "4", "wound": "4"})
    aos_system.set_weapon(unit, bow, "Bow")
    stored = AttackInput()
    typed = AttackInput(attacks="2", hit="3", wound="3", rend="-1", damage="1")
    keys = [
        aos_tr.shot_of(given, build_attack(given, unit, None, Settings()), unit).weapon
        for given in (stored, typed)
    ]
    assert keys == ["Bow", "2/3/3/-1/1"]


# --- 7.2 (L307-309): Rally returns models to the unit that received the command ---------------


def test_L309_a_rally_returns_models_only_to_the_unit_that_received_it_once() -> None:
    """7.2 (L307-309): Rally is a command ability: the unit that receives it rolls a D6 per
    slain model. The bot returned models to any unit, with or without the command, and as
    often as the roll was applied in the phase."""
    state = at_phase(with_cp(tr.damage(game(), "Gutrippaz", 3), "b", 1), "hero")
    with pytest.raises(UserError) as raised:  # no Rally received: nothing returns
        aos_tr.rallied(state, "Gutrippaz", 1, 1)
    assert raised.value.key == "aos.rally_needs_command"
    assert raised.value.params == {"unit": "Gutrippaz"}
    rally = turns.find_command("chiamata a raccolta")
    with pytest.raises(UserError) as raised:  # its unit is the one that rolls (L309)
        turns.use_command(state, "b", rally, None)
    assert raised.value.key == "aos.command_needs_unit"
    received, _ = turns.use_command(state, "b", rally, "Gutrippaz")
    turns.may_rally(received, "Gutrippaz")
    with pytest.raises(UserError) as raised:  # another unit did not receive it
        turns.may_rally(received, "Vindictors")
    assert raised.value.key == "aos.rally_needs_command"
    back = aos_tr.rallied(received, "Gutrippaz", 1, 1)
    assert tr.find_unit(back, "Gutrippaz").models_left == 8
    with pytest.raises(UserError) as raised:  # one command, one roll
        aos_tr.rallied(back, "Gutrippaz", 1, 1)
    assert raised.value.key == "aos.rally_done"
    assert raised.value.params == {"unit": "Gutrippaz"}
    nothing = aos_tr.rallied(received, "Gutrippaz", 0, 0)  # a roll with no 6 spends it too
    with pytest.raises(UserError) as raised:
        turns.may_rally(nothing, "Gutrippaz")
    assert raised.value.key == "aos.rally_done"
    with pytest.raises(UserError) as raised:  # the command was for its hero phase only
        turns.may_rally(at_phase(received, "movement"), "Gutrippaz")
    assert raised.value.key == "aos.rally_needs_command"
    free, left = turns.use_command(with_cp(state, "b", 0), "b", rally, "Gutrippaz", free=True)
    assert left == 0
    assert tr.find_unit(aos_tr.rallied(free, "Gutrippaz", 2, 2), "Gutrippaz").models_left == 9
