"""The battle round, command points and command abilities in the game state.

Rulebook lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt.
- Battle round (4.0-4.1.1, L229-243): priority roll-off; a tie is not rolled again, priority
  goes in round 1 to the player who finished deploying first, later to the player who took
  the first turn of the previous round (L239). The winner picks who goes first. The player
  taking the first turn gets 1 CP, the other 2 (L243).
- Turn (5.0, L245-254): hero, movement, shooting, charge, combat, battleshock phases.
- Command points (6.0, L258; 7.0, L279): +1 at the start of the hero phase for a player whose
  General is on the battlefield: in every hero phase for each player (`hero_cp=each`, L279
  literally) or only in their own (`hero_cp=own`); unused CP are lost when the round ends
  (L258, L631): the `cp` pool refreshes to 0 with the new round.
- Commands (6.1, L260-269): each says when it is used; "your" phase is one in your own turn
  (L271), so At the Double, Forward to Victory and All-out Attack's shooting are for the player
  whose turn it is, Redeploy and Unleash Hell for the other (commands.toml own/enemy_turn);
  spending CP; the same command at most once per phase (per
  player, digest 8.2), and a unit receives at most one command per phase. Their effects last:
  All-out Attack (13.4, L565-567) +1 to hit and All-out Defence (L569-571) +1 to save for the
  unit until the end of that phase; At the Double (8.4, L333-335) counts as having run;
  Redeploy's unit can't shoot later in the turn (L339). Rally (7.2, L307-309) returns models
  only to the unit that received it in that hero phase, issued or free, and is rolled once.
- Friendly only (6.1, L262-263): the model that issues a command and the unit that receives it
  are the user's own, as the CP spent are. A command whose effect is a shot (Unleash Hell,
  L443; All-out Attack in the shooting phase, L567) is refused to a unit that can't shoot
  (ran or retreated, L403; redeployed, L339) before any CP is spent, and to a unit that has
  already shot in that phase (it is used as the unit is picked to shoot, L563, L567).
- Shooting (10.0, L409-411): a unit shoots once in a shooting phase, with all its weapons
  (13.1.1, L506): each of its models fires each weapon once (`fired`, the phase's ledger).
  Unleash Hell's unit shoots so in that charge phase, only at the unit that charged (L443).
- Models slain this turn (15.1, L613) are counted per unit from the models each unit had when
  the turn began; models returned the same turn still count as slain (15.3, L627).
- Priority (4.1, L237): the winner, and only the winner, decides who takes the first turn.

Game-level state lives in `GameState.extra["aos"]`, so every change is one versioned game
event that /undo reverts.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from rules_core.errors import UserError
from rules_core.game.models import Condition, GameState, Unit
from rules_core.rules.text import fold
from rules_core.systems.aos.models import CommandLimit, HeroCp

PHASES = ("hero", "movement", "shooting", "charge", "combat", "battleshock")
CP = "cp"
FIRST_TURN_CP = 1  # L243
SECOND_TURN_CP = 2  # L243
HERO_PHASE_CP = 1  # L258, L279
RAN = "ran"  # the unit condition of a unit that ran (8.3, L327)
REDEPLOYED = "redeployed"  # Redeploy's unit can't shoot later in the turn (8.4, L339)
RETREATED = "retreated"  # the unit condition of a unit that retreated (8.2, L323)
# Unit conditions that forbid shooting for the rest of the turn (L403, L339), in this order.
NO_SHOOTING = (RAN, RETREATED, REDEPLOYED)
# Commands whose effect is a shot by the unit that receives it: command id -> the phases in
# which it is (11.2, L443; 13.4, L565-567: All-out Attack is picked as the unit shoots).
SHOOTING_COMMANDS = {"unleash_hell": ("charge",), "all_out_attack": ("shooting",)}
# Commands used as the unit that receives them is picked to fight: command id -> the phases
# in which it is (13.4, L563, L567).
FIGHTING_COMMANDS = {"all_out_attack": ("combat",)}
# Commands whose effect lasts until the end of the phase on the unit that received them:
# command id -> the roll it changes (13.4, L565-571; 15.3, L625).
PHASE_EFFECTS = {
    "all_out_attack": "hit",
    "all_out_defence": "save",
    "inspiring_presence": "battleshock",  # 15.3 (L625): no battleshock test that phase
    "unleash_hell": "hit",  # 11.2 (L443): its unit shoots that phase at -1 to hit
}
HERO_RANGE = 12  # 6.1 (L265): a HERO issues to units wholly within 12"
GENERAL_RANGE = 18  # L266-267: the General, and a TOTEM, wholly within 18"
EFFECT_VALUE = {"unleash_hell": -1}  # the modifier a PHASE_EFFECTS command gives; else +1
# Commands that must be received by a unit (their text says "that unit must receive it").
UNIT_COMMANDS = (
    "rally",  # 7.2 (L309): the unit that receives it rolls
    "at_the_double",
    "all_out_attack",
    "all_out_defence",
    "forward_to_victory",
    "inspiring_presence",
    "unleash_hell",
)


class CommandAbility(BaseModel):
    id: str
    it: str
    en: str
    cost: int = Field(ge=0, le=9)
    phases: list[str]
    own_turn: list[str] = Field(default_factory=list)  # phases: only in the user's own turn
    enemy_turn: list[str] = Field(default_factory=list)  # phases: only in the opponent's
    # The command's own distances, which the players check at the table (aos.table_check.*)
    table: list[str] = Field(default_factory=list)
    # Used at the start of its phase, before anything else in it (1.6.1, L177): Rally (L309),
    # Inspiring Presence (L625).
    start: bool = False
    lines: str


@cache
def command_abilities() -> dict[str, CommandAbility]:
    with (Path(__file__).with_name("commands.toml")).open("rb") as fh:
        raw = tomllib.load(fh)
    return {key: CommandAbility(id=key, **value) for key, value in raw.items()}


MIN_WORD = 3  # a word read inside a command's name: not `a`, `di`, `la`


def find_command(text: str) -> CommandAbility:
    """By id, English or Italian name, case/accent/space-insensitive, a unique prefix, or
    the start of a later word of one name alone (`raccolta`, `ispiratrice`, `hell`)."""
    key = fold(text).replace("-", " ").replace("_", " ").replace("'", " ")
    key = " ".join(key.split())
    table = command_abilities()
    names: dict[str, str] = {}
    for ability in table.values():
        for name in (ability.id, ability.en, ability.it):
            norm = " ".join(
                fold(name).replace("-", " ").replace("_", " ").replace("'", " ").split()
            )
            names[norm] = ability.id
    if key in names:
        return table[names[key]]
    matches = {v for k, v in names.items() if key and k.startswith(key)}
    if not matches and len(key) >= MIN_WORD:  # a word of one name: `raccolta`, `hell`
        matches = {v for k, v in names.items() if any(w.startswith(key) for w in k.split()[1:])}
    if len(matches) == 1:
        return table[matches.pop()]
    raise UserError("aos.unknown_command", name=text[:40], valid=",".join(table))


class AosState(BaseModel):
    deployed_first: str | None = None  # user id: wins a tied priority roll in round 1
    first_by_round: dict[str, str] = Field(default_factory=dict)  # round -> first player
    priority_round: int | None = None  # the round whose priority was settled
    hero_cp: list[str] = Field(default_factory=list)  # "round:turn" hero phases already paid
    ledger: str | None = None  # "round:turn:phase" the lists below belong to
    commands_used: dict[str, list[str]] = Field(default_factory=dict)  # user -> command ids
    units_received: list[str] = Field(default_factory=list)  # folded unit names
    issuers: list[str] = Field(default_factory=list)  # folded names of the models that issued
    effects: dict[str, list[str]] = Field(default_factory=dict)  # folded unit -> command ids
    received: dict[str, str] = Field(default_factory=dict)  # folded unit -> its command's id
    rallied: list[str] = Field(default_factory=list)  # folded units whose Rally was rolled
    # Where attacks are shots: folded unit -> folded weapon -> models that fired it this
    # phase (L409, L411), and the unit Unleash Hell's unit shoots at (its first target, L443).
    fired: dict[str, dict[str, int]] = Field(default_factory=dict)
    hell_targets: dict[str, str] = Field(default_factory=dict)
    # The combat phase's fights (12.1, L451-455; fights.py): folded units in the order they
    # fought, and the latest fight's attacks: folded weapon -> models that attacked with it.
    fought: list[str] = Field(default_factory=list)
    strikes: dict[str, int] = Field(default_factory=dict)
    # Something past the start of the phase was recorded in it (wounds written, models fled,
    # a battleshock test taken): a command used at the start of the phase comes too late
    # (1.6.1, L177).
    underway: bool = False
    heroic: list[str] = Field(default_factory=list)  # users who carried out a heroic action
    tested: list[str] = Field(default_factory=list)  # folded units that took battleshock
    turn_seq: int | None = None  # the turn the counts below belong to
    turn_models: dict[str, int] = Field(default_factory=dict)  # folded unit -> models at start
    returned: dict[str, int] = Field(default_factory=dict)  # folded unit -> models returned
    priority_winner: str | None = None  # who won this round's roll and has yet to choose
    priority_winner_round: int | None = None


def aos_state(state: GameState) -> AosState:
    return AosState.model_validate(state.extra.get("aos", {}))


def with_aos(state: GameState, aos: AosState) -> GameState:
    new = state.clone()
    new.extra["aos"] = aos.model_dump()
    return new


def two_players(state: GameState) -> list[str]:
    if len(state.order) != 2:
        raise UserError("aos.two_players", n=len(state.order))
    return list(state.order)


def tie_winner(state: GameState, aos: AosState) -> str | None:
    """L239: round 1 -> who finished deploying first; later -> who went first last round."""
    if state.round <= 1:
        return aos.deployed_first
    return aos.first_by_round.get(str(state.round - 1))


def apply_priority(state: GameState, winner: str, winner_goes_first: bool) -> GameState:
    """Set the round's order and grant the round's command points (L241-243)."""
    players = two_players(state)
    aos = aos_state(state)
    if aos.priority_round == state.round:
        raise UserError("aos.priority_done", round=state.round)
    if state.turn != 0 or state.phase != 0:
        raise UserError("aos.priority_not_now")
    loser = players[1] if winner == players[0] else players[0]
    first, second = (winner, loser) if winner_goes_first else (loser, winner)
    aos.priority_round = state.round
    aos.first_by_round[str(state.round)] = first
    new = with_aos(state, aos)
    new.order = [first, second]
    new.turn = 0
    new.phase = 0
    for user, amount in ((first, FIRST_TURN_CP), (second, SECOND_TURN_CP)):
        pools = new.resources.setdefault(f"player:{user}", {})
        pools[CP] = pools.get(CP, 0) + amount
    return new


def general_on_battlefield(state: GameState, user_id: str) -> bool:
    """A unit with `general=1` that is not destroyed; a player who marked no General is taken
    to have one on the battlefield (say so with general=1 on the unit to have it checked)."""
    generals = [u for u in state.units if u.owner == user_id and u.stats.get("general")]
    if not generals:
        return True
    return any(not u.destroyed for u in generals)


def grant_hero_cp(state: GameState, mode: HeroCp) -> tuple[GameState, dict[str, int]]:
    """+1 CP at the start of the hero phase (L258, L279) to the players who qualify."""
    if state.phase != 0:
        raise UserError("aos.not_hero_phase")
    aos = aos_state(state)
    key = f"{state.round}:{state.turn}"
    if key in aos.hero_cp:
        raise UserError("aos.hero_cp_done")
    aos.hero_cp.append(key)
    aos.hero_cp = aos.hero_cp[-4:]
    new = with_aos(state, aos)
    players = list(new.order) if mode == "each" else [p for p in [new.current] if p]
    granted: dict[str, int] = {}
    for user in players:
        amount = HERO_PHASE_CP if general_on_battlefield(new, user) else 0
        pools = new.resources.setdefault(f"player:{user}", {})
        pools[CP] = pools.get(CP, 0) + amount
        granted[user] = amount
    return new, granted


def use_command(
    state: GameState,
    user_id: str,
    ability: CommandAbility,
    unit: str | None,
    limit: CommandLimit = "per_player",
    issuer: str | None = None,
    free: bool = False,
) -> tuple[GameState, int]:
    """Spend the command's cost (6.1, L262); once per phase per player and per unit, and,
    when the model that issues it is named, at most one command per phase from it (L269).
    `free`: the unit receives it without its being issued and without spending CP (battalion
    icons, L1225-1229, and warscroll abilities alike; the players keep their once per
    battle)."""
    if free and issuer is not None:
        raise UserError("aos.free_no_issuer", command=ability.id)
    phase = PHASES[state.phase] if state.phase < len(PHASES) else PHASES[0]
    if phase not in ability.phases:
        raise UserError(
            "aos.wrong_phase", command=ability.id, phase=phase, phases=",".join(ability.phases)
        )
    whose_turn(state, user_id, ability, phase)
    receiver = named_unit(state, unit)
    for found in (named_unit(state, issuer), receiver):
        if found is not None and found.owner != user_id:  # L262: friendly model and unit
            raise UserError("aos.not_friendly", unit=found.name)
    if receiver is not None and phase in SHOOTING_COMMANDS.get(ability.id, ()):
        barred = shot_barred(receiver)
        if barred is not None:  # the shot the command is for would be refused (L339, L403)
            raise UserError(f"aos.no_shoot_{barred}", unit=receiver.name)
        if has_fired(state, receiver.name):  # used as the unit is picked to shoot (L563, L567)
            raise UserError("aos.command_after_shot", command=ability.id, unit=receiver.name)
    fights_now = receiver is not None and phase in FIGHTING_COMMANDS.get(ability.id, ())
    if fights_now and receiver is not None and fight_begun(state, receiver.name):
        # used as the unit is picked to fight (L563, L567)
        raise UserError("aos.command_after_fight", command=ability.id, unit=receiver.name)
    if receiver is not None and ability.id == "at_the_double":
        may_run(receiver)  # declared as the unit is picked to run, instead of its roll (L335)
    if ability.start and phase_underway(state):  # at the start of the phase (L177)
        raise UserError("aos.command_not_at_start", command=ability.id, phase=phase)
    aos = phase_ledger(state)
    used = aos.commands_used.setdefault(user_id, [])
    everyone = [c for ids in aos.commands_used.values() for c in ids]
    if ability.id in (used if limit == "per_player" else everyone):
        raise UserError("aos.command_used", command=ability.id)
    if unit is None and ability.id in UNIT_COMMANDS:
        raise UserError("aos.command_needs_unit", command=ability.id)
    if issuer is not None:
        if fold(issuer) in aos.issuers:
            raise UserError("aos.issuer_used", unit=issuer)
        aos.issuers.append(fold(issuer))
    if unit is not None:
        folded = fold(unit)
        if folded in aos.units_received:
            raise UserError("aos.unit_received", unit=unit)
        aos.units_received.append(folded)
        aos.received[folded] = ability.id
        if ability.id in PHASE_EFFECTS:
            aos.effects.setdefault(folded, []).append(ability.id)
    used.append(ability.id)
    new = with_aos(state, aos)
    if unit is not None and ability.id == "at_the_double":
        mark_ran(new, unit)  # "is still considered to have run"
    if unit is not None and ability.id == "redeploy":
        mark(new, unit, REDEPLOYED)  # "can't shoot later in the turn"
    pools = new.resources.setdefault(f"player:{user_id}", {})
    have = pools.get(CP, 0)
    cost = 0 if free else ability.cost
    if have < cost:
        raise UserError("game.not_enough", resource=CP, have=have, want=cost)
    pools[CP] = have - cost
    return new, pools[CP]


TableCheck = tuple[str, dict[str, str | int]]


def table_checks(
    ability: CommandAbility, issuer: Unit | None, unit: str | None, free: bool = False
) -> list[TableCheck]:
    """What the players check at the table for a command the bot accepts, as message keys and
    their values: the bot has no positions, so it refuses none of these. Who may issue it to
    the unit (6.1, L263-267: a HERO within 12", the General or a TOTEM within 18", a champion
    to its own unit; nothing to measure when a model issues it to its own unit; a named issuer
    by its keywords, `general=1`, `hero=1`, else only as a TOTEM), then the
    command's own distances (commands.toml `table`: Rally L309, Redeploy L339, Unleash Hell
    L443). A free command is issued by nobody (L1225-1229): only its own distances."""
    found: list[TableCheck] = []
    own = issuer is not None and unit is not None and fold(issuer.name) == fold(unit)
    if free:
        pass
    elif issuer is None:
        found.append(("aos.table_issuer", {"hero": HERO_RANGE, "general": GENERAL_RANGE}))
    elif own:
        pass
    elif issuer.stats.get("general"):
        found.append(("aos.table_general", {"unit": issuer.name, "inches": GENERAL_RANGE}))
    elif issuer.stats.get("hero"):  # the HERO keyword (7.1, L283): 12" (L265)
        found.append(("aos.table_hero", {"unit": issuer.name, "inches": HERO_RANGE}))
    else:  # neither a HERO nor the General: only a TOTEM issues to another unit (L266-267)
        found.append(("aos.table_totem", {"unit": issuer.name, "inches": GENERAL_RANGE}))
    found += [(f"aos.table_check.{check}", {}) for check in ability.table]
    return found


def phase_ledger(state: GameState) -> AosState:
    """The AoS state, its per-phase lists emptied if they belong to an earlier phase (L567)."""
    aos = aos_state(state)
    key = phase_key(state)
    if aos.ledger != key:
        aos.ledger, aos.commands_used, aos.units_received, aos.effects = key, {}, [], {}
        aos.issuers, aos.fired, aos.hell_targets = [], {}, {}
        aos.received, aos.rallied = {}, []
        aos.fought, aos.strikes, aos.underway, aos.heroic = [], {}, False, []
        aos.tested = []
    return aos


def may_rally(state: GameState, unit: str) -> None:
    """A Rally's dice return models only to the unit that received the command in this phase
    (7.2, L307-309), issued or free (L1225-1229), and are rolled once for it."""
    aos = aos_state(state)
    current = aos.ledger == phase_key(state)
    if not current or aos.received.get(fold(unit)) != "rally":
        raise UserError("aos.rally_needs_command", unit=unit)
    if fold(unit) in aos.rallied:
        raise UserError("aos.rally_done", unit=unit)


def record_rally(state: GameState, unit: str) -> GameState:
    """The unit's Rally was rolled and applied: not again in this phase."""
    may_rally(state, unit)
    aos = phase_ledger(state)
    aos.rallied.append(fold(unit))
    return with_aos(state, aos)


