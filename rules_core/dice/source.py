"""Where die faces come from: a seeded PRNG or the players' own physical dice."""

from __future__ import annotations

import random
import secrets

from rules_core.errors import UserError


class DiceSource:
    """Produces die faces and records every face it produced, in order.

    Build one with `DiceSource.random()`, `DiceSource.seeded(seed)` or
    `DiceSource.given(faces)`.
    """

    __slots__ = ("consumed", "seed")

    def __init__(self, seed: int | None = None) -> None:
        self.seed: int | None = seed
        self.consumed: list[int] = []

    @staticmethod
    def random() -> DiceSource:
        """A fresh PRNG source; its seed is recorded in `.seed` so the roll can be replayed."""
        return _SeededSource(secrets.randbits(63))

    @staticmethod
    def seeded(seed: int) -> DiceSource:
        return _SeededSource(seed)

    @staticmethod
    def given(faces: list[int]) -> DiceSource:
        """Faces rolled by the players, consumed in rolling order."""
        return _GivenSource(faces)

    def roll(self, sides: int) -> int:
        """One face in `1..sides`."""
        raise NotImplementedError

    def many(self, sides: int, n: int) -> list[int]:
        """`n` faces in `1..sides`, in rolling order (one call for a plain `NdX`)."""
        roll = self.roll
        return [roll(sides) for _ in range(n)]

    def check_exhausted(self) -> None:
        """Raise `dice.unused_dice` if given faces were left over (no-op for PRNG sources)."""

    def require(self, needed: int) -> None:
        """Raise `dice.not_enough_dice` if fewer than `needed` more faces are available."""


class _SeededSource(DiceSource):
    __slots__ = ("_random",)

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._random = random.Random(seed).random

    def roll(self, sides: int) -> int:
        # floor(u * sides) with a 53-bit u: bias below 1e-13 for sides <= 1000.
        v = int(self._random() * sides) + 1
        self.consumed.append(v)
        return v

    def many(self, sides: int, n: int) -> list[int]:
        rnd = self._random
        values = [int(rnd() * sides) + 1 for _ in range(n)]
        self.consumed += values
        return values


class _GivenSource(DiceSource):
    __slots__ = ("_faces", "_pos")

    def __init__(self, faces: list[int]) -> None:
        super().__init__(None)
        self._faces = list(faces)
        self._pos = 0

    def roll(self, sides: int) -> int:
        pos = self._pos
        if pos >= len(self._faces):
            raise UserError("dice.not_enough_dice_at_least", given=len(self._faces), needed=pos + 1)
        v = self._faces[pos]
        if not 1 <= v <= sides:
            raise UserError("dice.given_out_of_range", face=v, sides=sides)
        self._pos = pos + 1
        self.consumed.append(v)
        return v

    def require(self, needed: int) -> None:
        if len(self._faces) - self._pos < needed:
            raise UserError(
                "dice.not_enough_dice", given=len(self._faces), needed=self._pos + needed
            )

    def check_exhausted(self) -> None:
        if self._pos < len(self._faces):
            raise UserError("dice.unused_dice", given=len(self._faces), used=self._pos)
