"""The bench's timing helpers, on a clock the test moves (no wall time is read)."""

from __future__ import annotations

import pytest

from bench.timing import paired_ratio


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def spend(self, seconds: float) -> None:
        self.now += seconds


def test_paired_ratio_compares_batches_of_about_the_same_length() -> None:
    clock = FakeClock()
    calls = {"ours": 0, "theirs": 0}

    def ours() -> None:
        calls["ours"] += 1
        clock.spend(0.001)

    def theirs() -> None:
        calls["theirs"] += 1
        clock.spend(0.004)

    ratio = paired_ratio(ours, theirs, pairs=3, batch=0.02, clock=clock)
    assert ratio == pytest.approx(4.0)
    # one calibrating call each, then 3 batches of 20 and of 5 calls (0.02 s each)
    assert calls == {"ours": 1 + 3 * 20, "theirs": 1 + 3 * 5}


def test_a_slow_spell_in_one_pair_does_not_move_the_median() -> None:
    clock = FakeClock()
    slow = {"left": 0}

    def ours() -> None:
        clock.spend(0.002 if slow["left"] == 0 else 0.02)
        slow["left"] = max(0, slow["left"] - 1)

    def theirs() -> None:
        clock.spend(0.01)

    batches = iter(range(100))

    def ours_with_a_hiccup() -> None:
        if next(batches) == 30:  # in the third pair's batch of ours (10 calls a batch)
            slow["left"] = 5
        ours()

    ratio = paired_ratio(ours_with_a_hiccup, theirs, pairs=5, batch=0.02, clock=clock)
    assert ratio == pytest.approx(5.0)
