"""Expression bombs through the real commands: deep nesting, huge counts, explosion chains and
enormous odds state spaces are refused by the engine's own caps (each with its own localized
sentence) or answered within them. No assertion on speed: the caps are what is checked, plus a
bound on the work the odds view does and on the memory a refused or capped bomb takes."""

from __future__ import annotations

import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path
from typing import ClassVar

import pytest

from bot.app import App
from bot.commands.odds_view import histogram, interesting_values, summarize, view_data
from bot.render import plain
from bot.workers import WorkerPool
from rules_core.dice import DiceSource, Distribution, distribution, limits, parse, roll_command
from rules_core.errors import UserError
from tests.helpers import say

DEEP = "(" * (limits.MAX_DEPTH + 10) + "d6" + ")" * (limits.MAX_DEPTH + 10)

ROLL_REFUSED = [
    (DEEP, "dice.too_deep"),
    ("-" * (limits.MAX_DEPTH + 10) + "1", "dice.too_deep"),
    (f"{limits.MAX_DICE_TERM + 1}d6", "dice.too_many_dice"),
    ("+".join(["500d6"] * 5), "dice.too_many_dice_total"),
    ("20#101d6", "dice.too_many_dice_total"),
    ("4#500d2!", "dice.too_many_dice_total"),  # explosions counted before rolling
    ("d1000000", "dice.bad_sides"),
    ("d1", "dice.bad_sides"),
    ("99999999d6", "dice.number_too_large"),
    ("1d6!>=1", "dice.explode_always"),
    ("21#d6", "dice.bad_repeat"),
    (";".join(["d6"] * (limits.MAX_ROLLS + 1)), "dice.too_many_rolls"),
    ("1/0", "dice.division_by_zero"),
]


@pytest.mark.parametrize(("expression", "code"), ROLL_REFUSED)
async def test_roll_bombs_are_refused_by_their_cap(app: App, expression: str, code: str) -> None:
    reply = await say(app, f"/roll {expression}")
    assert reply.error is not None and reply.error.code == code
    text = plain.render(reply)
    assert "Traceback" not in text and len(text) < 600  # one sentence and the syntax
    history = await say(app, "/roll history")
    assert history.data is not None and history.data["rolls"] == []  # nothing logged


async def test_long_text_is_capped_before_parsing(app: App) -> None:
    reply = await say(app, "/roll " + "(" * 5000)
    assert reply.error is not None and reply.error.code == "cmd.too_long"
    reply = await say(app, "/roll " + "1+" * 150 + "1")
    assert reply.error is not None and reply.error.code == "cmd.too_long_value"
    with pytest.raises(UserError) as refused:
        parse("1+" * 150 + "1")
    assert refused.value.key == "dice.too_long"


@pytest.mark.parametrize(
    "expression",
    ["20#100d6", "500d2!", "10#100d6!", "999999*999999*999999*999999*999999*999999*999999"],
)
async def test_roll_at_the_caps_is_answered_and_counted(app: App, expression: str) -> None:
    reply = await say(app, f"/roll {expression}", seed=3)
    assert reply.ok, plain.render(reply)
    assert reply.data is not None


def test_an_explosion_chain_stops_at_the_chain_cap() -> None:
    faces = [6] * (limits.MAX_CHAIN + 30)
    (result,) = roll_command(parse("d6!"), DiceSource.given(faces))
    assert result.total == 6 * limits.MAX_CHAIN


ODDS_REFUSED = [
    "500d1000",
    "50d6!",
    "500d2!",
    "d20*d20*d20*d20*d20*d20",
    "100d6kh50",
    "100d6!kh50",
    "100d10!>=8",
]


@pytest.mark.parametrize("expression", ODDS_REFUSED)
async def test_odds_state_space_bombs_are_refused(app: App, expression: str) -> None:
    tracemalloc.start()
    try:
        reply = await say(app, f"/odds {expression}")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert reply.error is not None and reply.error.code == "dice.odds_too_large"
    assert str(limits.ODDS_BUDGET) in reply.error.message
    assert peak < 20_000_000  # refused from the estimate, before any distribution is built


@pytest.mark.parametrize("expression", [DEEP, "1/(d6-d6)", f"{limits.MAX_DICE_TERM + 1}d6"])
async def test_odds_refuses_what_roll_refuses(app: App, expression: str) -> None:
    reply = await say(app, f"/odds {expression}")
    assert reply.error is not None and reply.error.code.startswith("dice.")


@pytest.mark.parametrize(
    "expression", ["100d100", "200d20", "20d20kh10", "(d6+d6)*(d6+d6)*(d6+d6)"]
)
async def test_odds_within_the_budget_are_answered(app: App, expression: str) -> None:
    reply = await say(app, f"/odds {expression}")
    assert reply.ok, plain.render(reply)
    assert plain.render(reply).count("\n") < 60  # a table and a histogram, not every value