def may_heroic(state: GameState, user_id: str) -> None:
    """A heroic action (7.0-7.1, L281-283) is carried out at the start of the hero phase
    (before anything else in it, 1.6.1 L177), at most one per player in each hero phase; the
    player is the HERO's owner."""
    phase = PHASES[state.phase] if state.phase < len(PHASES) else PHASES[0]
    if phase != "hero":
        raise UserError("aos.heroic_not_hero_phase", phase=phase)
    if phase_underway(state):
        raise UserError("aos.heroic_not_at_start")
    aos = aos_state(state)
    if aos.ledger == phase_key(state) and user_id in aos.heroic:
        raise UserError("aos.heroic_done", name=state.player_name(user_id))


def require_hero(unit: Unit) -> None:
    """A heroic action is carried out with a friendly HERO (7.1, L283 and each action,
    L287-301): a unit not known as a HERO (`hero=1`; never given, it is not one, as MONSTER)
    is refused before any die."""
    if not unit.stats.get("hero"):
        raise UserError("aos.not_hero", unit=unit.name)


def may_heroic_unit(state: GameState, unit: Unit) -> None:
    """The HERO's heroic action (`require_hero`) in this phase (`may_heroic`)."""
    require_hero(unit)
    may_heroic(state, unit.owner)


def record_heroic(state: GameState, user_id: str) -> GameState:
    """The player's heroic action of this hero phase was carried out."""
    may_heroic(state, user_id)
    aos = phase_ledger(state)
    aos.heroic.append(user_id)
    return with_aos(state, aos)


