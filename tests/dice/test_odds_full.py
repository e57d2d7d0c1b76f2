"""Issue 26: `/odds d1000*d1000` through the App replies with a bounded summary (it was refused
by the reply budget, which counted every outcome although the reply lists none of them), and
`/odds EXPR full` attaches every outcome with its exact probability as a CSV file."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app import App
from bot.protocol import Attachment, Reply
from bot.render import plain
from rules_core.budget import Budget
from rules_core.dice import distribution, parse, parse_expr
from rules_core.dice.odds import charge_odds, odds_cost
from tests.helpers import say


def _tables(reply: Reply) -> list[Attachment]:
    return [f for f in reply.attachments if f.mime == "text/csv"]


async def test_a_wide_distribution_is_answered_with_a_summary(app: App) -> None:
    reply = await say(app, "/odds d1000*d1000")
    assert reply.ok, plain.render(reply)
    assert reply.data is not None
    assert reply.data["outcomes"] == 248_083 and reply.data["distribution"] is None
    assert abs(reply.data["mean"] - 500.5**2) < 1e-6
    assert plain.render(reply).count("\n") < 60
    assert _tables(reply) == []


def test_a_part_charges_the_reply_at_most_the_limit() -> None:
    budget = Budget()
    (cost,) = charge_odds(parse("d1000*d1000"), budget)
    assert cost.values >= 248_083  # an upper bound of the outcomes...
    assert budget.spent["reply"] == budget.limits.reply  # ...but the reply lists none of them


@settings(max_examples=40)
@given(st.integers(2, 40), st.integers(1, 3), st.integers(2, 12))
def test_the_product_estimate_bounds_the_outcomes(sides: int, count: int, other: int) -> None:
    for text in (f"{count}d{sides}*{count}d{sides}", f"d{sides}*d{other}"):
        expr = parse_expr(text)
        assert odds_cost(expr).values >= len(distribution(expr))


async def test_full_attaches_every_outcome(app: App) -> None:
    reply = await say(app, "/odds 2d6 full")
    assert reply.ok
    (file,) = _tables(reply)
    assert file.filename == "odds.csv" and file.mime == "text/csv"
    rows = file.content.decode().splitlines()
    assert rows[0] == "value,probability,exact" and len(rows) == 12
    assert rows[6] == f"7,{1 / 6!r},1/6"
    table = {int(r.split(",")[0]): Fraction(r.split(",")[2]) for r in rows[1:]}
    assert table == distribution(parse_expr("2d6")).as_fractions()
    assert "odds.csv" in plain.render(reply)


async def test_full_in_italian_and_for_several_parts(app: App) -> None:
    reply = await say(app, "/probabilita 2d6; (d4) >= 3 completa", lang="it")
    assert reply.ok, plain.render(reply)
    tables = _tables(reply)
    assert [f.filename for f in tables] == ["probabilita-1.csv", "probabilita-2.csv"]
    rows = tables[0].content.decode().splitlines()
    assert rows[0] == "valore;probabilità;esatta"
    assert rows[6] == "7;" + repr(1 / 6).replace(".", ",") + ";1/6"
    # a comparison's file lists the total it asks about
    assert tables[1].content.decode().splitlines()[1:] == [
        "1;0,25;1/4",
        "2;0,25;1/4",
        "3;0,25;1/4",
        "4;0,25;1/4",
    ]
