"""Result models handed to callers (pydantic), built cheaply once rolling is done."""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr, computed_field

# Face flag bits used by the roller's hot loop.
KEPT = 1
REROLLED = 2
EXPLODED = 4
SUCCESS = 8
FAILURE = 16
DROPPED = 32


class Face(BaseModel):
    """One rolled face and what happened to it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

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

    model_config = ConfigDict(frozen=True, defer_build=True)

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

    model_config = ConfigDict(frozen=True, defer_build=True)

    kind: Literal["text", "face"]
    text: str
    face: Face | None = None


# A raw group as built by the roller: (sides, values, flags); flags None means every face kept
# (a plain `NdX` term: no per-face flag list to build).
RawGroup = tuple[int, list[int], list[int] | None]

# The text between dice terms, for a result's breakdown: `template[i]` comes before the faces
# of the i-th dice term (and ends with its `NdX (`), the last one after every face.
Template = tuple[str, ...]


class RollResult(BaseModel):
    """The outcome of one roll of one expression.

    `str()` of it is the breakdown shown to players, e.g. `4d6kh3 (6, 5, 3, ~~1~~) + 2 = 16`
    (dropped or rerolled faces struck, successes bold, failures in italics, exploding faces
    marked `!`), built in one pass over the roller's raw records. `dice` and `breakdown`
    (pydantic objects per face) are built only on first access, and then cached.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    expression: str
    label: str | None
    total: int
    successes: int | None
    truncated: bool

    _raw_groups: list[RawGroup] = PrivateAttr(default_factory=list)
    _template: Template = PrivateAttr(default=("",))

    @computed_field  # type: ignore[prop-decorator]
    @cached_property
    def dice(self) -> list[DiceGroup]:
        return [
            DiceGroup(
                sides=sides,
                faces=[
                    Face.from_flags(v, f)
                    for v, f in zip(values, _flags(flags, values), strict=True)
                ],
            )
            for sides, values, flags in self.__pydantic_private__["_raw_groups"]  # type: ignore[index]
        ]

    @computed_field  # type: ignore[prop-decorator]
    @cached_property
    def breakdown(self) -> list[Token]:
        groups = self.dice
        out: list[Token] = []
        for piece in self.pieces():
            if isinstance(piece, str):
                out.append(Token(kind="text", text=piece))
            else:
                face = groups[piece[0]].faces[piece[1]]
                out.append(Token(kind="face", text=str(face.value), face=face))
        return out

    def pieces(self) -> list[str | tuple[int, int]]:
        """The breakdown as text pieces and `(group, face)` references, left to right."""
        private: dict[str, Any] = self.__pydantic_private__  # type: ignore[assignment]
        template: Template = private["_template"]
        out: list[str | tuple[int, int]] = []
        buf = template[0]
        for g, (_, values, _) in enumerate(private["_raw_groups"]):
            for i in range(len(values)):
                if i:
                    buf += ", "
                out.append(buf)
                out.append((g, i))
                buf = ""
            buf += template[g + 1]
        if buf:
            out.append(buf)
        return [p for p in out if p != ""]

    def marked(self) -> list[tuple[str, int]]:
        """The breakdown as `(text, flags)` pairs: flags -1 for text between faces, else the
        face's flag bits (KEPT, DROPPED, ...) and its value as text. What a reply renders."""
        private: dict[str, Any] = self.__pydantic_private__  # type: ignore[assignment]
        template: Template = private["_template"]
        out: list[tuple[str, int]] = []
        buf = template[0]
        for g, (_, values, flags) in enumerate(private["_raw_groups"]):
            if flags is None:
                flags = [KEPT] * len(values)
            for i, v in enumerate(values):
                if i:
                    buf += ", "
                if buf:
                    out.append((buf, -1))
                out.append((str(v), flags[i]))
                buf = ""
            buf += template[g + 1]
        if buf:
            out.append((buf, -1))
        return out

    def __str__(self) -> str:
        private: dict[str, Any] = self.__pydantic_private__  # type: ignore[assignment]
        template: Template = private["_template"]
        parts = [template[0]]
        append = parts.append
        for g, (_, values, flags) in enumerate(private["_raw_groups"]):
            if flags is None:
                append(", ".join(map(str, values)))
            else:
                append(", ".join([_face_text(v, f) for v, f in zip(values, flags, strict=True)]))
            append(template[g + 1])
        append(" = ")
        append(str(self.__dict__["total"]))
        return "".join(parts)

    def plain(self) -> str:
        """The breakdown as plain text without marks, e.g. `4d6kh3 (6, 5, 3, 1) = 14`."""
        private: dict[str, Any] = self.__pydantic_private__  # type: ignore[assignment]
        template: Template = private["_template"]
        parts = [template[0]]
        for g, (_, values, _) in enumerate(private["_raw_groups"]):
            parts.append(", ".join(map(str, values)))
            parts.append(template[g + 1])
        return "".join(parts) + f" = {self.total}"

    def dice_data(self) -> list[dict[str, Any]]:
        """`[g.as_data() for g in self.dice]` without building the per-face objects."""
        private: dict[str, Any] = self.__pydantic_private__  # type: ignore[assignment]
        return [
            {
                "sides": sides,
                "faces": list(values),
                "kept": [True] * len(values) if flags is None else [bool(f & KEPT) for f in flags],
            }
            for sides, values, flags in private["_raw_groups"]
        ]

    def summary(self) -> dict[str, Any]:
        """The roll without its dice: what the roll log keeps beside the faces (a logged roll
        is shown again by replaying its faces; `/stats` and the journal read these fields)."""
        fields = self.__dict__
        return {key: fields[key] for key in _SUMMARY}

    def as_json(self) -> dict[str, Any]:
        """`model_dump(mode="json")`, built directly from the raw records (no per-face
        objects): what /roll stores."""
        private: dict[str, Any] = self.__pydantic_private__  # type: ignore[assignment]
        dice = []
        faces_in_order: list[list[dict[str, Any]]] = []
        for sides, values, flags in private["_raw_groups"]:
            faces = [_face_json(v, f) for v, f in zip(values, _flags(flags, values), strict=True)]
            faces_in_order.append(faces)
            dice.append({"sides": sides, "faces": faces})
        breakdown: list[dict[str, Any]] = []
        for piece in self.pieces():
            if isinstance(piece, str):
                breakdown.append({"kind": "text", "text": piece, "face": None})
            else:
                face = faces_in_order[piece[0]][piece[1]]
                breakdown.append({"kind": "face", "text": str(face["value"]), "face": face})
        fields = self.__dict__
        return {
            "expression": fields["expression"],
            "label": fields["label"],
            "total": fields["total"],
            "successes": fields["successes"],
            "truncated": fields["truncated"],
            "dice": dice,
            "breakdown": breakdown,
        }


