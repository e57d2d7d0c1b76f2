"""WoW Action Cards, Battleground respawns, 102.2 and settings at the rules-core level:
digest section 6 cases (D11, D13, D14, D15) and property tests for every new parser."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app import App
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player
from rules_core.systems.wow import cards, clock, victory
from rules_core.systems.wow import system as wow
from rules_core.systems.wow.settings import CHOICES, WowSettings, update
from tests.helpers import say

ANN = Player(user_id="A", name="Ann")
BOB = Player(user_id="B", name="Bob")


def game(battleground: bool = False) -> GameState:
    state = GameState(system="wow", name="t", organiser="A", players=[ANN, BOB], order=["A", "B"])
    state = tr.add_unit(state, "Jaina", ANN, {"health": 6, "honor": 10})
    state = tr.add_unit(state, "Thrall", BOB, {"health": 5, "honor": 10})
    chosen = WowSettings(battleground="yes" if battleground else "no")
    return wow.with_settings(state, chosen, replace=True)


def with_card(state: GameState, unit: str, card: cards.Card) -> GameState:
    new = state.model_copy(deep=True)
    cards.add_card(tr.find_unit(new, unit), card, None)
    return new


def test_d11_a_card_used_on_tick_one_waits_for_the_end_of_tick_ten() -> None:
    """D11 (502.2 L853, 300.5 L314): no per-card timer; everything readies when tick 10 ends."""
    fire = cards.make_card("Fireball", 3, 4, "magical", 5, "danno:1")
    assert fire.crit == "damage:1"
    state = with_card(game(), "Jaina", fire)
    state = wow.act(state, tr.find_unit(state, "Jaina"), 0, ["fire"])
    assert cards.find_card(tr.find_unit(state, "Jaina"), "Fireball").exhausted
    assert wow.clocks_of(state).personal["jaina"] == 4
    state = wow.moved(state, tr.find_unit(state, "Thrall"))  # Thrall -> 2
    readied: list[str] = []
    for _ in range(10):
        for c in wow.ready_now(state):
            state = wow.moved(state, tr.find_unit(state, c.name))
        state, report = wow.tick(state)
        if report.ended < 10:
            assert cards.find_card(tr.find_unit(state, "Jaina"), "Fireball").exhausted
        readied += report.readied
    assert readied == ["Jaina: Fireball"]
    assert not cards.find_card(tr.find_unit(state, "Jaina"), "Fireball").exhausted


def test_a_card_too_costly_for_the_clock_is_not_played_at_all() -> None:
    """408.2a / 703.1d: an unpayable cost leaves the card ready and the clock unmoved."""
    big = cards.make_card("Pyroblast", 9, 6, "magical", None, None)
    state = with_card(game(), "Jaina", big)
    jaina = tr.find_unit(state, "Jaina")
    try:
        wow.act(state, jaina, 1, ["Pyroblast"])
    except UserError as err:
        assert err.key == "wow.too_far_ahead"
    else:  # pragma: no cover
        raise AssertionError("paid 10 ticks")
    assert not cards.find_card(tr.find_unit(state, "Jaina"), "Pyroblast").exhausted
    assert wow.clocks_of(state).personal.get("jaina", 1) == 1


def test_d15_battleground_clock_plus_two_and_respawn_with_full_health() -> None:
    """D15 (403.2b L538): destroyed at MC 4 with PC 6 -> PC 8, respawns before its turn."""
    state = game(battleground=True)
    clocks = wow.clocks_of(state)
    clocks.master, clocks.personal = 4, {"jaina": 4, "thrall": 6}
    state = wow.with_clocks(state, clocks)
    notes: list[Any] = []
    state = tr.damage(state, "Thrall", 7, notes=notes)
    keys = [k for k, _ in notes]
    assert keys[:2] == ["wow.kill_vp", "wow.respawn_pending"]
    assert wow.clocks_of(state).personal["thrall"] == 8
    assert wow.clocks_of(state).respawn == ["thrall"]
    assert tr.find_unit(state, "Thrall").destroyed
    assert state.score() == {"A": 4, "B": 0}
    assert clock.respawn_clock(4, 1) == 3 and clock.respawn_clock(3, 1) == 2  # 9 ahead at most
    clocks = wow.clocks_of(state)
    clocks.master = 8
    state = wow.with_clocks(state, clocks)
    said: list[Any] = []
    state = wow.act(state, tr.find_unit(state, "Thrall"), 2, [], said)
    assert [k for k, _ in said] == ["wow.respawned"]
    assert tr.find_unit(state, "Thrall").wounds_left == 5
    assert wow.clocks_of(state).respawn == []


def test_d13_pets_never_respawn_and_score_nothing() -> None:
    state = game(battleground=True)
    state = tr.add_unit(state, "Wolf", BOB, {"health": 2, "pet": 1})
    notes: list[Any] = []
    state = tr.damage(state, "Wolf", 2, notes=notes)
    assert [k for k, _ in notes] == ["wow.kill_pet"]
    assert "wolf" not in wow.clocks_of(state).respawn and state.score() == {"A": 0, "B": 0}


def test_d14_decisions() -> None:
    s = victory.Standing
    assert victory.decide([s(player="A", vp=22, honor=20), s(player="B", vp=21, honor=18)]) == (
        victory.Decision(winner="B", reason="margin")
    )
    honor = victory.decide([s(player="A", vp=22, honor=20), s(player="B", vp=20, honor=18)])
    assert (honor.winner, honor.reason) == ("A", "honor")
    level = victory.decide([s(player="A", vp=20, honor=18), s(player="B", vp=20, honor=18)])
    assert (level.winner, level.reason, level.tied) == (None, "continue", ["A", "B"])
    alone = victory.decide([s(player="A", vp=20, honor=18), s(player="B", vp=30, honor=31)])
    assert (alone.winner, alone.reason) == ("A", "reached")
    assert victory.decide([s(player="A", vp=0, honor=0)]).reason == "none"


# --- property tests: every new parser gives a result or a UserError -------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_parse_crit_never_crashes(text: str) -> None:
    try:
        out = cards.parse_crit(text)
    except UserError:
        return
    assert set(out) <= {"damage", "heal", "effect"}
    assert cards.parse_crit(cards.crit_text(out)) == out


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=50),
    st.integers(-3, 12),
    st.one_of(st.none(), st.integers(-3, 50)),
    st.one_of(st.none(), st.text(max_size=10), st.sampled_from(cards.CARD_TYPES)),
    st.one_of(st.none(), st.integers(-3, 40)),
    st.one_of(st.none(), st.text(max_size=20), st.just("damage:2,effect"), st.just("heal:1")),
)
def test_make_card_never_crashes(
    name: str, cost: int, power: int | None, kind: str | None, rng: int | None, crit: str | None
) -> None:
    try:
        card = cards.make_card(name, cost, power, kind, rng, crit)
    except UserError:
        return
    assert 0 <= card.cost <= 9 and card.name == " ".join(name.split())


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from([*CHOICES, "x", "Kill_Scorer"]), st.text(max_size=12)))
def test_settings_update_never_crashes(changes: dict[str, str]) -> None:
    try:
        new = update(WowSettings(), changes)
    except UserError:
        return
    for name, value in new.model_dump().items():
        assert value in CHOICES[name]


WORDS = st.sampled_from(
    [
        "add",
        "list",
        "remove",
        "Jaina",
        "card=Fire",
        "cost=3",
        "cost=12",
        "power=4",
        "type=heal",
        "type=x",
        "range=2",
        "crit=damage:1",
        "crit=zz",
        "card=",
        "Nobody",
        "power=-1",
        "crit=effect",
    ]
)


@settings(max_examples=25, deadline=None)
@given(st.lists(WORDS, max_size=7))
async def test_card_command_never_crashes(tmp_path_factory: Any, words: list[str]) -> None:
    app = App(tmp_path_factory.mktemp("wowcard") / "bot.sqlite3")
    await app.start()
    try:
        await say(app, "/game new wow")
        await say(app, "/unit add Jaina health=6")
        reply = await say(app, "/wow card " + " ".join(words))
        assert reply.error is None or reply.error.code.split(".")[0] in ("wow", "cmd", "game")
    finally:
        await app.stop()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.integers(0, 9), st.booleans())
def test_act_with_any_card_list_never_crashes(text: str, cost: int, react: bool) -> None:
    """`/wow act NAME card=A,B` splits on commas; any list is played or refused cleanly."""
    from bot.commands.wow import card_names

    state = with_card(game(), "Jaina", cards.make_card("Fireball", 3, 4, "magical", 5, None))
    jaina = tr.find_unit(state, "Jaina")
    try:
        if react:
            new = wow.react(state, jaina, cost, card_names(text))
        else:
            new = wow.act(state, jaina, cost, card_names(text))
    except UserError:
        return
    assert wow.clocks_of(new).personal["jaina"] in range(1, 11)
