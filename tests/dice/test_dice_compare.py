"""Odds of a total (issue 21 item 7): a comparison written on an expression applies to its total,
checked exactly against brute-force enumeration; per-die counting keeps its syntax, and a per-die
target no face can reach is refused with the total form as the hint."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app import App
from bot.render import plain
from rules_core.dice import distribution, parse_expr, roll
from rules_core.errors import UserError
from tests.core.test_ask_cli import ask
from tests.helpers import say
from tests.i18n_check import foreign_words

OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "=": operator.eq,
    "==": operator.eq,
    "!=": operator.ne,
}


def brute(count: int, sides: int, plus: int, op: str, target: int) -> Fraction:
    """P(sum of `count` d`sides` + plus  OP  target), by listing every roll."""
    hits = total = 0
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        total += 1
        hits += OPS[op](sum(faces) + plus, target)
    return Fraction(hits, total)


@pytest.mark.parametrize(
    ("text", "p"),
    [
        ("2d6+3>=10", Fraction(21, 36)),
        ("2d6+3 >= 10", Fraction(21, 36)),
        ("(3d6)>=11", Fraction(1, 2)),
        ("(3d6) >= 11", Fraction(1, 2)),
        ("2d6+1<8", Fraction(15, 36)),
        ("2d6+1 <= 8", Fraction(21, 36)),
        ("2d6-1>10", Fraction(1, 36)),
        ("2d6+0=7", Fraction(6, 36)),
        ("d20+5 >= 15", Fraction(11, 20)),
    ],
)
def test_a_comparison_on_an_expression_is_the_chance_of_its_total(text: str, p: Fraction) -> None:
    dist = distribution(parse_expr(text))
    assert dist.probability(1) == p
    assert dist.probability(0) == 1 - p


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 3),
    sides=st.integers(2, 6),
    plus=st.integers(-3, 3),
    op=st.sampled_from(sorted(OPS)),
    target=st.integers(-2, 20),
    spaced=st.booleans(),
)
def test_total_comparisons_match_brute_force(
    count: int, sides: int, plus: int, op: str, target: int, spaced: bool
) -> None:
    sep = " " if spaced else ""
    text = f"({count}d{sides}{plus:+d}){sep}{op}{sep}{target}"
    dist = distribution(parse_expr(text))
    assert dist.probability(1) == brute(count, sides, plus, op, target)
    assert set(dist.outcomes()) <= {0, 1}


@settings(max_examples=30, deadline=None)
@given(count=st.integers(1, 3), sides=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_a_rolled_comparison_is_one_when_the_total_meets_it(
    count: int, sides: int, seed: int
) -> None:
    target = count * (sides + 1) // 2
    cmp = roll(f"{count}d{sides}+1 >= {target}", seed=seed)
    plain_total = roll(f"{count}d{sides}+1", seed=seed).total
    assert cmp.total == int(plain_total >= target)


@pytest.mark.parametrize(
    ("text", "hint"),
    [("3d6>=11", "(3d6)>=11"), ("2d6 >= 10", "(2d6)>=10"), ("4d6kh3>7", "(4d6kh3)>7")],
)
def test_a_per_die_target_no_face_reaches_suggests_the_total(text: str, hint: str) -> None:
    with pytest.raises(UserError) as err:
        parse_expr(text)
    assert err.value.key == "dice.per_die_unreachable"
    assert err.value.params["total_form"] == hint


def test_per_die_counting_keeps_its_syntax() -> None:
    dist = distribution(parse_expr("3d6>=5"))
    assert dist.probability(3) == Fraction(1, 27)  # three successes: each die 5 or 6
    assert dist.max == 3


async def test_odds_comparison_leads_with_the_probability(app: App) -> None:
    en = plain.render(await say(app, "/odds 2d6+3>=10", lang="en"))
    assert en.splitlines()[1].strip() == "P(2d6+3 ≥ 10) = 58.3%", en
    it = plain.render(await say(app, "/odds 2d6+3 >= 10", lang="it"))
    assert "P(2d6+3 ≥ 10) = 58,3%" in it.splitlines()[1], it


async def test_odds_comparison_data_carries_the_probability(app: App) -> None:
    reply = await say(app, "/odds (3d6)>=11")
    assert reply.data is not None
    assert reply.data["probability"] == 0.5
    assert reply.data["rolls"][0]["probability"] == 0.5
    plain_odds = await say(app, "/odds 3d6")
    assert plain_odds.data is not None and "probability" not in plain_odds.data


async def test_the_unreachable_target_error_is_localized(app: App) -> None:
    for lang in ("en", "it"):
        reply = await say(app, "/odds 3d6>=11", lang=lang)
        assert reply.error is not None and reply.error.code == "dice.per_die_unreachable"
        assert "(3d6)>=11" in plain.render(reply)


async def test_the_table_lists_every_value(app: App) -> None:
    """3d6 has 16 totals: the P(≥k) table shows each (it used to skip to 12 rows)."""
    reply = await say(app, "/odds 3d6", lang="en")
    assert reply.data is not None
    assert [k for k, _ in reply.data["at_least"]] == list(range(3, 19))


async def test_a_wide_table_is_evenly_spaced_and_says_so(app: App) -> None:
    reply = await say(app, "/odds 20d20", lang="en")
    assert reply.data is not None
    ks = [k for k, _ in reply.data["at_least"]]
    steps = {b - a for a, b in itertools.pairwise(ks)}
    assert len(steps) == 1 and 20 <= ks[0] < ks[-1] <= 400 and len(ks) <= 12
    step = steps.pop()
    assert step > 1
    assert f"One row every {step} values, from {ks[0]} to {ks[-1]}." in plain.render(reply)


def test_ask_json_carries_the_probability_and_rule_confidence(tmp_path: Path) -> None:
    """`ask --json` (issue 21 item 10): an /odds comparison carries `probability`; /rule
    carries `confident` and a reader's `ref`."""
    code, out = ask(tmp_path, "/odds 2d6+3>=10")
    assert code == 0 and out["data"]["probability"] == 21 / 36
    assert out["text"].splitlines()[1].strip() == "P(2d6+3 ≥ 10) = 58.3%"
    code, out = ask(tmp_path, "/rule line of sight system=wm")
    assert code == 0
    assert isinstance(out["data"]["confident"], bool)
    ref = out["data"]["ref"]
    assert isinstance(ref, str) and ref and "@" not in ref and not ref.startswith("L")


