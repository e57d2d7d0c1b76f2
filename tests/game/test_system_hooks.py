"""The plug-in hooks a game system fills, exercised through the commands with a test system
standing in for `gen`: known conditions with their own durations, the health numbers, the
stats on the board, and the start-of-round hook."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.dice import DiceSource
from rules_core.game.models import GameState, Unit
from rules_core.systems import SYSTEMS
from rules_core.systems.base import ConditionSpec, GameSystem, Note, ResourceSpec, StatSpec
from tests.helpers import say

CHAT = "console:hooks"


class HookSystem(GameSystem):
    def health(self, unit: Unit) -> tuple[int, int]:
        return unit.models_left, unit.models  # health counted in models

    def start_round(self, state: GameState, dice: DiceSource | None) -> list[Note]:
        assert dice is not None
        state.extra["tst"] = {
            "rounds_started": state.extra.get("tst", {}).get("rounds_started", 0) + 1
        }
        return [("game.diff.round", {"n": state.round})]


TST = HookSystem(
    id="gen",
    stats=(
        StatSpec(name="wounds", min=1, max=9, default=1),
        StatSpec(name="def", min=1, max=20, required=True),
    ),
    phases=("move", "shoot"),
    resources=(ResourceSpec(name="orders", per="player", refresh_to=3),),
    conditions=(
        ConditionSpec(name="Stunned", until="end-of-turn", aliases=("stordito",)),
        ConditionSpec(name="Burning", until="rounds", rounds=2),
    ),
    board_stats=("def",),
)


@pytest.fixture
def tst(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SYSTEMS, "gen", TST)


async def test_hooks_through_the_commands(app: App, tst: None) -> None:
    def ok(reply):  # type: ignore[no-untyped-def]
        assert reply.error is None, reply.error
        return reply

    ok(await say(app, "/game new gen", user="1", name="Ann", chat=CHAT))
    missing = await say(app, "/unit add Guards models=4 wounds=2", user="1", chat=CHAT)
    assert missing.error is not None and missing.error.code == "game.missing_stat"
    unknown = await say(app, "/unit add Guards def=3 armour=2", user="1", chat=CHAT)
    assert unknown.error is not None and "def" in unknown.error.message  # lists the valid ones
    ok(await say(app, "/unit add Guards models=4 wounds=2 def=13", user="1", chat=CHAT))
    ok(await say(app, "/unit damage guards 3", user="1", chat=CHAT))
    ok(await say(app, "/unit cond guards add stordito", user="1", chat=CHAT))
    ok(await say(app, "/unit cond guards add burning", user="1", chat=CHAT))
    ok(await say(app, "/unit cond guards add wet", user="1", chat=CHAT))
    board = plain.render(ok(await say(app, "/game status", user="1", chat=CHAT)))
    assert "3/4" in board and "def 13" in board  # models left of 4, the board stat
    unit = ok(await say(app, "/unit show guards", user="1", chat=CHAT)).data["unit"]
    assert [(c["name"], c["until"], c["rounds_left"]) for c in unit["conditions"]] == [
        ("Stunned", "end-of-turn", None),
        ("Burning", "rounds", 2),
        ("wet", "permanent", None),
    ]
    spent = await say(app, "/res spend orders 1", user="1", chat=CHAT)
    assert spent.error is not None and spent.error.code == "game.not_enough"
    wrong = await say(app, "/res add mana 1", user="1", chat=CHAT)
    assert wrong.error is not None and wrong.error.code == "game.unknown_resource"
    ok(await say(app, "/phase next", user="1", chat=CHAT))
    last = await say(app, "/phase next", user="1", chat=CHAT)
    assert last.error is not None and last.error.code == "game.last_phase"
    new_round = ok(await say(app, "/turn end", user="1", chat=CHAT))  # the only player: round 2
    assert "round 2" in plain.render(new_round)  # the start_round note
    state = ok(await say(app, "/game status", user="1", chat=CHAT)).data["state"]
    assert state["round"] == 2 and state["phase"] == 0
    assert state["extra"]["tst"] == {"rounds_started": 1}
    assert state["resources"]["player:1"] == {"orders": 3}  # refreshed by the round
    assert [c["name"] for c in state["units"][0]["conditions"]] == ["Burning", "wet"]
    ok(await say(app, "/res spend orders 2", user="1", chat=CHAT))
    ok(await say(app, "/round next", user="1", chat=CHAT))
    state = ok(await say(app, "/game status", user="1", chat=CHAT)).data["state"]
    assert state["resources"]["player:1"] == {"orders": 3}
    assert [c["name"] for c in state["units"][0]["conditions"]] == ["wet"]  # 2 rounds passed
    assert state["extra"]["tst"] == {"rounds_started": 2}
