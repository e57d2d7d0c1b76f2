"""What the /aos commands do to the game, as pure functions: the state and the input in, the new
state (or the numbers to write) and the steps that explain them out. The bot loads the game,
calls these, saves the result as one event and renders the steps.

Rulebook lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt.
"""

from __future__ import annotations

from pydantic import BaseModel

from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game.models import GameState, Unit
from rules_core.rules.text import fold
from rules_core.steps import Modifier, Step
from rules_core.systems.aos import checks, fights, turns
from rules_core.systems.aos import system as aos_system
from rules_core.systems.aos.models import Settings
from rules_core.systems.aos.requests import (
    WEAPON_OPTIONS,
    AttackInput,
    BuiltAttack,
    build_attack,
)
from rules_core.systems.aos.system import AOS, wounds_on_current_model

MOD_LIMIT = 9  # the largest modifier an attack request takes


class Healing(BaseModel):
    """A check that heals: its steps and outcome, and the wounds to heal on the unit."""

    check: checks.Check
    heal: int


def live(unit: Unit) -> Unit:
    """A unit that can still be attacked, tested or shot from: not a destroyed one."""
    if unit.destroyed:
        raise UserError("aos.unit_destroyed", unit=unit.name)
    return unit


def _named(state: GameState, name: str) -> Unit:
    """The unit of that exact name (names here come from units already found)."""
    for unit in state.units:
        if fold(unit.name) == fold(name):
            return unit
    raise UserError("game.no_unit", name=name[:40])


def own_attack(state: GameState, attacker: Unit | None, user_id: str) -> bool:
    """Both players fight in every combat phase (12.0, L445-467), so a player may write the
    wounds their own attacking unit inflicted even outside their turn."""
    return attacker is not None and attacker.owner == user_id and state.player(user_id) is not None


def wound(state: GameState, name: str, amount: int) -> GameState:
    """Wounds allocated model by model with carry-over (13.3.1, 14.1, L555-583)."""
    if amount < 0:
        raise UserError("game.negative_amount")
    new = state.clone()
    AOS.damage_unit(_named(new, name), amount, column=None, dice=None)
    return new


def battleshock(
    bravery: int, slain: int, source: DiceSource, mod: int = 0, unit: Unit | None = None
) -> checks.Check:
    """15.1 (L613): the test, with no more models fleeing than the unit has left."""
    check = checks.battleshock(bravery, slain, source, mod)
    if unit is not None:
        check.outcome["fled"] = min(check.outcome["fled"], unit.models_left)
    return check


def battleshock_needed(slain: int) -> bool:
    """15.0 (L609): only a unit that had models slain this turn takes a battleshock test."""
    return slain > 0


FLED = "fled"  # Unit.extra: models that fled (removed, not slain: L583, L613)


def flee(state: GameState, name: str, fled: int) -> GameState:
    """Fleeing models are removed whole (15.1, L613), the wounded one first (the owner picks
    which flee: the usual choice leaves no wounded model), and are counted apart from the
    slain, whom a Rally may bring back and they may not (7.2, L309; 14.2.1, L587)."""
    if fled < 0:
        raise UserError("game.negative_amount")
    new = state.clone()
    unit = _named(new, name)
    fled = min(fled, unit.models_left)
    left = unit.models_left - fled
    unit.damage = (unit.models - left) * unit.wounds_per_model
    unit.extra[FLED] = int(unit.extra.get(FLED, 0)) + fled
    return turns.mark_underway(new) if fled else new


def ward_mortal(check: checks.Check, unit: Unit | None, source: DiceSource) -> checks.Check:
    """Mortal wounds suffered by a unit with a ward get one ward roll each (L591, L601):
    the outcome's `damage` is what is left to allocate."""
    mortal = check.outcome["mortal_wounds"]
    value = unit.stats.get("ward", 0) if unit is not None else 0
    if not (mortal and value >= 2):
        return check
    step = checks.ward(mortal, value, source)
    outcome = {**check.outcome, "ward_saved": step.total, "damage": mortal - (step.total or 0)}
    return checks.Check(steps=[*check.steps, step], outcome=outcome)


def slain_models(unit: Unit) -> int:
    """The unit's slain models, the dice a Rally rolls by default (7.2, L309): its lost models
    but those that fled (L613)."""
    return max(0, unit.models - unit.models_left - int(unit.extra.get(FLED, 0)))


def rally(unit: Unit | None, slain: int, source: DiceSource) -> Healing:
    """Rally (7.2, L307-309): only slain models return (14.2.1, L587), each with all its
    wounds."""
    check = checks.rally(min(slain, 100), source)
    if unit is None:
        return Healing(check=check, heal=0)
    returned = min(check.outcome["returned"], slain_models(unit))
    check.outcome["returned"] = returned
    return Healing(check=check, heal=returned * unit.wounds_per_model)