@pytest.mark.parametrize("text", ["/odds 2d6+3 >= 10", "/odds 20d20", "/odds 3d6>=11"])
async def test_odds_screens_speak_one_language(app: App, text: str) -> None:
    for lang in ("it", "en"):
        reply = await say(app, text, lang=lang)
        # An error's own sentence (the syntax line under it is the help's, not the dice').
        shown = reply.error.message if reply.error else plain.render(reply)
        assert foreign_words(lang, shown) == [], (lang, shown)


async def test_a_rolled_comparison_says_whether_it_holds(app: App) -> None:
    for seed in range(6):
        reply = await say(app, "/roll 2d6+3>=10", lang="it", seed=seed)
        assert reply.data is not None
        line = plain.render(reply).splitlines()[1]
        assert line.endswith(" ✓" if reply.data["total"] == 1 else " ✗"), line
        assert "success" not in line


def brute_pools(a: tuple[int, int, int], op: str, b: tuple[int, int, int]) -> Fraction:
    """P(a OP b) for two sums `count d sides + plus`, by listing every pair of rolls."""

    def sums(count: int, sides: int, plus: int) -> list[int]:
        return [sum(f) + plus for f in itertools.product(range(1, sides + 1), repeat=count)]

    left, right = sums(*a), sums(*b)
    hits = sum(OPS[op](x, y) for x in left for y in right)
    return Fraction(hits, len(left) * len(right))


@pytest.mark.parametrize(
    ("text", "a", "op", "b"),
    [
        ("3d6 > 2d6", (3, 6, 0), ">", (2, 6, 0)),
        ("3d6>=2d6", (3, 6, 0), ">=", (2, 6, 0)),
        ("3d6 < 2d6", (3, 6, 0), "<", (2, 6, 0)),
        ("2d6 > 1d6+1", (2, 6, 0), ">", (1, 6, 1)),
        ("2d6+1 >= 2d6", (2, 6, 1), ">=", (2, 6, 0)),
        ("1d20 > 1d20", (1, 20, 0), ">", (1, 20, 0)),
        ("2d6 = 2d6", (2, 6, 0), "=", (2, 6, 0)),
    ],
)
def test_a_roll_against_another_roll_compares_their_totals(
    text: str, a: tuple[int, int, int], op: str, b: tuple[int, int, int]
) -> None:
    """`3d6 > 2d6` is "my 3d6 beats your 2d6": a number right after the sign is a per-die
    target (`3d6>2` counts dice above 2), but a number starting a dice term can't be one
    (it said "unexpected d at position 8")."""
    dist = distribution(parse_expr(text))
    assert dist.probability(1) == brute_pools(a, op, b)
    rolled = roll(text, seed=3)
    assert rolled.total in (0, 1)
    assert str(rolled).count("(") >= 2  # both rolls' faces are shown


def test_a_per_die_target_is_still_a_number_after_a_dice_term() -> None:
    assert distribution(parse_expr("3d6>2")).max == 3  # counts dice above 2
    assert distribution(parse_expr("3d6 > 2")).max == 3


async def test_odds_of_a_roll_against_a_roll_show_by_how_much(app: App) -> None:
    """`/odds 3d6 > 2d6` showed its chance, then a table of 0 and 1 (mean 0.78, "from 0 to 1"):
    the comparison again. The table is now the margin, 3d6 - 2d6, named as such: P(≥k) reads
    "wins by k or more", and the chance asked leads as before."""
    reply = await say(app, "/odds 3d6 > 2d6", lang="en")
    assert reply.data is not None
    assert reply.data["probability"] == pytest.approx(float(brute_pools((3, 6, 0), ">", (2, 6, 0))))
    ks = [k for k, _ in reply.data["at_least"]]
    assert -9 <= ks[0] < 0 < ks[-1] <= 16  # margins from 3 - 12 to 18 - 2
    at_least = dict(reply.data["at_least"])
    assert at_least[1] == pytest.approx(reply.data["probability"])  # wins by 1 or more
    assert reply.data["mean"] == pytest.approx(3.5)
    text = plain.render(reply)
    assert "Margin 3d6 - 2d6" in text and "from -9 to 16" in text, text
    it = plain.render(await say(app, "/odds 3d6 > 2d6", lang="it"))
    assert "Scarto 3d6 - 2d6" in it and foreign_words("it", it) == [], it
