"""The event log's diffs: exact for any JSON (types included), small for one change, and
replayed without touching the documents they start from."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.storage import delta

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=False, allow_infinity=False, width=16),
    st.sampled_from(["", "a", "b", "è"]),
)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), inner, max_size=4),
    ),
    max_leaves=25,
)


def as_json(doc: Any) -> str:
    return json.dumps(doc, sort_keys=True)


@settings(max_examples=400, deadline=None)
@given(documents, documents)
def test_applying_the_diff_gives_exactly_the_second_document(a: Any, b: Any) -> None:
    kept = copy.deepcopy(a)
    ops = delta.diff(a, b)
    # through JSON, as the log stores it
    result = delta.apply(json.loads(json.dumps(a)), json.loads(json.dumps(ops)))
    assert as_json(result) == as_json(b)
    assert delta.same(result, b)
    assert as_json(a) == as_json(kept)  # neither diff nor apply changed the input
    assert (ops == []) == delta.same(a, b)


@settings(max_examples=200, deadline=None)
@given(documents, documents, documents)
def test_apply_never_changes_what_it_starts_from(a: Any, b: Any, c: Any) -> None:
    middle = delta.apply(a, delta.diff(a, b))
    frozen = as_json(middle)
    end = delta.apply(middle, delta.diff(b, c))
    assert as_json(middle) == frozen and as_json(end) == as_json(c)


def test_types_are_told_apart() -> None:
    assert delta.diff({"x": 1}, {"x": True}) == [["=", ["x"], True]]
    assert delta.diff([1], [1.0]) == [["=", [0], 1.0]]
    assert delta.diff([0.0], [-0.0]) == [["=", [0], -0.0]]
    assert delta.diff({"x": [1]}, {"x": [1]}) == []


def test_one_change_in_a_long_list_is_one_small_operation() -> None:
    units = [{"name": f"u{i}", "damage": 0, "stats": {"hp": 10}} for i in range(200)]
    hit = copy.deepcopy(units)
    hit[150]["damage"] = 3
    assert delta.diff({"units": units}, {"units": hit}) == [["=", ["units", 150, "damage"], 3]]
    added = [*units[:50], {"name": "new"}, *units[50:]]
    assert delta.diff(units, added) == [["~", [], 50, 50, [{"name": "new"}]]]
    removed = units[:10] + units[11:]
    assert delta.diff({"u": units}, {"u": removed}) == [["~", ["u"], 10, 11, []]]


@pytest.mark.parametrize(
    "ops",
    [
        [["=", ["a", 5], 1]],  # past the end of a list
        [["=", ["missing", "x"], 1]],
        [["?", ["a"]]],
        [["=", ["a", 0, "x"], 1]],  # through a number
    ],
)
def test_a_broken_delta_is_an_error_not_a_wrong_document(ops: list[Any]) -> None:
    with pytest.raises((ValueError, KeyError, IndexError, TypeError)):
        delta.apply({"a": [1]}, ops)
