"""What the /wm commands do to a request and to the game state, as pure functions: the
declared modifiers (by their English or Italian names), the attack request built from options,
the target unit's state and the chat's settings, damage and continuous effects from an attack,
and focus allocation. Each state change takes a state and returns a new one (the input is never
changed) with the notes that explain it (`Note`: a catalogue key and its parameters).

Line references `Lnnnn` are to the Italian rulebook transcript (see models.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import Condition, GameState, Unit, unit_key
from rules_core.rules.text import fold
from rules_core.systems.base import Note, read_number
from rules_core.systems.wm import grid
from rules_core.systems.wm.models import MODS, AttackRequest
from rules_core.systems.wm.settings import WmSettings
from rules_core.systems.wm.system import (
    CONTROL_PHASE,
    KNOCKED_DOWN,
    POWER_FOCUS_COST,
    RAN,
    WM,
    allocate,
    cortex_crippled,
    damage_model,
    model_kind,
    pools,
    refuse_paid_move,
    shield_arm,
    unit_grid,
)

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
    "occultato": "stealth",  # L720
    "spruzzo": "spray",
    "aggiuntivo": "additional",
    "attacco_aggiuntivo": "additional",
    "extra": "additional",
}
# Conditions on a target unit that declare a mod by themselves (`/unit cond X add atterrato`):
# knocked down (L3435-3438) and stationary (L3530-3532) set the base DEF and melee auto-hits.
CONDITION_MODS = {
    **dict.fromkeys(KNOCKED_DOWN, "knocked_down"),
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
            raise UserError(
                "wm.bad_mod", mod=part.strip()[:30], valid=", ".join(MODS), values_of="values.mods"
            )
        out.add(name)
    return out


def passes_command_checks(unit: Unit) -> bool:
    """A warjack has Construct: it passes every command check by itself (L680-681, L4321-4323),
    no roll."""
    return model_kind(unit) == "warjack"


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

    type: str | None = None  # None: melee, or the stored weapon's kind
    skill: int | None = None
    defense: int | None = None
    pow: int | None = None
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
    # ARM from the target's shields (+2 each) and bucklers (+1 each), else its stored ones.
    shield_arm: int | None = None


# Where a shield or buckler sits: the arm (or head) weapon system that carries it.
GEAR_LOCATIONS = ("L", "R", "H")


def from_back_arc(mods: set[str] | frozenset[str]) -> bool:
    """Damage from the back arc: a back strike, or a free strike (the striker always counts
    as in the back arc, L2149-2162)."""
    return "backstrike" in mods or "free_strike" in mods


def power_field(state: GameState, unit: Unit) -> int:
    """+1 ARM per focus point left on a warcaster (a model with FOCUS; L4475-4478, L4494-4496).
    Focus allocated to a warjack gives it no ARM."""
    if not unit.stats.get("focus"):
        return 0
    return state.resources.get(unit_key(unit.name), {}).get("focus", 0)


def extra_arm(state: GameState, unit: Unit) -> int:
    """ARM a unit adds to its stat against damage not from its back arc: its Power Field and
    its shields and bucklers (a power attack, collateral damage: L4475-4478, L843-846)."""
    return power_field(state, unit) + shield_arm(unit, back=False)


def front_arm(given: int | None, state: GameState | None, unit: Unit | None) -> int | None:
    """ARM against damage not from the back arc (a power attack, collateral damage, a fall):
    a typed ARM as given, else the unit's ARM with its Power Field and shields (see
    `extra_arm`); None when neither is known."""
    if given is not None or unit is None or unit.stats.get("arm") is None:
        return given
    return unit.stats["arm"] + (extra_arm(state, unit) if state is not None else 0)


ROSTER_KEY = "roster"  # Unit.extra["roster"]["weapons"]: the profiles /army stored (roster.py)


def weapon_profile(unit: Unit, name: str) -> dict[str, str]:
    """A stored weapon of `unit` by name (case- and accent-insensitive, or a unique prefix):
    its fields as printed (`rng`, `rof`, `aoe`, `pow`, `p+s`)."""
    weapons = (unit.extra.get(ROSTER_KEY) or {}).get("weapons") or []
    names = [str(w.get("name", "")) for w in weapons]
    key = fold(name.strip())
    exact = [i for i, n in enumerate(names) if fold(n) == key]
    found = exact or [i for i, n in enumerate(names) if fold(n).startswith(key)]
    if len(found) != 1:
        raise UserError(
            "wm.no_weapon", unit=unit.name, weapon=name[:40], valid=", ".join(names) or "-"
        )
    values = weapons[found[0]].get("values") or {}
    return {str(k): str(v) for k, v in values.items()}


def weapon_aoe(attacker: Unit | None, weapon: str | None) -> int | None:
    """The AOE (inches) of the attacker's stored weapon, None for no AOE. A missed AOE attack
    deviates (p. 58, L3057-3066); a hit deals blast damage, 2d6 + half POW, to every other
    model under the template, each its own roll (p. 58, L2996-3004)."""
    if attacker is None or not weapon:
        return None
    aoe = read_number(weapon_profile(attacker, weapon).get("aoe", ""))
    return aoe if aoe else None


def location(text: str) -> str:
    """A weapon system's letter as the grids key it: the Italian S/D/T are L/R/H."""
    word = text.strip().upper()
    return grid.SYSTEM_KEYS.get(word, word)


