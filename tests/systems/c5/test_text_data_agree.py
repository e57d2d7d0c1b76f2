"""Text and data agree (#21 item 9): the wound table's column a reply names ("column 12/13")
is the one its data carries (`column_label`; `column` is the band's index in the table)."""

from __future__ import annotations

import re

from bot.app import App
from bot.render import plain
from rules_core.systems.c5.tables import BAND_LABELS
from tests.helpers import say


async def test_the_column_in_the_text_is_the_column_in_the_data(app: App) -> None:
    seen = 0
    for seed in range(1, 30):
        reply = await say(app, "/c5 wound str=7 res=3", seed=seed)
        assert reply.data is not None
        outcome = reply.data["outcome"]
        if outcome["column"] is None:
            continue
        said = re.search(r"column (\S+) ", plain.render(reply))
        assert said is not None and said.group(1) == outcome["column_label"]
        assert outcome["column_label"] == BAND_LABELS[outcome["column"]]
        seen += 1
    assert seen >= 20
