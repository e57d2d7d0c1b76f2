"""WARMACHINE as a game-state system: the unit card, damage boxes and grids, the turn's
phases and focus (digest §4).

- Card: SPD STR MAT RAT DEF ARM CMD (FOCUS for warcasters), `base` (mm) and `boxes`, the
  damage boxes of one model (1 for most troopers: 1 damage disables them, L3635-3638). Warjacks and
  warcasters take a six-column grid instead (`grid=` on /unit add, see grid.py).
- Turn (L1431-1489): Maintenance (all focus removed; continuous effects roll to expire,
  then fire and corrosion hit), Control (casters replenish focus to FOCUS, allocate at most
  3 to each warjack, pay upkeep), Activation. `start_turn` does the bookkeeping the rules fix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, cast

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import unit_key
from rules_core.rules.text import fold
from rules_core.systems.base import (
    ConditionSpec,
    GameSystem,
    Label,
    Note,
    ResourceSpec,
    StatSpec,
    refuse_destroyed,
)
from rules_core.systems.wm import grid as grids

if TYPE_CHECKING:
    from rules_core.game.models import GameState, Unit

FIRE_POW = 12  # L3994-3999: fire is a POW 12 damage roll each Maintenance Phase
CORROSION_DAMAGE = 1  # L3986-3993: corrosion does 1 damage point
EXPIRES_ON = 2  # L3959-3962: a d6 of 1 or 2 ends a continuous effect
POWER_FOCUS_COST = 1  # a warjack spends 1 focus for a power attack (p. 50, L2212-2213)
MAX_ALLOCATION = 3  # L1481-1482, L4418-4435: at most 3 focus allocated to a 'jack per turn
KNOWN_SYSTEMS = ("A", "C", "G", "H", "L", "M", "R")  # L3702-3711, English letters
CONTROL_PHASE = "control"
# The states the rules read, each under one stored name, the Italian book's word an alias, and
# shown as the reader's book names it (conditions.wm.*): knocked down (p. 63, L3430-3456),
# stationary (p. 64, L3530-3532), the continuous effects fire and corrosion (p. 70,
# L3955-3999), and a run this activation (p. 46, L1753-1768; no feat after it, L4444), which
# ends with the turn. Typed under another name they were stored twice ('knocked_down' from a
# head-butt beside a typed 'atterrato') and drawn as the code on Italian screens.
CONDITIONS = (
    ConditionSpec(name="knocked_down", aliases=("knocked down", "atterrato", "a terra")),
    ConditionSpec(name="stationary", aliases=("immobilizzato",)),
    ConditionSpec(name="fire", aliases=("fuoco",)),
    ConditionSpec(name="corrosion", aliases=("corrosione",)),
    ConditionSpec(
        name="ran", until="end-of-turn", aliases=("corso", "corsa", "ha corso", "ha_corso")
    ),
)


def _names(canonical: str) -> tuple[str, ...]:
    """Every folded name a stored condition may carry (saved games keep what was typed)."""
    spec = next(c for c in CONDITIONS if c.name == canonical)
    names = (spec.name, *spec.aliases)
    return tuple(dict.fromkeys(fold(n) for n in (*names, *(n.replace("_", " ") for n in names))))


KNOCKED_DOWN = _names("knocked_down")
CONTINUOUS = {name: kind for kind in ("fire", "corrosion") for name in _names(kind)}


def unit_grid(unit: Unit) -> grids.Grid | None:
    raw = unit.extra.get("grid")
    return grids.Grid.model_validate(raw) if raw else None


# The book's model types (L393-396): warcasters, warjacks, troopers (the models of a unit,
# L490-493) and solos (independent models, L459-461). What differs: only troopers combine
# their attacks (L3269-3271, L3313), focus is allocated only to warjacks (L1168), and only a
# warjack pays focus for a power attack (L2199-2213).
ModelKind = Literal["warcaster", "warjack", "solo", "trooper"]
MODEL_KINDS: tuple[ModelKind, ...] = ("warcaster", "warjack", "solo", "trooper")
KIND_KEY = "kind"  # Unit.extra: the kind the player set (/unit add kind=, /wm kind)
KIND_ALIASES = {  # the book's Italian words, and short English ones
    "solitario": "solo",
    "truppa": "trooper",
    "membro_della_truppa": "trooper",
    "soldato": "trooper",  # a Grunt, a trooper (L507-508)
    "unita": "trooper",
    "unit": "trooper",
    "caster": "warcaster",
    "jack": "warjack",
}


def parse_model_kind(text: str) -> ModelKind:
    """`solitario` -> "solo"; an unknown word is refused, listing the valid ones."""
    word = fold(text.strip()).replace(" ", "_").replace("-", "_").replace("'", "_")
    word = KIND_ALIASES.get(word, word)
    if word in MODEL_KINDS:
        return word
    raise UserError(
        "wm.bad_model_kind",
        kind=text[:30],
        valid=", ".join(MODEL_KINDS),
        values_of="values.kind",
    )


def model_kind(unit: Unit) -> ModelKind | None:
    """The unit's model type: as the player set it, else what its card shows for certain: a
    FOCUS stat, a warcaster (L4458-4459); a damage grid, a warjack (L3644-3647); several
    models, troopers of a unit (a group of solos bought together, as Scrap Thralls, L1277-1285,
    is set as solos). One model with neither is None: a solo, or a warjack typed without its
    grid; each rule then takes what that model count alone decides, or the player's word."""
    given = unit.extra.get(KIND_KEY)
    if given in MODEL_KINDS:
        return cast("ModelKind", given)
    if unit.stats.get("focus"):
        return "warcaster"
    if unit_grid(unit) is not None:
        return "warjack"
    if unit.models > 1:
        return "trooper"
    return None