def test_a_wide_distribution_gets_a_bounded_summary() -> None:
    """d1000*d1000 has 248,083 outcomes: its view and data carry the mean, the P(>=k) table and
    the histogram, not one entry per outcome (listing them was most of a wide /odds' time).
    Through the App it is answered so (tests/dice/test_odds_full.py)."""
    view = summarize(distribution(parse("d1000*d1000").rolls[0].expr))
    data = view_data(view)
    assert data["outcomes"] == 248_083 and data["distribution"] is None and view.values == []
    assert 1 <= len(data["at_least"]) <= 12 and len(view.histogram) <= 12
    assert abs(data["mean"] - 500.5**2) < 1e-6
    small = view_data(summarize(distribution(parse("2d6").rolls[0].expr)))
    assert small["outcomes"] == 11 and small["distribution"][5] == [7, 6 / 36]


def test_histogram_bars_are_the_exact_sums_of_their_outcomes() -> None:
    dist = distribution(parse("3d6*d4").rolls[0].expr)
    bars = histogram(dist)
    assert abs(sum(p for _, p in bars) - 1) < 1e-12
    exact = dist.as_fractions()
    for label, p in bars:
        lo, _, hi = label.partition("–")
        inside = [v for v in exact if int(lo) <= v <= int(hi or lo)]
        assert p == float(sum(exact[v] for v in inside))


class CountingDistribution(Distribution):
    calls: ClassVar[int] = 0

    def p_at_least(self, k: int) -> float:
        CountingDistribution.calls += 1
        return super().p_at_least(k)


def test_the_odds_view_sums_tails_a_logarithmic_number_of_times() -> None:
    """`/odds 100d100` has 9,901 outcomes; one tail sum per outcome took seconds and blocked
    every other chat. The view now bisects the monotone tail."""
    dist = distribution(parse("100d100").rolls[0].expr)
    counting = CountingDistribution(dist.weights, truncated=dist.truncated)
    CountingDistribution.calls = 0
    values = interesting_values(counting)
    assert len(dist.probabilities) > 9000 and 10 <= len(values) <= 12  # evenly spaced
    assert CountingDistribution.calls <= 40


SYSTEM_BOMBS = [
    ("/aos odds attacks=500 hit=3 wound=3 damage=d6 save=4", "aos.value_range"),
    ("/aos odds attacks=100d6 hit=3 wound=3 damage=d6", "aos.bad_dice_value"),
    ("/aos attack attacks=500 hit=3 wound=3 damage=d6 save=4", "aos.value_range"),
    ("/aos odds hit=3 wound=3 attacks=" + "(" * 60, "cmd.too_long_value"),
    ("/wm odds skill=99 def=1 pow=40", "cmd.int_range"),
    ("/inf odds attr=30 burst=60 vs=30", "cmd.int_range"),
    ("/wow odds power=400 defense=4", "cmd.int_range"),
    ("/c5 melee att=20 def=20 str=400 res=1", "cmd.int_range"),
]


@pytest.mark.parametrize(("text", "code"), SYSTEM_BOMBS)
async def test_game_attack_bombs_are_refused_by_their_bounds(
    app: App, text: str, code: str
) -> None:
    reply = await say(app, text)
    assert reply.error is not None and reply.error.code == code, plain.render(reply)


@pytest.mark.parametrize(
    "text",
    [
        "/wm odds skill=20 def=1 pow=40 str=20 arm=0 boost=both combined=20 "
        "extra_hit_dice=2 extra_damage_dice=2",
        "/inf odds attr=30 burst=6 vs=30 vs_burst=6 dam=30 w=9 my_w=9",
        "/c5 odds melee att=20 def=20 str=40 res=-10",
        "/c5 odds shoot aim=20 str=40 res=-10",
        "/aos odds attacks=200 hit=2 wound=2 rend=3 damage=2d6 save=6 ward=5",
    ],
)
async def test_game_odds_at_their_bounds_are_answered(patient_app: App, text: str) -> None:
    reply = await say(patient_app, text)
    assert reply.ok, plain.render(reply)


@pytest.fixture
async def patient_app(tmp_path: Path) -> AsyncIterator[App]:
    """An App whose workers have no practical deadline: these tests ask whether the largest
    accepted inputs are answered, not how fast (on a loaded machine the 10 s deadline of the
    real pool was reached; the deadline itself is tested in tests/reliability/test_budget.py)."""
    pool = WorkerPool(deadline=600)
    application = App(tmp_path / "bounds.sqlite3", pool=pool)
    await application.start()
    try:
        yield application
    finally:
        await application.stop()
        pool.shutdown()


def test_parse_refusals_are_user_errors_not_crashes() -> None:
    for expression, code in ROLL_REFUSED:
        try:
            roll_command(parse(expression), DiceSource.seeded(1))
        except UserError as err:
            assert err.key == code
        else:
            raise AssertionError(f"{expression} was not refused")
