"""Dice engine: parse dice commands, roll them, and compute their exact odds.

Public API::

    roll(text, seed=None) -> RollResult     (str() of it: the breakdown shown to players)
    roll_all(text, seed=None) -> list[RollResult]
    odds(text) -> Distribution
    parse(text) -> RollCommand
    roll_command(cmd, source) -> list[RollResult]
    roll_expr(expr, source) -> RollResult
    distribution(expr) -> Distribution (exact; see rules_core/dice/distribution.py)
    distribution_of_command(cmd) -> list[Distribution]
    DiceSource.random() / .seeded(seed) / .given(faces)

Bad input raises `rules_core.errors.UserError` with a `dice.*` key.

Syntax summary (case-insensitive; see `parser` for the grammar): `NdX`, `dX`, `d%`, integers,
`+ - * /` (floor division), parentheses, unary minus; on a dice term, in any order:
`khN`/`kN`/`klN`/`dhN`/`dlN`, `!` or `!>=N`/`!>N`/`!=N`/`!<N`/`!<=N`, `rN`/`r<=N`/`r=N`/...
(once) and `rrN`/`rr<=N`/... (until), then `>=N`/`>N`/`<=N`/`<N`/`=N` success counting with
optional `fN`/`f<=N`/`f=N`/`f>=N`/... failures. Elsewhere a comparison (`>=`, `>`, `<=`, `<`,
`=`/`==`, `!=`) compares totals, 1 or 0: `2d6+3>=10`, `(3d6) >= 11`. `N#EXPR` repeats, `;`
separates rolls, and the text after the expression (optionally in `[brackets]`) is the label.

Choices worth knowing:

* modifiers apply as reroll -> explode -> keep/drop -> count, whatever their order in the text;
* `khN`/`klN` with N above the dice count keep every die; `dhN`/`dlN` drop every die (0);
* a comparison right after `!` is the explosion's condition: `d6!>=5` explodes on 5-6; to
  count successes on default explosions write `d6!=6>=5`;
* a face that is both a success and a failure counts as a success only;
* `0d6` is allowed and is worth 0;
* ties in keep/drop keep the earlier die.

Also d20's and Dice Maiden's forms (README, "Dice syntax"): `//`, `%`, `==`/`!=`, `eN`, `roN`,
`raN`, `miN`/`maN`, `phN`/`plN`, sets `(A, B)khN`, `1d20 adv`/`dis`, inline `9[fire]`, `!!`, `!p`,
`NdF`. Not supported (refused with a hint): d20's selectors by value or `l`/`h` (`k<3`, `p3`,
`rol1`), chained keeps, decimals, functions (`min`, `max`), variables.
"""

from __future__ import annotations

from rules_core.dice.api import odds, roll, roll_all
from rules_core.dice.ast import (
    BinOp,
    Cond,
    Dice,
    Expr,
    Keep,
    Neg,
    Num,
    Reroll,
    RollCommand,
    RollSpec,
    render,
)
from rules_core.dice.distribution import Distribution
from rules_core.dice.models import (
    DROPPED,
    EXPLODED,
    FAILURE,
    KEPT,
    REROLLED,
    SUCCESS,
    DiceGroup,
    Face,
    FaceInfo,
    RollResult,
    Token,
)
from rules_core.dice.odds import distribution, distribution_of_command
from rules_core.dice.parser import parse, parse_expr
from rules_core.dice.roller import roll_command, roll_expr
from rules_core.dice.source import DiceSource

__all__ = [
    "DROPPED",
    "EXPLODED",
    "FAILURE",
    "KEPT",
    "REROLLED",
    "SUCCESS",
    "BinOp",
    "Cond",
    "Dice",
    "DiceGroup",
    "DiceSource",
    "Distribution",
    "Expr",
    "Face",
    "FaceInfo",
    "Keep",
    "Neg",
    "Num",
    "Reroll",
    "RollCommand",
    "RollResult",
    "RollSpec",
    "Token",
    "distribution",
    "distribution_of_command",
    "odds",
    "parse",
    "parse_expr",
    "render",
    "roll",
    "roll_all",
    "roll_command",
    "roll_expr",
]