def pools(state: GameState, unit: Unit) -> dict[str, int]:
    return state.resources.setdefault(unit_key(unit.name), {})


LOCK_KEY = "lock"  # Unit.extra: the lock holding the unit (power_state)
SHIELD_ARM = 2  # L877-883
BUCKLER_ARM = 1  # L840-846


def shield_arm(unit: Unit, *, back: bool) -> int:
    """ARM from the unit's stored shields (+2 each) and bucklers (+1 each), none against damage
    from the back arc, while the weapon system carrying it is crippled, or while a weapon lock
    holds that system (L843-846, L880-883, L3750-3752)."""
    if back:
        return 0
    grid_ = unit_grid(unit)
    crippled = set(grid_.crippled()) if grid_ else set()
    lock = unit.extra.get(LOCK_KEY)  # power_state's record of a lock on this unit
    if isinstance(lock, dict) and lock.get("system") in ("L", "R"):
        crippled.add(str(lock["system"]))
    total = 0
    for kind, arm in (("shields", SHIELD_ARM), ("bucklers", BUCKLER_ARM)):
        for location, count in (unit.extra.get(kind) or {}).items():
            if location not in crippled:
                total += arm * int(count)
    return total


class WarmachineSystem(GameSystem):
    def setup_unit(self, state: GameState, unit: Unit, options: dict[str, str]) -> None:
        options = dict(options)
        text = options.pop("grid", None)
        kind = options.pop(KIND_KEY, None)
        if kind:
            unit.extra[KIND_KEY] = parse_model_kind(kind)
        if options:
            raise UserError("game.no_unit_options", system=self.id, option=next(iter(options)))
        if text:
            _set_grid(unit, text)
        if unit.stats.get("focus"):
            pools(state, unit)["focus"] = unit.stats["focus"]  # L1395-1403, L4458-4459

    def update_unit(self, state: GameState, unit: Unit, options: dict[str, str]) -> None:
        """`/unit set NAME kind=solo grid=...`: the model type may change; a grid is given to a
        unit that has none and no damage yet (an imported warjack: BattleScribe's files have
        no grid), never changed (the marks on it would move)."""
        options = dict(options)
        kind = options.pop(KIND_KEY, None)
        text = options.pop("grid", None)
        super().update_unit(state, unit, options)
        if text:
            if unit_grid(unit) is not None:
                raise UserError("wm.grid_already", unit=unit.name)
            if unit.damage:
                raise UserError("wm.grid_after_damage", unit=unit.name)
            _set_grid(unit, text)
        if kind:
            unit.extra[KIND_KEY] = parse_model_kind(kind)

    def check_condition(self, unit: Unit, condition: str) -> None:
        if fold(condition).strip().replace(" ", "_") in RAN:
            refuse_run(unit)

    def damage_unit(
        self, unit: Unit, amount: int, *, column: int | None, dice: DiceSource | None
    ) -> list[Note]:
        grid = unit_grid(unit)
        if grid is None:
            if column is not None:
                raise UserError("wm.column_needs_grid", unit=unit.name)
            return damage_model(unit, amount, None)
        return self._damage_grid(unit, grid, amount, column, dice)

    def _damage_grid(
        self,
        unit: Unit,
        grid: grids.Grid,
        amount: int,
        column: int | None,
        dice: DiceSource | None,
    ) -> list[Note]:
        notes: list[Note] = []
        if amount <= 0 or grid.destroyed:
            return notes
        if column is None:  # L3648-3650: a d6 picks the column
            column = (dice or DiceSource.random()).roll(6)
            notes.append(("wm.note.column_rolled", {"unit": unit.name, "column": column}))
        before = set(grid.crippled())
        grid, marked = grids.apply_damage(grid, amount, column)
        unit.extra["grid"] = grid.model_dump(mode="json")
        unit.damage = len(grid.marks)
        notes.append(("wm.note.boxes", {"unit": unit.name, "n": len(marked)}))
        for system in grid.crippled():
            if system not in before:
                key = f"crippled_{system}" if system in KNOWN_SYSTEMS else "crippled"
                notes.append((f"wm.note.{key}", {"unit": unit.name, "system": system}))
        if grid.destroyed:
            notes.append(("wm.note.disabled", {"unit": unit.name}))
        return notes

    def damage_one_model(self, unit: Unit, amount: int, model: int) -> list[Note]:
        """A hit on the named trooper (L3633-3643); a grid is one model's damage boxes."""
        if unit_grid(unit) is not None:
            raise UserError("wm.model_needs_troopers", unit=unit.name)
        return damage_model(unit, amount, model)

    def after_damage(self, state: GameState, unit: Unit) -> list[Note]:
        if cortex_crippled(unit):
            pools(state, unit).pop("focus", None)  # a crippled Cortex loses all focus (L3722)
        # locks are power attacks' state, which builds on this module: imported at call time
        from rules_core.systems.wm.power_state import break_on_damage

        return break_on_damage(state, unit)

    def heal_unit(self, unit: Unit, amount: int) -> None:
        refuse_destroyed(unit)
        grid = unit_grid(unit)
        if grid is None:
            heal_models(unit, amount)
            return
        grid, _ = grids.heal(grid, amount)
        unit.extra["grid"] = grid.model_dump(mode="json")
        unit.damage = len(grid.marks)

    def draw_unit(self, unit: Unit, label: Label) -> str | None:
        # a system's letter as the reader's book prints it (S, D, T for L, R, H in Italian,
        # L3702-3711); a letter the book does not name stays as typed
        grid = unit_grid(unit)
        if grid is None:
            return None

        def letter(key: str) -> str:
            return label(f"letter.{key}") if key in KNOWN_SYSTEMS else key

        drawing = grids.draw(grid, letter)
        crippled = [letter(k) for k in grid.crippled()]
        return drawing + ("\n✗ " + " ".join(crippled) if crippled else "")

    def start_turn(self, state: GameState, dice: DiceSource | None) -> list[Note]:
        """Maintenance and Control bookkeeping for the player whose turn begins."""
        player = state.current
        if player is None:
            return []
        source = dice or DiceSource.random()
        mine = [u for u in state.units if u.owner == player and not u.destroyed]
        notes: list[Note] = [("wm.note.maintenance", {})]
        # A knocked-down model stands up in its next activation, or in its controller's next
        # turn when knocked down during that controller's turn (L3443-3447): either way, in
        # the turn beginning now; standing costs its movement or action (L3454-3456).
        for unit in mine:
            down = [c for c in unit.conditions if fold(c.name) in KNOCKED_DOWN]
            if down:
                unit.conditions = [c for c in unit.conditions if c not in down]
                notes.append(("wm.note.stands_up", {"unit": unit.name}))
        # Maintenance 1: remove all focus points from your models (L1467).
        for unit in mine:
            pool = state.resources.get(unit_key(unit.name))
            if pool and pool.get("focus"):
                pool["focus"] = 0
            unit.extra.pop("allocated", None)
        # Maintenance 2: roll for every continuous effect first, then the remaining ones
        # take effect together (L1468-1471, L3957-3965).
        remaining: list[tuple[Unit, str]] = []
        for unit in mine:
            kept = []
            for cond in unit.conditions:
                kind = CONTINUOUS.get(fold(cond.name))
                if kind is None:
                    kept.append(cond)
                    continue
                face = source.roll(6)
                if face <= EXPIRES_ON:
                    notes.append((f"wm.note.{kind}_expired", {"unit": unit.name, "d6": face}))
                    continue
                kept.append(cond)
                remaining.append((unit, kind))
                notes.append((f"wm.note.{kind}_stays", {"unit": unit.name, "d6": face}))
            unit.conditions = kept
        for unit, kind in remaining:
            if kind == "corrosion":
                amount = CORROSION_DAMAGE
                notes.append(("wm.note.corrosion", {"unit": unit.name}))
            else:
                # fire never burns from the back arc: shields count (L843-846, L880-883)
                arm = unit.stats.get("arm", 0) + shield_arm(unit, back=False)
                faces = [source.roll(6), source.roll(6)]  # 2d6 + 12 against ARM
                total = sum(faces) + FIRE_POW
                amount = max(0, total - arm)
                notes.append(
                    (
                        "wm.note.fire",
                        {"unit": unit.name, "dice": faces, "total": total, "arm": arm, "n": amount},
                    )
                )
            notes += self.damage_unit(unit, amount, column=None, dice=source)
        # Control 1: casters replenish focus to their current FOCUS (L1478-1480).
        for unit in mine:
            focus = unit.stats.get("focus", 0)
            if focus and not unit.destroyed:
                pools(state, unit)["focus"] = focus
                notes.append(("wm.note.focus", {"unit": unit.name, "n": focus}))
        return notes


