"""Request, step and outcome models of C5 resolutions, and the per-chat settings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from rules_core.errors import UserError
from rules_core.systems.c5.tables import BAND_LABELS


class TestOutcome(BaseModel):
    total: int
    success: bool
    natural_one: bool  # the C5 negative reroll happened (@4060)
    failed: bool  # failed by the natural-1 rule itself (result <= 0 or reroll 5-6)
    reroll: int | None = None  # the subtracted reroll


class WoundOutcome(BaseModel):
    location: int | None  # table row 1..5 (5 = "5&6", Testa); None when no roll was made
    column: int | None  # band 0..11 of R after Flagello/Ossoduro (an index into BAND_LABELS)
    wounds: int
    stunned: bool
    exceptional: bool
    result: Literal["none", "no_effect", "stunned", "wounds"]
    r: int | None = None
    str_used: int | None = None
    res_used: int | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def column_label(self) -> str | None:
        """The column as the book's table heads it and the reply says it: `12/13`."""
        return None if self.column is None else BAND_LABELS[self.column]


class TestRequest(BaseModel):
    """A characteristic test: d6 + value + mod (vs diff when given)."""

    value: int
    # The bot's bounds, generous: a difficulty is a characteristic, a fixed number (rally 8,
    # @15362) or a range band's (§2.5), and modifiers may push it below 0.
    diff: int | None = Field(default=None, ge=-10, le=40)
    mod: int = 0
    reroll: frozenset[int] = frozenset()  # faces an ability lets you reroll (Rozzo: 5)
    one_ok: bool = False  # "a 1 is not a failure" abilities: the 1 counts as 1 (§2.2)
    plain_one: bool = False  # zone artillery (@40747): a natural 1 simply fails, no reroll
    # The characteristic tested (a stat key: att, def, aim, cou...), which names the value in the
    # step ("+4 TIR"); None when only a number was given ("+4 value").
    stat: str | None = None


class WoundRequest(BaseModel):
    # @2104: the STR and RES used are capped at 15, but the values given may be modified ones
    # (or printed above 15, Red Troll @4728) whose excess offsets maluses: room up to 40.
    str_: int = Field(ge=-10, le=40)
    res: int = Field(ge=-10, le=40)
    mod: int = 0  # +N to the wound roll's result after the cap (Fanatismo, swoop, ...)
    scourge: bool = False
    hardboned: bool = False
    str_uncapped: bool = False  # printed STR above 15 (@2104, Red Troll example @4728)
    str_printed: int | None = None
    res_uncapped: bool = False
    res_printed: int | None = None
    artillery: bool = False  # @2104: artillery shots are not capped
    # Colpo da Maestro/X: cap 15 + X (@2104, @61044); the bot's bound on X is 10
    master: int | None = Field(default=None, ge=0, le=10)
    # the attacker's wound penalty on his melee wound rolls: -1 to -3 by wounds (@10224)
    penalty: int = Field(default=0, ge=0, le=3)
    melee: bool = True  # a blow (Feroce only works in melee); False for a shot
    effects: frozenset[str] = frozenset()  # post-table effects, see wound.EFFECTS


YesNo = Literal["yes", "no"]


class C5Settings(BaseModel):
    """The choices the rulebook leaves open (digest §8) or takes from C3 background with medium
    or low confidence. Defaults in brackets in the help."""

    model_config = ConfigDict(frozen=True)

    open_ended: YesNo = "yes"  # [BG] a natural 6 is rerolled and added (§2.1)
    minus_three: Literal["first", "second"] = "first"  # [AMBIG] "<-3" header (§8.1-5)
    melee_penalty: Literal["str", "result"] = "str"  # [AMBIG] §8.2-11
    parry_tie: Literal["defender", "attacker"] = "defender"  # [BG] a parry must reach the attack
    range_short: int = Field(default=7, ge=0, le=30)  # [BG medium] §2.5
    range_medium: int = Field(default=10, ge=0, le=30)
    range_long: int = Field(default=13, ge=0, le=30)
    mana_explode: YesNo = "no"  # [AMBIG] §3.3.1: a 6 on the mana roll is not rerolled
    sacred_on_nothing: YesNo = "no"  # [AMBIG] §8.2-12: a sacred weapon's +2 on Nulla/Stordito


SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "open_ended": ("yes", "no"),
    "minus_three": ("first", "second"),
    "melee_penalty": ("str", "result"),
    "parry_tie": ("defender", "attacker"),
    "mana_explode": ("yes", "no"),
    "sacred_on_nothing": ("no", "yes"),
}
SETTING_INTS = ("range_short", "range_medium", "range_long")


def update_settings(current: C5Settings, changes: dict[str, str]) -> C5Settings:
    data = current.model_dump()
    for name, raw in changes.items():
        if name in SETTING_CHOICES:
            value = raw.strip().lower()
            if value not in SETTING_CHOICES[name]:
                raise UserError(
                    "c5.bad_setting", name=name, choices=", ".join(SETTING_CHOICES[name])
                )
            data[name] = value
        elif name in SETTING_INTS:
            try:
                number = int(raw)
            except ValueError:
                raise UserError("c5.bad_setting_int", name=name) from None
            if not 0 <= number <= 30:
                raise UserError("c5.bad_setting_int", name=name)
            data[name] = number
        else:
            valid = ", ".join([*SETTING_CHOICES, *SETTING_INTS])
            raise UserError("c5.unknown_setting", name=name, valid=valid)
    return C5Settings.model_validate(data)
