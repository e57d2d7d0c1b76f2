"""Weapons and their range bands, troop types and movement (digest §2.5-2.6, §8.1).

Only the generic Rifle has a full profile in this rulebook (L2845-2865: 0-20 cm 0, 20-40 cm
+3, 40-60 cm -3, 60-120 cm -6, nothing beyond 120 cm; Damage 13, Burst 3). Every other weapon
is added by the players to their game (`/inf weapon add`), with its bands, damage, burst and
ammunition: the book's weapon chart is missing (L2928 "Vedi tabella delle armi").
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from rules_core.errors import UserError
from rules_core.systems.inf.models import ammo_code


class Band(BaseModel):
    model_config = ConfigDict(frozen=True)

    upto: int = Field(ge=1, le=500)  # cm, inclusive ("entro i 20 cm", L2862)
    mod: int = Field(ge=-12, le=12)


class Weapon(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    bands: tuple[Band, ...]
    dam: int = Field(ge=0, le=30)
    burst: int = Field(ge=1, le=6)
    ammo: str = "N"


RIFLE = Weapon(
    name="Rifle",
    bands=(
        Band(upto=20, mod=0),
        Band(upto=40, mod=3),
        Band(upto=60, mod=-3),
        Band(upto=120, mod=-6),
    ),
    dam=13,
    burst=3,
)  # L2845-2865, L3276
BUILTIN: dict[str, Weapon] = {"rifle": RIFLE, "fucile": RIFLE}

_BAND = re.compile(r"^\s*(\d{1,3})\s*[:/]\s*([+-]?\d{1,2})\s*$")
MAX_BANDS = 8
MAX_WEAPONS = 40


def parse_bands(text: str) -> tuple[Band, ...]:
    """`20:0,40:+3,60:-3,120:-6`: each band's upper bound in cm and its BS modifier."""
    bands: list[Band] = []
    parts = [p for p in text.split(",") if p.strip()]
    if not parts or len(parts) > MAX_BANDS:
        raise UserError("inf.bad_bands", max=MAX_BANDS)
    for part in parts:
        m = _BAND.match(part)
        if not m:
            raise UserError("inf.bad_bands", max=MAX_BANDS)
        upto, mod = int(m.group(1)), int(m.group(2))
        if not 1 <= upto <= 500 or not -12 <= mod <= 12:
            raise UserError("inf.bad_bands", max=MAX_BANDS)
        if bands and upto <= bands[-1].upto:
            raise UserError("inf.bands_order")
        bands.append(Band(upto=upto, mod=mod))
    return tuple(bands)


def make_weapon(name: str, bands: str, dam: int, burst: int, ammo: str | None) -> Weapon:
    clean = name.strip()[:30]
    if not clean or not re.fullmatch(r"[\w .+/'-]+", clean):
        raise UserError("inf.bad_weapon_name")
    return Weapon(name=clean, bands=parse_bands(bands), dam=dam, burst=burst, ammo=ammo_code(ammo))


def bands_text(weapon: Weapon) -> str:
    out, low = [], 0
    for b in weapon.bands:
        sign = f"+{b.mod}" if b.mod > 0 else str(b.mod)
        out.append(f"{low}-{b.upto} cm {sign}")
        low = b.upto
    return ", ".join(out)


def range_mod(weapon: Weapon, distance: int) -> int:
    """The BS modifier at `distance` cm; beyond the last band there is no shot (L2864-2865,
    L888-890)."""
    if distance < 0:
        raise UserError("inf.bad_distance")
    for band in weapon.bands:
        if distance <= band.upto:
            return band.mod
    raise UserError("inf.out_of_range", weapon=weapon.name, max=weapon.bands[-1].upto)


def find_weapon(name: str, custom: dict[str, dict[str, object]]) -> Weapon:
    key = name.strip().lower()
    if key in custom:
        return Weapon.model_validate(custom[key])
    if key in BUILTIN:
        return BUILTIN[key]
    known = sorted(
        {w.name for w in BUILTIN.values()} | {str(v.get("name")) for v in custom.values()}
    )
    raise UserError("inf.unknown_weapon", name=name[:30], valid=", ".join(known))


# Troop types (L103-121) as the `type` stat's codes, and their MOV (digest §8.1 table).
TYPES = {1: "LI", 2: "MI", 3: "HI", 4: "TAG", 5: "SK", 6: "WB", 7: "REM"}
TYPE_NAMES_IT = {1: "FL", 2: "FM", 3: "FP", 4: "TAG", 5: "ESP", 6: "WB", 7: "REM"}
MOVE = {1: (10, 10), 2: (10, 5), 3: (10, 5), 4: (15, 10), 5: (10, 10), 6: (10, 10), 7: (15, 10)}
REM = 7
HEAVY = frozenset({3, 4, REM})  # E/M immobilises HI, TAG, REM (L2879, L2925)


def coordinated_burst(burst: int) -> int:
    """L1300-1301: halved, rounding up, minimum 1."""
    return max(1, -(-burst // 2))