def model_damage(unit: Unit) -> list[int]:
    """Damage marked on each model of a unit without a grid. Kept in `unit.extra` once a unit
    has been hit model by model; before that (or after its size changed) the unit's damage
    is read as whole models filled in order, as it used to be recorded."""
    boxes = unit.wounds_per_model
    marked = unit.extra.get("model_damage")
    if isinstance(marked, list) and len(marked) == unit.models:
        return [min(boxes, max(0, int(d))) for d in marked]
    left = unit.damage
    out = []
    for _ in range(unit.models):
        out.append(min(boxes, left))
        left -= out[-1]
    return out


def _save_models(unit: Unit, marked: list[int]) -> None:
    if unit.models > 1:  # a single model's damage is the unit's
        unit.extra["model_damage"] = marked
    unit.damage = sum(marked)


def damage_model(unit: Unit, amount: int, model: int | None) -> list[Note]:
    """One hit damages one model (L3633-3643): it marks at most the boxes that model has left
    and the excess is lost (L3764-3765); a model without boxes is disabled by 1 damage point
    (L3635-3638). The model is `model` (1-based) when the player names it, else the first one
    already wounded (a hit on a unit usually goes on), else the first one still in play."""
    boxes = unit.wounds_per_model
    marked = model_damage(unit)
    if model is not None and not 1 <= model <= unit.models:
        raise UserError("wm.no_such_model", unit=unit.name, models=unit.models)
    alive = [i for i, d in enumerate(marked) if d < boxes]
    if amount <= 0 or not alive:
        return []
    if model is not None:
        pick = model - 1
        if pick not in alive:
            raise UserError("wm.model_disabled_already", unit=unit.name, model=model)
    else:
        pick = next((i for i in alive if marked[i] > 0), alive[0])
    taken = min(amount, boxes - marked[pick])
    marked[pick] += taken
    _save_models(unit, marked)
    notes: list[Note] = []
    if unit.models > 1:
        params = {"unit": unit.name, "model": pick + 1, "n": taken, "lost": amount - taken}
        notes.append(("wm.note.model_damage", params))
        if marked[pick] == boxes:
            notes.append(("wm.note.model_disabled", {"unit": unit.name, "model": pick + 1}))
    if unit.destroyed:
        # a unit of several models has no one gender to agree with: said of its models
        key = "wm.note.unit_disabled" if unit.models > 1 else "wm.note.disabled"
        notes.append((key, {"unit": unit.name}))
    return notes


