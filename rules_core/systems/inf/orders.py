"""Orders, the Lieutenant, Loss of Lieutenant, Retreat! and the initiative roll
(digest §3.10, §4.2; rulebook L525-604, L719-802, L1447-1484, L1795-1809).

- L529-537: every model on the table gives 1 Order to its combat group's pool (at most 10
  models a group, L232-238; orders never move between groups); the minimum pool is 1.
- L573-577: the pool is recounted at the start of the player's turn; unused Orders are lost.
- L1374-1389: an Unconscious model gives no Order and counts as a casualty.
- L1795-1803: an Irregular model's Order is usable only by itself.
- L719-734: the Lieutenant has one extra Order for itself, outside the pool.
- L1460-1471: with no active Lieutenant the turn has only 2 Orders, for any of the player's
  models whatever their combat group (kept in group 1's slot). Irregular Orders are not kept;
  only Impetuous and Religious ones would be, which this engine does not track.
- L1452-1459 (and L2601-2603 for Morat): Retreat! when the lost points reach 60% (75% with
  Morat): ">=" at L1452-1453, ">" at L3977-3978 (setting `retreat`); the Lieutenant then
  loses its Special Order.
- L737-739 initiative: an opposed WIP roll of the two Lieutenants (setting `initiative`:
  example 1 at L754-766 sums d20 + WIP instead).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from rules_core.dice import DiceSource
from rules_core.steps import Modifier, Step
from rules_core.systems.inf.rolls import resolve_ftf

if TYPE_CHECKING:
    from rules_core.game.models import Unit

GROUP_SIZE = 10  # L232-238
LOSS_OF_LT_ORDERS = 2  # L1460-1471


def unit_state(unit: Unit) -> Literal["ok", "unconscious", "dead"]:
    """Wounds equal to W: Unconscious; more: Dead (L1368-1393)."""
    w = unit.stats.get("w", 1)
    if unit.damage > w:
        return "dead"
    return "unconscious" if unit.damage == w else "ok"


def retreat_threshold(morat: bool) -> Fraction:
    return Fraction(3, 4) if morat else Fraction(3, 5)


def in_retreat(lost: int, total: int, *, morat: bool, rule: str) -> bool:
    if total <= 0:
        return False
    share = Fraction(lost, total)
    limit = retreat_threshold(morat)
    return share >= limit if rule == "ge" else share > limit


class OrderPool(BaseModel):
    groups: dict[int, int] = Field(default_factory=dict)  # group -> regular Orders
    irregular: dict[str, int] = Field(default_factory=dict)  # unit name -> its own Order
    lieutenant: int = 0  # the LT Special Order
    lt_name: str | None = None
    loss_of_lieutenant: bool = False
    retreat: bool = False
    points_lost: int = 0
    points_total: int = 0


def count_pool(units: list[Unit], *, retreat_rule: str) -> OrderPool:
    """The Orders a player's units give at the start of that player's turn."""
    pool = OrderPool()
    total = sum(u.stats.get("pts", 0) for u in units)
    lost = sum(u.stats.get("pts", 0) for u in units if unit_state(u) != "ok")
    morat = any(u.stats.get("morat", 0) for u in units)
    pool.points_total, pool.points_lost = total, lost
    pool.retreat = in_retreat(lost, total, morat=morat, rule=retreat_rule)
    active = [u for u in units if unit_state(u) == "ok"]
    lts = [u for u in active if u.stats.get("lt", 0)]
    if lts:
        pool.lt_name = lts[0].name
        pool.lieutenant = 0 if pool.retreat else 1  # L1456-1457
    else:
        pool.loss_of_lieutenant = True
    if pool.loss_of_lieutenant:
        if active:
            pool.groups = {1: LOSS_OF_LT_ORDERS}  # any model's (transitions.spend_orders)
        return pool
    for unit in active:
        if unit.stats.get("irr", 0):
            pool.irregular[unit.name] = 1
        else:
            group = unit.stats.get("group", 1)
            pool.groups[group] = pool.groups.get(group, 0) + 1
    if active and not pool.groups and not pool.irregular:
        pool.groups = {1: 1}  # L531: the minimum pool is 1
    return pool


def group_problems(units: list[Unit]) -> list[int]:
    """Groups with more than 10 models (L232-238)."""
    sizes: dict[int, int] = {}
    for u in units:
        if unit_state(u) != "dead":
            g = u.stats.get("group", 1)
            sizes[g] = sizes.get(g, 0) + 1
    return sorted(g for g, n in sizes.items() if n > GROUP_SIZE)


class InitiativeOutcome(BaseModel):
    winner: Literal["player", "opponent", "none"]
    method: Literal["ftf", "sum"]


def resolve_initiative(
    wip: int, mod: int, vs: int, vs_mod: int, source: DiceSource, method: str
) -> tuple[list[Step], InitiativeOutcome]:
    if method == "sum":  # L754-766 (example 1): d20 + WIP, the higher total wins
        a, b = source.roll(20), source.roll(20)
        ta, tb = a + wip + mod, b + vs + vs_mod
        steps = [
            Step(
                name="player", dice=[a], modifiers=[Modifier(name="wip", value=wip + mod)], total=ta
            ),
            Step(
                name="opponent",
                dice=[b],
                modifiers=[Modifier(name="wip", value=vs + vs_mod)],
                total=tb,
            ),
        ]
        winner: Literal["player", "opponent", "none"] = (
            "player" if ta > tb else "opponent" if tb > ta else "none"
        )
        return steps, InitiativeOutcome(winner=winner, method="sum")
    steps, out, _, _ = resolve_ftf(wip, mod, 1, vs, vs_mod, 1, source)
    steps[0].name, steps[1].name = "player", "opponent"
    winner = "player" if out.active_hits else "opponent" if out.reactive_hits else "none"
    return steps, InitiativeOutcome(winner=winner, method="ftf")