def may_battleshock(state: GameState, unit: str) -> None:
    """A unit takes its battleshock test once in the phase (15.0-15.1, L609-613)."""
    aos = aos_state(state)
    if aos.ledger == phase_key(state) and fold(unit) in aos.tested:
        raise UserError("aos.battleshock_done", unit=unit)


def record_battleshock(state: GameState, unit: str) -> GameState:
    """The unit's battleshock test was taken (passed or not): not again in this phase, and
    the phase is past its start (Inspiring Presence, 15.3 L625, comes before any test)."""
    may_battleshock(state, unit)
    aos = phase_ledger(state)
    aos.tested.append(fold(unit))
    aos.underway = True
    return with_aos(state, aos)


def named_unit(state: GameState, name: str | None) -> Unit | None:
    """The game's unit of that name (names here come from units the bot already found)."""
    if name is None:
        return None
    return next((u for u in state.units if fold(u.name) == fold(name)), None)


def shot_barred(unit: Unit) -> str | None:
    """Why the unit can't shoot this turn (ran or retreated, L403; redeployed, L339), or None."""
    names = {fold(c.name) for c in unit.conditions}
    return next((c for c in NO_SHOOTING if c in names), None)


def models_fired(state: GameState, unit: str, weapon: str) -> int:
    """How many of the unit's models fired that weapon in this phase (10.0, L409-411)."""
    aos = aos_state(state)
    if aos.ledger != phase_key(state):
        return 0
    return aos.fired.get(fold(unit), {}).get(fold(weapon), 0)


