"""Weapons and their range bands, troop types and movement (digest §2.5-2.6, §8.1).

Only the generic Rifle has a full profile in this rulebook (L2845-2865: 0-20 cm 0, 20-40 cm
+3, 40-60 cm -3, 60-120 cm -6, nothing beyond 120 cm; Damage 13, Burst 3); the CC Weapon
(Damage = the wielder's PH, L3153-3157) and the Knife (PH-2, L3234-3235) are described with
their Damage. Every other weapon is added by the players to their game (`/inf weapon add`),
with its bands, damage (a number, or PH-based: `PH`, `PH+1`), burst, ammunition and template:
the book's weapon chart is missing (L2928 "Vedi tabella delle armi").

A weapon with no range bands is a close-combat weapon (its attacks are CC attacks); a direct
template weapon (Flamethrower, Chain Rifle, Nanopulser, L947-950) and a Mine (L3406-3413)
hit with no roll and are resolved by `template.resolve_template`.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules_core.errors import UserError
from rules_core.systems.inf.models import ammo_code


class Band(BaseModel):
    model_config = ConfigDict(frozen=True)

    upto: int = Field(ge=1, le=500)  # cm, inclusive ("entro i 20 cm", L2862)
    mod: int = Field(ge=-12, le=12)


Template = Literal["none", "direct", "area"]
TEMPLATES: tuple[Template, ...] = ("none", "direct", "area")
# How a weapon is described: a template kind, or `thrown`, an area template thrown with PH
# (grenades: L966-968, L3338-3339).
TemplateChoice = Literal["none", "direct", "area", "thrown"]
TEMPLATE_CHOICES: tuple[TemplateChoice, ...] = ("none", "direct", "area", "thrown")


MAX_BURST = 6


class Weapon(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    bands: tuple[Band, ...]  # empty: a close-combat weapon
    dam: int = Field(ge=0, le=30)
    burst: int = Field(ge=1, le=MAX_BURST)
    ammo: str = "N"
    # Damage = the wielder's PH plus this (L3153-3157: CC weapons PH, L3234-3235: Knife PH-2);
    # `dam` is then unused.
    ph_dam: int | None = Field(default=None, ge=-10, le=10)
    template: Template = "none"
    thrown: bool = False  # rolled with PH instead of BS (L966-968)
    key: str | None = None  # a book weapon: its catalogue key, for its name in each language

    @property
    def close_combat(self) -> bool:
        return not self.bands and self.template == "none"

    def damage(self, ph: int | None) -> int | None:
        """The Damage it deals; None when PH-based and the wielder's PH is unknown."""
        if self.ph_dam is None:
            return self.dam
        return None if ph is None else max(0, ph + self.ph_dam)

    def damage_text(self) -> str:
        if self.ph_dam is None:
            return str(self.dam)
        return "PH" + (f"{self.ph_dam:+d}" if self.ph_dam else "")


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
    key="rifle",
)  # L2845-2865, L3276
CC_WEAPON = Weapon(name="CC Weapon", bands=(), dam=0, burst=1, ph_dam=0, key="cc_weapon")
KNIFE = Weapon(name="Knife", bands=(), dam=0, burst=1, ph_dam=-2, key="knife")
# Every name a book weapon answers to, English and Italian (lower case).
BUILTIN: dict[str, Weapon] = {
    "rifle": RIFLE,
    "fucile": RIFLE,
    "cc weapon": CC_WEAPON,
    "ccw": CC_WEAPON,
    "arma cc": CC_WEAPON,
    "knife": KNIFE,
    "coltello": KNIFE,
}
BOOK_WEAPONS = (RIFLE, CC_WEAPON, KNIFE)
WEAPON_NAMES = "inf.weapon_names"  # the catalogue table of the book weapons' names, by key
BOOK_NAMES = {"fucile": "Fucile", "arma cc": "Arma CC", "coltello": "Coltello", "ccw": "CCW"}
_PH_DAM = re.compile(r"^\s*(?:PH|FIS)\s*(?:([+-])\s*(\d{1,2}))?\s*$", re.IGNORECASE)

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


def parse_damage(text: str | int) -> tuple[int, int | None]:
    """`13` -> (13, None); `PH`, `PH+1`, `FIS-2` -> (0, offset): Damage from the wielder's PH."""
    raw = str(text).strip()
    if raw.isdecimal() and int(raw) <= 30:
        return int(raw), None
    m = _PH_DAM.match(raw)
    if not m:
        raise UserError("inf.bad_damage", dam=raw[:12])
    offset = int(m.group(2) or 0) * (-1 if m.group(1) == "-" else 1)
    if not -10 <= offset <= 10:
        raise UserError("inf.bad_damage", dam=raw[:12])
    return 0, offset


