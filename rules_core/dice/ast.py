"""Syntax tree of dice expressions and the parsed command.

Tree nodes are frozen, slotted dataclasses (cheap to build and hashable, so exact odds can
be memoised per dice term); the command returned to callers is a pydantic model.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

CmpOp = Literal[">=", ">", "<=", "<", "="]
TotalOp = Literal[">=", ">", "<=", "<", "=", "!="]
KeepMode = Literal["kh", "kl", "dh", "dl"]
ExplodeMode = Literal["add", "compound", "penetrate", "once"]
_BANG = {"add": "!", "compound": "!!", "penetrate": "!p"}


@dataclass(frozen=True, slots=True)
class Cond:
    """A comparison against a die face, e.g. `>=4`."""

    op: CmpOp
    value: int

    def interval(self, sides: int) -> tuple[int, int]:
        """The faces of a `sides`-sided die meeting the condition, as `lo..hi` (maybe empty)."""
        v = self.value
        op = self.op
        if op == ">=":
            lo, hi = v, sides
        elif op == ">":
            lo, hi = v + 1, sides
        elif op == "<=":
            lo, hi = 1, v
        elif op == "<":
            lo, hi = 1, v - 1
        else:
            lo, hi = v, v
        return max(lo, 1), min(hi, sides)

    def count(self, sides: int) -> int:
        """How many faces of a `sides`-sided die meet the condition."""
        lo, hi = self.interval(sides)
        return max(0, hi - lo + 1)

    def render(self) -> str:
        return f"{self.op}{self.value}"


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep or drop the highest/lowest `n` dice (explosion chains rank by their total)."""

    mode: KeepMode
    n: int

    def resolve(self, count: int) -> tuple[bool, int]:
        """`(highest, k)`: keep the `k` highest (or lowest) of `count` dice.

        `n` larger than the number of dice keeps all of them (`kh`/`kl`) or drops all of
        them (`dh`/`dl`, the term is then worth 0).
        """
        n = self.n
        if self.mode == "kh":
            return True, min(n, count)
        if self.mode == "kl":
            return False, min(n, count)
        if self.mode == "dh":
            return False, max(count - n, 0)
        return True, max(count - n, 0)

    def render(self) -> str:
        return f"{self.mode}{self.n}"


@dataclass(frozen=True, slots=True)
class Reroll:
    """Reroll a die meeting `cond` once, or until it no longer does (`until`)."""

    cond: Cond
    until: bool

    def render(self) -> str:
        prefix = "rr" if self.until else "r"
        if self.cond.op == "<=":
            return f"{prefix}{self.cond.value}"
        return prefix + self.cond.render()


@dataclass(frozen=True, slots=True)
class Num:
    value: int


@dataclass(frozen=True, slots=True)
class Neg:
    operand: Expr


@dataclass(frozen=True, slots=True)
class BinOp:
    op: Literal["+", "-", "*", "/", "%"]
    left: Expr
    right: Expr


class Dice(NamedTuple):
    """`count` dice with `sides` faces and their modifiers.

    Modifiers apply in this order whatever their order in the text: rerolls, explosions,
    keep/drop, success/failure counting.

    A named tuple, unlike the other nodes: the parser builds one per dice term of every new
    expression, and a frozen dataclass sets its eleven fields one `object.__setattr__` at a
    time (a tenth of a cold `odds("10d6kh3")`). It is as immutable and hashable; it compares
    equal to a plain tuple of its fields, which no code builds. Copy with `_replace`.
    """

    count: int  # type: ignore[assignment]  # shadows tuple.count(), which no caller wants
    sides: int
    reroll: Reroll | None = None
    explode: Cond | None = None
    keep: Keep | None = None
    success: Cond | None = None
    failure: Cond | None = None
    mode: ExplodeMode = "add"
    """How an explosion chain counts: `add` every die (`!`), `compound` as one die (`!!`),
    `penetrate` each extra die one less (`!p`), `once` at most one extra die (d20's `ra`)."""
    floor: int | None = None
    """d20's `miN`: a face below N counts as N."""
    ceiling: int | None = None
    """d20's `maN`: a face above N counts as N."""
    fudge: bool = False
    """Fudge/FATE dice (`dF`): faces -1, 0, +1 (`sides` is 3)."""

    def render(self) -> str:
        size = "F" if self.fudge else str(self.sides)
        parts = [f"{self.count}d{size}" if self.count != 1 else f"d{size}"]
        if self.reroll is not None:
            parts.append(self.reroll.render())
        if self.explode is not None:
            e = self.explode
            # A bare "!" followed by a success condition would read as the explosion's own.
            bare = e.op == "=" and e.value == self.sides and self.success is None
            if self.mode == "once":
                parts.append("ra" + e.render())
            else:
                parts.append(_BANG[self.mode] + ("" if bare else e.render()))
        if self.floor is not None:
            parts.append(f"mi{self.floor}")
        if self.ceiling is not None:
            parts.append(f"ma{self.ceiling}")
        if self.keep is not None:
            parts.append(self.keep.render())
        if self.success is not None:
            parts.append(self.success.render())
        if self.failure is not None:
            f = self.failure
            parts.append(f"f{f.value}" if f.op == "<=" else "f" + f.render())
        return "".join(parts)


