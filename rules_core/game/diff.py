"""What one change did, read from the states before and after it: the lines `/log` and the
campaign report show under each command ("Guards: 3 damage, 7/10 left"). Pure.

Each line is a catalogue key under `game.diff.` and its parameters; names are the units' and
players' own, so the caller only localises.
"""

from __future__ import annotations

from typing import Any

from rules_core.errors import UserError
from rules_core.game.models import GameState, Unit, unit_key
from rules_core.rules.text import fold

Line = tuple[str, dict[str, Any]]
MAX_LINES = 8


def _name(state: GameState, user_id: str | None) -> str:
    return state.player_name(user_id)


def _holder(before: GameState, after: GameState, key: str) -> str:
    """The unit whose pools are under `key`, as its name is written (the key folds it)."""
    units = (*after.units, *before.units)
    return next((u.name for u in units if unit_key(u.name) == key), key.partition(":")[2])


def _phase(state: GameState) -> str:
    # The game systems load on the first game event shown, not with the storage layer that
    # imports this module (a one-command process such as `ask "/roll 2d6"` never needs them).
    from rules_core.systems import get_system

    try:
        phases = get_system(state.system).phases
    except UserError:  # a system this build doesn't know: its number will do
        return str(state.phase + 1)
    return phases[state.phase] if 0 <= state.phase < len(phases) else str(state.phase + 1)


def _cond_text(unit: Unit) -> dict[str, str]:
    return {fold(c.name): c.name for c in unit.conditions}


def _health(system: str, unit: Unit) -> tuple[int, int]:
    """The unit's wounds left and its maximum as the board draws them (the system's health:
    an Infinity model of W 1 shows 0/1 when Unconscious, not its internal Dead-at-W+1 count)."""
    from rules_core.systems import get_system  # loaded with the first game event shown

    try:
        return get_system(system).health(unit)
    except UserError:  # a system this build doesn't know
        return unit.wounds_left, unit.max_wounds


def _unit_lines(system: str, old: Unit, new: Unit) -> list[Line]:
    out: list[Line] = []
    wounds_left, most = _health(system, new)
    left = {"unit": new.name, "left": wounds_left, "max": most}
    if new.damage > old.damage:
        out.append(("game.diff.damage", {**left, "n": new.damage - old.damage}))
    elif new.damage < old.damage:
        out.append(("game.diff.heal", {**left, "n": old.damage - new.damage}))
    if new.destroyed and not old.destroyed:
        out.append(("game.diff.destroyed", {"unit": new.name}))
    changed = {k: v for k, v in new.stats.items() if old.stats.get(k) != v and k in new.stats} | (
        {"models": new.models} if new.models != old.models else {}
    )
    if changed:
        stats = " ".join(f"{k}={v}" for k, v in sorted(changed.items()))
        out.append(("game.diff.stats", {"unit": new.name, "stats": stats, "changed": changed}))
    before, after = _cond_text(old), _cond_text(new)
    for key, name in after.items():
        if key not in before:
            out.append(("game.diff.cond_added", {"unit": new.name, "cond": name}))
    for key, name in before.items():
        if key not in after:
            out.append(("game.diff.cond_removed", {"unit": new.name, "cond": name}))
    if old.extra != new.extra and not out:
        out.append(("game.diff.unit_state", {"unit": new.name}))
    return out


def describe(before: GameState | None, after: GameState | None) -> list[Line]:
    """The visible differences between two snapshots of one game, at most `MAX_LINES`."""
    if after is None:
        return []
    if before is None:
        return [("game.diff.started", {"name": after.name})]
    out: list[Line] = []
    old_players = {p.user_id for p in before.players}
    new_players = {p.user_id for p in after.players}
    out += [("game.diff.joined", {"name": _name(after, u)}) for u in new_players - old_players]
    out += [("game.diff.left", {"name": _name(before, u)}) for u in old_players - new_players]
    old_units = {fold(u.name): u for u in before.units}
    new_units = {fold(u.name): u for u in after.units}
    for key, unit in new_units.items():
        if key not in old_units:
            owner = _name(after, unit.owner)
            out.append(("game.diff.unit_added", {"unit": unit.name, "owner": owner}))
        else:
            out += _unit_lines(after.system, old_units[key], unit)
    out += [
        ("game.diff.unit_removed", {"unit": u.name})
        for k, u in old_units.items()
        if k not in new_units
    ]
    for owner in sorted(set(before.resources) | set(after.resources)):
        old_pools, new_pools = before.resources.get(owner, {}), after.resources.get(owner, {})
        kind, _, ident = owner.partition(":")
        who = _name(after, ident) if kind == "player" else _holder(before, after, owner)
        for name in sorted(set(old_pools) | set(new_pools)):
            was, now = old_pools.get(name, 0), new_pools.get(name, 0)
            if was != now:
                out.append(
                    ("game.diff.resource", {"who": who, "name": name, "was": was, "now": now})
                )
    old_score, new_score = before.score(), after.score()
    for user_id, total in new_score.items():
        if total != old_score.get(user_id, 0):
            out.append(
                (
                    "game.diff.score",
                    {
                        "name": _name(after, user_id),
                        "n": total - old_score.get(user_id, 0),
                        "total": total,
                    },
                )
            )
    if after.round != before.round:
        out.append(("game.diff.round", {"n": after.round}))
    if after.current != before.current or after.round != before.round or after.turn != before.turn:
        if after.current:
            out.append(("game.diff.turn", {"name": _name(after, after.current)}))
    elif after.phase != before.phase:
        out.append(("game.diff.phase", {"phase": _phase(after)}))
    if after.order != before.order and set(after.order) == set(before.order):
        order = " → ".join(_name(after, u) for u in after.order)
        out.append(("game.diff.order", {"order": order}))
    if after.status == "ended" and before.status != "ended":
        out.append(("game.diff.ended", {"winner": _name(after, after.winner)}))
    if not out and after.extra != before.extra:
        out.append(("game.diff.system_state", {}))
    return out[:MAX_LINES]
