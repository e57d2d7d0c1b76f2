"""`GameState.clone`, the copy every state change starts from: equal to the original and
sharing nothing with it, whatever a game system keeps in its `extra` state."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.game.models import Condition, GameState, Player, ScoreEntry, Unit

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=20,
)


@st.composite
def states(draw: Any) -> GameState:
    units = [
        Unit(
            name=f"U{i}",
            owner="a",
            owner_name="A",
            stats={"def": draw(st.integers(1, 20))},
            damage=draw(st.integers(0, 5)),
            conditions=[Condition(name="shaken")] if draw(st.booleans()) else [],
            extra={"grid": draw(json_values)},
        )
        for i in range(draw(st.integers(0, 3)))
    ]
    return GameState(
        system="gen",
        name="G",
        organiser="a",
        players=[Player(user_id="a", name="A")],
        units=units,
        resources={"a": {"cp": draw(st.integers(0, 9))}},
        score_log=[ScoreEntry(user_id="a", points=draw(st.integers(-5, 5)))],
        extra={"sys": draw(json_values)},
        rolloff=[[("a", draw(st.integers(1, 6)))]],
    )


def scribble(value: Any) -> None:
    """Change every list and dict inside `value` in place."""
    if isinstance(value, list):
        for item in value:
            scribble(item)
        value.append("x")
    elif isinstance(value, dict):
        for item in list(value.values()):
            scribble(item)
        value["x"] = "x"


@settings(max_examples=100, deadline=None)
@given(state=states())
def test_clone_is_equal_and_independent(state: GameState) -> None:
    before = state.model_dump_json()
    twin = state.clone()
    assert twin == state
    scribble(twin.extra["sys"])
    twin.extra["new"] = 1
    twin.resources["a"]["cp"] += 1
    twin.players[0].name = "Z"
    twin.score_log.append(ScoreEntry(user_id="a", points=1))
    for unit in twin.units:
        unit.damage += 1
        scribble(unit.extra["grid"])
        unit.conditions.clear()
    assert state.model_dump_json() == before