# What a crippled Movement system forbids: a charge (L3736), and so the power attacks that
# anything preventing a charge prevents (slam L2302-2305, trample L2638-2641).
NEEDS_CHARGE = ("slam", "trample")
WEAPON_SYSTEMS = ("H", "L", "R")  # head and arms: crippled, one die fewer (L3740-3742)


def refuse_crippled_movement(attacker: Unit, action: str) -> None:
    """`action` (`charge` or a power attack) is refused when the attacker's Movement is
    crippled and it needs a charge."""
    if "M" not in crippled_systems(attacker):
        return
    if action == "charge":
        raise UserError("wm.movement_no_charge", unit=attacker.name)
    if action in NEEDS_CHARGE:
        raise UserError("wm.power_movement_crippled", unit=attacker.name, kind=action)


def refuse_combined(attacker: Unit, combined: int) -> None:
    """A combined attack joins two or more troopers of one unit (L3269-3271, L3313), each
    model adding +1 one of them (`combined`), and no model makes one with a weapon system
    (head or arm) crippled (L3745-3748). A warcaster, a warjack or a solo (`model_kind`) makes
    none; and the unit needs as many models in play as take part, two at least."""
    if any(s in WEAPON_SYSTEMS for s in crippled_systems(attacker)):
        raise UserError("wm.combined_crippled", unit=attacker.name)
    kind = model_kind(attacker)
    if kind not in (None, "trooper"):
        raise UserError(
            "wm.combined_troopers_only",
            unit=attacker.name,
            kind=kind,
            values_of="wm.model_kind_is",
            value_key="kind",
        )
    want = max(2, combined)
    if attacker.models_left < want:
        raise UserError("wm.combined_models", unit=attacker.name, n=attacker.models_left, want=want)


def _number(profile: dict[str, str], field: str, weapon: str) -> int | None:
    raw = profile.get(field)
    if raw is None or raw.strip() in ("", "-", "—"):
        return None
    if not raw.strip().isdecimal():
        raise UserError("wm.weapon_value", weapon=weapon[:40], field=field, value=raw[:12])
    return int(raw)


