"""What the /wm commands do to a request and to the game state, as pure functions: the
declared modifiers (by their English or Italian names), the attack request built from options,
the target unit's state and the chat's settings, damage and continuous effects from an attack,
and focus allocation. Each state change takes a state and returns a new one (the input is never
changed) with the notes that explain it (`Note`: a catalogue key and its parameters).

Line references `Lnnnn` are to the Italian rulebook transcript (see models.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import Condition, GameState, Unit
from rules_core.rules.text import fold
from rules_core.systems.base import Note
from rules_core.systems.wm import grid
from rules_core.systems.wm.models import MODS, AttackRequest
from rules_core.systems.wm.settings import WmSettings
from rules_core.systems.wm.system import WM, allocate, pools

# Continuous effects a weapon can apply on a hit or a critical (L847-856).
EFFECTS = ("fire", "corrosion")

# Italian (and short) names of the declared modifiers.
MOD_ALIASES = {
    "back": "backstrike",
    "back_strike": "backstrike",
    "alle_spalle": "backstrike",
    "spalle": "backstrike",
    "mira": "aim",
    "opportunita": "free_strike",
    "freestrike": "free_strike",
    "carica": "charge",
    "kd": "knocked_down",
    "atterrato": "knocked_down",
    "immobilizzato": "stationary",
    "copertura": "cover",
    "celato": "concealment",
    "elevato": "elevated",
    "mischia": "in_melee",
    "in_mischia": "in_melee",
    "interposto": "intervening",
    "terreno_interposto": "intervening",
    "compromesso": "crippled",
    "tira_comunque": "roll_anyway",
    "movimento_compromesso": "movement_crippled",
}
# Conditions on a target unit that declare a mod by themselves (`/unit cond X add atterrato`):
# knocked down (L3435-3438) and stationary (L3530-3532) set the base DEF and melee auto-hits.
CONDITION_MODS = {
    "knocked_down": "knocked_down",
    "knocked down": "knocked_down",
    "atterrato": "knocked_down",
    "stationary": "stationary",
    "immobilizzato": "stationary",
}
MAX_CONDITIONS = 20  # as the game state allows (rules_core.game.transitions)
BLAST_DEFENSE = 5  # unused by blast damage (no attack roll, L3001-3004): any valid DEF


def unit_named(state: GameState, name: str) -> Unit:
    """The unit called `name` (already resolved by the caller, e.g. from a prefix)."""
    key = fold(name)
    for unit in state.units:
        if fold(unit.name) == key:
            return unit
    raise UserError("game.no_unit", name=name[:40])


def parse_mods(text: str | None) -> set[str]:
    """`charge, mira` -> {"charge", "aim"}; an unknown name is refused, listing the valid ones."""
    out: set[str] = set()
    if not text:
        return out
    for part in text.replace(";", ",").split(","):
        word = fold(part.strip()).replace("-", "_").replace(" ", "_")
        if not word:
            continue
        name = MOD_ALIASES.get(word, word)
        if name not in MODS:
            raise UserError("wm.bad_mod", mod=part.strip()[:30], valid=", ".join(MODS))
        out.add(name)
    return out


def crippled_systems(unit: Unit) -> list[str]:
    """The unit's crippled grid systems (none without a grid)."""
    raw = unit.extra.get("grid") if unit.extra else None
    return grid.Grid.model_validate(raw).crippled() if raw else []


def target_mods(unit: Unit) -> set[str]:
    """Mods the target's recorded state declares by itself: its knocked-down or stationary
    condition, and a crippled Movement system (base DEF 7, L3734-3738)."""
    mods: set[str] = set()
    for cond in unit.conditions:
        mod = CONDITION_MODS.get(fold(cond.name))
        if mod:
            mods.add(mod)
    if "M" in crippled_systems(unit):
        mods.add("movement_crippled")
    return mods


@dataclass(frozen=True)
class AttackInput:
    """An attack as the player typed it; None where an option was not given."""

    type: str = "melee"
    skill: int | None = None
    defense: int | None = None
    pow: int = 0
    str_: int | None = None
    arm: int | None = None
    boost: str | None = None
    mods: str | None = None
    combined: int | None = None
    extra_hit_dice: int | None = None
    extra_damage_dice: int | None = None
    blast: bool = False
    hit_mod: int | None = None
    def_mod: int | None = None
    dmg_mod: int | None = None


def _stat(given: int | None, unit: Unit | None, stat: str) -> int | None:
    """The option's value, else the target unit's stat."""
    if given is None and unit is not None:
        return unit.stats.get(stat)
    return given


