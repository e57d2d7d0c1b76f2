"""A new player's walk through the WARMACHINE commands (Italian and English): combined attacks
by a crippled or non-trooper model, falls under 1", a lock with a crippled hand, the grid's
letters in the reader's language, and replies that say why numbers changed."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.app import App
from bot.render import plain
from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import Unit
from rules_core.systems.wm import checks, grid
from rules_core.systems.wm import power_state as ps
from rules_core.systems.wm import transitions as wt
from tests.helpers import say

GRID = "......|..L..M|...MC.|...MC.|..R..M|......"  # column 5: 3 damage cripples R


def jack(name: str = "Ironclad", *, crippled: str = "") -> Unit:
    """A warjack on GRID, with `crippled` systems' boxes all marked."""
    g = grid.parse_grid(GRID)
    marks = [cell for key, cells in g.systems().items() if key in crippled for cell in cells]
    stored = grid.Grid(columns=g.columns, marks=marks).model_dump(mode="json")
    return Unit(name=name, owner="ann", owner_name="Ann", stats={"mat": 7}, extra={"grid": stored})


async def game(app: App, chat: str) -> None:
    for text, user in (("/game new wm", "ann"), ("/game join", "bob")):
        assert (await say(app, text, user=user, chat=chat)).ok
    for text, user in (
        (f"/unit add Ironclad mat=7 str=11 def=12 arm=18 base=50 grid={GRID}", "ann"),
        (f"/unit add Juggernaut mat=7 str=12 def=12 arm=20 base=50 grid={GRID}", "bob"),
        ("/unit add Grunts mat=6 str=5 def=13 arm=13 base=30 models=5", "ann"),
    ):
        assert (await say(app, text, user=user, chat=chat)).ok, text


# --- 1. combined attacks: troopers only, never with a crippled weapon system ----------------


def test_L3745_L3269_a_combined_attack_needs_a_trooper_with_sound_weapon_systems() -> None:
    combined = wt.AttackInput(pow=16, combined=2)
    with pytest.raises(UserError) as err:
        wt.with_attacker(combined, jack(crippled="R"), None)
    assert err.value.key == "wm.combined_crippled"
    with pytest.raises(UserError) as err:
        wt.with_attacker(combined, jack(), None)  # a grid: a warjack, no trooper (L3313)
    assert err.value.key == "wm.combined_troopers_only"
    caster = Unit(name="Stryker", owner="ann", owner_name="Ann", stats={"mat": 6, "focus": 6})
    with pytest.raises(UserError) as err:
        wt.with_attacker(combined, caster, None)
    assert err.value.key == "wm.combined_troopers_only"
    grunts = Unit(name="Grunts", owner="ann", owner_name="Ann", stats={"mat": 6}, models=5)
    assert wt.with_attacker(combined, grunts, None).combined == 2  # the type unknown: allowed
    assert wt.with_attacker(wt.AttackInput(pow=16), jack(crippled="R"), None).skill == 7


async def test_L3745_a_crippled_warjack_gets_no_combined_bonus_in_words(app: App) -> None:
    chat = "console:wm-walk-combined"
    await game(app, chat)
    assert (
        await say(app, "/unita danno Ironclad 3 colonna=5", user="ann", chat=chat, lang="it")
    ).ok
    reply = await say(
        app,
        "/wm attacco attaccante=Ironclad pot=16 bersaglio=Juggernaut combinato=2 dadi=6,5",
        user="ann",
        chat=chat,
        lang="it",
    )
    assert reply.error is not None and reply.error.code == "wm.combined_crippled"
    assert "Ironclad ha un sistema d'arma compromesso" in plain.render(reply)
    odds = await say(
        app, "/wm odds attacker=Ironclad pow=16 target=Juggernaut combined=2", chat=chat
    )
    assert odds.error is not None and odds.error.code == "wm.combined_crippled"
    troop = await say(
        app,
        "/wm attack attacker=Grunts pow=10 target=Juggernaut combined=3 dice=4,4,1,1",
        user="ann",
        chat=chat,
    )
    assert troop.ok and troop.data is not None, plain.render(troop)
    assert troop.data["outcome"]["attack_total"] == 4 + 4 + 6 + 3


# --- 2. a fall under 1" is no fall -----------------------------------------------------------


def test_L3412_under_one_inch_there_is_no_fall() -> None:
    steps, out = checks.resolve_fall(Fraction(1, 2), 14, DiceSource.given([]))
    assert steps == [] and not out.fell and out.dice == 0 and out.damage is None
    _, out = checks.resolve_fall(Fraction(1), 14, DiceSource.given([1, 1]))
    assert out.fell and out.dice == 2 and out.damage_total == 12


async def test_L3412_a_half_inch_drop_rolls_nothing_and_knocks_nothing_down(app: App) -> None:
    chat = "console:wm-walk-fall"
    await game(app, chat)
    reply = await say(
        app, "/wm caduta altezza=0,5 bersaglio=Juggernaut applica", user="ann", chat=chat, lang="it"
    )
    assert reply.ok and reply.data is not None, plain.render(reply)
    assert reply.data["outcome"]["fell"] is False and "steps" not in reply.data
    text = plain.render(reply)
    assert 'Sotto 1" non si cade (0,5")' in text and "Atterrato" not in text
    english = await say(app, "/wm fall height=0.5 arm=14", chat=chat)
    assert 'Below 1" there is no fall (0.5")' in plain.render(english)
    board = await say(app, "/unit show Juggernaut", chat=chat)
    assert board.ok and "knocked" not in plain.render(board).lower()


# --- 3. a lock with the hand of a crippled arm ------------------------------------------------


def test_L874_a_crippled_arm_s_open_fist_makes_no_power_attack() -> None:
    with pytest.raises(UserError) as err:
        ps.check_fist(jack(crippled="R"), "D")  # the Italian letter of the right arm
    assert err.value.key == "wm.fist_crippled_R"
    ps.check_fist(jack(crippled="R"), "S")  # the left one is sound
    ps.check_fist(jack(), "R")


async def test_L874_a_headlock_with_a_crippled_hand_is_refused_without_recorded_fists(
    app: App,
) -> None:
    chat = "console:wm-walk-lock"
    await game(app, chat)
    assert (await say(app, "/unit damage Ironclad 3 column=5", user="ann", chat=chat)).ok
    refused = await say(
        app,
        "/wm forza presa attaccante=Ironclad bersaglio=Juggernaut mano=D",
        user="ann",
        chat=chat,
        lang="it",
    )
    assert refused.error is not None and refused.error.code == "wm.fist_crippled_R"
    assert "Il braccio destro di Ironclad è compromesso" in plain.render(refused)
    left = await say(
        app,
        "/wm power headlock attacker=Ironclad target=Juggernaut fist=L dice=5,5",
        user="ann",
        chat=chat,
    )
    assert left.ok, plain.render(left)