def with_attacker(inp: AttackInput, attacker: Unit | None, weapon: str | None) -> AttackInput:
    """Fill what the player left out from the attacking unit and its stored weapon (issue 25):
    a weapon with P+S (or a melee RNG) is a melee weapon, one with a spray RNG (SP6...) a spray
    (L3122-3160); the skill is the attacker's MAT or RAT, POW the weapon's, STR the
    attacker's. Every option the player gave wins. The attacker's own state counts too: a
    weapon in a crippled head or arm rolls one die fewer (L3740-3742), and a crippled Movement
    refuses a charge (L3736), as a warjack's crippled Cortex does (`refuse_paid_move`)."""
    if attacker is None:
        if weapon:
            raise UserError("wm.weapon_needs_attacker")
        return inp
    if inp.combined:
        refuse_combined(attacker, inp.combined)
    changes: dict[str, object] = {}
    kind = inp.type
    mods = inp.mods
    if weapon:
        profile = weapon_profile(attacker, weapon)
        rng = profile.get("rng", "").strip().upper()
        melee = "p+s" in profile or rng in ("0.5", "0,5", "1", "2")
        if kind is None:
            kind = "melee" if melee else "ranged"
        if rng.startswith("SP") and "spray" not in fold(mods or ""):
            mods = f"{mods},spray" if mods else "spray"
        loc = location(profile.get("loc", "-"))
        if loc in WEAPON_SYSTEMS and loc in crippled_systems(attacker):
            mods = f"{mods},crippled" if mods else "crippled"
        if inp.pow is None:
            pow_ = _number(profile, "pow", weapon)
            both = _number(profile, "p+s", weapon)
            card_str = attacker.stats.get("str")
            if pow_ is None and kind == "melee" and both is not None and card_str is not None:
                # Only P+S printed and the card's STR known: P+S is POW + STR (p. 34, L785),
                # so the roll reads POW and STR, and a typed STR replaces the card's.
                pow_ = max(0, both - card_str)
            elif pow_ is None and kind == "melee":
                # Only P+S printed and no STR: it is the damage roll's whole bonus.
                changes["str_"] = inp.str_ if inp.str_ is not None else 0
                pow_ = both
            changes["pow"] = pow_
        # The card printed P+S = POW + STR (L785, L2114) but the unit no STR: the STR it
        # implies (a typed pow= is a changed POW, not a changed STR), not 0.
        both, printed = _number(profile, "p+s", weapon), _number(profile, "pow", weapon)
        unknown = inp.str_ is None and "str" not in attacker.stats
        if kind == "melee" and unknown and both is not None and printed is not None:
            changes["str_"] = max(0, both - printed)
    kind = kind or "melee"
    if "charge" in parse_mods(mods):
        refuse_crippled_movement(attacker, "charge")
        refuse_paid_move(attacker, "charge")
    if inp.skill is None:  # MAT in melee, RAT at range, FOCUS for a magic attack (L4702-4708)
        changes["skill"] = attacker.stats.get({"melee": "mat", "magic": "focus"}.get(kind, "rat"))
    if kind == "melee" and inp.str_ is None and "str_" not in changes:
        changes["str_"] = attacker.stats.get("str")
    return replace(inp, type=kind, mods=mods, **changes)  # type: ignore[arg-type]


def _stat(given: int | None, unit: Unit | None, stat: str) -> int | None:
    """The option's value, else the target unit's stat."""
    if given is None and unit is not None:
        return unit.stats.get(stat)
    return given


def attack_request(
    inp: AttackInput, target: Unit | None, settings: WmSettings, focus_arm: int = 0
) -> AttackRequest:
    """The request to resolve: options first, then the target's DEF and ARM and the mods its
    state declares; `roll_autohit=yes` always rolls against an automatic hit (L3200-3206).
    Blast damage has no attack roll (L3001-3004), so it needs neither skill nor DEF.
    `focus_arm` is the target's Power Field (see `power_field`); shields and bucklers come
    from the options, else from the target, and count only from the front."""
    mods = parse_mods(inp.mods)
    if target is not None:
        mods |= target_mods(target)
    if settings.roll_autohit == "yes":
        mods.add("roll_anyway")
    if inp.skill is None and not inp.blast:  # the attacker's MAT, RAT or FOCUS
        raise UserError("wm.missing_attacker_stat", option="skill")
    if inp.pow is None:  # the weapon's
        raise UserError("wm.missing_weapon_stat", option="pow")
    defense = _stat(inp.defense, target, "def")
    if defense is None and not inp.blast:
        raise UserError("wm.missing_stat", option="def")
    arm = _stat(inp.arm, target, "arm")
    if arm is None:
        raise UserError("wm.missing_stat", option="arm")
    back = from_back_arc(mods)
    if inp.shield_arm is not None:
        shields = 0 if back else inp.shield_arm
    else:
        shields = shield_arm(target, back=back) if target is not None else 0
    return AttackRequest.model_validate(
        {
            "type": inp.type or "melee",
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
            "focus_arm": focus_arm,
            "shield_arm": shields,
        }
    )


