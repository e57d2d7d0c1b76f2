"""Scores /rule's decision on a query set: top-1, and every confident wrong answer.

A query expecting an entry is right when that entry comes first (as the answer, or as the first
of the entries offered when not sure); one expecting "not sure" is right when the answer is not
confident. A confident answer that is not the expected entry is a confident wrong answer.

    .venv/bin/python -m tests.rules.evaluation.score tuning   # prints the misses
"""

from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from bot.rules_data import rule_index
from rules_core.rules.lookup import Answer, lookup

HERE = Path(__file__).resolve().parent
NOT_SURE = "not sure"


@dataclass
class Score:
    total: int = 0
    top1: int = 0
    confident_right: int = 0
    expect_entry: int = 0
    confident_wrong: list[tuple[str, str, str]] = field(default_factory=list)
    misses: list[tuple[str, str, str, str]] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.total} queries: top-1 {self.top1}/{self.total} = {self.top1 / self.total:.1%}, "
            f"confident wrong {len(self.confident_wrong)}, answered confidently and right "
            f"{self.confident_right}/{self.expect_entry} of those expecting an entry"
        )


def queries(name: str) -> list[dict[str, str]]:
    with (HERE / f"{name}.toml").open("rb") as fh:
        rows: list[dict[str, str]] = tomllib.load(fh)["query"]
    return rows


def decide(row: dict[str, str]) -> Answer:
    return lookup(rule_index(), row["q"], chat_system=row.get("chat") or None)


def score(name: str) -> Score:
    result = Score()
    for row in queries(name):
        answer = decide(row)
        expect = row["expect"]
        first = answer.best.entry.id if answer.best else "-"
        shown = first if answer.confident else f"not sure ({first})"
        result.total += 1
        if expect == NOT_SURE:
            right = not answer.confident
        else:
            result.expect_entry += 1
            right = first == expect
            result.confident_right += right and answer.confident
        result.top1 += right
        if answer.confident and (expect == NOT_SURE or first != expect):
            result.confident_wrong.append((row["q"], expect, first))
        if not right or (expect != NOT_SURE and not answer.confident):
            result.misses.append((row.get("chat", ""), row["q"], expect, shown))
    return result


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "tuning"
    if which != "tuning" and "--show" not in sys.argv:
        print(score(which).summary())  # held out: numbers only, never the queries
        sys.exit(0)
    found = score(which)
    for chat, q, expect, shown in found.misses:
        print(f"{chat or '-':4} {q!r:45} expect {expect:28} got {shown}")
    print(found.summary())
