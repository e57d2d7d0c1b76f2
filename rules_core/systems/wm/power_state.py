"""Power attacks on the game state (L2198-2686): the focus the warjack spends, damage and
knockdown on the target, each collateral model, trampled models one by one, and a headlock or
weapon lock kept as state until it is broken.

A lock (L2220-2283) is stored on the locked unit, `extra["lock"]`: who holds it (`by`), what is
held (`system`: H for a headlock, L or R for a weapon lock, `-` with the weapon's name for a
weapon without a location) and with which Open Fist (`fist`). While it lasts:
- the locked model attacks with no weapon in the held system (a headlock: none on its head) and
  makes no special or power attack (L2235-2244);
- the holder makes no special or power attack and no attack with the holding fist or another
  weapon in its location (L2245-2249);
- the locked model tries to break it at the start of its combat action: both roll d6 + STR and
  a higher total breaks it (L2257-2263); a warjack may try again for 1 focus each time
  (L2268-2271); the holder may let go during its activation (L2273-2275);
- it breaks by itself when an effect moves or knocks down either model (L2277-2283).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import Condition, GameState, Unit
from rules_core.rules.text import fold
from rules_core.steps import Modifier, Step
from rules_core.systems.base import Note
from rules_core.systems.wm.power import FIST_KINDS, PowerOutcome
from rules_core.systems.wm.system import (
    KNOCKED_DOWN,
    LOCK_KEY,
    WM,
    cortex_crippled,
    damage_model,
    model_damage,
    model_kind,
    pools,
    unit_grid,
)
from rules_core.systems.wm.transitions import (
    Change,
    apply_damage,
    crippled_systems,
    location,
    power_focus,
    refuse_crippled_movement,
    spend_focus,
    unit_named,
    weapon_profile,
)

BREAK_FOCUS = 1  # each further attempt to break free (L2268-2271)
HEAD = "H"
MOVING = ("slam", "push", "throw", "double_throw")


def cortex_can_spend(jack: Unit) -> None:
    """A crippled Cortex spends no focus for any reason (L3722-3724)."""
    if cortex_crippled(jack):
        raise UserError("wm.cortex_crippled", unit=jack.name)


@dataclass(frozen=True)
class Lock:
    locked: str
    by: str
    system: str  # H, L, R, or "-" (then `weapon` names the weapon held)
    fist: str  # the holder's Open Fist: L, R or "-"
    weapon: str = ""


def _lock(unit: Unit) -> Lock | None:
    raw = unit.extra.get(LOCK_KEY)
    if not isinstance(raw, dict):
        return None
    return Lock(
        locked=unit.name,
        by=str(raw.get("by", "")),
        system=str(raw.get("system", HEAD)),
        fist=str(raw.get("fist", "-")),
        weapon=str(raw.get("weapon", "")),
    )


def locks(state: GameState) -> list[Lock]:
    return [lock for unit in state.units if (lock := _lock(unit)) is not None]


def lock_of(state: GameState, name: str) -> Lock | None:
    """The lock the unit is in, held or holding."""
    key = fold(name)
    return next((lk for lk in locks(state) if key in (fold(lk.locked), fold(lk.by))), None)


ARMS = ("L", "R")


def open_fists(unit: Unit) -> int | None:
    """The Open Fists recorded with /wm gear that are not in a crippled system. None recorded:
    an Open Fist is an arm's weapon, so a warjack has at most one usable per arm not crippled
    (L874-876): 0 with both arms crippled, 1 with one (no double-hand throw, L2207-2211), and
    None with both sound (the player's word)."""
    fists = unit.extra.get("fists")
    found = unit_grid(unit)
    crippled = set(found.crippled()) if found else set()
    if not fists:
        sound = sum(1 for arm in ARMS if arm not in crippled)
        return None if sound == len(ARMS) else sound
    return sum(int(n) for loc, n in fists.items() if loc not in crippled)


def check_power(state: GameState, attacker: str) -> None:
    """Neither model in a lock makes a power attack (L2241-2249)."""
    lock = lock_of(state, attacker)
    if lock is not None:
        raise UserError("wm.lock_no_power", locked=lock.locked, by=lock.by)


def check_weapon(state: GameState, unit: Unit, weapon: str) -> None:
    """A weapon that a lock keeps from attacking: the held system's weapons (or the held weapon)
    for the locked model, the holding fist's location for the holder (L2237-2249)."""
    loc = location(weapon_profile(unit, weapon).get("loc", "-"))
    key = fold(unit.name)
    for lock in locks(state):
        if fold(lock.locked) == key:
            held = lock.system != "-" and loc == lock.system
            if held or (lock.weapon and fold(lock.weapon) == fold(weapon)):
                raise UserError("wm.weapon_locked", unit=unit.name, weapon=weapon, by=lock.by)
        if fold(lock.by) == key and lock.fist != "-" and loc == lock.fist:
            raise UserError("wm.weapon_holding", unit=unit.name, weapon=weapon, locked=lock.locked)


def _release(unit: Unit, notes: list[Note]) -> None:
    lock = _lock(unit)
    if lock is not None:
        del unit.extra[LOCK_KEY]
        notes.append(("wm.note.lock_broken", {"unit": lock.locked, "by": lock.by}))


def break_locks(state: GameState, name: str, notes: list[Note]) -> None:
    """An effect moved or knocked down `name`: every lock it is in breaks (L2277-2283)."""
    key = fold(name)
    for unit in state.units:
        lock = _lock(unit)
        if lock is not None and key in (fold(lock.locked), fold(lock.by)):
            _release(unit, notes)


def break_on_damage(state: GameState, damaged: Unit) -> list[Note]:
    """Damage breaks a lock when it destroys either model, or cripples the system of the fist
    that holds it (L2341-2343); a holding fist not known is gone once both arms are."""
    notes: list[Note] = []
    key = fold(damaged.name)
    damaged_grid = unit_grid(damaged)
    crippled = set(damaged_grid.crippled()) if damaged_grid is not None else set()
    for unit in state.units:
        lock = _lock(unit)
        if lock is None or key not in (fold(lock.locked), fold(lock.by)):
            continue
        gone = lock.fist in crippled if lock.fist != "-" else set(ARMS) <= crippled
        holder_fist_gone = fold(lock.by) == key and gone
        if damaged.destroyed or holder_fist_gone:
            _release(unit, notes)
    return notes


def grab_target(target: Unit, grab: str | None) -> tuple[str, str]:
    """What a lock holds: the head (default), a system (L, R, H; S, D, T in Italian) or a
    weapon of the target by name (its system when it has one)."""
    if not grab:
        return HEAD, ""
    loc = location(grab)
    if loc in ("L", "R", HEAD):
        return loc, ""
    if fold(grab) in ("head", "testa"):
        return HEAD, ""
    loc = location(weapon_profile(target, grab).get("loc", "-"))
    return (loc, "") if loc in ("L", "R", HEAD) else ("-", grab)


def refuse_power(
    attacker: Unit | None, target: Unit | None, kind: str, fist: str | None = None
) -> None:
    """What the target's model type forbids: a headlock or weapon lock grabs only a warjack
    (L2221-2223; this game has no warbeasts), so a warcaster, a solo or troopers
    (`model_kind`) are refused. Then what the attacking warjack's own state forbids before
    any roll (its lock is
    `check_power`): a crippled Cortex spends no focus (L3722-3724), and a power attack costs 1
    (L2212-2213); a crippled Movement forbids a slam and a trample (see
    `refuse_crippled_movement`); the Open Fist the player names for a lock or a throw must not
    be crippled (`check_fist`). No system of its own keeps a warjack from a head-butt or a
    push (L2204, L4359-4361): a crippled head weapon system (H) loses only its weapons
    (L3740-3745), and a head-butt is made with none (L2216-2219)."""
    grabbed = model_kind(target) if target is not None and kind == "headlock" else None
    if target is not None and grabbed not in (None, "warjack"):
        raise UserError(
            "wm.headlock_warjacks_only",
            unit=target.name,
            kind=grabbed,
            values_of="wm.model_kind_is",
            value_key="kind",
        )
    if attacker is None:
        return
    cortex_can_spend(attacker)
    refuse_crippled_movement(attacker, kind)
    if fist and kind in FIST_KINDS:
        check_fist(attacker, fist)


def check_fist(jack: Unit, fist: str) -> None:
    """A warjack never uses an Open Fist in a crippled system for a power attack (L874-876):
    the hand the player names (`L`, `R`, `H`; S, D, T in Italian) is checked against the
    warjack's own grid, whether or not its Open Fists were recorded."""
    loc = location(fist)
    if loc in ("L", "R", HEAD) and loc in crippled_systems(jack):
        raise UserError(f"wm.fist_crippled_{loc}", unit=jack.name)


def holding_fist(jack: Unit, fist: str | None) -> str:
    """The Open Fist that holds: as given, else the only one recorded, else, none recorded,
    the only arm not crippled (an Open Fist is an arm's, L874-876), else `-` (unknown)."""
    if fist:
        loc = location(fist)
        if loc not in ("L", "R", HEAD, "-"):
            raise UserError("wm.no_such_system", system=fist[:3])
        return loc
    recorded = jack.extra.get("fists") or {}
    fists = [loc for loc in recorded if loc != "-"]
    if not recorded and unit_grid(jack) is not None:
        fists = [arm for arm in ARMS if arm not in crippled_systems(jack)]
    return fists[0] if len(fists) == 1 else "-"


def _knock_down(state: GameState, unit: Unit, notes: list[Note]) -> None:
    down = any(fold(c.name) in KNOCKED_DOWN for c in unit.conditions)
    if not down and not unit.destroyed:  # never knocked down twice (L3448)
        unit.conditions.append(Condition(name="knocked_down"))
        notes.append(("wm.note.knocked_down", {"unit": unit.name}))
    break_locks(state, unit.name, notes)


@dataclass(frozen=True)
class PowerOnGame:
    attacker: str | None
    target: str
    kind: str
    collateral: tuple[str, ...] = ()  # units taking collateral damage, in outcome order
    grab: str | None = None  # headlock: what is held
    fist: str | None = None  # headlock: the holding Open Fist
    boost: str | None = None  # hit, damage or both: 1 focus each boosted roll
    models: int = 1  # a trample's models attacked, each boosted separately


def _trample_damage(
    state: GameState, name: str, damages: list[int], notes: list[Note]
) -> GameState:
    """Each trample attack hit a different model of the unit (L2665-2669): the damage goes to
    the models still in play in turn, one each, never two hits pooled on one model."""
    new = state.clone()
    unit = unit_named(new, name)
    if unit_grid(unit) is not None or unit.models == 1:
        if len(damages) > 1:
            raise UserError("wm.trample_models", unit=unit.name, n=len(damages), alive=1)
        return apply_damage(new, name, damages[0], None).state if damages[0] else new
    boxes = unit.wounds_per_model
    alive = [i for i, d in enumerate(model_damage(unit)) if d < boxes]
    if len(damages) > len(alive):
        raise UserError("wm.trample_models", unit=unit.name, n=len(damages), alive=len(alive))
    was_alive = not unit.destroyed
    for model, amount in zip(alive, damages, strict=False):
        notes += damage_model(unit, amount, model + 1)
    if was_alive and unit.destroyed:
        notes += WM.on_destroyed(new, unit)
    return new


def apply_power(
    state: GameState, power: PowerOnGame, out: PowerOutcome, dice: DiceSource | None
) -> Change:
    """A power attack recorded on the game: a warjack spends 1 focus (L2212-2213); the target
    takes the damage (a trample: each model hit its own) and is knocked down when the attack
    says so (L2322, L2388, L2525); each collateral model takes its damage and is knocked down
    (L2400-2414); a headlock that hits becomes a lock; moving or knocking a model down breaks
    its locks (L2277-2283)."""
    new = state.clone()
    notes: list[Note] = []
    if power.attacker is not None:
        check_power(new, power.attacker)
        jack = unit_named(new, power.attacker)
        cortex_can_spend(jack)
        # 1 focus for a warjack's power attack and 1 per boosted roll (`power_focus`).
        paid = spend_focus(
            new, jack.name, power_focus(jack, power.boost, power.models), "wm.note.power_focus"
        )
        new, notes = paid.state, notes + paid.notes
    if power.kind == "trample":
        damages = [out.damage, *(t.damage for t in out.trampled)]
        new = _trample_damage(new, power.target, damages, notes)
    else:
        hit = apply_damage(new, power.target, out.damage, dice)
        new, notes = hit.state, notes + hit.notes
    target = unit_named(new, power.target)
    if out.knocked_down:
        _knock_down(new, target, notes)
    elif out.moved and power.kind == "push" and lock_of(new, target.name) is not None:
        # Neither model in a lock can be pushed (L2276-2277): it stays, and so does the lock.
        notes.append(("wm.note.push_locked", {"unit": target.name}))
    elif out.moved and power.kind in MOVING:
        break_locks(new, target.name, notes)
    for name, amount in zip(power.collateral, out.collateral, strict=True):
        hit = apply_damage(new, name, amount, dice)
        new, notes = hit.state, notes + hit.notes
        _knock_down(new, unit_named(new, name), notes)
    if power.kind == "headlock" and out.moved and power.attacker is not None:
        jack = unit_named(new, power.attacker)
        target = unit_named(new, power.target)
        system, weapon = grab_target(target, power.grab)
        target.extra[LOCK_KEY] = {
            "by": jack.name,
            "system": system,
            "fist": holding_fist(jack, power.fist),
            "weapon": weapon,
        }
        held = {"H": "head", "L": "left", "R": "right"}.get(system, "weapon")
        notes.append((f"wm.note.locked_{held}", {"unit": target.name, "by": jack.name}))
    return Change(new, notes)


def _own_activation(state: GameState, unit: Unit) -> None:
    """A locked model tries to break free at the start of its combat action (p. 51,
    L2254-2256) and a holder lets go during its activation (L2272-2274): in its player's turn
    (with two players or more in the turn order)."""
    current = state.current
    if len(state.order) >= 2 and current is not None and unit.owner != current:
        raise UserError("wm.break_own_turn", unit=unit.name, name=state.player_name(current))


def break_free(
    state: GameState, name: str, dice: DiceSource, *, release: bool = False
) -> tuple[Change, Step | None]:
    """The locked model tries to break free (d6 + STR each; a higher total breaks it; the
    first try of a turn is free, each further one costs a warjack 1 focus), or, with
    `release`, the holder `name` lets go."""
    new = state.clone()
    notes: list[Note] = []
    lock = lock_of(new, name)
    if lock is None:
        raise UserError("wm.no_lock", unit=name)
    locked = unit_named(new, lock.locked)
    if release:
        if fold(lock.by) != fold(name):
            raise UserError("wm.release_holder", unit=lock.by)
        _own_activation(new, unit_named(new, lock.by))
        _release(locked, notes)
        return Change(new, notes), None
    if fold(lock.locked) != fold(name):
        raise UserError("wm.break_locked_only", unit=lock.locked)
    _own_activation(new, locked)
    holder = unit_named(new, lock.by)
    record = locked.extra[LOCK_KEY]
    if record.get("turn") == new.turn_seq:  # a further attempt this turn
        pool = pools(new, locked)
        cortex_can_spend(locked)
        if pool.get("focus", 0) < BREAK_FOCUS:
            raise UserError("wm.break_focus", unit=locked.name)
        pool["focus"] -= BREAK_FOCUS
        notes.append(("wm.note.break_focus", {"unit": locked.name}))
    record["turn"] = new.turn_seq
    mine, theirs = dice.roll(6), dice.roll(6)
    ours = mine + locked.stats.get("str", 0)
    their_total = theirs + holder.stats.get("str", 0)
    broken = ours > their_total
    step = Step(
        name="break_free",
        dice=[mine, theirs],
        modifiers=[
            Modifier(name="str", value=locked.stats.get("str", 0)),
            Modifier(name="target_str", value=holder.stats.get("str", 0)),
        ],
        target=their_total,
        total=ours,
        outcome="broken" if broken else "held",
    )
    if broken:
        _release(locked, notes)
    return Change(new, notes), step
