"""Issue 19: a /roll of 2,000 dice held the event loop 40-120 ms, building one reply span per
face and separator and storing every face's breakdown as JSON. Counted, never timed: the spans a
big roll's reply builds, and what the roll log stores per roll."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import App
from bot.protocol import Span
from bot.render import plain
from bot.storage import rolls as rolls_repo
from tests.helpers import say

BIG = "/roll 500d6>=4; 500d6kh1; 500d1000; 500d20kl250"


def _count_spans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    built = [0]
    original = Span.__init__

    def counting(self: Span, /, **data: Any) -> None:
        built[0] += 1
        original(self, **data)

    monkeypatch.setattr(Span, "__init__", counting)
    return built


async def test_big_roll_builds_few_spans(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    await say(app, BIG, seed=3)  # spans of faces seen before may be shared: start warm
    built = _count_spans(monkeypatch)
    reply = await say(app, BIG, seed=4)
    assert reply.ok and reply.data is not None
    faces = [f for roll in reply.data["rolls"] for group in roll["dice"] for f in group["faces"]]
    assert len(faces) >= 2000
    assert built[0] <= 400  # was one per face and one per separator: over 4,000
    # the reply still shows every face, in order
    text = plain.render(reply)
    at = 0
    for face in faces:
        at = text.index(str(face), at) + len(str(face))


async def test_roll_log_keeps_faces_and_summary(app: App) -> None:
    reply = await say(app, "/roll 500d6>=4 hits", seed=5)
    assert reply.data is not None
    async with app.db.transaction(write=False) as conn:
        record = await rolls_repo.get(conn, "console:test", reply.data["id"])
    assert record is not None
    assert len(record.faces) == 500
    assert record.result == [
        {
            "expression": "500d6>=4",
            "label": "hits",
            "total": reply.data["total"],
            "successes": reply.data["successes"],
            "truncated": False,
        }
    ]
    shown = await say(app, f"/roll show {reply.data['id']}")
    assert shown.data is not None and shown.data["dice"] == reply.data["dice"]
