"""Property tests of the game and campaign parsers: any input is a result or a UserError."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.commands import build_registry
from bot.commands.registry import parse_pairs
from bot.commands.spec import OptionSpec
from rules_core.errors import UserError
from rules_core.game.campaign import (
    MAX_DEADLINE,
    MIN_DEADLINE,
    parse_duration,
    parse_points,
    schedule,
)
from rules_core.game.stat_names import BARE

REGISTRY = build_registry()
START = datetime(2026, 1, 1, tzinfo=UTC)
STAT = st.from_regex(r"[a-z][a-z_]{0,11}", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.text(max_size=12), st.from_regex(r"\d{1,5}\s?(m|min|h|d|g|s|w)", fullmatch=True))
)
def test_duration_parses_or_refuses(text: str) -> None:
    try:
        delta = parse_duration(text)
    except UserError as err:
        assert err.key in ("campaign.bad_duration", "campaign.duration_range")
        return
    assert MIN_DEADLINE <= delta <= MAX_DEADLINE


@given(st.integers(1, 9999), st.sampled_from(["m", "h", "d", "g"]))
def test_duration_units(n: int, unit: str) -> None:
    size = {"m": timedelta(minutes=1), "h": timedelta(hours=1)}.get(unit, timedelta(days=1))
    try:
        assert parse_duration(f"{n}{unit}") == n * size
    except UserError:
        assert not MIN_DEADLINE <= n * size <= MAX_DEADLINE


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.none(),
        st.text(max_size=20),
        st.lists(st.integers(-5, 120)).map(lambda xs: ",".join(map(str, xs))),
    )
)
def test_reminder_points_parse_or_refuse(text: str | None) -> None:
    try:
        points = parse_points(text)
    except UserError as err:
        assert err.key == "campaign.bad_points"
        return
    assert points and all(0 < p < 1 for p in points) and list(points) == sorted(set(points))
    plan = schedule(START, timedelta(hours=10), points)
    assert [d.kind for d in plan][-1] == "expired"
    assert [d.due_at for d in plan] == sorted(d.due_at for d in plan)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(STAT, st.integers(-999, 999), max_size=6))
def test_stat_pairs_through_the_registry(stats: dict[str, int]) -> None:
    """`/unit add NAME k=v ...`: every free pair reaches the handler as an int."""
    text = "/unit add Guards " + " ".join(f"{k}={v}" for k, v in stats.items())
    try:
        spec, opts = REGISTRY.resolve(text)
    except UserError:
        # only a pair that shadows a declared option (owner=, grid=) may be refused
        assert set(stats) & {"owner", "grid", "nome", "proprietario", "griglia", "name"}
        return
    assert spec.path == ("unit", "add")
    assert opts["name"] == "Guards"
    declared = {"owner", "grid", "proprietario", "griglia"}
    assert opts["stats"] == {k: v for k, v in stats.items() if k not in declared}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab=1-+ x9", max_size=8), max_size=6).map(" ".join))
def test_pair_soup_is_pairs_or_a_user_error(text: str) -> None:
    try:
        pairs = parse_pairs(OptionSpec("stats", type="pairs"), text)
    except UserError:
        return
    # a number, or a printed form the game reads (`4+`, `-`: GameSystem.read_stat), or a stat
    # written alone (`stat_names.BARE`: the game reads a yes/no stat as 1)
    printed = re.compile(r"[+-]?\d{1,4}\+|[-–—]")
    assert all(isinstance(v, int) or v == BARE or printed.fullmatch(v) for v in pairs.values())