def has_fired(state: GameState, unit: str) -> bool:
    """The unit has made shots in this phase, with any weapon."""
    aos = aos_state(state)
    return aos.ledger == phase_key(state) and any(aos.fired.get(fold(unit), {}).values())


def fight_begun(state: GameState, unit: str) -> bool:
    """The unit has fought this combat phase (12.1.1, L455) beyond being just picked: its
    attacks were made, or another unit fought after it (see fights.py)."""
    aos = aos_state(state)
    if aos.ledger != phase_key(state) or PHASES[state.phase] != "combat":
        return False
    key = fold(unit)
    just_picked = bool(aos.fought) and aos.fought[-1] == key and not aos.strikes
    return key in aos.fought and not just_picked


def phase_underway(state: GameState) -> bool:
    """Something past the start of the current phase was recorded in it (1.6.1, L177)."""
    aos = aos_state(state)
    return aos.ledger == phase_key(state) and aos.underway


def mark_underway(state: GameState) -> GameState:
    """The current phase is past its start: wounds were written or models fled in it."""
    aos = phase_ledger(state)
    if aos.underway:
        return state
    aos.underway = True
    return with_aos(state, aos)


def hell_target(state: GameState, unit: str) -> str | None:
    """The unit that Unleash Hell's unit shot at first this phase: the one that charged."""
    aos = aos_state(state)
    return aos.hell_targets.get(fold(unit)) if aos.ledger == phase_key(state) else None


