"""Request, step and outcome models of Infinity (N1/N2-era) resolutions, and the per-chat
settings for what the rulebook leaves open (digest §8).

Line references `L123` are lines of ../shared/seeds/003_27b81155ce3a4b9f.txt (the Italian
rulebook transcript, "Regolamento versione 1.0 - Maggio 2009"); §n are digest sections
(../shared/rules-digests/infinity.md).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules_core.errors import UserError
from rules_core.steps import Modifier

# Ammunition codes (digest §3.7, rulebook L2889-3123). AP+DA and AP+EXP are the integrated
# ammunition of MULTI B1 / autocannon / Panzerfaust (L3137-3139).
AMMO = (
    "N",
    "DA",
    "EXP",
    "AP",
    "AP+DA",
    "AP+EXP",
    "SHOCK",
    "FIRE",
    "MONO",
    "EM",
    "PLASMA",
    "ADH",
    "NANO",
)
AMMO_ALIASES = {
    "NORMAL": "N",
    "NORMALE": "N",
    "E/M": "EM",
    "SH": "SHOCK",
    "FUOCO": "FIRE",
    "MONOFILO": "MONO",
    "MONOFILARE": "MONO",
    "NANOTEC": "NANO",
    "ADHL": "ADH",
    "ADESIVO": "ADH",
    "ESPLOSIVO": "EXP",
    "APDA": "AP+DA",
    "APEXP": "AP+EXP",
    # the full names of the ammunition, Italian and English (rule entries inf.ammo_*)
    "DOPPIA AZIONE": "DA",
    "DOUBLE ACTION": "DA",
    "ESPLOSIVA": "EXP",
    "EXPLOSIVE": "EXP",
    "ALTA PENETRAZIONE": "AP",
    "PERFORANTE": "AP",
    "ARMOUR PIERCING": "AP",
    "ARMOR PIERCING": "AP",
    "FIRE": "FIRE",
    "MONOFILAMENT": "MONO",
    "MONOFILAMENTO": "MONO",
    "NANOTECH": "NANO",
    "NANOTECNOLOGICA": "NANO",
    "ELETTROMAGNETICA": "EM",
    "ELETTROMAGNETICO": "EM",
    "ELECTROMAGNETIC": "EM",
    "ADHESIVE": "ADH",
    "ADESIVA": "ADH",
}

State = Literal["ok", "unconscious", "dead"]


def ammo_code(text: str | None) -> str:
    """The canonical ammunition code of `text` (English code or an Italian name)."""
    if text is None:
        return "N"
    key = " ".join(text.strip().upper().split())
    key = AMMO_ALIASES.get(key, key)
    if key not in AMMO:
        raise UserError(
            "inf.bad_ammo", ammo=text[:20], valid=", ".join(AMMO), values_of="values.ammo"
        )
    return key


class RollOutcome(BaseModel):
    successes: int
    criticals: int
    target: int


class FtfOutcome(BaseModel):
    active_hits: int
    active_criticals: int
    reactive_hits: int
    reactive_criticals: int


class Side(BaseModel):
    """One side of an attack: its modified attribute and burst, and (if it shoots) its weapon;
    and the ARM/BTS/W profile it saves with when the other side hits it."""

    attr: int = Field(ge=0, le=30)
    mod: int = Field(default=0, ge=-30, le=30)
    range: int = Field(default=0, ge=-12, le=12)  # the weapon's range band MOD
    burst: int = Field(default=1, ge=1, le=6)
    dam: int | None = Field(default=None, ge=0, le=30)  # None: this side does not wound
    ammo: str = "N"
    # the profile the OTHER side's hits are saved with
    arm: int = Field(default=0, ge=0, le=20)
    bts: int = Field(default=0, ge=0, le=12)  # absolute value: used as +|BTS| (L1344-1348)
    w: int = Field(default=1, ge=1, le=9)
    wounds: int = Field(default=0, ge=0, le=20)  # wounds already taken before this order
    ph: int | None = Field(default=None, ge=0, le=30)  # for ADH (PH-6 roll, L2894)
    structure: bool = False  # STR instead of W (Shock works as Normal, L3116-3120)
    heavy: bool = False  # HI, REM or TAG: E/M immobilises, no Guts (L2879-2886)
    remote: bool = False  # a REM: IMM or DIS under E/M (setting rem_em)
    cover: bool = False  # partial cover: +3 ARM/BTS here, -3 to the shooter (L897-908)

    def roll_mods(self, other: Side, ranged: bool = True) -> list[Modifier]:
        """MODs to this side's roll: its own, its range band, and -3 when `other` is in
        partial cover and this side shoots at it (L897-908: cover changes BS and ARM; a Dodge,
        a PH roll, or a close-combat roll is no shot at it)."""
        shoots = ranged and (self.dam is not None or self.ammo == "ADH")
        return [
            Modifier(name="mod", value=self.mod),
            Modifier(name="range", value=self.range),
            Modifier(name="cover", value=-3 if other.cover and shoots else 0),
        ]

    def target_vs(self, other: Side, ranged: bool = True) -> int:
        return self.attr + sum(m.value for m in self.roll_mods(other, ranged))

    @property
    def target(self) -> int:
        """The roll's target before the other side's cover."""
        return self.attr + self.mod + self.range


class AttackRequest(BaseModel):
    """`active` attacks `target`. Each side carries its roll (attr, mod, burst), its weapon
    (dam, ammo; None: it does not wound, e.g. a Dodge) and the profile it saves with."""

    active: Side
    target: Side
    opposed: bool = True  # False: Normal rolls, nobody opposes (L400-409, L824-835)
    # The active side attacks in close combat: its target makes no Guts roll (L1244-1246)
    # and has no cover (L897-908).
    cc: bool = False
    # The reactive side's roll is a CC roll too (None: the same as `cc`). False for a model
    # that shoots or dodges a charge (C8-C9, L1549-1559): it gets no Defence Bonus, which
    # needs two CC rolls (L1125-1128).
    reactive_cc: bool | None = None

    @property
    def reactive_in_cc(self) -> bool:
        return self.cc if self.reactive_cc is None else self.reactive_cc

    @property
    def both_cc(self) -> bool:
        return self.cc and self.reactive_in_cc

    def targets(self) -> tuple[int, int]:
        """The modified attributes both sides roll against (cover counts against shots)."""
        a, t = self.active, self.target
        return a.target_vs(t, not self.cc), t.target_vs(a, not self.reactive_in_cc)

    def dodges(self) -> bool:
        """The reactive side opposes without wounding (a Dodge, L1996-2007)."""
        return self.opposed and self.target.dam is None and self.target.ammo != "ADH"


class AttackOutcome(BaseModel):
    active_hits: int
    active_criticals: int
    reactive_hits: int
    reactive_criticals: int
    target_wounds: int
    active_wounds: int
    target_state: State
    active_state: State
    guts_roll: bool  # the target must make a Guts roll (or fall back) (L1352-1367)
    active_guts_roll: bool
    target_disabled: bool
    target_immobilized: bool
    active_disabled: bool
    active_immobilized: bool


YesNo = Literal["yes", "no"]


class InfSettings(BaseModel):
    """The choices the rulebook leaves open (digest §8); defaults documented in /inf settings."""

    model_config = ConfigDict(frozen=True)

    # L1452-1453 says ">= 60%", L3977-3978 says "> 60%".
    retreat: Literal["ge", "gt"] = "ge"
    # L737-739 (rule, example 2 at L777) opposed WIP roll; example 1 (L754-766) sums d20 + WIP.
    initiative: Literal["ftf", "sum"] = "ftf"
    # L2905-2907 "minimum ARM 1": does ARM 0 become 1 under AP? Default: no (AP never helps).
    ap_zero_becomes_one: YesNo = "no"
    # L3114-3115: Shock kills on a FAILED ARM roll; a critical has no roll (L894-895).
    # Default: a critical counts as a failed save, so Shock kills on it too.
    shock_crit_kills: YesNo = "yes"
    # L3044-3055 Fire repeats the ARM roll after a failure; after a critical (a wound with no
    # roll) does the fire keep burning? Default: yes, it counts as a failed roll.
    fire_crit_burns: YesNo = "yes"
    # L3056-3060 Monofilament sets ARM to 0: is the cover +3 kept? Default: yes (cover is a
    # MOD, as for AP at L2907-2910).
    mono_cover: YesNo = "yes"
    # L894-895: a critical wounds with no ARM roll; E/M makes a BTS roll and no wound
    # (L2921-2931). Default `fail`: the critical counts as a failed BTS roll; `roll`: the BTS
    # roll is made anyway.
    em_crit: Literal["fail", "roll"] = "fail"
    # The same for ADH's PH-6 roll (L2891-2897).
    adh_crit: Literal["fail", "roll"] = "fail"
    # A tie between a shot and a Dodge: L427-431 (and CC) the higher MODIFIED attribute wins;
    # the Dodge rule L2005-2007 says "the higher Attribute". Default `modified`; `base` compares
    # the unmodified attributes.
    dodge_tie: Literal["modified", "base"] = "modified"
    # A REM failing its BTS roll against E/M: the prose (L2879, L2925) says Immobilised, the
    # table (L2966-2968) Disabled. Default `imm`.
    rem_em: Literal["imm", "dis"] = "imm"
    # STR works like W, Unconscious included (L1399-1402, default `wounds`); the next lines
    # (L1403-1407) destroy the model when its wounds reach STR (`destroyed`).
    structure: Literal["wounds", "destroyed"] = "wounds"


SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "retreat": ("ge", "gt"),
    "initiative": ("ftf", "sum"),
    "ap_zero_becomes_one": ("yes", "no"),
    "shock_crit_kills": ("yes", "no"),
    "fire_crit_burns": ("yes", "no"),
    "mono_cover": ("yes", "no"),
    "em_crit": ("fail", "roll"),
    "adh_crit": ("fail", "roll"),
    "dodge_tie": ("modified", "base"),
    "rem_em": ("imm", "dis"),
    "structure": ("wounds", "destroyed"),
}


def update_settings(current: InfSettings, changes: dict[str, str]) -> InfSettings:
    data = current.model_dump()
    for name, raw in changes.items():
        if name not in SETTING_CHOICES:
            raise UserError("inf.unknown_setting", name=name, valid=", ".join(SETTING_CHOICES))
        value = raw.strip().lower()
        if value not in SETTING_CHOICES[name]:
            raise UserError("inf.bad_setting", name=name, choices=", ".join(SETTING_CHOICES[name]))
        data[name] = value
    return InfSettings.model_validate(data)
