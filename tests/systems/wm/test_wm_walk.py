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


# --- 4. the grid's system letters in the reader's language --------------------------------


def test_L3702_the_grid_draws_each_system_with_the_reader_s_letter() -> None:
    italian = {"L": "S", "R": "D", "H": "T"}
    drawn = grid.draw(grid.parse_grid(GRID), lambda k: italian.get(k, k))
    assert drawn.split("\n")[3] == ". S . . D ."  # the third row: the arms' boxes
    assert "L" not in drawn and "R" not in drawn and "D" in drawn
    typed_italian = grid.parse_grid("......|..S..M|...MC.|...MC.|..D..M|......")
    assert "L" in grid.draw(typed_italian) and "S" not in grid.draw(typed_italian)  # keys


async def test_L3702_an_italian_screen_shows_S_D_T_on_the_grid_and_the_crippled_list(
    app: App,
) -> None:
    chat = "console:wm-walk-letters"
    await game(app, chat)
    hit = await say(app, "/unita danno Ironclad 3 colonna=5", user="ann", chat=chat, lang="it")
    text = plain.render(hit)
    assert "\n✗ D\n" in text + "\n", text
    drawing = text[text.index("1 2 3 4 5 6") :]
    assert " R" not in drawing and " L" not in drawing and "S" in drawing
    english = plain.render(await say(app, "/unit show Ironclad", chat=chat))
    drawing = english[english.index("1 2 3 4 5 6") : english.index("✗ R")]
    assert "\n✗ R\n" in english and " L" in drawing and "S" not in drawing


# --- 5. replies that say why the numbers changed --------------------------------------------


async def test_L3734_L3740_the_reply_shows_the_def_rolled_against_and_why_a_die_is_gone(
    app: App,
) -> None:
    chat = "console:wm-walk-why"
    await game(app, chat)
    lame = "/unit add Lame def=12 arm=16 grid=M.....|C.....|L|R|H|."
    assert (await say(app, lame, user="bob", chat=chat)).ok
    assert (await say(app, "/unit damage Lame 1 column=1", user="bob", chat=chat)).ok
    reply = await say(
        app,
        "/wm attacco mat=6 pot=10 bersaglio=Lame mod=compromesso dadi=3,3",
        user="ann",
        chat=chat,
        lang="it",
    )
    assert reply.ok and reply.data is not None, plain.render(reply)
    assert reply.title is not None and "contro DIF 7," in reply.title  # not the printed 12
    text = plain.render(reply)
    assert "12 −5 DIF base 7 (Movimento compromesso) = 7" in text
    assert "L'arma è in una posizione compromessa: un dado in meno" in text
    odds = await say(app, "/wm odds mat=6 pow=10 target=Lame mods=crippled", chat=chat)
    text = plain.render(odds)
    assert "vs DEF 7," in text and "one die fewer on the attack roll" in text
    sound = plain.render(
        await say(app, "/wm attack mat=6 pow=10 target=Lame dice=3,3,1,1", chat=chat)
    )
    assert "one die fewer" not in sound


# --- beyond the walk: the same rules without a stored attacker's word ------------------------


def test_L3745_a_declared_crippled_weapon_makes_no_combined_attack() -> None:
    from rules_core.systems.wm.attack import resolve_attack
    from rules_core.systems.wm.models import AttackRequest

    crippled = AttackRequest(skill=6, defense=12, pow=10, arm=15, combined=2, mods={"crippled"})
    with pytest.raises(UserError) as err:
        resolve_attack(crippled, DiceSource.given([6, 5, 4]))
    assert err.value.key == "wm.combined_crippled_weapon"


def test_L874_a_warjack_with_both_arms_crippled_has_no_open_fist_to_use() -> None:
    assert ps.open_fists(jack(crippled="LR")) == 0  # no fists recorded, no hand left
    assert ps.open_fists(jack(crippled="R")) == 1  # at most the other hand's


async def test_L874_a_headlock_by_a_jack_without_sound_arms_is_refused(app: App) -> None:
    chat = "console:wm-walk-arms"
    await game(app, chat)
    for column in (2, 5):
        hit = await say(app, f"/unit damage Ironclad 3 column={column}", user="ann", chat=chat)
        assert hit.ok
    lock = await say(
        app, "/wm power headlock attacker=Ironclad target=Juggernaut", user="ann", chat=chat
    )
    assert lock.error is not None and lock.error.code == "wm.power_fists"


async def test_a_repair_that_repairs_nothing_says_so_as_unit_heal_does(app: App) -> None:
    # The walk: /wm cura Difensore 1 on an undamaged unit said "0 caselle riparate.", where
    # /unita cura says the unit has no damage to heal.
    await game(app, "console:wm-heal")
    for name in ("Ironclad", "Grunts"):  # a grid, and models without one
        said = await say(app, f"/wm cura {name} 1", user="ann", chat="console:wm-heal", lang="it")
        assert said.error is not None and said.error.code == "game.nothing_to_heal", said
        assert f"{name} non ha danni da curare" in said.error.message
    column = await say(app, "/wm heal Ironclad 2 column=3", user="ann", chat="console:wm-heal")
    assert column.error is not None and column.error.code == "game.nothing_to_heal"


async def test_gear_says_what_it_recorded_in_the_readers_letters(app: App) -> None:
    # The walk: /wm scudi Ironclad scudo=S answered with the grid only (the shield showed
    # nowhere but in the data), and scudi= (plural, as shields=) was refused.
    await game(app, "console:wm-gear")
    said = await say(
        app, "/wm scudi Ironclad scudi=S mani_libere=S,D", user="ann", chat="console:wm-gear",
        lang="it",
    )  # fmt: skip
    assert said.ok, said.error
    assert "Ironclad: scudi S; Mani Libere S, D." in plain.render(said)
    en = await say(app, "/wm gear Ironclad bucklers=R,R", user="ann", chat="console:wm-gear")
    assert en.ok, en.error
    assert "Ironclad: shields L; bucklers R ×2; Open Fists L, R." in plain.render(en)