def recovery(unit: Unit | None, bravery: int, source: DiceSource) -> Healing:
    """Heroic Recovery (7.1, L301); slain models can't be healed (14.4, L595): only the
    wounded model's wounds."""
    check = checks.recovery(bravery, source)
    heal = check.outcome["healed"]
    if unit is not None:
        heal = min(heal, wounds_on_current_model(unit))
    return Healing(check=check, heal=heal)


def priority_tie(
    state: GameState, deployed: str | None, tie: str | None
) -> tuple[GameState, int | None]:
    """Who wins a tied priority roll (4.1, L239), as 0 or 1 of the two players (None if not
    known): `deployed` records who finished deploying first (round 1 only); `tie` names the
    winner outright."""
    players = turns.two_players(state)
    aos = turns.aos_state(state)
    if deployed is not None:
        if state.round > 1:
            raise UserError("aos.deployed_round_one")
        aos.deployed_first = deployed
        state = turns.with_aos(state, aos)
    known = tie if tie is not None else turns.tie_winner(state, aos)
    return state, (players.index(known) if known in players else None)


CHARGED = "charged"  # the unit made a charge move this turn (11.1, L431)
# Conditions that forbid a charge: a unit that ran or retreated (L323, L327), or already
# charged (one attempt a phase, L427; a second charge phase in the turn is an ability's).
MOVED = (turns.RAN, turns.RETREATED, CHARGED)


def _moved(unit: Unit) -> str | None:
    names = {fold(c.name) for c in unit.conditions}
    return next((m for m in MOVED if m in names), None)


def may_charge(unit: Unit) -> None:
    """A unit that ran or retreated can't attempt a charge later in the turn (8.2-8.3,
    L323, L327), nor one that has already charged (11.0, L427)."""
    moved = _moved(unit)
    if moved is not None:
        raise UserError(f"aos.no_charge_{moved}", unit=unit.name)


def charged(state: GameState, name: str) -> GameState:
    """The unit made its charge move (11.1, L431: the charge roll let its first model end
    within 1/2" of an enemy unit): it has charged until the end of the turn, so it gets no
    cover (17.1.1, L673) and may fight (12.1, L451); it attempts no other charge (L427)."""
    new = state.clone()
    unit = live(_named(new, name))
    may_charge(unit)
    turns.mark(new, unit.name, CHARGED)
    return new


# The phases whose attacks are shots: the shooting phase, and the charge phase's Unleash Hell
# (11.2, L443; no combat is fought there).
SHOOTING_PHASES = ("shooting", "charge")


def may_shoot(state: GameState, unit: Unit) -> None:
    """Nor can it shoot later in the turn (L323, L327), nor can a unit that received Redeploy
    (L339): refused where attacks are shots."""
    if turns.PHASES[state.phase] not in SHOOTING_PHASES:
        return
    barred = turns.shot_barred(unit)
    if barred is not None:
        raise UserError(f"aos.no_shoot_{barred}", unit=unit.name)


class Shot(BaseModel):
    """One applied attack of a unit's shooting: the weapon it fires (the stored one's name, or
    the typed profile), how many of the unit's models fire it, and at which unit."""

    unit: str
    weapon: str
    models: int
    target: str | None = None


def shot_of(given: AttackInput, built: BuiltAttack, attacker: Unit) -> Shot:
    """The shot an applied attack is: a unit shoots every weapon it has in one go (13.1.1,
    L506), each of its models once with each (10.0, L409)."""
    profile = "/".join(str(getattr(given, name) or "-") for name in WEAPON_OPTIONS)
    # Every value typed and no weapon named: the typed weapon, even where the unit's only
    # stored weapon filled the request.
    typed = not given.weapon and all(getattr(given, name) for name in WEAPON_OPTIONS)
    weapon = profile if typed else (built.source.get("weapon") or profile)
    models = given.attacking_models or attacker.models_left
    return Shot(unit=attacker.name, weapon=weapon, models=models, target=built.source.get("target"))


