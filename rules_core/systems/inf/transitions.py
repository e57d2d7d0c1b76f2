"""What Infinity's commands do to the game state, as pure functions: state and input in, the
new state and the notes that explain it out (the command layer loads, calls, saves, renders).

Line references `L123` as in models.py.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field

from rules_core.errors import UserError
from rules_core.game.models import Condition, GameState, Unit, unit_key
from rules_core.rules.text import fold
from rules_core.systems.base import Note
from rules_core.systems.inf import orders, tables
from rules_core.systems.inf.models import AttackOutcome
from rules_core.systems.inf.recovery import HealOutcome
from rules_core.systems.inf.request import must_be_able
from rules_core.systems.inf.system import (
    DIS,
    GROUP_RESOURCES,
    IMM,
    INF,
    LOSS_OF_LT_POOL,
    LT_RESOURCE,
    UNIT_ORDER,
    in_loss_of_lieutenant,
    needs_recount,
    recount,
)

MAX_LOADOUT = 6
# Never named Lieutenant in Recovering command, in any army (L1474-1476); REMs by their type.
NEVER_LIEUTENANT = ("antipode", "hungries")

# The generic game transitions (rules_core.game.transitions) reach every system through the
# registry; a game system may not import them (import contract), so the few this module needs
# are written here for Infinity's own state.


class _Found:
    """Units of a state by name (the command layer has already resolved the user's text)."""

    @staticmethod
    def unit(state: GameState, name: str) -> Unit:
        key = fold(name)
        for unit in state.units:
            if fold(unit.name) == key:
                return unit
        raise UserError("game.no_unit", name=name[:40])


def _damage(state: GameState, name: str, amount: int, notes: list[Note]) -> GameState:
    new = state.clone()
    unit = _Found.unit(new, name)
    alive = not unit.destroyed
    notes += INF.damage_unit(unit, amount, column=None, dice=None)
    if alive and unit.destroyed:
        notes += INF.on_destroyed(new, unit)
    return new


def _add_marker(state: GameState, name: str, marker: str) -> GameState:
    """A permanent IMM / DIS marker (until removed), once."""
    new = state.clone()
    unit = _Found.unit(new, name)
    if all(fold(c.name) != marker for c in unit.conditions):
        unit.conditions.append(Condition(name=marker, until="permanent", rounds_left=None))
    return new


def _spend(state: GameState, owner_key: str, pool: str, amount: int) -> GameState:
    new = state.clone()
    pools = new.resources.setdefault(owner_key, {})
    have = pools.get(pool, 0)
    if amount > have:
        raise UserError("inf.not_enough_orders", have=have, want=amount)
    pools[pool] = have - amount
    return new


# --- settings copied into the game ---------------------------------------------------------------


def keep_retreat_rule(state: GameState, rule: str) -> GameState:
    """The turn-start recount reads the Retreat! rule (setting `retreat`) from the game."""
    new = state.clone()
    new.extra.setdefault("inf", {})["retreat"] = rule
    return new


# --- attacks applied ----------------------------------------------------------------------------


def _mark(
    state: GameState,
    name: str,
    wounds: int,
    killed_state: str,
    imm: bool,
    dis: bool,
    notes: list[Note],
) -> GameState:
    """Wounds on unit `name`; a Shock/Mono kill is applied as W+1 wounds (Dead, L1390-1393);
    the IMM and DIS markers of E/M and ADH."""
    current = _Found.unit(state, name)
    amount = wounds
    if killed_state == "dead":
        amount = max(amount, current.max_wounds - current.damage)
    new = _damage(state, name, amount, notes) if amount else state
    if _Found.unit(new, name).destroyed:
        return new
    if imm:
        new = _add_marker(new, name, IMM)
    if dis:
        new = _add_marker(new, name, DIS)
    return new


def touches_target(out: AttackOutcome) -> bool:
    return bool(out.target_wounds or out.target_state == "dead" or out.target_disabled) or bool(
        out.target_immobilized
    )


def touches_attacker(out: AttackOutcome) -> bool:
    return bool(out.active_wounds or out.active_state == "dead" or out.active_disabled) or bool(
        out.active_immobilized
    )


def apply_attack(
    state: GameState, attacker: str | None, target: str, out: AttackOutcome
) -> tuple[GameState, list[Note]]:
    """The attack's result on `target` (and on `attacker` when it was hit back)."""
    notes: list[Note] = []
    new = state
    if touches_target(out):
        new = _mark(
            new,
            target,
            out.target_wounds,
            out.target_state,
            out.target_immobilized,
            out.target_disabled,
            notes,
        )
    if attacker is not None and touches_attacker(out):
        new = _mark(
            new,
            attacker,
            out.active_wounds,
            out.active_state,
            out.active_immobilized,
            out.active_disabled,
            notes,
        )
    return new, notes


def apply_heal(state: GameState, name: str, out: HealOutcome) -> tuple[GameState, list[Note]]:
    """A Doctor's, MediKit's, AutoMediKit's or Regeneration roll on unit `name`: 1 wound
    recovered (conscious again, its Order back from the next count, L3620-3621), or Dead."""
    notes: list[Note] = []
    unit = _Found.unit(state, name)
    if out.result == "dead":
        return _damage(state, name, unit.max_wounds - unit.damage, notes), notes
    if out.result == "unchanged":
        return state, notes
    new = state.clone()
    healed = _Found.unit(new, name)
    before = orders.unit_state(healed)
    INF.heal_unit(healed, 1)
    if orders.unit_state(healed) != before:
        notes.append((f"inf.note.{orders.unit_state(healed)}", {"unit": healed.name}))
    return new, notes


# --- Orders -------------------------------------------------------------------------------------


def count_orders(state: GameState, user_id: str) -> tuple[GameState, list[Note]]:
    """`user_id`'s Order pools counted now, when a count is due (L573-577: the pool is counted
    at the start of the player's turn): before the game has a turn order, or in their turn
    not counted yet. Once counted, the turn's pool stands: Orders spent are not given back,
    and a model lost meanwhile keeps its Order in this turn's pool, losing it only "for the
    remaining turns" (L576-578). Another player's Orders are counted when their turn starts.
    Either way the state is unchanged and a note says when the next count comes."""
    current = state.current
    player = state.player_name(user_id, "?")
    if current is not None and user_id != current:
        return state, [("inf.note.counted_in_own_turn", {"player": player})]
    if current is not None and not needs_recount(state):
        return state, [("inf.note.counted_at_turn_start", {"player": player})]
    new = state.clone()
    notes = recount(new, user_id)
    return new, notes


def count_first_turn(state: GameState) -> tuple[GameState, list[Note]]:
    """The first turn has no turn start: the current player's Orders are counted when first
    needed. Unchanged when they already were."""
    if not needs_recount(state) or not state.current:
        return state, []
    return count_orders(state, state.current)


class Spent(BaseModel):
    pools: list[str] = Field(default_factory=list)  # the pools the Orders came from, in order


def _in_owners_turn(state: GameState, unit: Unit) -> None:
    """Orders are given in their army's active turn (L488-491, L1223): while another player's
    turn runs, this unit's pools are not the ones in play (a game with no turn yet: any)."""
    if state.current is None or unit.owner == state.current:
        return
    raise UserError(
        "inf.orders_in_owners_turn",
        unit=unit.name,
        owner=state.player_name(unit.owner, "?"),
        current=state.player_name(state.current, "?"),
    )


def spend_orders(
    state: GameState, unit_name: str, n: int, lieutenant: bool
) -> tuple[GameState, Spent, list[Note]]:
    """`n` Orders for the unit: the Lieutenant's Special Order with `lieutenant` (L719-734);
    else its own Irregular Order first (L1795-1803), then its combat group's pool (L532-545),
    or in Loss of Lieutenant the 2 reserve Orders, whatever its group (L1463-1469).
    An Unconscious model may be given an Order, for its Regeneration or AutoMediKit only
    (L1378-1379, L3510-3511); a Dead one may not."""
    new, notes = count_first_turn(state)
    unit = _Found.unit(new, unit_name)
    _in_owners_turn(new, unit)
    if orders.unit_state(unit) == "unconscious" and not unit.destroyed:
        notes.append(("inf.note.unconscious_order", {"unit": unit.name}))
    else:
        must_be_able(unit, "inf.cannot_act")
    owner = f"player:{unit.owner}"
    spent = Spent()
    if lieutenant:
        if not unit.stats.get("lt"):
            raise UserError("inf.not_lieutenant", unit=unit.name)
        new = _spend(new, owner, LT_RESOURCE, n)
        spent.pools.append(LT_RESOURCE)
        return new, spent, notes
    left = n
    ukey = unit_key(unit.name)
    own = new.resources.get(ukey, {}).get(UNIT_ORDER, 0) if unit.stats.get("irr") else 0
    if own:
        use = min(own, left)
        new = _spend(new, ukey, UNIT_ORDER, use)
        spent.pools.append(UNIT_ORDER)
        left -= use
    if left and in_loss_of_lieutenant(new, unit.owner):
        new = _spend(new, owner, GROUP_RESOURCES[1], left)  # where the recount keeps them
        spent.pools.append(LOSS_OF_LT_POOL)
    elif left:
        pool = GROUP_RESOURCES.get(unit.stats.get("group", 1), "orders")
        new = _spend(new, owner, pool, left)
        spent.pools.append(pool)
    return new, spent, notes


NEW_LIEUTENANT_ORDERS = 2  # L1460-1461, L1473-1474


class Named(BaseModel):
    """A new Lieutenant as named: its Orders' pool, and the Lieutenant it replaces."""

    unit: str
    pool: str
    orders: int = NEW_LIEUTENANT_ORDERS
    replaced: list[str] = Field(default_factory=list)
    payers: list[str] = Field(default_factory=list)  # Irregular models that gave their Order


def active_lieutenant(state: GameState, user_id: str) -> Unit | None:
    """The player's Lieutenant when it is neither Unconscious nor Dead (L1460)."""
    return next(
        (
            u
            for u in state.units
            if u.owner == user_id and u.stats.get("lt") and orders.unit_state(u) == "ok"
        ),
        None,
    )


def name_lieutenant(state: GameState, unit_name: str) -> tuple[GameState, Named, list[Note]]:
    """Recovering command (L1460-1477): with its Lieutenant Unconscious or Dead, a player names
    another in their own turn for 2 Orders: at once when the Lieutenant fell in that turn (from
    the new one's combat group pool), or with the 2 Orders of a turn begun in Loss of
    Lieutenant (L1463-1467). Any of the player's models that can act may be named, except a
    REM, an Antipode or one of the Hungries (whatever the army: stats `antipode`, `hungries`),
    and an Irregular one when the army has Regular models (L1474-1476, so in an army of
    Irregular models any other Irregular one may be). It has no Special Order until the next turn
    (L1476-1477); the army has one Lieutenant (L731-734), so the fallen one is one no more.
    In an army of Irregular models, whose Orders are their own, "two of its soldiers" pay
    1 Order each (L1801-1803, read as 2 Orders in all, as for any army): the named model
    first, then the others in the army's order, when the pool can't pay. A refusal spends
    nothing."""
    new, notes = count_first_turn(state)
    unit = _Found.unit(new, unit_name)
    owner = unit.owner
    standing = active_lieutenant(new, owner)
    if standing is not None:
        raise UserError("inf.lieutenant_standing", unit=standing.name)
    if new.current is None or owner != new.current:
        raise UserError(
            "inf.lieutenant_in_own_turn",
            owner=new.player_name(owner, "?"),
            current=new.player_name(new.current, "?"),
        )
    if orders.unit_state(unit) != "ok" or unit.destroyed:
        raise UserError("inf.lieutenant_not_active", unit=unit.name)
    if unit.stats.get("type") == tables.REM:
        raise UserError("inf.lieutenant_not_rem", unit=unit.name)
    for kind in NEVER_LIEUTENANT:  # L1474-1476: told apart from Irregular troops
        if unit.stats.get(kind):
            raise UserError(f"inf.lieutenant_not_{kind}", unit=unit.name)
    mine = [u for u in new.units if u.owner == owner]
    if unit.stats.get("irr") and any(not u.stats.get("irr") for u in mine):
        raise UserError("inf.lieutenant_not_irregular", unit=unit.name)
    key = f"player:{owner}"
    payers: list[str] = []
    if in_loss_of_lieutenant(new, owner):
        new = _spend(new, key, GROUP_RESOURCES[1], NEW_LIEUTENANT_ORDERS)
        pool = LOSS_OF_LT_POOL
    elif all(u.stats.get("irr") for u in mine) and (
        new.resources.get(key, {}).get(GROUP_RESOURCES[1], 0) < NEW_LIEUTENANT_ORDERS
    ):
        new, payers = _irregular_payers(new, unit, mine)
        pool = UNIT_ORDER
    else:
        pool = GROUP_RESOURCES.get(unit.stats.get("group", 1), GROUP_RESOURCES[1])
        new = _spend(new, key, pool, NEW_LIEUTENANT_ORDERS)
    named = Named(unit=unit.name, pool=pool, payers=payers)
    for other in new.units:
        if other.owner == owner and other.stats.get("lt") and other.name != unit.name:
            other.stats["lt"] = 0
            named.replaced.append(other.name)
    _Found.unit(new, unit.name).stats["lt"] = 1
    new.resources.setdefault(key, {})[LT_RESOURCE] = 0  # from the next turn (L1476-1477)
    return new, named, notes


def _irregular_payers(
    state: GameState, unit: Unit, mine: list[Unit]
) -> tuple[GameState, list[str]]:
    """1 own Order from each of two Irregular models that can act, the named one first."""
    order = [unit, *(u for u in mine if u.name != unit.name)]
    able = [
        u
        for u in order
        if orders.unit_state(u) == "ok"
        and not u.destroyed
        and state.resources.get(unit_key(u.name), {}).get(UNIT_ORDER, 0) > 0
    ][:NEW_LIEUTENANT_ORDERS]
    if len(able) < NEW_LIEUTENANT_ORDERS:
        raise UserError("inf.not_enough_orders", have=len(able), want=NEW_LIEUTENANT_ORDERS)
    for payer in able:
        state = _spend(state, unit_key(payer.name), UNIT_ORDER, 1)
    return state, [u.name for u in able]


COORDINATED_MAX = 4  # L1308-1309


class Coordinated(BaseModel):
    """A Coordinated Order as spent: its models, where each one's Order came from, and the
    Burst each shoots with (halved, L1300-1301) for the bursts it was asked about."""

    units: list[str]
    pools: list[str]
    bursts: dict[int, int] = Field(default_factory=dict)  # weapon Burst -> coordinated Burst


def spend_coordinated(
    state: GameState, names: list[str]
) -> tuple[GameState, Coordinated, list[Note]]:
    """One Coordinated Order (L1265-1311): 1 Order for EACH model (L1269-1270), 2 to 4 models
    (L1308-1309) of the same combat group and the same training, Regular or Irregular
    (L1309-1311); none may be Unconscious or Dead (L1374-1389). All or nothing: a refusal spends
    no Order. Not declarable in ARO (L1273); each enemy model gets ONE ARO against the whole
    group (L1306-1307); in a shooting Coordinated Order each Burst is halved, rounding up,
    minimum 1 (L1300-1301, `tables.coordinated_burst`)."""
    new, notes = count_first_turn(state)
    units = [_Found.unit(new, n) for n in names]
    for unit in units:
        must_be_able(unit, "inf.cannot_act")  # no Coordinated Order while Unconscious
    keys = [fold(u.name) for u in units]
    if len(set(keys)) != len(keys) or not 2 <= len(units) <= COORDINATED_MAX:
        raise UserError("inf.coordinated_size", most=COORDINATED_MAX)
    owners = {u.owner for u in units}
    groups = {u.stats.get("group", 1) for u in units}
    training = {bool(u.stats.get("irr")) for u in units}
    if len(owners) > 1 or len(groups) > 1:
        raise UserError("inf.coordinated_group")
    if len(training) > 1:
        raise UserError("inf.coordinated_training")
    pools: list[str] = []
    for unit in units:
        new, spent, said = spend_orders(new, unit.name, 1, False)
        pools += spent.pools
        notes += said
    bursts = {b: tables.coordinated_burst(b) for b in range(1, 7)}
    out = Coordinated(units=[u.name for u in units], pools=pools, bursts=bursts)
    return new, out, notes


class Pools(BaseModel):
    """One player's Orders as they stand."""

    groups: dict[str, int]  # pool resource -> Orders left
    lt: int
    irregular: dict[str, int]  # Irregular unit -> its own Order left


def pools_of(state: GameState, user_id: str) -> Pools:
    pools = state.resources.get(f"player:{user_id}", {})
    return Pools(
        groups={name: pools.get(name, 0) for name in GROUP_RESOURCES.values()},
        lt=pools.get(LT_RESOURCE, 0),
        irregular={
            u.name: state.resources.get(unit_key(u.name), {}).get(UNIT_ORDER, 0)
            for u in state.units
            if u.owner == user_id and u.stats.get("irr")
        },
    )


# --- Retreat! -----------------------------------------------------------------------------------


class RetreatRow(BaseModel):
    player: str | None
    lost: int
    total: int
    morat: bool
    retreat: bool
    share: float  # lost / total
    limit: int  # the threshold in percent: 60, or 75 with Morat (L1452-1459, L2601-2603)


def retreat_row(player: str | None, lost: int, total: int, morat: bool, rule: str) -> RetreatRow:
    if total <= 0:
        raise UserError("inf.retreat_needs_both")
    return RetreatRow(
        player=player,
        lost=lost,
        total=total,
        morat=morat,
        retreat=orders.in_retreat(lost, total, morat=morat, rule=rule),
        share=lost / total,
        limit=round(orders.retreat_threshold(morat) * 100),
    )


def retreat_rows(state: GameState, morat: bool, rule: str) -> list[RetreatRow]:
    """Each player's points lost (Unconscious and Dead count, L1388-1389) against the total."""
    rows = []
    for player in state.players:
        mine = [u for u in state.units if u.owner == player.user_id]
        total = sum(u.stats.get("pts", 0) for u in mine)
        lost = sum(u.stats.get("pts", 0) for u in mine if orders.unit_state(u) != "ok")
        m = morat or any(u.stats.get("morat") for u in mine)
        rows.append(
            RetreatRow(
                player=player.name,
                lost=lost,
                total=total,
                morat=m,
                retreat=orders.in_retreat(lost, total, morat=m, rule=rule),
                share=lost / total if total else 0.0,
                limit=round(orders.retreat_threshold(m) * 100),
            )
        )
    if not rows:
        raise UserError("inf.no_players")
    return rows


# --- weapons ------------------------------------------------------------------------------------


def custom_weapons(state: GameState | None) -> dict[str, dict[str, Any]]:
    """The weapons the players added to this game, by lower-case name."""
    if state is None or state.system != "inf":
        return {}
    stored = state.extra.get("inf", {}).get("weapons", {})
    return dict(stored) if isinstance(stored, dict) else {}


def refuse_builtin(name: str) -> None:
    """The book's own weapons (the Rifle, L2845-2865) cannot be redefined."""
    if name.strip().lower() in tables.BUILTIN:
        raise UserError("inf.builtin_weapon", name=name[:30])


def add_weapon(state: GameState, weapon: tables.Weapon) -> GameState:
    new = state.clone()
    _store_weapon(new, weapon)
    return new


def _store_weapon(state: GameState, weapon: tables.Weapon) -> None:
    """`weapon` into the game's weapons (`state` mutable), replacing one of its name."""
    key = weapon.name.strip().lower()
    refuse_builtin(weapon.name)
    stored = state.extra.setdefault("inf", {}).setdefault("weapons", {})
    if key not in stored and len(stored) >= tables.MAX_WEAPONS:
        raise UserError("inf.too_many_weapons", limit=tables.MAX_WEAPONS)
    stored[key] = weapon.model_dump()


def remove_weapon(state: GameState, name: str) -> GameState:
    key = name.strip().lower()
    known = custom_weapons(state)
    # what may be removed: the players' weapons, named as they wrote them
    mine = ", ".join(str(w.get("name") or k) for k, w in known.items()) or "-"
    if key not in known and key in tables.BUILTIN:  # the book's own (Rifle...) stay
        raise UserError(
            "inf.builtin_not_removable", valid=mine, **tables.named(tables.BUILTIN[key])
        )
    if key not in known:
        raise UserError("inf.unknown_weapon", name=name[:30], valid=mine)
    new = state.clone()
    new.extra.setdefault("inf", {}).setdefault("weapons", {}).pop(key, None)
    for unit in carriers(new, name):  # no loadout keeps a weapon the game no longer has
        unit.extra["weapons"] = [w for w in unit.extra["weapons"] if str(w).lower() != key]
    return new


def carriers(state: GameState, name: str) -> list[Unit]:
    """The units whose loadout names the game weapon `name`."""
    key = name.strip().lower()
    return [u for u in state.units if key in {str(w).lower() for w in u.extra.get("weapons") or []}]


def equip(state: GameState, unit_name: str, names: list[str]) -> tuple[GameState, list[str]]:
    """The unit's loadout (up to 6 weapons), each a known weapon of the game."""
    if not names or len(names) > MAX_LOADOUT:
        raise UserError("inf.bad_loadout")
    weapons = custom_weapons(state)
    found = [tables.loadout_name(n, weapons) for n in names]
    new = state.clone()
    unit = _Found.unit(new, unit_name)
    unit.extra["weapons"] = found
    return new, found


# --- a roster's weapons (/army add, load, import) ------------------------------------------------

# The roster field names a weapon's range bands may come under: `bands=` in the text format,
# a BattleScribe profile's `Range` characteristic (kept as printed, `0-20/+3, 20-40/0`).
BAND_FIELDS = ("bands", "range", "rng", "gittata", "distanza", "fasce")
_ROSTER_BAND = re.compile(r"^\s*\d{1,3}\s*-\s*(\d{1,3})\s*/\s*([+-]?\d{1,2})\s*$")


def _roster_bands(values: dict[str, str], kept: dict[str, str]) -> str | None:
    """The bands as `/inf weapon add` takes them (`20:+3,40:0`), from `20:+3,40:0` or the
    printed `0-20/+3, 20-40/0`; None when the roster gives none."""
    text = values.get("bands") or next(
        (v for k, v in kept.items() if fold(k).replace(" ", "") in BAND_FIELDS), None
    )
    if text is None or not text.strip() or text.strip() in ("-", "—"):
        return None
    parts = []
    for part in text.split(","):
        m = _ROSTER_BAND.match(part)
        parts.append(f"{m.group(1)}:{m.group(2)}" if m else part)
    return ",".join(parts)


def _burst(values: dict[str, str]) -> int:
    raw = values.get("burst")
    if raw is None or not raw.strip():
        raise UserError("inf.weapon_missing", option="burst")
    if not raw.strip().isdecimal() or not 1 <= int(raw.strip()) <= tables.MAX_BURST:
        raise UserError("army.not_a_number", field="burst", value=raw[:20])
    return int(raw.strip())


def roster_weapon(
    state: GameState, unit: Unit, name: str, values: dict[str, str], kept: dict[str, str]
) -> list[Note]:
    """A weapon of a roster joins `unit`'s loadout (`state` and `unit` in it mutable), as
    `/inf weapon add` then `/inf loadout` would put it: a book weapon (Rifle, Fucile, CC
    Weapon, Knife) by its name; any other one becomes a game weapon made by `make_weapon`
    from its DAM, B, ammunition and range bands (none known: used without distance=, as the
    book's CC weapons, and the note says so, with the command that gives it its bands). A
    game weapon of that name with other values is never replaced: this one is refused with a
    note. Raises UserError when the values can't make a weapon."""
    custom = custom_weapons(state)
    notes: list[Note] = []
    key = name.strip().lower()
    if key in tables.BUILTIN and key not in custom:
        _load(unit, tables.loadout_name(name, custom), notes)
        return notes
    if not values:  # only a name: a weapon the game already has
        _load(unit, tables.find_weapon(name, custom).name, notes)
        return notes
    if "dam" not in values:
        raise UserError("inf.weapon_missing", option="dam")
    bands = _roster_bands(values, kept)
    made = tables.make_weapon(
        name, bands, values["dam"], _burst(values), values.get("ammo"), values.get("template")
    )
    stored = custom.get(made.name.lower())
    if stored is not None:
        have = tables.Weapon.model_validate(stored)
        if have.model_copy(update={"name": made.name}) != made:
            params = {"unit": unit.name, "weapon": have.name}
            found = {"dam": have.damage_text(), "burst": have.burst}
            notes.append(("inf.roster_weapon_conflict", {**params, **found}))
            return notes
    else:
        _store_weapon(state, made)
        if bands is None and made.ph_dam is None:  # PH-based Damage: a CC weapon (L3153-3157)
            said = {"dam": made.dam, "burst": made.burst}
            notes.append(("inf.roster_no_bands", {"unit": unit.name, "weapon": made.name, **said}))
    _load(unit, made.name if stored is None else str(stored.get("name", made.name)), notes)
    return notes


def _load(unit: Unit, name: str, notes: list[Note]) -> None:
    """`name` joins the unit's loadout, once, while it has room (MAX_LOADOUT)."""
    loadout = [str(n) for n in unit.extra.get("weapons") or []]
    if fold(name) in {fold(n) for n in loadout}:
        return
    if len(loadout) >= MAX_LOADOUT:
        notes.append(
            ("inf.roster_loadout_full", {"unit": unit.name, "weapon": name, "limit": MAX_LOADOUT})
        )
        return
    unit.extra["weapons"] = [*loadout, name]


RosterWeapon = tuple[str, dict[str, str], dict[str, str]]  # name, the game's fields, kept


def _weapon_values(weapon: tables.Weapon) -> dict[str, str]:
    """A game weapon's profile as a roster writes it, read back by `roster_weapon`."""
    values = {"dam": weapon.damage_text(), "burst": str(weapon.burst), "ammo": weapon.ammo}
    if weapon.bands:
        values["bands"] = tables.bands_option(weapon)
    if weapon.template != "none":
        values["template"] = tables.template_option(weapon)
    return values


def _made(name: str, values: dict[str, str], kept: dict[str, str]) -> tables.Weapon | None:
    """The weapon a roster entry makes (None when it makes none), as `roster_weapon` would."""
    if not values:
        return None
    try:
        return tables.make_weapon(
            name,
            _roster_bands(values, kept),
            values.get("dam", ""),
            _burst(values),
            values.get("ammo"),
            values.get("template"),
        )
    except (UserError, ValueError):
        return None


def loadout_roster(state: GameState, unit: Unit, stored: list[RosterWeapon]) -> list[RosterWeapon]:
    """The unit's weapons as `/army save` keeps them: its loadout as it is now in the game
    (`/inf loadout`, and each game weapon's profile as `/inf weapon add` last set it), not as
    it was imported. A roster entry (`stored`) that still makes the same weapon is kept as
    given (its printed fields too); a changed one is written from the game's profile; a book
    weapon (Rifle, Fucile...) or one the game no longer has is its name alone."""
    custom = custom_weapons(state)
    by_name = {fold(name): (name, values, kept) for name, values, kept in stored}
    out: list[RosterWeapon] = []
    for name in [str(n) for n in unit.extra.get("weapons") or []]:
        entry = by_name.get(fold(name))
        key = name.strip().lower()
        if key not in custom:  # a book weapon, or one removed from the game: by name
            out.append(entry if entry is not None else (name, {}, {}))
            continue
        weapon = tables.Weapon.model_validate(custom[key])
        if entry is not None:
            made = _made(*entry)
            if made is not None and made.model_copy(update={"name": weapon.name}) == weapon:
                out.append(entry)
                continue
        kept = {
            k: v
            for k, v in (entry[2] if entry is not None else {}).items()
            if fold(k).replace(" ", "") not in BAND_FIELDS  # the bands are the game's now
        }
        out.append((weapon.name, _weapon_values(weapon), kept))
    return out