def make_weapon(
    name: str,
    bands: str | None,
    dam: str | int,
    burst: int,
    ammo: str | None,
    template: str | None = None,
) -> Weapon:
    """A weapon the players describe. No bands: a close-combat weapon, or a direct template
    (which has no range bands, L947-950); an area template needs its bands, and a thrown one
    (a grenade) is an area template rolled with PH (L966-968)."""
    clean = name.strip()[:30]
    if not clean or not re.fullmatch(r"[\w .+/'-]+", clean):
        raise UserError("inf.bad_weapon_name")
    wanted = (template or "none").strip().lower()
    choice = next((t for t in TEMPLATE_CHOICES if t == wanted), None)
    if choice is None:
        raise UserError("inf.bad_template", valid=", ".join(TEMPLATE_CHOICES))
    kind: Template = "area" if choice == "thrown" else choice
    if bands is None and kind == "area":
        raise UserError("inf.weapon_missing", option="bands")
    value, ph = parse_damage(dam)
    return Weapon(
        name=clean,
        bands=parse_bands(bands) if bands is not None else (),
        dam=value,
        ph_dam=ph,
        burst=burst,
        ammo=ammo_code(ammo),
        template=kind,
        thrown=choice == "thrown",
    )


def bands_option(weapon: Weapon) -> str:
    """The bands as `/inf weapon add bands=` and a roster take them: `20:0,40:+3`."""
    return ",".join(f"{b.upto}:{b.mod:+d}" if b.mod else f"{b.upto}:0" for b in weapon.bands)


def template_option(weapon: Weapon) -> str:
    """The `template=` choice that makes the weapon again (`thrown`: an area one rolled with PH)."""
    return "thrown" if weapon.thrown else weapon.template


def bands_text(weapon: Weapon) -> str:
    """`0-20 cm 0, 20-40 cm +3, ...`; empty for a weapon with no range bands."""
    out, low = [], 0
    for b in weapon.bands:
        sign = f"+{b.mod}" if b.mod > 0 else str(b.mod)
        out.append(f"{low}-{b.upto} cm {sign}")
        low = b.upto
    return ", ".join(out)


def named(weapon: Weapon) -> dict[str, str]:
    """An error's `weapon` parameter: a book weapon by its key, which the bot names in the
    reader's language (Fucile, Rifle); the players' own weapons by the name they gave."""
    return {"weapon": weapon.key or weapon.name, "value_key": "weapon", "values_of": WEAPON_NAMES}


def range_mod(weapon: Weapon, distance: int) -> int:
    """The BS modifier at `distance` cm; beyond the last band there is no shot (L2864-2865,
    L888-890)."""
    if distance < 0:
        raise UserError("inf.bad_distance")
    for band in weapon.bands:
        if distance <= band.upto:
            return band.mod
    if not weapon.bands:
        raise UserError("inf.no_bands", **named(weapon))
    raise UserError("inf.out_of_range", max=weapon.bands[-1].upto, **named(weapon))


def find_weapon(name: str, custom: dict[str, dict[str, object]]) -> Weapon:
    key = name.strip().lower()
    if key in custom:
        return Weapon.model_validate(custom[key])
    if key in BUILTIN:
        return BUILTIN[key]
    # The book's weapons by key: the bot names them in the reader's language.
    known = sorted(
        {w.key or w.name for w in BOOK_WEAPONS} | {str(v.get("name")) for v in custom.values()}
    )
    raise UserError(
        "inf.unknown_weapon", name=name[:30], valid=", ".join(known), values_of=WEAPON_NAMES
    )


def loadout_name(name: str, custom: dict[str, dict[str, object]]) -> str:
    """The name a unit's loadout keeps: a book weapon as the player named it, in their language
    (`fucile` -> Fucile, `rifle` -> Rifle), else the game weapon's own name."""
    weapon = find_weapon(name, custom)
    key = name.strip().lower()
    if key in BUILTIN and key not in custom:
        return BOOK_NAMES.get(key, weapon.name)
    return weapon.name


# Troop types (L103-121) by the `type` stat's value, 1 LI, 2 MI, 3 HI, 4 TAG, 5 SK, 6 WB, 7 REM
# (each language's code, LI/FL, SK/ESP…, is the catalogue's `game.draw.inf.type.N`), and their
# MOV (digest §8.1 table).
MOVE = {1: (10, 10), 2: (10, 5), 3: (10, 5), 4: (15, 10), 5: (10, 10), 6: (10, 10), 7: (15, 10)}
TYPES = frozenset(MOVE)
REM = 7
HEAVY = frozenset({3, 4, REM})  # E/M immobilises HI, TAG, REM (L2879, L2925)


def coordinated_burst(burst: int) -> int:
    """L1300-1301: halved, rounding up, minimum 1."""
    return max(1, -(-burst // 2))