def wanted_effects(
    effect: str | None,
    crit_effect: str | None,
    *,
    hit: bool,
    critical: bool,
    direct_critical: bool = False,
) -> tuple[str, ...]:
    """The continuous effects an attack applies: its weapon's on a hit, a critical one only on
    a critical hit (L3940-3946). Blast damage takes the critical effect of the AOE's direct
    hit when that was a critical (`direct_critical`, L3947-3950)."""
    crit = critical or (hit and direct_critical)
    return tuple(e for e, wanted in ((effect, hit), (crit_effect, crit)) if e and wanted)


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
    model: int | None = None,
) -> DamageResult:
    """Damage (through the game's damage model: a grid rolls its column with `dice`; a hit on a
    unit of troopers damages one model, `model` when named) and continuous effects on a unit,
    as one change. A model has at most one continuous effect of
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
    if model is not None and unit_grid(unit) is None:
        notes = damage_model(unit, amount, model)
    else:
        notes = WM.damage_unit(unit, amount, column=None, dice=dice)
    notes += WM.after_damage(new, unit)
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
    L1481-1482), only in that player's Control Phase (L4418-4421). Without a named caster, the
    player's only caster gives it."""
    new = state.clone()
    jack = unit_named(new, jack_name)
    if WM.phases[state.phase] != CONTROL_PHASE or state.current != jack.owner:
        raise UserError("wm.allocate_control_phase")
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


@dataclass(frozen=True)
class Change:
    state: GameState
    notes: list[Note]


# Each boosted roll: a warjack's (p. 72, L4331-4336), a warcaster's (p. 74, L4517-4520).
BOOST_FOCUS = 1
CHARGE_FOCUS = 1  # a warjack's charge (p. 46, L1847-1849)
BOOSTED_ROLLS = {"hit": 1, "damage": 1, "both": 2}


def boosts_with_focus(unit: Unit) -> bool:
    """A warjack and a model with FOCUS (a warcaster, a journeyman) boost a roll with focus
    (p. 72, L4331-4336; p. 74, L4517-4520); another model's boost is its own rule's."""
    return model_kind(unit) == "warjack" or bool(unit.stats.get("focus"))


def attack_focus(unit: Unit, boost: str | None, *, charge: bool, additional: bool = False) -> int:
    """The focus an attack by `unit` costs: 1 per boosted roll (declared before rolling, so paid
    on a miss too), 1 for an additional attack (a warjack's, p. 72, L4325-4330; a warcaster's,
    p. 74, L4558-4563), and 1 for a warjack's charge (p. 46, L1847-1849; a warcaster pays
    none). Other models' boosts and additional attacks come from their own rules: no focus."""
    boosts = BOOSTED_ROLLS.get(boost or "", 0) * BOOST_FOCUS + (1 if additional else 0)
    cost = boosts if boosts_with_focus(unit) else 0
    if charge and model_kind(unit) == "warjack":
        cost += CHARGE_FOCUS
    return cost


def power_focus(unit: Unit, boost: str | None, models: int = 1) -> int:
    """A power attack's focus: 1 for a warjack (p. 50, L2212-2213; a model known to be no
    warjack pays none, its own rule's, L2199-2201), plus 1 per boosted roll as any attack;
    against several models (a trample's) each model's rolls are boosted, and paid, separately
    (p. 28, L167-169)."""
    pays = model_kind(unit) in (None, "warjack")
    boosts = BOOSTED_ROLLS.get(boost or "", 0) * BOOST_FOCUS * max(1, models)
    return (POWER_FOCUS_COST + boosts) if pays else (boosts if boosts_with_focus(unit) else 0)


def spend_focus(
    state: GameState, unit_name: str, cost: int, note: str = "wm.note.focus_spent"
) -> Change:
    """`cost` focus off the unit's pool, refused whole when it has less or when its Cortex is
    crippled (it spends none, p. 66, L3722-3724)."""
    if cost <= 0:
        return Change(state, [])
    new = state.clone()
    unit = unit_named(new, unit_name)
    if cortex_crippled(unit):
        raise UserError("wm.cortex_crippled", unit=unit.name)
    pool = pools(new, unit)
    has = pool.get("focus", 0)
    if has < cost:
        raise UserError("wm.focus_short", unit=unit.name, has=has, n=cost)
    pool["focus"] = has - cost
    return Change(new, [(note, {"unit": unit.name, "n": cost})])


def use_feat(state: GameState, caster_name: str) -> Change:
    """A warcaster's feat (a warcaster's only, `model_kind`): once per game (L926-927,
    L4452-4453), never in an activation in
    which it ran (L4447-4448; record the run as the condition `ran` until the end of turn)."""
    new = state.clone()
    caster = unit_named(new, caster_name)
    if model_kind(caster) != "warcaster":  # a solo with FOCUS (a journeyman) has no feat
        raise UserError("wm.feat_casters_only", unit=caster.name)
    if caster.extra.get("feat_used"):
        raise UserError("wm.feat_used", unit=caster.name)
    if any(fold(c.name).replace(" ", "_") in RAN for c in caster.conditions):
        raise UserError("wm.feat_after_run", unit=caster.name)
    caster.extra["feat_used"] = True
    return Change(new, [("wm.note.feat", {"unit": caster.name})])


