"""Power attacks by a warjack with crippled systems (L3712-3758 against L2198-2686): what the
book refuses (a crippled Cortex pays no focus; a double-hand throw needs two sound arms) and
what it leaves alone (a crippled head still head-butts, with the dice of any head-butt)."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game.models import Unit
from rules_core.systems.wm import grid
from rules_core.systems.wm import power_state as ps
from tests.helpers import say

# Column 2: 3 damage cripples L; column 3: 11 damage C; column 5: R; column 6: H (its only box).
GRID = "......|..L..M|...MC.|...MC.|..R..M|H....."
JUGGER = f"/unit add Jugger mat=6 str=12 def=10 arm=20 base=50 grid={GRID}"


def jack(crippled: str = "") -> Unit:
    """A warjack on GRID with `crippled` systems' boxes all marked."""
    g = grid.parse_grid(GRID)
    marks = [cell for key, cells in g.systems().items() if key in crippled for cell in cells]
    stored = grid.Grid(columns=g.columns, marks=marks).model_dump(mode="json")
    return Unit(name="Jugger", owner="ann", owner_name="Ann", extra={"grid": stored})


async def game(app: App, chat: str) -> None:
    for text, user in (("/game new wm", "ann"), ("/game join", "bob")):
        assert (await say(app, text, user=user, chat=chat)).ok
    assert (await say(app, JUGGER, user="ann", chat=chat)).ok
    assert (await say(app, "/unit add Target def=12 arm=16 base=30", user="bob", chat=chat)).ok


@pytest.mark.parametrize("kind", ["headbutt", "push", "slam", "throw", "headlock", "trample"])
def test_L3722_a_crippled_cortex_makes_no_power_attack(kind: str) -> None:
    """A power attack costs the warjack 1 focus (L2212-2213) and a crippled Cortex spends
    none for any reason (L3722-3724): refused before any roll, applied or not."""
    with pytest.raises(UserError) as err:
        ps.refuse_power(jack("C"), None, kind)
    assert err.value.key == "wm.cortex_crippled"
    ps.refuse_power(jack("LRHM"), None, "headbutt")  # every other system crippled: still allowed


async def test_L3722_an_unapplied_power_attack_by_a_crippled_cortex_is_refused(app: App) -> None:
    # Before: only `apply` refused it; without it the head-butt rolled and gave its odds.
    chat = "console:wm-cortex-unapplied"
    await game(app, chat)
    assert (await say(app, "/unit damage Jugger 11 column=3", user="ann", chat=chat)).ok
    for lang, words in (("en", "Cortex is crippled"), ("it", "Cortex di Jugger è compromessa")):
        butt = await say(
            app,
            "/wm power headbutt attacker=Jugger target=Target dice=6,5,4,3",
            user="ann",
            chat=chat,
            lang=lang,
        )
        assert butt.error is not None and butt.error.code == "wm.cortex_crippled", butt
        assert words in plain.render(butt) and "Jugger" in plain.render(butt)


def test_L2211_a_double_hand_throw_needs_two_sound_arms() -> None:
    """An Open Fist is an arm's weapon and a crippled one makes no power attack (L874-876):
    with one arm crippled a warjack has at most one Open Fist to use, too few for a
    double-hand throw (L2207-2211, L4364-4365), enough for a throw or a lock."""
    assert ps.open_fists(jack("R")) == 1
    assert ps.open_fists(jack("LR")) == 0
    assert ps.open_fists(jack()) is None  # both arms sound: the player's word
    assert ps.open_fists(jack("H")) is None


async def test_L2211_a_double_hand_throw_by_a_one_armed_jack_is_refused(app: App) -> None:
    chat = "console:wm-one-arm"
    await game(app, chat)
    assert (await say(app, "/res set focus 3 unit=Jugger", user="ann", chat=chat)).ok
    assert (await say(app, "/unit damage Jugger 3 column=5", user="ann", chat=chat)).ok
    double = await say(
        app, "/wm power double_throw attacker=Jugger target=Target", user="ann", chat=chat
    )
    assert double.error is not None and double.error.code == "wm.power_fists", double
    italian = await say(
        app,
        "/wm forza lancio_a_due_mani attaccante=Jugger bersaglio=Target",
        user="ann",
        chat=chat,
        lang="it",
    )
    assert italian.error is not None and "2 Mani Libere" in plain.render(italian)
    throw = await say(app, "/wm power throw attacker=Jugger target=Target", user="ann", chat=chat)
    assert throw.ok, plain.render(throw)


async def test_L4359_a_crippled_head_still_head_butts_with_every_die(app: App) -> None:
    """Every warjack head-butts (L2204, L4359-4361); a crippled head weapon system takes a die
    from the head's weapons and keeps them from power attacks (L3740-3745), but a head-butt is
    made with no weapon (L2216-2219): it is allowed, 2d6 to hit and 2d6 + STR damage."""
    chat = "console:wm-crippled-head"
    await game(app, chat)
    assert (await say(app, "/res set focus 3 unit=Jugger", user="ann", chat=chat)).ok
    hit = await say(app, "/unit damage Jugger 1 column=6", user="ann", chat=chat)
    assert "Jugger: head weapons crippled" in plain.render(hit), plain.render(hit)
    butt = await say(
        app,
        "/wm power headbutt attacker=Jugger target=Target apply dice=5,4,3,2",
        user="ann",
        chat=chat,
    )
    assert butt.ok and butt.data is not None, plain.render(butt)
    steps = {s["name"]: s for s in butt.data["steps"]}
    assert steps["attack"]["dice"] == [5, 4] and steps["damage"]["dice"] == [3, 2]
    assert butt.data["outcome"]["damage"] == 3 + 2 + 12 - 16


async def test_L2341_a_lock_breaks_when_every_hand_that_may_hold_it_is_crippled(app: App) -> None:
    """The lock breaks when the holding weapon system is crippled (L2341-2343). With no fist
    named or recorded, the holding hand is the only sound arm (L874-876); with both arms
    sound it is unknown, and the lock breaks once both are crippled. Before, a lock held by a
    hand not named survived any crippling."""
    chat = "console:wm-lock-arms"
    await game(app, chat)
    slayer = f"/unit add Slayer mat=7 str=11 def=12 arm=18 base=50 grid={GRID}"
    assert (await say(app, slayer, user="bob", chat=chat)).ok
    assert (await say(app, "/res set focus 3 unit=Jugger", user="ann", chat=chat)).ok
    lock = "/wm power headlock attacker=Jugger target=Slayer apply dice=6,6"
    held = await say(app, lock, user="ann", chat=chat)
    assert held.ok and held.data is not None and held.data["outcome"]["moved"], plain.render(held)
    one = await say(app, "/unit damage Jugger 3 column=2", user="ann", chat=chat)  # L only
    assert one.ok and "is broken" not in plain.render(one)
    broken = await say(app, "/unit damage Jugger 3 column=5", user="ann", chat=chat)  # R too
    assert "Jugger's lock on Slayer is broken." in plain.render(broken), plain.render(broken)
    push = await say(app, "/wm power push attacker=Slayer target=Jugger", user="bob", chat=chat)
    assert push.ok, plain.render(push)  # no lock left to forbid a power attack


def test_L874_the_only_sound_arm_holds() -> None:
    assert ps.holding_fist(jack("L"), None) == "R"
    assert ps.holding_fist(jack(), None) == "-"
    assert ps.holding_fist(jack("L"), "S") == "L"  # the hand named, as named