@dataclass(frozen=True, slots=True)
class DiceSet:
    """d20's set `(1d4, 2+2, 3d6kl1)kh1`: the sum of its members' totals, or of the ones kept."""

    members: tuple[Expr, ...]
    keep: Keep | None = None


@dataclass(frozen=True, slots=True)
class Compare:
    """A comparison of two totals (`2d6+3 >= 10`): 1 when it holds, else 0."""

    op: TotalOp
    left: Expr
    right: Expr


Expr = Num | Neg | BinOp | Dice | Compare | DiceSet

TOTAL_OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "=": operator.eq,
    "!=": operator.ne,
}

PREC_CMP = 0
PREC_ADD = 1
PREC_MUL = 2
PREC_UNARY = 3
PREC_ATOM = 4


def precedence(node: Expr) -> int:
    if isinstance(node, Compare):
        return PREC_CMP
    if isinstance(node, BinOp):
        return PREC_ADD if node.op in "+-" else PREC_MUL
    if isinstance(node, Neg):
        return PREC_UNARY
    return PREC_ATOM


def needs_parens(parent: BinOp | Compare, child: Expr, right: bool) -> bool:
    """Whether `child` must be parenthesised as an operand of `parent`."""
    pp = precedence(parent)
    cp = precedence(child)
    if cp < pp:
        return True
    if isinstance(parent, Compare):
        # `3d6 >= 11` would read as per-die counting: a dice term ending the left side of a
        # comparison is set apart; comparisons don't chain.
        return cp == pp or (not right and parent.op != "!=" and _ends_with_dice(child))
    if right and cp == pp:
        assert isinstance(child, BinOp)
        return not (parent.op == child.op and parent.op in "+*")
    return False


def _ends_with_dice(node: Expr) -> bool:
    while True:
        if isinstance(node, Dice):
            return True
        if isinstance(node, BinOp):
            node = node.right
        elif isinstance(node, Neg):
            node = node.operand
        else:
            return False


def render(node: Expr) -> str:
    """Canonical text of an expression; parsing it gives back an equal tree."""
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Dice):
        return node.render()
    if isinstance(node, DiceSet):
        inner = ", ".join(render(m) for m in node.members)
        if len(node.members) == 1 and node.keep is None:
            inner += ","
        return f"({inner})" + (node.keep.render() if node.keep is not None else "")
    if isinstance(node, Neg):
        inner = render(node.operand)
        return f"-({inner})" if precedence(node.operand) < PREC_UNARY else f"-{inner}"
    left = render(node.left)
    right = render(node.right)
    if needs_parens(node, node.left, False):
        left = f"({left})"
    if needs_parens(node, node.right, True):
        right = f"({right})"
    op = "==" if isinstance(node, Compare) and node.op == "=" else node.op
    return f"{left} {op} {right}"


_SHOWN_OPS = {">=": "≥", "<=": "≤", "!=": "≠"}


def compact(node: Expr) -> str:
    """An expression as players write it, without spaces (`2d6+3`)."""
    return render(node).replace(" ", "")


def question(node: Compare) -> str:
    """A comparison as the odds reply asks it: `2d6+3 ≥ 10`."""
    return f"{compact(node.left)} {_SHOWN_OPS.get(node.op, node.op)} {compact(node.right)}"


def iter_dice(node: Expr) -> list[Dice]:
    """Dice terms of an expression, left to right (the rolling order)."""
    out: list[Dice] = []
    stack: list[Expr] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Dice):
            out.append(n)
        elif isinstance(n, BinOp | Compare):
            stack.append(n.right)
            stack.append(n.left)
        elif isinstance(n, DiceSet):
            stack.extend(reversed(n.members))
        elif isinstance(n, Neg):
            stack.append(n.operand)
    return out


def static_dice(node: Expr) -> int:
    """Dice rolled before any reroll or explosion."""
    return sum(d.count for d in iter_dice(node))


def has_extra_dice(node: Expr) -> bool:
    """Whether rolling may need more dice than `static_dice` (rerolls, explosions)."""
    return any(d.reroll is not None or d.explode is not None for d in iter_dice(node))


def counts_successes(node: Expr) -> bool:
    return any(d.success is not None for d in iter_dice(node))


class RollSpec(BaseModel):
    """One `;`-separated roll: an expression, its label and its `N#` repeat count."""

    model_config = ConfigDict(frozen=True, defer_build=True, arbitrary_types_allowed=True)

    expr: Expr
    text: str
    label: str | None
    repeat: int = 1


class RollCommand(BaseModel):
    """Everything one input asks to roll."""

    model_config = ConfigDict(frozen=True, defer_build=True, arbitrary_types_allowed=True)

    rolls: list[RollSpec]
