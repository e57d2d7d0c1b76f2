"""Parsers for the option values of /aos commands: dice characteristics (`D3`, `2D6`, `D3+1`),
saves (`4`, `4+`, `-`), rend (`-1`, `1`, `-`), re-roll policies and the abilities keyed to
unmodified 6s. Every parser returns a value or raises one UserError (property-tested).

Rulebook: ../shared/seeds/001_3302d92f440b0a0b.txt. D3 is a D6 halved rounding up (L149);
random Attacks/Damage are rolled when needed (22.2.4, L966-970, L999-1001); a Save of "-" needs
7+ (22.2.3, L962-964, transcribed as '-1'); Rend can never be worse than "-" (22.2.2, L958-960).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

from rules_core.dice import DiceSource
from rules_core.dice.distribution import Distribution
from rules_core.errors import UserError

MAX_FIXED = 200
NO_SAVE = 7  # "-": needs 7+
Reroll = Literal["none", "ones", "failed"]

D6 = Distribution.die(6)
_DICE = re.compile(r"^(?:(\d{1,2})?d(3|6))?(?:\+?(\d{1,3}))?$")


class DiceValue(BaseModel):
    """`count` dice of `sides` (3 or 6) plus `plus`: 3, D3, D6, 2D6, D3+1."""

    model_config = ConfigDict(frozen=True)

    count: int = 0
    sides: int = 6
    plus: int = 0

    @property
    def random(self) -> bool:
        return self.count > 0

    @property
    def min(self) -> int:
        return self.count + self.plus

    @property
    def max(self) -> int:
        return self.count * self.sides + self.plus

    def text(self) -> str:
        if not self.count:
            return str(self.plus)
        dice = f"{self.count if self.count > 1 else ''}D{self.sides}"
        return dice + (f"+{self.plus}" if self.plus else "")

    def die(self) -> Distribution:
        """One of its dice: a D6, or a D3 (a D6 halved up, L149)."""
        return D3 if self.sides == 3 else D6

    def distribution(self) -> Distribution:
        """The value's exact distribution: `count` dice plus `plus`."""
        return self.count @ self.die() + self.plus

    def roll(self, source: DiceSource) -> tuple[int, list[int]]:
        """The value and the D6 faces rolled for it (a D3 is a D6 halved, L149)."""
        faces = [source.roll(6) for _ in range(self.count)]
        values = [d3(f) if self.sides == 3 else f for f in faces]
        return sum(values) + self.plus, faces


def improve_rend(rend: int, by: int) -> int:
    """Rend (kept as a positive number, 0 = "-") improved by `by` (negative: worsened); it
    can never be worse than "-" (22.2.2, L958-960; E4, L983)."""
    return max(0, rend + by)


def d3(face: int) -> int:
    """L149: roll a D6 and halve it, rounding up: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3."""
    return (face + 1) // 2


D3 = D6.map(d3)


def parse_dice_value(
    text: str, what: str, *, max_count: int = 2, max_fixed: int = MAX_FIXED
) -> DiceValue:
    value = text.strip().lower().replace(" ", "")
    m = _DICE.fullmatch(value) if value else None
    if m is None or not value:
        raise UserError("aos.bad_dice_value", option=what, value=text[:20])
    count = 0
    sides = 6
    if m.group(2):
        count = int(m.group(1)) if m.group(1) else 1
        sides = int(m.group(2))
    plus = int(m.group(3)) if m.group(3) else 0
    if m.group(2) and not 1 <= count <= max_count:
        raise UserError("aos.bad_dice_value", option=what, value=text[:20])
    if count == 0 and not 0 <= plus <= max_fixed:
        raise UserError("aos.value_range", option=what, min=0, max=max_fixed)
    if count and plus > 10:
        raise UserError("aos.value_range", option=what, min=0, max=10)
    return DiceValue(count=count, sides=sides, plus=plus)