_SUMMARY = ("expression", "label", "total", "successes", "truncated")


def _flags(flags: list[int] | None, values: list[int]) -> list[int]:
    return [KEPT] * len(values) if flags is None else flags


def _face_json(value: int, flags: int) -> dict[str, Any]:
    return {
        "value": value,
        "kept": bool(flags & KEPT),
        "rerolled": bool(flags & REROLLED),
        "exploded": bool(flags & EXPLODED),
        "success": bool(flags & SUCCESS),
        "failure": bool(flags & FAILURE),
        "dropped": bool(flags & DROPPED),
    }


def _face_text(value: int, flags: int) -> str:
    """One face as `str(result)` shows it (Markdown marks, as the chat replies style it)."""
    text = f"{value}!" if flags & EXPLODED else str(value)
    if flags & (REROLLED | DROPPED) or not flags & KEPT:
        return f"~~{text}~~"
    if flags & SUCCESS:
        return f"**{text}**"
    if flags & FAILURE:
        return f"_{text}_"
    return text


_new = object.__new__
_set = object.__setattr__


def make_result(
    expression: str,
    label: str | None,
    total: int,
    successes: int | None,
    truncated: bool,
    groups: list[RawGroup],
    template: Template,
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
    _set(m, "__pydantic_private__", {"_raw_groups": groups, "_template": template})
    return m


_FIELDS = {"expression", "label", "total", "successes", "truncated"}


# A dice term in canonical text (`ast.render`): count, `d`, sides and modifiers, with no space
# or parenthesis inside; numbers never contain a `d`, operators are set apart by spaces.
_DICE_TEXT = re.compile(r"[0-9]*d(?:[0-9]+|F)[^\s(),]*")


def template_of(text: str, dice: int) -> Template:
    """The breakdown template of an expression from its canonical text: `NdX (` after every
    dice term, `)` after its faces. One regular expression instead of a walk of the tree."""
    template: list[str] = []
    start = 0
    for m in _DICE_TEXT.finditer(text):
        template.append(text[start : m.end()] + " (")
        start = m.end()
    template.append(")" + text[start:] if template else text)
    for i in range(1, len(template) - 1):
        template[i] = ")" + template[i]
    if len(template) != dice + 1:  # not canonical text: cannot happen for the parser's
        raise ValueError(f"{text!r} is not the canonical text of an expression")
    return tuple(template)