def attack_request(inp: AttackInput, target: Unit | None, settings: WmSettings) -> AttackRequest:
    """The request to resolve: options first, then the target's DEF and ARM and the mods its
    state declares; `roll_autohit=yes` always rolls against an automatic hit (L3200-3206).
    Blast damage has no attack roll (L3001-3004), so it needs neither skill nor DEF."""
    mods = parse_mods(inp.mods)
    if target is not None:
        mods |= target_mods(target)
    if settings.roll_autohit == "yes":
        mods.add("roll_anyway")
    if inp.skill is None and not inp.blast:
        raise UserError("cmd.missing_option", option="skill")
    defense = _stat(inp.defense, target, "def")
    if defense is None and not inp.blast:
        raise UserError("wm.missing_stat", option="def")
    arm = _stat(inp.arm, target, "arm")
    if arm is None:
        raise UserError("wm.missing_stat", option="arm")
    return AttackRequest.model_validate(
        {
            "type": inp.type,
            "skill": inp.skill or 0,
            "defense": defense if defense is not None else BLAST_DEFENSE,
            "pow": inp.pow,
            "str_": inp.str_ or 0,
            "arm": arm,
            "boost": inp.boost or "none",
            "mods": frozenset(mods),
            "combined": inp.combined or 0,
            "extra_hit_dice": inp.extra_hit_dice or 0,
            "extra_damage_dice": inp.extra_damage_dice or 0,
            "blast": inp.blast,
            "hit_mod": inp.hit_mod or 0,
            "def_mod": inp.def_mod or 0,
            "dmg_mod": inp.dmg_mod or 0,
        }
    )


def wanted_effects(
    effect: str | None, crit_effect: str | None, *, hit: bool, critical: bool
) -> tuple[str, ...]:
    """The continuous effects an attack applies: its weapon's on a hit, a critical one only on
    a critical hit (L3940-3946)."""
    return tuple(e for e, wanted in ((effect, hit), (crit_effect, critical)) if e and wanted)


@dataclass(frozen=True)
class DamageResult:
    state: GameState
    notes: list[Note]
    effects: tuple[str, ...]  # the effects actually applied (new ones only)
    changed: bool  # False: nothing to record (no damage, no new effect)


def apply_damage(
    state: GameState,
    unit_name: str,
    amount: int,
    dice: DiceSource | None,
    effects: tuple[str, ...] = (),
) -> DamageResult:
    """Damage (through the game's damage model: a grid rolls its column with `dice`) and
    continuous effects on a unit, as one change. A model has at most one continuous effect of
    each type: an effect it already has is not applied again (L3955-3956, example L3979)."""
    if amount < 0:
        raise UserError("game.negative_amount")
    have = {fold(c.name) for c in unit_named(state, unit_name).conditions}
    new_effects = tuple(e for e in effects if e not in have)
    if amount == 0 and not new_effects:
        return DamageResult(state, [], (), False)
    new = state.clone()
    unit = unit_named(new, unit_name)
    alive = not unit.destroyed
    notes = WM.damage_unit(unit, amount, column=None, dice=dice)
    if alive and unit.destroyed:
        notes += WM.on_destroyed(new, unit)
    for effect in new_effects:
        if len(unit.conditions) >= MAX_CONDITIONS:
            raise UserError("game.too_many_conditions", limit=MAX_CONDITIONS)
        unit.conditions.append(Condition(name=effect))
        notes.append((f"wm.note.{effect}_applied", {"unit": unit.name}))
    return DamageResult(new, notes, new_effects, True)


@dataclass(frozen=True)
class Allocation:
    state: GameState
    caster: str
    jack: str
    amount: int
    left: int  # the caster's focus after allocating
    has: int  # the warjack's focus after allocating


def allocate_focus(
    state: GameState, jack_name: str, caster_name: str | None, amount: int
) -> Allocation:
    """Control Phase: a warcaster gives focus to a warjack of its player (at most 3 per turn,
    L1481-1482). Without a named caster, the player's only caster gives it."""
    new = state.clone()
    jack = unit_named(new, jack_name)
    if caster_name:
        caster = unit_named(new, caster_name)
    else:
        casters = [
            u for u in new.units if u.owner == jack.owner and u.stats.get("focus") and u is not jack
        ]
        if len(casters) != 1:
            raise UserError("wm.which_caster")
        caster = casters[0]
    allocate(new, caster, jack, amount)
    return Allocation(
        state=new,
        caster=caster.name,
        jack=jack.name,
        amount=amount,
        left=pools(new, caster)["focus"],
        has=pools(new, jack)["focus"],
    )
