"""Power attacks on the game state (rules_core.systems.wm.power_state), without the bot: a
headlock kept until it breaks and what it forbids (G15, L2220-2283), trample damage model by
model (L2665-2669), collateral models knocked down with their own damage (G16, L2400-2414),
and the Open Fists a lock or throw needs (L2207-2211)."""

from __future__ import annotations

import pytest

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import GameState, Player
from rules_core.game.transitions import add_unit, damage
from rules_core.systems.wm import power_state as ps
from rules_core.systems.wm.power import PowerRequest, resolve_power
from rules_core.systems.wm.transitions import shield_arm

S = DiceSource.given
JACK = "......|..L..M|...MC.|...MC.|..R..M|......"
TUSKS = {"name": "Tusks", "values": {"p+s": "16", "loc": "H"}}
CLAW = {"name": "Claw", "values": {"p+s": "14", "loc": "L"}}
FIST = {"name": "Open Fist", "values": {"p+s": "12", "loc": "L"}}
ICE_AXE = {"name": "Ice Axe", "values": {"p+s": "17", "loc": "R"}}


def game() -> GameState:
    state = GameState(system="wm", name="t", organiser="a")
    state.players = [Player(user_id="a", name="Ann"), Player(user_id="b", name="Bob")]
    state.order = ["a", "b"]
    jugg = {"mat": 6, "str": 12, "def": 12, "arm": 19, "base": 50}
    state = add_unit(state, "Juggernaut", state.players[0], jugg, {"grid": JACK})
    slayer = {"mat": 7, "str": 12, "def": 12, "arm": 18, "base": 50}
    state = add_unit(state, "Slayer", state.players[1], slayer, {"grid": JACK})
    state = add_unit(state, "Flameguard", state.players[1], {"def": 13, "arm": 13, "base": 30})
    state = add_unit(
        state, "Trenchers", state.players[1], {"def": 13, "arm": 13, "base": 30, "models": 6}
    )
    state.units[0].extra["roster"] = {"weapons": [FIST, ICE_AXE]}
    state.units[0].extra["fists"] = {"L": 1}
    state.units[1].extra["roster"] = {"weapons": [TUSKS, CLAW]}
    state.resources["unit:juggernaut"] = {"focus": 3}
    state.resources["unit:slayer"] = {"focus": 2}
    return state


def locked_game(grab: str | None = None) -> GameState:
    state = game()
    req = PowerRequest(kind="headlock", skill=6, defense=12, str_=12, arm=18, open_fists=1)
    _, out = resolve_power(req, S([5, 4]))
    assert out.moved  # the headlock hit: the head is held
    power = ps.PowerOnGame(attacker="Juggernaut", target="Slayer", kind="headlock", grab=grab)
    return ps.apply_power(state, power, out, None).state


def test_G15_a_headlock_holds_until_broken_and_forbids_the_head_weapons() -> None:
    """G15, L2250-2255: the Juggernaut headlocks the Slayer with its Open Fist: the Slayer can't
    use its Tusks (head) or make special or power attacks; the Juggernaut can't use the Open
    Fist until the lock is broken or released; both attack freely with their other weapons."""
    state = locked_game()
    slayer, jugg = state.units[1], state.units[0]
    assert ps.lock_of(state, "Slayer") == ps.Lock("Slayer", "Juggernaut", "H", "L")
    assert state.resources["unit:juggernaut"]["focus"] == 2  # the power attack's focus
    refusals = [
        (lambda: ps.check_weapon(state, slayer, "Tusks"), "wm.weapon_locked"),
        (lambda: ps.check_weapon(state, jugg, "Open Fist"), "wm.weapon_holding"),
        (lambda: ps.check_power(state, "Slayer"), "wm.lock_no_power"),
        (lambda: ps.check_power(state, "Juggernaut"), "wm.lock_no_power"),
    ]
    for call, key in refusals:
        with pytest.raises(UserError) as raised:
            call()
        assert raised.value.key == key
    ps.check_weapon(state, slayer, "Claw")  # other weapons attack as usual
    ps.check_weapon(state, jugg, "Ice Axe")


