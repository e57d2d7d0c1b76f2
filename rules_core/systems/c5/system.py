"""Confrontation 5 in the game state (digest §3.6, §4).

- Card: MOV INI ATT STR DEF RES AIM (TIR), WSTR (the ranged weapon's STR), COU (COR) or
  FEAR (PAU), DIS, POW (POT), `aspects` (sum of a faithful's printed Aspects), `pieta`
  (Pietà/X), `rank` 1-4, `size` 1-6 (small, medium, large, Enorme, Colossale, Gigantesco)
  and `warrior` 1 for a warrior Character; `posseduto` 1 / `robustezza` 1 for those abilities
  (they change the wound penalties).
- Health (@1361, @50842, @69364, @60864, @78068): wounds by size 4/4/5/6/7/8, +1 for a warrior
  Character (Sangue Divino), never above 8; `wounds=` on the card overrides it (effects that
  change the capacity). The fighter dies when the last wound is gone (@5779; example @8449).
- States (@5779, @10224, @11808): Leggera -1, Grave -2, Critica -3 on INI, ATT, DIF, TIR and
  the fighter's melee wound rolls; Stordito -1 until the end of the round, not added to them.
- Turn [BG skeleton + SEED details, §4.1]: strategic (rally tests at 8, @15362), activation
  (alternating cards, pass rule @16499), combat, mystic (mana @130449, faith @21515),
  maintenance. Unspent temporary faith is lost at the end of the turn except what Pietà/X
  keeps (@21515, @49896); mana stays in the reserve.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.rules.text import fold
from rules_core.systems.base import (
    ConditionSpec,
    GameSystem,
    Label,
    Note,
    ResourceSpec,
    StatSpec,
)
from rules_core.systems.c5 import tables

if TYPE_CHECKING:
    from rules_core.game.models import GameState, Unit

STUNNED = "stunned"
ROUTED = "routed"
PENALISED = ("ini", "att", "def", "aim")  # the stats a wound penalty lowers (@10224)


def is_stunned(unit: Unit) -> bool:
    return any(fold(c.name) in ("stunned", "stordito") for c in unit.conditions)


def is_routed(unit: Unit) -> bool:
    return any(fold(c.name) in ("routed", "rotta", "in rotta") for c in unit.conditions)


def unit_penalty(unit: Unit) -> int:
    """The penalty (as a positive number) on the unit's INI, ATT, DIF, TIR and melee wounds."""
    return tables.penalty(
        unit.damage,
        is_stunned(unit),
        posseduto=bool(unit.stats.get("posseduto")),
        robustezza=bool(unit.stats.get("robustezza")),
    )


def state_line(unit: Unit, label: Label) -> str | None:
    """The drawing under the unit's line: the penalty its wounds and Stordito put on INI, ATT,
    DIF and TIR (@10224), the stats named by `label` (DEF and AIM in English; the state's name
    is in the localized note of the wound that caused it); None without one."""
    pen = unit_penalty(unit)
    if not pen or unit.destroyed:
        return None
    return f"-{pen} " + " ".join(label(stat) for stat in PENALISED)


class C5System(GameSystem):
    def validate_stats(self, values: Mapping[str, int | str], *, creating: bool) -> dict[str, int]:
        out = super().validate_stats(values, creating=creating)
        if creating and "wounds" not in values:
            out["wounds"] = tables.wounds_for(out.get("size", 2), bool(out.get("warrior", 0)))
        return out

    def damage_unit(
        self, unit: Unit, amount: int, *, column: int | None, dice: DiceSource | None
    ) -> list[Note]:
        notes = super().damage_unit(unit, amount, column=column, dice=dice)
        if amount:
            key = tables.state_key(unit.damage, unit.max_wounds)
            if key == "killed":
                notes.append(("c5.note.killed", {"unit": unit.name}))
            else:
                params = {"unit": unit.name, "penalty": unit_penalty(unit)}
                notes.append((f"c5.note.state.{key}", params))
        return notes

    def heal_unit(self, unit: Unit, amount: int) -> None:
        """@8725 (digest §3.6): healing N levels heals N wounds, never above the capacity; a
        fighter with no wound can't be healed."""
        if unit.damage == 0:
            raise UserError("c5.heal_unhurt", unit=unit.name)
        super().heal_unit(unit, amount)

    def draw_unit(self, unit: Unit, label: Label) -> str | None:
        return state_line(unit, label)

    def start_round(self, state: GameState, dice: DiceSource | None) -> list[Note]:
        # Temporary faith computed in the mystic phase is spent in the next round's activations:
        # it stays until the next computation, which keeps at most Pietà/X of it (@96260).
        notes: list[Note] = []
        routed = [u.name for u in state.units if is_routed(u) and not u.destroyed]
        if routed:
            notes.append(("c5.note.rally", {"units": ", ".join(routed)}))
        return notes


C5 = C5System(
    id="c5",
    stats=(
        StatSpec(name="mov", max=50),
        StatSpec(name="ini", max=20),
        StatSpec(name="att", max=20),
        StatSpec(name="str", max=30),
        StatSpec(name="def", max=20),
        StatSpec(name="res", max=30),
        StatSpec(name="aim", max=20),
        StatSpec(name="wstr", max=30),  # the STR of the fighter's ranged weapon
        StatSpec(name="cou", max=20),
        StatSpec(name="fear", max=20),
        StatSpec(name="dis", max=20),
        StatSpec(name="pow", max=20),
        StatSpec(name="aspects", max=30),
        StatSpec(name="pieta", max=10),
        StatSpec(name="rank", min=1, max=4, default=1),
        StatSpec(name="size", min=1, max=6, default=2),
        StatSpec(name="warrior", min=0, max=1, default=0),
        StatSpec(name="posseduto", min=0, max=1),  # Posseduto: wound penalties one level lighter
        StatSpec(name="robustezza", min=0, max=1),  # Robustezza: no -1 for 1 wound or Stordito
        StatSpec(name="wounds", min=1, max=tables.MAX_WOUNDS),
    ),
    wounds_stat="wounds",
    phases=("strategic", "activation", "combat", "mystic", "maintenance"),
    order="alternating",
    resources=(
        ResourceSpec(name="mana", per="unit"),
        ResourceSpec(name="ft", per="unit"),
        ResourceSpec(name="autorita", per="player"),
    ),
    conditions=(
        ConditionSpec(name=STUNNED, until="end-of-round", aliases=("stordito",)),
        ConditionSpec(name=ROUTED, until="permanent", aliases=("rotta", "in rotta")),
    ),
    board_stats=("att", "str", "def", "res"),
)
