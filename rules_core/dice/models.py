"""Result models handed to callers (pydantic), built cheaply once rolling is done."""

from __future__ import annotations

from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr, computed_field

from rules_core.dice.ast import PREC_UNARY, BinOp, Dice, Expr, Neg, Num, needs_parens, precedence

# Face flag bits used by the roller's hot loop.
KEPT = 1
REROLLED = 2
EXPLODED = 4
SUCCESS = 8
FAILURE = 16
DROPPED = 32


class Face(BaseModel):
    """One rolled face and what happened to it."""

    model_config = ConfigDict(frozen=True)

    value: int
    kept: bool
    """Counts towards the term: not rerolled away and not dropped."""
    rerolled: bool = False
    """Replaced by a reroll; does not count."""
    exploded: bool = False
    """Triggered an explosion (another die was added)."""
    success: bool = False
    failure: bool = False
    dropped: bool = False

    @staticmethod
    def from_flags(value: int, flags: int) -> Face:
        return Face(
            value=value,
            kept=bool(flags & KEPT),
            rerolled=bool(flags & REROLLED),
            exploded=bool(flags & EXPLODED),
            success=bool(flags & SUCCESS),
            failure=bool(flags & FAILURE),
            dropped=bool(flags & DROPPED),
        )


FaceInfo = Face


class DiceGroup(BaseModel):
    """The faces of one dice term, in rolling order (rerolled-away faces included)."""

    model_config = ConfigDict(frozen=True)

    sides: int
    faces: list[Face]

    def as_data(self) -> dict[str, Any]:
        return {
            "sides": self.sides,
            "faces": [f.value for f in self.faces],
            "kept": [f.kept for f in self.faces],
        }


class Token(BaseModel):
    """A piece of the rendered breakdown: plain text or one face."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["text", "face"]
    text: str
    face: Face | None = None


# A raw group as built by the roller: (sides, values, flags).
RawGroup = tuple[int, list[int], list[int]]


class RollResult(BaseModel):
    """The outcome of one roll of one expression.

    `dice` and `breakdown` are built on first access from the roller's raw records (and
    then cached), so a roll whose details nobody looks at costs almost nothing.
    """

    model_config = ConfigDict(frozen=True)

    expression: str
    label: str | None
    total: int
    successes: int | None
    truncated: bool

    _raw_groups: list[RawGroup] = PrivateAttr(default_factory=list)
    _expr: Any = PrivateAttr(default=None)

    @computed_field  # type: ignore[prop-decorator]
    @cached_property
    def dice(self) -> list[DiceGroup]:
        return [self._group(i) for i in range(len(self._raw_groups))]

    def _group(self, i: int) -> DiceGroup:
        sides, values, flags = self._raw_groups[i]
        return DiceGroup(
            sides=sides, faces=[Face.from_flags(v, f) for v, f in zip(values, flags, strict=True)]
        )

    @computed_field  # type: ignore[prop-decorator]
    @cached_property
    def breakdown(self) -> list[Token]:
        groups = self.dice
        out: list[Token] = []
        buf: list[str] = []
        for piece in breakdown_pieces(self._expr, [len(g[1]) for g in self._raw_groups]):
            if isinstance(piece, str):
                buf.append(piece)
                continue
            if buf:
                out.append(Token(kind="text", text="".join(buf)))
                buf = []
            face = groups[piece[0]].faces[piece[1]]
            out.append(Token(kind="face", text=str(face.value), face=face))
        if buf:
            out.append(Token(kind="text", text="".join(buf)))
        return out

    def plain(self) -> str:
        """The breakdown as plain text, e.g. `4d6kh3 (6, 5, 3, 1) = 14`."""
        return "".join(t.text for t in self.breakdown) + f" = {self.total}"


_new = object.__new__
_set = object.__setattr__


def make_result(
    expression: str,
    label: str | None,
    total: int,
    successes: int | None,
    truncated: bool,
    groups: list[RawGroup],
    expr: Expr,
) -> RollResult:
    """Build a `RollResult` without validation (the roller's values are already right)."""
    m = _new(RollResult)
    _set(
        m,
        "__dict__",
        {
            "expression": expression,
            "label": label,
            "total": total,
            "successes": successes,
            "truncated": truncated,
        },
    )
    _set(m, "__pydantic_fields_set__", _FIELDS)
    _set(m, "__pydantic_extra__", None)
    _set(m, "__pydantic_private__", {"_raw_groups": groups, "_expr": expr})
    return m


_FIELDS = {"expression", "label", "total", "successes", "truncated"}


def breakdown_pieces(expr: Expr, sizes: list[int]) -> list[str | tuple[int, int]]:
    """Render `expr` as text pieces and `(group, face)` references, left to right.

    `sizes[i]` is the number of faces of the i-th dice term.
    """
    out: list[str | tuple[int, int]] = []
    counter = [0]

    def walk(node: Expr) -> None:
        if isinstance(node, Num):
            out.append(str(node.value))
        elif isinstance(node, Dice):
            g = counter[0]
            counter[0] += 1
            out.append(node.render() + " (")
            for i in range(sizes[g]):
                if i:
                    out.append(", ")
                out.append((g, i))
            out.append(")")
        elif isinstance(node, Neg):
            out.append("-")
            paren = precedence(node.operand) < PREC_UNARY
            if paren:
                out.append("(")
            walk(node.operand)
            if paren:
                out.append(")")
        else:
            assert isinstance(node, BinOp)
            for side, child in ((False, node.left), (True, node.right)):
                if side:
                    out.append(f" {node.op} ")
                paren = needs_parens(node, child, side)
                if paren:
                    out.append("(")
                walk(child)
                if paren:
                    out.append(")")

    walk(expr)
    return out
