"""One write path for game state (#20 item 2): outside `bot.session` and the storage layer, no
module saves a game, creates one or marks a change undone; handlers go through the session."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WRITES = re.compile(r"\b(?:save_change|games(?:_store)?\.create|mark_undone)\(")


def test_only_the_session_writes_game_state() -> None:
    allowed = {ROOT / "bot" / "session.py"}
    found = [
        f"{file.relative_to(ROOT)}:{n}"
        for file in sorted((ROOT / "bot").rglob("*.py"))
        if file not in allowed and "storage" not in file.relative_to(ROOT).parts
        for n, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1)
        if WRITES.search(line)
    ]
    assert found == []


def test_the_scan_finds_a_write() -> None:
    assert WRITES.search("    await games.save_change(ctx.conn, game, new)")
    assert WRITES.search("created = await games.create(ctx.conn, key, state, now)")
    assert not WRITES.search("change = await apply_change(ctx, new, 'join', game=game)")
