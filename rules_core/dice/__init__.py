"""Dice engine: parse dice commands, roll them, and compute their exact odds.

Public API::

    parse(text) -> RollCommand
    roll(cmd, source) -> list[RollResult]
    roll_expr(expr, source) -> RollResult
    distribution(expr) -> Distribution
    distribution_of_command(cmd) -> list[Distribution]
    DiceSource.random() / .seeded(seed) / .given(faces)

Bad input raises `rules_core.errors.UserError` with a `dice.*` key.
"""

from __future__ import annotations

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
from rules_core.dice.models import DiceGroup, Face, FaceInfo, RollResult, Token
from rules_core.dice.odds import Distribution, distribution, distribution_of_command
from rules_core.dice.parser import parse, parse_expr
from rules_core.dice.roller import roll, roll_expr
from rules_core.dice.source import DiceSource

__all__ = [
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
    "parse",
    "parse_expr",
    "render",
    "roll",
    "roll_expr",
]
