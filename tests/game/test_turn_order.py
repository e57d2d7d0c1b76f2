"""Turn order kinds a system can declare: roll-off each round and alternating activations."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.app import App
from bot.render import plain
from rules_core.dice.source import DiceSource
from rules_core.game.transitions import rolloff
from rules_core.systems import SYSTEMS
from rules_core.systems.base import OrderKind
from tests.helpers import say

CHAT = "console:order"
NAMES = {"1": "Ann", "2": "Bob", "3": "Cid"}


def scripted(faces: list[int]) -> Iterator[int]:
    return iter(faces)


def test_rolloff_highest_first_and_ties_reroll_among_themselves() -> None:
    faces = scripted([3, 5, 3, 2, 6])  # a 3, b 5, c 3; then a and c again: a 2, c 6
    order, throws = rolloff(["a", "b", "c"], lambda sides: next(faces))
    assert order == ["b", "c", "a"]
    assert throws == [[("a", 3), ("b", 5), ("c", 3)], [("a", 2), ("c", 6)]]


@given(st.integers(2, 6), st.randoms(use_true_random=False))
def test_rolloff_is_a_permutation_sorted_by_first_throw(n: int, rnd: object) -> None:
    players = [f"p{i}" for i in range(n)]
    order, throws = rolloff(players, lambda sides: rnd.randint(1, sides))  # type: ignore[attr-defined]
    assert sorted(order) == players
    first = dict(throws[0])
    assert [first[u] for u in order] == sorted(first.values(), reverse=True)
    assert all(1 <= f <= 6 for throw in throws for _, f in throw)


@pytest.fixture
def gen_order() -> Iterator[Callable[[OrderKind], None]]:
    """The generic system with another turn order, for one test (the choice list of
    `/game new` is built once, so the id stays `gen`)."""
    original = SYSTEMS["gen"]

    def use(order: OrderKind) -> None:
        SYSTEMS["gen"] = original.model_copy(update={"order": order})

    try:
        yield use
    finally:
        SYSTEMS["gen"] = original


async def data(app: App, text: str, user: str = "1", seed: int | None = None) -> dict[str, Any]:
    """Run a command that must succeed and return its data."""
    reply = await say(app, text, user=user, name=NAMES[user], chat=CHAT, seed=seed)
    assert reply.error is None and reply.data is not None, reply.error
    return reply.data


async def join_three(app: App) -> None:
    assert (await say(app, "/game new gen", user="1", name="Ann", chat=CHAT)).error is None
    for uid, name in (("2", "Bob"), ("3", "Cid")):
        assert (await say(app, "/game join", user=uid, name=name, chat=CHAT)).error is None


async def test_a_new_round_rolls_off_for_the_order(
    app: App, gen_order: Callable[[OrderKind], None]
) -> None:
    gen_order("rolloff")
    await join_three(app)
    assert (await data(app, "/turn"))["round"] == 1
    reply = await say(app, "/round next", user="1", name="Ann", chat=CHAT, seed=7)
    expected, throws = rolloff(["1", "2", "3"], DiceSource.seeded(7).roll)
    assert reply.data == {"round": 2, "phase": 0, "current": expected[0]}
    text = plain.render(reply)
    assert "Roll-off" in text
    for uid, face in throws[0]:
        assert f"{NAMES[uid]} {face}" in text
    # The order holds for the round: the turn passes along it.
    assert (await data(app, "/turn end", user=expected[0]))["current"] == expected[1]


async def test_alternating_activations_never_end_the_round_by_themselves(
    app: App, gen_order: Callable[[OrderKind], None]
) -> None:
    gen_order("alternating")
    await join_three(app)
    current = "1"
    seen = []
    for _ in range(7):
        after = await data(app, "/turn end", user=current)
        current = after["current"]
        seen.append(current)
        assert after["round"] == 1
    assert seen == ["2", "3", "1", "2", "3", "1", "2"]
    after = await data(app, "/round next")
    assert (after["round"], after["current"]) == (2, "1")
