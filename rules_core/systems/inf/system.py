"""Infinity (N1/N2-era) in the game state (digest §2.1, §3.9, §4).

- Card: CC, BS, PH, WIP, ARM, BTS (its absolute value: -3 is written 3), W (or STR),
  MOV as mov1/mov2, `type` (1 LI/FL, 2 MI/FM, 3 HI/FP, 4 TAG, 5 SK/ESP, 6 WB, 7 REM; L103-121),
  `irr` 1 for an Irregular model (L1795-1803), `lt` 1 for the Lieutenant (L185, L719),
  `pts` its cost (for Retreat!), `group` its combat group 1-3 (L232-238), `morat` 1 for a
  Morat (Retreat! at 75%, L2601-2603), `structure` 1 when W is STR (L1399-1411), `antipode`
  1 for an Antipode (L2036-2062) and `hungries` 1 for one of the Hungries, Gakis and Pretas
  (L3450-3452): neither is ever named Lieutenant (L1474-1476).
  Weapons are kept on the unit with `/inf loadout` (their profiles with `/inf weapon add`).
- Health (L1368-1393): wounds = W is Unconscious, more is Dead. The health bar counts W; the
  unit is destroyed (removed) at W+1 wounds. A Shock or Monofilament kill is applied as W+1.
- Turn (L479-492, L573-577): the players' active turns in the initiative order (fixed for the
  game, L767-771); at the start of a player's turn their Orders are recounted: regular Orders
  per combat group, Irregular Orders on their models, the Lieutenant's Special Order, Loss of
  Lieutenant (2 Orders) and Retreat! (see orders.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import unit_key
from rules_core.systems.base import (
    ConditionSpec,
    GameSystem,
    Label,
    Note,
    ResourceSpec,
    StatSpec,
)
from rules_core.systems.inf import orders, tables

if TYPE_CHECKING:
    from rules_core.game.models import GameState, Unit

GROUP_RESOURCES = {1: "orders", 2: "orders2", 3: "orders3"}
LT_RESOURCE = "lt"
UNIT_ORDER = "order"
LOSS_OF_LT_POOL = "loss_of_lt"  # how a spent Order names the Loss of Lieutenant reserve
IMM = "imm"
DIS = "dis"


def counted_key(state: GameState, user_id: str) -> list[int | str]:
    return [state.round, state.turn, user_id]


def needs_recount(state: GameState) -> bool:
    """The current player's Orders were not counted for this turn yet: the first turn of a
    game (no turn start has run) or after `/turn order` (L573-577: counted at turn start)."""
    current = state.current
    return bool(current) and state.extra.get("inf", {}).get("counted") != counted_key(
        state, str(current)
    )


def in_loss_of_lieutenant(state: GameState, user_id: str) -> bool:
    """The player's Orders of this turn were counted with no active Lieutenant: the 2 reserve
    Orders (kept in the first group's pool) serve any of the player's models (L1463-1469)."""
    return user_id in state.extra.get("inf", {}).get("loss_of_lt", [])


def recount(state: GameState, user_id: str) -> list[Note]:
    """Set `user_id`'s Order pools for their turn (L573-577) and say what they are."""
    mine = [u for u in state.units if u.owner == user_id]
    extra = state.extra.setdefault("inf", {})
    rule = str(extra.get("retreat", "ge"))
    extra["counted"] = counted_key(state, user_id)
    if user_id not in extra.setdefault("started", []):  # the first count: the game is on
        extra["started"].append(user_id)
    pool = orders.count_pool(mine, retreat_rule=rule)
    lost_lt = [u for u in extra.get("loss_of_lt", []) if u != user_id]
    extra["loss_of_lt"] = [*lost_lt, user_id] if pool.loss_of_lieutenant and mine else lost_lt
    pools = state.resources.setdefault(f"player:{user_id}", {})
    for group, name in GROUP_RESOURCES.items():
        if group == 1 or group in pool.groups:  # the first keeps the Loss of Lt reserve
            pools[name] = pool.groups.get(group, 0)
        else:  # a group the player hasn't: no pool (and none left from an earlier count)
            pools.pop(name, None)
    pools[LT_RESOURCE] = pool.lieutenant
    for unit in mine:
        key = unit_key(unit.name)
        if unit.name in pool.irregular:
            state.resources.setdefault(key, {})[UNIT_ORDER] = 1
        elif UNIT_ORDER in state.resources.get(key, {}):
            state.resources[key][UNIT_ORDER] = 0
    groups = " + ".join(str(pool.groups[g]) for g in sorted(pool.groups)) or "0"
    player = state.player_name(user_id, "?")
    notes: list[Note] = [
        (
            "inf.note.orders",
            {
                "player": player,
                "groups": groups,
                "irregular": len(pool.irregular),
                "lt": pool.lieutenant,
            },
        )
    ]
    if pool.loss_of_lieutenant and mine:  # the 2 reserve Orders, any model's (L1463-1469)
        notes = [
            ("inf.note.orders_reserve", {"player": player, "orders": sum(pool.groups.values())})
        ]
    if pool.loss_of_lieutenant and mine:
        notes.append(("inf.note.loss_of_lt", {}))
    if pool.retreat:
        notes.append(("inf.note.retreat", {"lost": pool.points_lost, "total": pool.points_total}))
    for group in orders.group_problems(mine):
        notes.append(("inf.note.group_too_big", {"group": group}))
    return notes


def refuse_lieutenant_by_hand(state: GameState, unit: Unit) -> None:
    """Once a player's Orders have been counted (the game is on for them), a new Lieutenant is
    named with its rule and cost (L1460-1477, transitions.name_lieutenant), not by giving a
    model lt=1 (before it, the army list names its Lieutenant, L719-734)."""
    extra = state.extra.get("inf", {})
    # a game counted before `started` was kept: the player's Order pools say it
    counted = "counted" in extra and f"player:{unit.owner}" in state.resources
    if unit.owner in extra.get("started", []) or counted:
        raise UserError("inf.lieutenant_by_hand", unit=unit.name)


class InfSystem(GameSystem):
    def validate_stats(self, values: Mapping[str, int | str], *, creating: bool) -> dict[str, int]:
        if "hp" in values:
            raise UserError("inf.hp_derived")
        out = super().validate_stats(values, creating=creating)
        if "w" in out:
            out["hp"] = out["w"] + 1  # destroyed (Dead) at W+1 wounds (L1390-1393)
        return out

    def setup_unit(self, state: GameState, unit: Unit, options: dict[str, str]) -> None:
        if options:
            raise UserError("game.no_unit_options", system=self.id, option=next(iter(options)))
        if unit.models != 1:
            raise UserError("inf.one_model")
        if unit.stats.get("lt"):
            refuse_lieutenant_by_hand(state, unit)
        if unit.stats.get("type") in tables.TYPES and "mov1" not in unit.stats:
            unit.stats["mov1"], unit.stats["mov2"] = tables.MOVE[unit.stats["type"]]

    def check_stats(self, state: GameState, unit: Unit, stats: Mapping[str, int]) -> None:
        if stats.get("lt") and not unit.stats.get("lt"):
            refuse_lieutenant_by_hand(state, unit)

    def health(self, unit: Unit) -> tuple[int, int]:
        w = unit.stats.get("w", 1)
        return max(0, w - unit.damage), w

    def damage_unit(
        self, unit: Unit, amount: int, *, column: int | None, dice: DiceSource | None
    ) -> list[Note]:
        before = orders.unit_state(unit)
        notes = super().damage_unit(unit, amount, column=column, dice=dice)
        after = orders.unit_state(unit)
        if after != before:
            notes.append((f"inf.note.{after}", {"unit": unit.name}))
        return notes

    def draw_unit(self, unit: Unit, label: Label) -> str | None:
        """`LI · CC 13 BS 12 … · MOV 10-10 · LT`: troop type (`type.N`), stats, move, markers,
        each named by `label` (the Italian book writes FL, CD, FIS, VOL, PB)."""
        s = unit.stats
        kind = s.get("type", 0)
        parts = [label(f"type.{kind}") if kind in tables.TYPES else ""]
        stats = " ".join(
            f"{label(k)} {s[k]}" for k in ("cc", "bs", "ph", "wip", "arm", "bts") if k in s
        )
        if stats:
            parts.append(stats)
        if "mov1" in s:
            parts.append(f"{label('mov')} {s['mov1']}-{s.get('mov2', 0)}")
        parts += [label(k) for k in ("lt", "irr", "antipode", "hungries") if s.get(k)]
        weapons = unit.extra.get("weapons")
        if weapons:
            parts.append(", ".join(str(w) for w in weapons))
        return " · ".join(p for p in parts if p)

    def unit_status(self, unit: Unit) -> str | None:
        """Unconscious on the unit's line (Dead is the generic "destroyed", L1368-1393)."""
        return "inf.state.unconscious" if orders.unit_state(unit) == "unconscious" else None

    def start_turn(self, state: GameState, dice: DiceSource | None) -> list[Note]:
        current = state.current
        return recount(state, current) if current else []


INF = InfSystem(
    id="inf",
    stats=(
        StatSpec(name="cc", max=30),
        StatSpec(name="bs", max=30),
        StatSpec(name="ph", max=30),
        StatSpec(name="wip", max=30),
        StatSpec(name="arm", max=20),
        # The book prints PB as a negative number (0, -3, -6, L1751-1757; -9, L3749) and the
        # PB roll takes it as positive (L1344-1348): both are kept as typed, used as abs().
        StatSpec(name="bts", min=-12, max=12),
        StatSpec(name="w", min=1, max=9, default=1),
        StatSpec(name="hp", min=2, max=10, derived=True),
        StatSpec(name="mov1", max=30),
        StatSpec(name="mov2", max=30),
        StatSpec(name="type", min=1, max=7, default=1),
        StatSpec(name="irr", max=1, default=0),
        StatSpec(name="lt", max=1, default=0),
        StatSpec(name="pts", max=999, default=0),
        StatSpec(name="group", min=1, max=3, default=1),
        StatSpec(name="morat", max=1, default=0),
        StatSpec(name="structure", max=1, default=0),
        StatSpec(name="antipode", max=1, default=0),
        StatSpec(name="hungries", max=1, default=0),
    ),
    wounds_stat="hp",
    phases=("impetuous", "orders"),
    order="fixed",
    resources=(
        *(ResourceSpec(name=n) for n in GROUP_RESOURCES.values()),
        ResourceSpec(name=LT_RESOURCE),
        ResourceSpec(name=UNIT_ORDER, per="unit"),
    ),
    conditions=(
        ConditionSpec(name=IMM, aliases=("immobilized", "immobilizzato")),
        ConditionSpec(name=DIS, aliases=("disabled", "disabilitato")),
        ConditionSpec(name="prone", aliases=("prono",)),
    ),
    board_stats=("bs", "arm", "bts"),
)