def parse_target(text: str | int, what: str, *, lo: int = 2, hi: int = 6) -> int:
    """A target number: `3`, `3+`."""
    value = str(text).strip().rstrip("+")
    if not re.fullmatch(r"\d{1,2}", value):
        raise UserError("aos.bad_target", option=what, value=str(text)[:20], min=lo, max=hi)
    number = int(value)
    if not lo <= number <= hi:
        raise UserError("aos.bad_target", option=what, value=str(text)[:20], min=lo, max=hi)
    return number


def parse_save(text: str | int) -> int:
    """`4`, `4+`, or `-` (no save: needs 7+, L962-964). Returns 2..7."""
    value = str(text).strip()
    if value in ("-", "–", "none", "nessuno", "7", "7+"):
        return NO_SAVE
    return parse_target(value, "save", lo=1, hi=6)


def parse_rend(text: str | int) -> int:
    """Rend as a positive amount subtracted from save rolls: `-2` and `2` are both Rend -2;
    `-` and `0` are no rend (never worse than "-", L958-960)."""
    value = str(text).strip().replace("−", "-")
    if value in ("-", "–", "0", "+0", "-0"):
        return 0
    if not re.fullmatch(r"[+-]?\d{1,2}", value):
        raise UserError("aos.bad_rend", value=value[:20])
    number = abs(int(value))
    if number > 6:
        raise UserError("aos.value_range", option="rend", min=0, max=6)
    return number


def parse_reroll(text: str | None, what: str) -> Reroll:
    if text is None:
        return "none"
    value = text.strip().lower()
    mapped = {
        "ones": "ones",
        "1": "ones",
        "1s": "ones",
        "uno": "ones",
        "uni": "ones",
        "failed": "failed",
        "fail": "failed",
        "falliti": "failed",
        "none": "none",
        "no": "none",
    }.get(value)
    if mapped is None:
        raise UserError("aos.bad_reroll", option=what, value=text[:20])
    return mapped  # type: ignore[return-value]


On6Kind = Literal["none", "extra_hit", "auto_wound", "mortal", "rend"]


class On6(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: On6Kind = "none"
    amount: int = 0


_ON6 = re.compile(r"^([a-z_]+)(?::(\d{1,2}))?$")
_ON6_ALIASES = {
    "extra_hit": "extra_hit",
    "extrahit": "extra_hit",
    "2hits": "extra_hit",
    "colpo_extra": "extra_hit",
    "auto_wound": "auto_wound",
    "autowound": "auto_wound",
    "ferisce": "auto_wound",
    "mortal": "mortal",
    "mortali": "mortal",
    "mw": "mortal",
    "rend": "rend",
    "impatto": "rend",
    "none": "none",
}


def parse_on6(text: str | None, what: str, allowed: tuple[On6Kind, ...]) -> On6:
    """`on6_hit=extra_hit|auto_wound|mortal:N`, `on6_wound=mortal:N|rend:N`."""
    if text is None:
        return On6()
    value = text.strip().lower().replace(" ", "")
    m = _ON6.fullmatch(value)
    kind = _ON6_ALIASES.get(m.group(1)) if m else None
    if m is None or kind is None or (kind not in allowed and kind != "none"):
        raise UserError(
            "aos.bad_on6", option=what, value=text[:30], valid=", ".join(_usage(allowed))
        )
    needs_amount = kind in ("mortal", "rend")
    if needs_amount != (m.group(2) is not None):
        raise UserError(
            "aos.bad_on6", option=what, value=text[:30], valid=", ".join(_usage(allowed))
        )
    amount = int(m.group(2)) if m.group(2) else 0
    if needs_amount and not 1 <= amount <= 6:
        raise UserError("aos.value_range", option=what, min=1, max=6)
    return On6(kind=kind, amount=amount)


def _usage(allowed: tuple[On6Kind, ...]) -> list[str]:
    return [k + (":N" if k in ("mortal", "rend") else "") for k in allowed]


def parse_decimal(text: str, what: str, hi: float = 99.0) -> float:
    value = text.strip().replace(",", ".").rstrip('"')
    if not re.fullmatch(r"\d{1,2}(?:\.\d{1,2})?", value):
        raise UserError("aos.bad_number", option=what, value=text[:20])
    number = float(value)
    if number > hi:
        raise UserError("aos.value_range", option=what, min=0, max=int(hi))
    return number