def test_L2257_breaking_free_d6_str_each_a_higher_total_breaks_it() -> None:
    """L2257-2271: at the start of its combat action the locked model rolls d6 + STR against
    the holder's; only a higher total breaks the lock; a further try that turn costs 1 focus."""
    state = locked_game()
    state.turn = 1  # the Slayer's player's turn: it tries in its own activation (L2254-2256)
    held, step = ps.break_free(state, "Slayer", S([4, 4]))  # 16 vs 16: a tie holds
    assert step is not None and step.outcome == "held" and ps.lock_of(held.state, "Slayer")
    again, step = ps.break_free(held.state, "Slayer", S([5, 4]))  # 17 vs 16
    assert step is not None and step.outcome == "broken"
    assert ps.lock_of(again.state, "Slayer") is None
    assert again.state.resources["unit:slayer"]["focus"] == 1  # the second try: 1 focus
    ps.check_weapon(again.state, again.state.units[1], "Tusks")  # free again
    state.turn = 0  # the holder lets go in its own activation (L2272-2274)
    released, none = ps.break_free(state, "Juggernaut", S([]), release=True)  # L2273-2275
    assert none is None and ps.lock_of(released.state, "Slayer") is None
    with pytest.raises(UserError) as raised:
        ps.break_free(state, "Slayer", S([]), release=True)
    assert raised.value.key == "wm.release_holder"


def test_L2277_a_lock_breaks_when_a_model_is_knocked_down_or_moved() -> None:
    """L2277-2283: an effect that moves or knocks down either model breaks the lock (here a
    head-butt from a third model knocks the Slayer down)."""
    state = locked_game()
    _, out = resolve_power(
        PowerRequest(kind="headbutt", skill=7, defense=12, str_=12, arm=18), S([6, 5, 1, 1])
    )
    power = ps.PowerOnGame(attacker=None, target="Slayer", kind="headbutt")
    done = ps.apply_power(state, power, out, None)
    assert ps.lock_of(done.state, "Slayer") is None
    assert ("wm.note.lock_broken", {"unit": "Slayer", "by": "Juggernaut"}) in done.notes


def test_L2235_a_weapon_lock_holds_the_weapons_in_that_location() -> None:
    """L2235-2241: a weapon lock on the Slayer's Claw (left arm) holds every weapon there."""
    state = locked_game(grab="Claw")
    assert ps.lock_of(state, "Slayer") == ps.Lock("Slayer", "Juggernaut", "L", "L")
    with pytest.raises(UserError) as raised:
        ps.check_weapon(state, state.units[1], "Claw")
    assert raised.value.key == "wm.weapon_locked"
    ps.check_weapon(state, state.units[1], "Tusks")


def test_L2665_trample_damage_goes_model_by_model() -> None:
    """L2665-2669: each trample attack hits a different small-based model: 8-box troopers hit
    for 5 and 9 points lose one box-full model and keep one wounded, never 14 pooled."""
    state = game()
    unit = state.units[3]
    unit.wounds_per_model = 8
    unit.stats["boxes"] = 8
    req = PowerRequest(
        kind="trample", skill=6, defense=13, str_=12, arm=13, trampled=((13, 13), (13, 13))
    )
    _, out = resolve_power(req, S([5, 4, 3, 3, 1, 1, 6, 5, 5, 5]))
    assert [out.damage, *(t.damage for t in out.trampled)] == [5, 0, 9]
    power = ps.PowerOnGame(attacker="Juggernaut", target="Trenchers", kind="trample")
    done = ps.apply_power(state, power, out, None)
    trenchers = done.state.units[3]
    assert trenchers.extra["model_damage"] == [5, 0, 8, 0, 0, 0]  # 9 on an 8-box model: 1 lost
    assert not any(c.name == "knocked_down" for c in trenchers.conditions)