def may_apply_shot(state: GameState, attacker: Unit, shot: Shot | None = None) -> None:
    """An applied attack where attacks are shots. In the shooting phase (10.0, L411) you shoot
    in your own turn, with friendly units that haven't shot: the unit's shooting is all its
    weapons (13.1.1, L506), so each model fires each weapon once, whatever the number of
    attacks the players write it in. In the charge phase the other player's unit shoots only
    with Unleash Hell (11.2, L443): once, at the unit that charged (the target of its first
    shot). The player whose turn it is may have a warscroll's attack there (1.6): not checked.
    A game without two players in the turn order can't tell whose turn it is: only the shots
    themselves are counted there."""
    phase = turns.PHASES[state.phase]
    if phase not in SHOOTING_PHASES:
        return
    current = state.current
    theirs = len(state.order) >= 2 and current is not None and attacker.owner != current
    if phase == "shooting" and theirs:
        name = state.player_name(current)
        raise UserError("aos.shoot_not_your_turn", unit=attacker.name, name=name)
    hell = "unleash_hell" in turns.phase_effects(state, attacker.name)
    if phase == "charge":
        if not hell:
            if theirs:
                raise UserError("aos.shoot_needs_unleash_hell", unit=attacker.name)
            return
        bound = turns.hell_target(state, attacker.name)
        if shot is not None and shot.target and bound and fold(bound) != fold(shot.target):
            raise UserError("aos.unleash_hell_target", unit=attacker.name, target=bound)
    if shot is not None and (phase == "shooting" or hell):
        may_use_weapon(state, attacker, shot.weapon)
    fired = turns.models_fired(state, attacker.name, shot.weapon if shot else "")
    wanted = shot.models if shot is not None else attacker.models_left
    if fired and fired + wanted > attacker.models_left:
        key = "aos.already_shot_charge" if phase == "charge" else "aos.already_shot"
        raise UserError(key, unit=attacker.name)


def may_apply_fight(state: GameState, attacker: Unit, shot: Shot | None = None) -> None:
    """An applied attack in the combat phase is the attacker's fight (12.1.1, L455): the one
    under way, or a new one, refused to a unit that has already fought (12.1, L451)."""
    weapon, models = (shot.weapon, shot.models) if shot else ("", attacker.models_left)
    if fights.in_combat_phase(state):
        may_use_weapon(state, attacker, weapon)
    fights.may_strike(state, attacker, weapon, models)


def _stored_weapon(unit: Unit, name: str) -> aos_system.Weapon | None:
    return next((w for w in aos_system.weapons(unit) if fold(w.name) == fold(name)), None)


def may_use_weapon(state: GameState, unit: Unit, weapon: str) -> None:
    """Shooting attacks are made with missile weapons (13.1.1, L505), combat attacks with melee
    weapons (13.1.2, L513; 13.0, L497): a stored weapon of the other kind is refused in the
    shooting phase (and Unleash Hell's shots) and in the combat phase. A typed profile, or a
    Range read from the damage table, is not checked (`aos_system.is_missile`)."""
    stored = _stored_weapon(unit, weapon)
    missile = aos_system.is_missile(stored) if stored is not None else None
    if stored is None or missile is None:
        return
    combat = fights.in_combat_phase(state)
    if combat and missile:
        raise UserError("aos.missile_weapon_fight", unit=unit.name, weapon=stored.name)
    if not combat and not missile:
        raise UserError(
            "aos.melee_weapon_shot", unit=unit.name, weapon=stored.name, range=stored.range
        )


def phase_weapon(state: GameState, unit: Unit) -> str | None:
    """The weapon an attack of a unit with several weapons uses when none is named: the only
    one of the phase's kind (missile in the shooting phase, melee in the combat phase, L497),
    else None (the player names it)."""
    phase = turns.PHASES[state.phase] if 0 <= state.phase < len(turns.PHASES) else ""
    stored = aos_system.weapons(unit)
    if phase not in ("shooting", fights.COMBAT) or len(stored) < 2:
        return None
    wanted = phase == "shooting"
    fit = [w for w in stored if aos_system.is_missile(w) is wanted]
    return fit[0].name if len(fit) == 1 else None


def may_target(attacker: Unit, target: Unit) -> None:
    """13.1 (L500): only enemy units can be the target of an attack."""
    if attacker.owner == target.owner:
        raise UserError("aos.target_friendly", unit=attacker.name, target=target.name)


def attack_wounds(
    state: GameState, target: str, amount: int, attacker: str | None, shot: Shot | None = None
) -> GameState:
    """An attack's wounds written to the target, an enemy unit (L500); where attacks are
    shots, the stored attacking unit's shot is counted (L411, L443) so that it isn't made
    again in that phase."""
    shooter = turns.named_unit(state, attacker)
    if shooter is None:
        return turns.mark_underway(wound(state, target, amount))
    may_target(shooter, _named(state, target))
    may_apply_shot(state, shooter, shot)
    may_apply_fight(state, shooter, shot)
    new = turns.mark_underway(wound(state, target, amount))
    weapon, models = (shot.weapon, shot.models) if shot else ("", shooter.models_left)
    new = fights.record_strike(new, shooter, weapon, models)
    phase = turns.PHASES[state.phase]
    counted = phase == "shooting" or (
        phase == "charge" and "unleash_hell" in turns.phase_effects(state, shooter.name)
    )
    if counted:
        new = turns.record_shot(new, shooter.name, weapon, models, target)
    return new