def record_shot(state: GameState, unit: str, weapon: str, models: int, target: str) -> GameState:
    """The unit's models fired the weapon in this phase: not again until it ends (L411);
    Unleash Hell's first target is the unit that charged (L443)."""
    aos = phase_ledger(state)
    weapons = aos.fired.setdefault(fold(unit), {})
    weapons[fold(weapon)] = weapons.get(fold(weapon), 0) + models
    if "unleash_hell" in aos.effects.get(fold(unit), []):
        aos.hell_targets.setdefault(fold(unit), target)
    return with_aos(state, aos)


def whose_turn(state: GameState, user_id: str, ability: CommandAbility, phase: str) -> None:
    """A command used in "your" phase only in your own turn, or in the enemy's only in theirs
    (L271; 8.4 L335-339, 11.2 L439-443, 13.4 L567). A game without two players in the turn
    order can't tell whose turn it is: nothing is checked there."""
    if len(state.order) < 2:
        return
    mine = state.current == user_id
    if phase in ability.own_turn and not mine:
        raise UserError("aos.own_turn_only", command=ability.id, phase=phase)
    if phase in ability.enemy_turn and mine:
        raise UserError("aos.enemy_turn_only", command=ability.id, phase=phase)


def mark_ran(state: GameState, unit: str) -> None:
    """The unit ran this turn (in place): no shooting or charge later in the turn (L327)."""
    mark(state, unit, RAN)


