"""The dice engine in two calls, as d20 offers it: `roll(text)` and `odds(text)`.

>>> from rules_core.dice import roll, odds
>>> r = roll("4d6kh3+2", seed=7)
>>> r.total, str(r)            # str(): the breakdown a /roll reply shows
>>> odds("2d6+3").probability(10)
"""

from __future__ import annotations

import random

from rules_core.dice.distribution import Distribution
from rules_core.dice.models import RollResult
from rules_core.dice.odds import distribution
from rules_core.dice.parser import parse, parse_expr
from rules_core.dice.roller import roll_command
from rules_core.dice.source import DiceSource
from rules_core.errors import UserError

# Unseeded rolls share one generator (seeded from the OS once): seeding a Mersenne Twister per
# roll would cost more than the roll itself.
_SHARED = random.Random()


class _SharedSource(DiceSource):
    __slots__ = ()

    def roll(self, sides: int) -> int:
        v = int(_SHARED.random() * sides) + 1
        self.consumed.append(v)
        return v

    def many(self, sides: int, n: int) -> list[int]:
        rnd = _SHARED.random
        values = [int(rnd() * sides) + 1 for _ in range(n)]
        self.consumed += values
        return values


def _source(seed: int | None, dice: list[int] | None) -> DiceSource:
    if dice is not None:
        return DiceSource.given(dice)
    if seed is not None:
        return DiceSource.seeded(seed)
    return _SharedSource()


def roll(text: str, seed: int | None = None, *, dice: list[int] | None = None) -> RollResult:
    """Roll one expression (a label may follow it): `.total`, `.dice` (every face and what
    happened to it), `str()` the breakdown shown to players. `seed` makes it repeatable;
    `dice` gives the faces (physical dice), all of which must be used.
    Bad input raises `UserError` with a `dice.*` key."""
    cmd = parse(text)
    rolls = cmd.rolls
    if len(rolls) != 1 or rolls[0].repeat != 1:
        raise UserError("dice.not_single_expression")
    source = _source(seed, dice)
    result = roll_command(cmd, source)[0]
    if dice is not None:
        source.check_exhausted()
    return result


def roll_all(
    text: str, seed: int | None = None, *, dice: list[int] | None = None
) -> list[RollResult]:
    """Every roll of a command (`;`-separated rolls, `N#` repeats), in order."""
    source = _source(seed, dice)
    results = roll_command(parse(text), source)
    if dice is not None:
        source.check_exhausted()
    return results


def odds(text: str) -> Distribution:
    """The exact distribution of one expression's total."""
    return distribution(parse_expr(text))