def run(state: GameState, name: str) -> GameState:
    """The unit ran (8.3, L327): marked until the end of the turn; once per phase (8.0, L315:
    refused to a unit that already ran or retreated)."""
    new = state.clone()
    unit = live(_named(new, name))
    turns.may_run(unit)
    turns.mark_ran(new, unit.name)
    return new


def command_modifiers(
    state: GameState, attacker: Unit | None, defender: Unit | None
) -> tuple[int, int, list[Step]]:
    """What the commands received this phase add to an attack (13.4, L565-571): All-out
    Attack +1 to hit for the attacking unit, All-out Defence +1 to save for the target;
    Unleash Hell -1 to hit for the unit that received it (11.2, L443).
    Returns (hit modifier, save modifier, the steps that say so)."""
    hit = save = 0
    steps: list[Step] = []
    for unit, role in ((attacker, "hit"), (defender, "save")):
        if unit is None:
            continue
        for command in turns.phase_effects(state, unit.name):
            if turns.PHASE_EFFECTS[command] != role:
                continue
            value = turns.EFFECT_VALUE.get(command, 1)
            if role == "hit":
                hit += value
            else:
                save += value
            steps.append(
                Step(
                    name="command",
                    modifiers=[Modifier(name=f"aos.cmd.{command}", value=value)],
                    total=value,
                    outcome=command,
                    detail={"unit": unit.name, "roll": role},
                )
            )
    return hit, save, steps


def battleshock_exempt(state: GameState, unit: Unit) -> bool:
    """A unit that received Inspiring Presence this phase takes no battleshock test (15.3,
    L625)."""
    return "inspiring_presence" in turns.phase_effects(state, unit.name)


def battleshock_slain(state: GameState, unit: Unit) -> int:
    """The models the unit lost this turn, for its battleshock test (15.1, L613; L627)."""
    return turns.slain_this_turn(state, unit)


def rallied(state: GameState, name: str, returned: int, heal: int) -> GameState:
    """Rallied models return (7.2, L309) to the unit that received Rally in this phase, once
    (a roll without a 6 spends it too), and still count as slain this turn (L627)."""
    new = turns.record_rally(state, name)
    unit = _named(new, name)
    unit.damage = max(0, unit.damage - heal)  # whole slain models back, not a heal (14.4)
    return turns.record_returned(new, name, returned) if returned else new


def priority_rolled(state: GameState, winner: str) -> GameState:
    """The roll's winner is kept until they choose the order (4.1, L237): the roll is made
    once per round (no re-roll, L239)."""
    aos = turns.aos_state(state)
    if aos.priority_round == state.round:
        raise UserError("aos.priority_done", round=state.round)
    aos.priority_winner, aos.priority_winner_round = winner, state.round
    return turns.with_aos(state, aos)


def pending_priority(state: GameState) -> str | None:
    """The player who won this round's priority roll and has not chosen yet."""
    aos = turns.aos_state(state)
    if aos.priority_winner_round != state.round or aos.priority_round == state.round:
        return None
    return aos.priority_winner


def choose_order(state: GameState, chooser: str, winner: str, goes_first: bool) -> GameState:
    """Only the player with priority decides who takes the first turn (4.1, L237)."""
    if chooser != winner:
        raise UserError("aos.priority_not_yours")
    new = turns.apply_priority(state, winner, goes_first)
    aos = turns.aos_state(new)
    aos.priority_winner, aos.priority_winner_round = None, None
    return turns.with_aos(new, aos)


def attack_in_game(
    state: GameState,
    given: AttackInput,
    attacker: Unit | None,
    defender: Unit | None,
    settings: Settings,
) -> tuple[BuiltAttack, list[Step]]:
    """An attack between units of the game: a unit that ran or retreated can't shoot (L323,
    L327), and the commands its units received this phase add their modifiers (13.4,
    L565-571), shown as steps before the rolls."""
    if attacker is not None:
        may_shoot(state, attacker)
        typed = all(getattr(given, name) for name in WEAPON_OPTIONS)
        if given.weapon is None and not typed:
            given = given.model_copy(update={"weapon": phase_weapon(state, attacker)})
    hit, save, steps = command_modifiers(state, attacker, defender)
    given = given.model_copy(
        update={
            "hit_mod": max(-MOD_LIMIT, min(MOD_LIMIT, given.hit_mod + hit)),
            "save_mod": max(-MOD_LIMIT, min(MOD_LIMIT, given.save_mod + save)),
        }
    )
    return build_attack(given, attacker, defender, settings), steps