def test_G16_collateral_models_are_knocked_down_with_their_own_damage() -> None:
    """G16, L2400-2414: the Flameguard the slammed model passes through is knocked down and
    takes its own collateral damage roll."""
    state = game()
    req = PowerRequest(
        kind="slam", skill=6, defense=12, str_=12, arm=18, contact=True, collateral_arms=(13,)
    )
    _, out = resolve_power(req, S([5, 4, 4, 2, 3, 4, 6, 5]))
    assert out.collateral == [6 + 5 + 12 - 13]
    power = ps.PowerOnGame(
        attacker="Juggernaut", target="Slayer", kind="slam", collateral=("Flameguard",)
    )
    done = ps.apply_power(state, power, out, DiceSource.given([3]))
    flameguard = done.state.units[2]
    assert flameguard.destroyed  # a 1-box model: 10 damage disables it
    slayer = done.state.units[1]
    assert [c.name for c in slayer.conditions] == ["knocked_down"]


def test_L2207_open_fists_from_the_gear_not_crippled() -> None:
    """L2207-2211: the Open Fists recorded with /wm gear count while their arm is not crippled."""
    state = game()
    jugg = state.units[0]
    assert ps.open_fists(jugg) == 1 and ps.open_fists(state.units[1]) is None
    jugg.extra["grid"]["marks"] = [[1, 2]]  # the one L box: the left arm is crippled
    assert ps.open_fists(jugg) == 0
    with pytest.raises(UserError) as raised:
        resolve_power(
            PowerRequest(kind="throw", skill=6, str_=12, open_fists=ps.open_fists(jugg)), S([])
        )
    assert raised.value.key == "wm.power_fists"


def test_L2276_a_model_in_a_lock_is_not_pushed_and_the_lock_holds() -> None:
    """L2276-2277: neither model in a lock can advance or be pushed."""
    state = locked_game()
    _, out = resolve_power(PowerRequest(kind="push", str_=12, target_str=12), S([6, 1]))
    assert out.moved
    power = ps.PowerOnGame(attacker=None, target="Slayer", kind="push")
    done = ps.apply_power(state, power, out, None)
    assert ps.lock_of(done.state, "Slayer") is not None
    assert ("wm.note.push_locked", {"unit": "Slayer"}) in done.notes


def test_L2341_a_lock_breaks_when_the_holding_fist_is_crippled_or_a_model_destroyed() -> None:
    """A code audit: a lock outlived the crippling of the holder's fist and the destruction of
    either model, so the locked Slayer's weapons stayed refused. It breaks then (L2341-2343)."""
    # the Juggernaut's Open Fist is on L (column 2 holds L): crippling column 2 frees the Slayer
    state = damage(locked_game(), "Juggernaut", 3, column=2)
    assert "L" in ps.unit_grid(state.units[0]).crippled()  # type: ignore[union-attr]
    assert ps.lock_of(state, "Slayer") is None
    ps.check_weapon(state, state.units[1], "Tusks")  # no refusal
    # destroyed: the lock goes with it
    gone = damage(locked_game(), "Juggernaut", 36, column=1)
    assert gone.units[0].destroyed and ps.lock_of(gone, "Slayer") is None
    # damage that cripples nothing the lock needs keeps it
    kept = damage(locked_game(), "Juggernaut", 2, column=6)
    assert ps.lock_of(kept, "Slayer") is not None


def test_L845_L882_a_shield_in_a_weapon_lock_gives_no_arm() -> None:
    """A code audit: the Slayer's shield on L still counted while its L arm was held in a
    weapon lock; the bonus is lost then (L845, L882)."""
    state = game()
    state.units[1].extra["shields"] = {"L": 1}
    assert shield_arm(state.units[1], back=False) == 2
    held = locked_game(grab="L")
    held.units[1].extra["shields"] = {"L": 1}
    assert ps.lock_of(held, "Slayer") is not None
    assert shield_arm(held.units[1], back=False) == 0
    head = locked_game()  # a headlock leaves the shield arm free
    head.units[1].extra["shields"] = {"L": 1}
    assert shield_arm(head.units[1], back=False) == 2