MAX_ROLLOFF_THROWS = 10


def choosing_order(
    players: list[str], dice: DiceSource
) -> tuple[list[str], list[list[tuple[str, int]]]]:
    """Start of the game: each player rolls a d6 and the highest chooses the first player
    (L1298-1301); with more players, the order of choosing follows the rolls, and tied players
    roll again among themselves (G11, L1355-1362). Returns the order and each throw's dice."""
    throws: list[list[tuple[str, int]]] = []

    def settle(group: list[str]) -> list[str]:
        if len(group) < 2:
            return group
        if len(throws) >= MAX_ROLLOFF_THROWS:
            return group  # endless ties are not worth more dice: keep the listed order
        faces = [(p, dice.roll(6)) for p in group]
        throws.append(faces)
        out: list[str] = []
        for face in sorted({f for _, f in faces}, reverse=True):
            out += settle([p for p, f in faces if f == face])
        return out

    return settle(list(players)), throws


def heal_unit(
    state: GameState, unit_name: str, amount: int, column: int | None, system: str | None
) -> Change:
    """Repair a unit: boxes from anywhere on a grid (L3859-3866), from one column (bottom up)
    or from one system's boxes; one box repaired on a crippled system restores it
    (L3757-3758). Without a grid, damage comes off the models still in play first."""
    if amount < 0:
        raise UserError("game.negative_amount")
    if column is not None and system is not None:
        raise UserError("wm.heal_column_or_system")
    new = state.clone()
    unit = unit_named(new, unit_name)
    found = unit_grid(unit)
    if found is None:
        if column is not None or system is not None:
            raise UserError("wm.column_needs_grid", unit=unit.name)
        before = unit.damage
        WM.heal_unit(unit, amount)
        if amount and unit.damage == before:  # said, as /unit heal says it
            raise UserError("game.nothing_to_heal", unit=unit.name)
        return Change(new, [])
    healed_grid, n = grid.heal(found, amount, column=column, system=system)
    if amount and n == 0:
        raise UserError("game.nothing_to_heal", unit=unit.name)
    unit.extra["grid"] = healed_grid.model_dump(mode="json")
    unit.damage = len(healed_grid.marks)
    return Change(new, [("wm.note.healed", {"unit": unit.name, "n": n})])


def set_gear(
    state: GameState,
    unit_name: str,
    shields: list[str] | None,
    bucklers: list[str] | None,
    fists: list[str] | None = None,
) -> Change:
    """Store a unit's shields, bucklers and Open Fists by the weapon system that carries each
    (L, R or H; `-` for none, which is never lost to a crippled system), read by every later
    attack on it (see `shield_arm`) and by its power attacks (`open_fists`). A list not given
    (None) stays as it was; an empty one removes that gear."""
    new = state.clone()
    unit = unit_named(new, unit_name)
    for kind, places in (("shields", shields), ("bucklers", bucklers), ("fists", fists)):
        if places is None:
            continue
        counts: dict[str, int] = {}
        for place in places:
            key = grid.SYSTEM_KEYS.get(place.upper(), place.upper())
            if key not in (*GEAR_LOCATIONS, "-"):
                raise UserError("wm.no_such_system", system=place[:3])
            if key != "-" and unit_grid(unit) is None:
                raise UserError("wm.gear_needs_grid", unit=unit.name)
            counts[key] = counts.get(key, 0) + 1
        if counts:
            unit.extra[kind] = counts
        else:
            unit.extra.pop(kind, None)
    return Change(new, [])


def first_player(state: GameState, dice: DiceSource) -> Change:
    """Roll for the first player before the first turn (L1298-1301): the turn order becomes the
    order of choosing, the winner first (they may still reorder it with /turn order)."""
    if state.round != 1 or state.turn != 0 or state.turn_seq != 0:
        raise UserError("wm.first_started")
    if len(state.order) < 2:
        raise UserError("wm.first_needs_players")
    order, throws = choosing_order(state.order, dice)
    new = state.clone()
    new.order = order
    new.rolloff = throws
    return Change(new, [])