def heal_models(unit: Unit, amount: int) -> None:
    """Heal damage on the models still in play first (a wounded model before a disabled one),
    most recent damage first (L3859-3866: healing removes damage points from a model)."""
    boxes = unit.wounds_per_model
    marked = model_damage(unit)
    order = [i for i in range(unit.models) if 0 < marked[i] < boxes]
    order += [i for i in reversed(range(unit.models)) if marked[i] == boxes]
    for i in order:
        healed = min(amount, marked[i])
        marked[i] -= healed
        amount -= healed
        if amount <= 0:
            break
    _save_models(unit, marked)


# A condition recording that the model ran this activation (/unit cond NAME add ran
# until=end-of-turn): refused when it can't run (`refuse_run`), read by the feat rule.
RAN = tuple(n.replace(" ", "_") for n in _names("ran"))


def refuse_run(unit: Unit) -> None:
    """A model whose Movement system is crippled can't run (p. 67, L3734-3735), nor can a
    warjack whose Cortex is (`refuse_paid_move`)."""
    grid = unit_grid(unit)
    if grid is not None and "M" in grid.crippled():
        raise UserError("wm.movement_no_run", unit=unit.name)
    refuse_paid_move(unit, "run")


def refuse_paid_move(unit: Unit, move: Literal["run", "charge"]) -> None:
    """A warjack spends 1 focus to run or to charge (p. 46, L1766-1768; p. 47, L1847-1849) and
    one whose Cortex is crippled spends none (p. 67, L3731-3733): it can do neither. Other
    models pay nothing for them."""
    if cortex_crippled(unit) and model_kind(unit) in (None, "warjack"):
        raise UserError(f"wm.cortex_no_{move}", unit=unit.name)