def mark(state: GameState, unit: str, condition: str) -> None:
    """The unit's condition until the end of the turn (in place)."""
    for model in state.units:
        if fold(model.name) == fold(unit):
            model.conditions = [c for c in model.conditions if fold(c.name) != condition]
            model.conditions.append(Condition(name=condition, until="end-of-turn"))


def may_run(unit: Unit) -> None:
    """8.0 (L315): a unit is picked once per movement phase to make a normal move, run or
    retreat: one that ran (its run roll made, or At the Double received) or retreated this
    turn runs no more, nor receives At the Double (8.4, L335: used as its run is declared,
    instead of the run roll)."""
    names = {fold(c.name) for c in unit.conditions}
    moved = next((m for m in (RAN, RETREATED) if m in names), None)
    if moved is not None:
        raise UserError(f"aos.already_{moved}", unit=unit.name)


def has_run(unit: Unit) -> bool:
    return any(fold(c.name) == RAN for c in unit.conditions)


def phase_key(state: GameState) -> str:
    return f"{state.round}:{state.turn}:{state.phase}"


def phase_effects(state: GameState, unit: str) -> list[str]:
    """The commands received by the unit whose effect lasts to the end of the current phase."""
    aos = aos_state(state)
    if aos.ledger != phase_key(state):
        return []  # those commands were used in an earlier phase
    return [c for c in aos.effects.get(fold(unit), []) if c in PHASE_EFFECTS]


