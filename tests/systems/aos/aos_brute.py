"""Brute force over every face sequence a resolution can consume (exact, for small cases)."""

from __future__ import annotations

from collections.abc import Callable

from rules_core.dice import DiceSource


class NeedMore(Exception):
    pass


class PrefixSource(DiceSource):
    """Gives the faces of a prefix, then asks for the next die to be branched on."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(None)
        self.faces = faces
        self.pos = 0

    def roll(self, sides: int) -> int:
        if self.pos >= len(self.faces):
            raise NeedMore
        value = self.faces[self.pos]
        self.pos += 1
        self.consumed.append(value)
        return value


def enumerate_outcomes(run: Callable[[DiceSource], int], limit: int = 400_000) -> dict[int, float]:
    """P(run(source) = v) over all D6 sequences, by exploring only the dice actually rolled."""
    out: dict[int, float] = {}
    stack: list[list[int]] = [[]]
    seen = 0
    while stack:
        prefix = stack.pop()
        seen += 1
        assert seen < limit, "case too big for brute force"
        try:
            value = run(PrefixSource(prefix))
        except NeedMore:
            stack.extend([*prefix, f] for f in range(1, 7))
            continue
        out[value] = out.get(value, 0.0) + 6.0 ** -len(prefix)
    return out