def _set_grid(unit: Unit, text: str) -> None:
    """A warjack's damage grid: its boxes are the model's damage capacity (p. 65,
    L3644-3647)."""
    if unit.models != 1:
        raise UserError("wm.grid_single_model")
    grid = grids.parse_grid(text)
    unit.extra["grid"] = grid.model_dump(mode="json")
    unit.wounds_per_model = grid.boxes
    unit.stats["boxes"] = grid.boxes


def cortex_crippled(unit: Unit) -> bool:
    """A warjack whose Cortex is crippled: it has no focus, takes none and spends none
    (L3722-3724)."""
    grid = unit_grid(unit)
    return grid is not None and "C" in grid.crippled()


def allocate(state: GameState, caster: Unit, jack: Unit, amount: int) -> None:
    """Control Phase step 2: move focus from a caster to a warjack of the same player, at
    most 3 allocated per 'jack per turn; a crippled Cortex takes none (L3722-3724)."""
    if caster.owner != jack.owner:
        raise UserError("wm.allocate_same_owner")
    if not caster.stats.get("focus"):
        raise UserError("wm.not_a_caster", unit=caster.name)
    kind = model_kind(jack)
    if kind not in (None, "warjack"):  # only warjacks (L1168)
        raise UserError(
            "wm.allocate_warjacks_only",
            unit=jack.name,
            kind=kind,
            values_of="wm.model_kind_is",
            value_key="kind",
        )
    if cortex_crippled(jack):
        raise UserError("wm.cortex_crippled", unit=jack.name)
    done = int(jack.extra.get("allocated", 0))
    if done + amount > MAX_ALLOCATION:
        raise UserError("wm.allocation_cap", unit=jack.name, limit=MAX_ALLOCATION, done=done)
    have = pools(state, caster).get("focus", 0)
    if amount > have:
        raise UserError("game.not_enough", resource="focus", have=have, want=amount)
    pools(state, caster)["focus"] = have - amount
    pools(state, jack)["focus"] = pools(state, jack).get("focus", 0) + amount
    jack.extra["allocated"] = done + amount


WM = WarmachineSystem(
    id="wm",
    stats=(
        StatSpec(name="spd", max=20),
        StatSpec(name="str", max=20),
        StatSpec(name="mat", max=20),
        StatSpec(name="rat", max=20),
        StatSpec(name="def", min=1, max=30),
        StatSpec(name="arm", max=40),
        StatSpec(name="cmd", max=20),
        StatSpec(name="focus", max=20),
        StatSpec(name="boxes", min=1, max=200, default=1),
        # The base in mm (30 small, 40 medium, 50 large, L1017-1020): a light warjack's is 40,
        # a heavy one's 50 (L444-446); power attacks read it (power.py).
        StatSpec(name="base", min=20, max=200),
    ),
    wounds_stat="boxes",
    phases=("maintenance", "control", "activation"),
    order="fixed",  # L1298-1311: the first player is rolled for once; the order then stays
    resources=(ResourceSpec(name="focus", per="unit"),),
    conditions=CONDITIONS,
)