def snapshot_turn(state: GameState) -> None:
    """At the start of a turn, note every unit's models (in place: a system hook's state)."""
    aos = aos_state(state)
    aos.turn_seq = state.turn_seq
    aos.turn_models = {fold(u.name): u.models_left for u in state.units}
    aos.returned = {}
    state.extra["aos"] = aos.model_dump()


def slain_this_turn(state: GameState, unit: Unit) -> int:
    """Models of the unit slain this turn (15.1, L613), returned ones included (L627). A unit
    not counted at the turn's start (the first turn, or added since) started at full size."""
    aos = aos_state(state)
    current = aos.turn_seq == state.turn_seq
    key = fold(unit.name)
    start = aos.turn_models.get(key, unit.models) if current else unit.models
    returned = aos.returned.get(key, 0) if current else 0
    return max(0, start - unit.models_left + returned)


def record_returned(state: GameState, unit: str, models: int) -> GameState:
    """Models returned to the unit this turn, so battleshock still counts them (L627)."""
    aos = aos_state(state)
    if aos.turn_seq != state.turn_seq:  # not counted at the turn's start: full units then
        aos.turn_seq, aos.returned, aos.turn_models = state.turn_seq, {}, {}
    key = fold(unit)
    aos.returned[key] = aos.returned.get(key, 0) + models
    return with_aos(state, aos)
