"""Per-chat choices where the rulebook leaves room (digest §8), each with a default.

- `deviation_layout` (default `clockwise`): the book names only direction 1 (long) and 4
  (short) of the deviation template, which is not in the transcript (L3066-3069, digest
  §8.10). With `clockwise`, seen from the attacker, 2 and 3 are on the right (long-right,
  short-right) and 5 and 6 on the left (short-left, long-left); `counterclockwise` mirrors it.
- `roll_autohit` (default `no`): whether a melee attack against a knocked-down or stationary
  model rolls anyway unless told otherwise (the book lets the attacker choose, L3200-3206;
  with `no` the `roll_anyway` mod asks for the roll).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from rules_core.errors import UserError


class WmSettings(BaseModel):
    deviation_layout: Literal["clockwise", "counterclockwise"] = "clockwise"
    roll_autohit: Literal["no", "yes"] = "no"


CHOICES: dict[str, tuple[str, ...]] = {
    "deviation_layout": ("clockwise", "counterclockwise"),
    "roll_autohit": ("no", "yes"),
}
ALIASES = {
    "orario": "clockwise",
    "antiorario": "counterclockwise",
    "si": "yes",
    "sì": "yes",
}


def update(current: WmSettings, changes: dict[str, str]) -> WmSettings:
    data = current.model_dump()
    for name, raw in changes.items():
        key = name.lower()
        if key not in CHOICES:
            raise UserError("wm.unknown_setting", name=name[:30], valid=", ".join(CHOICES))
        value = ALIASES.get(raw.lower(), raw.lower())
        if value not in CHOICES[key]:
            raise UserError("wm.bad_setting", name=key, choices=", ".join(CHOICES[key]))
        data[key] = value
    return WmSettings.model_validate(data)


def direction_key(direction: int, layout: str) -> str:
    """Catalogue key of a deviation direction under the chosen layout."""
    clockwise = {
        1: "long",
        2: "long_right",
        3: "short_right",
        4: "short",
        5: "short_left",
        6: "long_left",
    }
    key = clockwise[direction]
    if layout == "counterclockwise":
        key = key.replace("right", "tmp").replace("left", "right").replace("tmp", "left")
    return key
