"""WoW Miniatures in the game state: the character card's stats, Action Cards and the clocks.

Turns in WoW are not a player order but the clocks (rules 408, 500-501): the Master Clock
runs 1-10, each character has a Personal Clock, and whoever's clock equals the Master Clock
may take a turn. The clock state lives in `GameState.extra["wow"]` (with the chat's settings
copied in), a character's Action Bar in `Unit.extra["wow"]["cards"]`, so every change is a
normal versioned game change that `/undo` reverts.

A turn (501): it begins when the character first plays something (a card, an attack with
`attacker=`) or when `act`/`moved` is called; from then on no other character may start a
turn (501.3: one thing at a time, turns never interleave); `act`/`moved` ends it. A dead
character waiting to respawn (Battleground) respawns as its turn begins (403.1, 501.1).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from rules_core.errors import UserError
from rules_core.game.models import GameState, ScoreEntry, Unit
from rules_core.rules.text import fold
from rules_core.systems.base import GameSystem, Note, StatSpec
from rules_core.systems.wow import cards as wow_cards
from rules_core.systems.wow import clock, victory
from rules_core.systems.wow.settings import WowSettings

# 403.2c (standard scenario): destroying a character scores 4 VP, a Legendary one 8; 304.2:
# a Pet scores none.
KILL_VP = victory.KILL_VP
LEGENDARY_VP = victory.LEGENDARY_KILL_VP


def wow_extra(unit: Unit) -> dict[str, Any]:
    """The unit's WoW data: its Action Bar, its master (a Pet), its printed Health."""
    data: dict[str, Any] = unit.extra.setdefault("wow", {})
    return data


def master_of(state: GameState, unit: Unit) -> str | None:
    """A Pet's master (folded name), when known (304.1)."""
    master = unit.extra.get("wow", {}).get("master")
    return master if isinstance(master, str) else None


def printed_health(unit: Unit) -> int:
    """The Health on the Character Card: Max Health without the 402.3 changes (402.3c)."""
    printed = unit.extra.get("wow", {}).get("printed_health")
    return printed if isinstance(printed, int) else unit.stats.get("health", unit.wounds_per_model)


def set_max_health(unit: Unit, value: int) -> None:
    """`unit` is mutable: Max Health becomes `value` (at least 1: a lower one destroys it)."""
    unit.stats["health"] = max(1, value)
    unit.wounds_per_model = unit.stats["health"]


def remove_pet(state: GameState, pet: Unit) -> None:
    """`state` is mutable: a Pet leaves play (removed, not destroyed: 304.2, 403.2a)."""
    state.units = [u for u in state.units if u is not pet]
    clocks = clocks_of(state)
    key = fold(pet.name)
    clocks.personal.pop(key, None)
    if key in clocks.respawn:
        clocks.respawn.remove(key)
    if clocks.turn == key:
        clocks.turn = None
    store(state, clocks)


def pets_to_replace(state: GameState, pet: Unit, master: Unit) -> list[Unit]:
    """304.1: who already has a Pet loses it when summoning another; by the `pet_limit`
    setting "who" is the player (the Italian text) or the summoning character."""
    limit = settings_of(state).pet_limit
    return [
        u
        for u in state.units
        if u is not pet
        and u.stats.get("pet")
        and (
            master_of(state, u) == fold(master.name)
            if limit == "master"
            else u.owner == master.owner
        )
    ]


def kill_vp(unit: Unit) -> int:
    return victory.kill_vp(bool(unit.stats.get("legendary")), bool(unit.stats.get("pet")))


class Clocks(BaseModel):
    master: int = Field(default=1, ge=1, le=10)
    personal: dict[str, int] = Field(default_factory=dict)  # folded unit name -> 1..10
    last_active: str | None = None  # the player whose character took the last turn (501.2)
    turn: str | None = None  # folded name of the character whose turn is in progress
    respawn: list[str] = Field(default_factory=list)  # folded names waiting to respawn
    striker: str | None = None  # while an attack is applied: the attacker's player
    settings: WowSettings | None = None  # the chat's settings, copied into the game


class TickReport(BaseModel):
    """What the end of a tick brought, for the reply."""

    ended: int  # the tick that ended
    master: int  # the Master Clock now
    new_round: bool
    vp_locations: bool  # 502.1: VP locations score at the end of ticks 5 and 10
    cards_ready: bool  # 502.2: the end of tick 10 readies every exhausted Action Card
    readied: list[str] = Field(default_factory=list)  # "Unit: Card" readied now


def clocks_of(state: GameState) -> Clocks:
    return Clocks.model_validate(state.extra.get("wow", {}))


def settings_of(state: GameState) -> WowSettings:
    return clocks_of(state).settings or WowSettings()


def with_clocks(state: GameState, clocks: Clocks) -> GameState:
    new = state.clone()
    new.extra["wow"] = clocks.model_dump()
    return new


def store(state: GameState, clocks: Clocks) -> None:
    """Write the clocks into a mutable state."""
    state.extra["wow"] = clocks.model_dump()


def with_settings(state: GameState, settings: WowSettings, *, replace: bool) -> GameState:
    """The game's copy of the chat's settings: filled in when missing, or replaced."""
    clocks = clocks_of(state)
    if clocks.settings is not None and not replace:
        return state
    clocks.settings = settings
    return with_clocks(state, clocks)


def same_team(state: GameState, a: str, b: str) -> bool:
    """Two players' characters are allies (400.2): the same player, or players on one side."""
    if a == b:
        return True
    pa, pb = state.player(a), state.player(b)
    return bool(pa and pb and pa.side and pa.side == pb.side)


def scorer(state: GameState, victim: Unit) -> str | None:
    """Who scores a kill (403.2c does not say; digest section 8): the attacking character's
    player when the kill comes from an attack with `attacker=`; otherwise the `kill_scorer`
    setting (see settings.py). Never the victim's own player or a teammate: then nobody
    (`/score add`)."""
    clocks = clocks_of(state)
    opponents = [p.user_id for p in state.players if not same_team(state, p.user_id, victim.owner)]
    if clocks.striker in opponents:
        return clocks.striker
    settings = clocks.settings or WowSettings()
    if settings.kill_scorer == "opponent" and len(opponents) == 1:
        return opponents[0]
    active = clocks.last_active
    if clocks.turn is not None:
        mid = next((u for u in state.units if fold(u.name) == clocks.turn), None)
        active = mid.owner if mid is not None else active
    return active if active in opponents else None


def honor_total(state: GameState, user_id: str) -> int:
    """102.1: a player wins on reaching their own party's Honor total (every character of the
    party, destroyed ones included: Honor is printed on the card)."""
    return sum(u.stats.get("honor", 0) for u in state.units if u.owner == user_id)


def standings(state: GameState) -> list[victory.Standing]:
    scores = state.score()
    return [
        victory.Standing(
            player=p.user_id, vp=scores.get(p.user_id, 0), honor=honor_total(state, p.user_id)
        )
        for p in state.players
    ]


def victory_notes(state: GameState) -> list[Note]:
    decision = victory.decide(standings(state))
    if decision.winner is not None:
        name = state.player_name(decision.winner)
        vp = state.score().get(decision.winner, 0)
        honor = honor_total(state, decision.winner)
        return [(f"wow.win_{decision.reason}", {"player": name, "vp": vp, "honor": honor})]
    if decision.reason == "continue":
        names = ", ".join(p.name for p in state.players if p.user_id in decision.tied)
        return [("wow.win_continue", {"players": names})]
    return []


class WowSystem(GameSystem):
    def setup_unit(self, state: GameState, unit: Unit, options: dict[str, str]) -> None:
        """A character joins the clocks level with the Master Clock (408: a clock is 0-9 ahead
        of it; 1 would be wrong mid-game). A Pet added while its player's character has the
        turn is that character's summon: it takes its master's clock after the summon's cost
        (304.2) and replaces the player's old Pet (304.1)."""
        super().setup_unit(state, unit, options)
        clocks = clocks_of(state)
        key = fold(unit.name)
        clocks.personal[key] = clocks.master
        store(state, clocks)
        summoner = turn_unit(state)
        if unit.stats.get("pet") and summoner is not None and summoner.owner == unit.owner:
            link_pet(state, unit, summoner)

    def on_destroyed(self, state: GameState, unit: Unit) -> list[Note]:
        notes: list[Note] = []
        for pet in [u for u in state.units if master_of(state, u) == fold(unit.name)]:
            remove_pet(state, pet)  # 304.2, 403.2a: its Pets leave play with it
            notes.append(("wow.pet_removed", {"pet": pet.name, "unit": unit.name}))
        points = kill_vp(unit)
        if points == 0:
            notes.append(("wow.kill_pet", {"unit": unit.name}))
        else:
            who = scorer(state, unit)
            if who is None:
                notes.append(("wow.kill_unassigned", {"unit": unit.name, "vp": points}))
            else:
                state.score_log.append(ScoreEntry(user_id=who, points=points, reason=unit.name))
                name = state.player_name(who)
                notes.append(("wow.kill_vp", {"unit": unit.name, "vp": points, "player": name}))
        clocks = clocks_of(state)
        settings = clocks.settings or WowSettings()
        key = fold(unit.name)
        if settings.battleground == "yes" and not unit.stats.get("pet"):
            # 403.2b (L538): the Personal Clock moves 2 ahead (a forced move: at most 9 ahead,
            # 408.2a) and Health goes back to the card's. The unit stays marked destroyed
            # while it is out of play (403.3, L546) and gets its Health back when it respawns,
            # right before its next turn (403.1, L522; 501.1, L796; see begin_turn).
            # 403.2a (L534) / 301.2d: its buffs, debuffs and counters go.
            before = clocks.personal.get(key, 1)
            after = clock.respawn_clock(clocks.master, before)
            clocks.personal[key] = after
            if key not in clocks.respawn:
                clocks.respawn.append(key)
            unit.conditions = []
            unit.extra.get("wow", {}).pop("effect_ends", None)
            notes.append(
                ("wow.respawn_pending", {"unit": unit.name, "before": before, "after": after})
            )
        if clocks.turn == key:
            clocks.turn = None  # its turn ends with it
        store(state, clocks)
        if points:
            notes += victory_notes(state)
        return notes


WOW = WowSystem(
    id="wow",
    stats=(
        StatSpec(name="health", min=1, max=99, required=True),  # 401: Health
        StatSpec(name="armor", min=0, max=20, default=0),  # 602: Armor dice vs physical
        StatSpec(name="resist", min=0, max=20, default=0),  # 602: Resist dice vs magical
        StatSpec(name="attack", min=0, max=40),  # 600.1: the primary attack's power
        StatSpec(name="magical", min=0, max=1),  # 600.1: the primary attack is magical
        StatSpec(name="speed", min=0, max=30),
        StatSpec(name="range", min=0, max=30),
        StatSpec(name="honor", min=0, max=999),  # 102: a party's Honor total wins the game
        StatSpec(name="legendary", min=0, max=1, default=0),  # 403.2c: 8 VP when destroyed
        StatSpec(name="pet", min=0, max=1, default=0),  # 304.2: pets give no VP
    ),
    wounds_stat="health",
    phases=("play",),
    order="fixed",
)


def characters(state: GameState, clocks: Clocks) -> list[clock.Character]:
    """The characters on the clocks: those in play, and destroyed ones waiting to respawn
    (they keep their Personal Clock and take turns, 403.1, 403.3). Without Battleground a
    destroyed character leaves the clocks."""
    return [
        clock.Character(
            name=u.name,
            owner=u.owner,
            clock=clocks.personal.get(fold(u.name), 1),
            in_play=not u.destroyed,
        )
        for u in state.units
        if not u.destroyed or fold(u.name) in clocks.respawn
    ]


def ready_now(state: GameState) -> list[clock.Character]:
    clocks = clocks_of(state)
    if turn_unit(state) is not None:
        return []  # a turn is in progress: nobody else starts one (501.3)
    return clock.ready(clocks.master, characters(state, clocks))


def next_chooser(state: GameState) -> str | None:
    """The player who picks the next character to act (500.3c), or None when nobody can."""
    ready = ready_now(state)
    if not ready:
        return None
    order = [p.user_id for p in state.players]
    return clock.chooser(
        ready, order, clocks_of(state).last_active, lambda a, b: same_team(state, a, b)
    )


def turn_unit(state: GameState) -> Unit | None:
    """The character whose turn is in progress, if any (and still in the game)."""
    key = clocks_of(state).turn
    return next((u for u in state.units if fold(u.name) == key), None) if key else None


def begin_turn(state: GameState, unit: Unit, notes: list[Note]) -> None:
    """`state` is mutable. The character's turn begins now unless it is already its turn.
    Its clock must equal the Master Clock (500.3), no other turn may be in progress (501.3);
    a character waiting to respawn respawns first, with full Health (403.1, 403.2b, 501.1);
    its controller becomes the active player (501.2)."""
    clocks = clocks_of(state)
    key = fold(unit.name)
    if clocks.turn == key:
        return
    other = turn_unit(state)  # None too when that character was removed from the game
    if other is not None:
        raise UserError("wow.turn_in_progress", unit=other.name)
    current = clocks.personal.get(key, 1)
    if current != clocks.master:
        raise UserError("wow.not_ready", unit=unit.name, clock=current, master=clocks.master)
    mine = next(u for u in state.units if fold(u.name) == key)
    if key in clocks.respawn:
        clocks.respawn.remove(key)
        set_max_health(mine, printed_health(mine))  # 403.2b: back to the printed Health
        mine.damage = 0
        notes.append(("wow.respawned", {"unit": mine.name}))
    elif mine.destroyed:
        raise UserError("wow.unit_destroyed", unit=mine.name)
    clocks.turn = key
    clocks.last_active = unit.owner
    if unit.owner in state.order:  # 501.2: /game status and /unit damage see the active player
        state.turn = state.order.index(unit.owner)
    store(state, clocks)


def link_pet(state: GameState, pet: Unit, master: Unit) -> list[Unit]:
    """`state` is mutable. The Pet's master is recorded, its clock set to the master's (304.2)
    and the older Pets it replaces removed (304.1); returns those."""
    clocks = clocks_of(state)
    clocks.personal[fold(pet.name)] = clocks.personal.get(fold(master.name), clocks.master)
    store(state, clocks)
    wow_extra(pet)["master"] = fold(master.name)
    old = pets_to_replace(state, pet, master)
    for other in old:
        remove_pet(state, other)
    return old


def pay(state: GameState, unit: Unit, cost: int, card_names: list[str]) -> list[wow_cards.Card]:
    """`state` is mutable, the turn begun: pay `cost` plus the cost of each card (408.2; too
    far ahead refuses it all, 408.2a) and exhaust the cards (300.5)."""
    clocks = clocks_of(state)
    key = fold(unit.name)
    mine = next(u for u in state.units if fold(u.name) == key)
    played: list[wow_cards.Card] = []
    for name in card_names:
        played.append(wow_cards.exhaust(mine, name))
    total = cost + sum(c.cost for c in played)
    clocks.personal[key] = clock.pay(clocks.master, clocks.personal.get(key, 1), total)
    store(state, clocks)
    return played


def play_card(state: GameState, unit: Unit, card: str, notes: list[Note]) -> GameState:
    """The character plays one Action Card in its turn (begun now if need be): pays the
    card's cost and exhausts it. The turn goes on until `act` or `moved` ends it."""
    new = state.clone()
    begin_turn(new, unit, notes)
    pay(new, unit, 0, [card])
    return new


def start(state: GameState, unit: Unit, notes: list[Note]) -> GameState:
    """The character's turn begins (e.g. it attacks with its primary attack)."""
    new = state.clone()
    begin_turn(new, unit, notes)
    return new


def act(
    state: GameState,
    unit: Unit,
    cost: int,
    card_names: list[str] | None = None,
    notes: list[Note] | None = None,
) -> GameState:
    """The character's turn, paying `cost` more ticks and the cost of each card played now
    (408.2, 300.5), then ending it: a character still level with the Master Clock (it only
    moved or played free abilities) ticks forward 1 (501.3b)."""
    said: list[Note] = []
    new = state.clone()
    begin_turn(new, unit, said)
    pay(new, unit, cost, card_names or [])
    clocks = clocks_of(new)
    key = fold(unit.name)
    clocks.personal[key] = clock.end_of_turn(clocks.master, clocks.personal[key])
    clocks.turn = None
    store(new, clocks)
    if notes is not None:
        notes.extend(said)
    return new


def react(state: GameState, unit: Unit, cost: int, card_names: list[str]) -> GameState:
    """React cards (300.3, L306; 701) are played in React windows, on anyone's turn: their
    cost is paid and they are exhausted like any card (300.5; 408.2a still applies, digest
    D7), but no turn begins or ends and the character need not be level with the Master
    Clock. A character out of play can't react (403.3)."""
    if not card_names:
        raise UserError("wow.react_needs_card")
    if unit.destroyed:
        raise UserError("wow.unit_destroyed", unit=unit.name)
    new = state.clone()
    pay(new, unit, cost, card_names)
    return new


def moved(state: GameState, unit: Unit, notes: list[Note] | None = None) -> GameState:
    """A turn of only moving costs 1 tick (501.3b)."""
    return act(state, unit, 0, [], notes)


def tick(state: GameState) -> tuple[GameState, TickReport]:
    """The tick ends when nobody can act (500.3a, read as in the digest's note A): end-of-tick
    effects (502.1), every Action Card readied at the end of tick 10 (502.2), then the Master
    Clock advances; past 10 it wraps to 1, a new round."""
    current = turn_unit(state)
    if current is not None:
        raise UserError("wow.turn_in_progress", unit=current.name)
    waiting = ready_now(state)
    if waiting:
        raise UserError("wow.still_ready", units=", ".join(c.name for c in waiting))
    clocks = clocks_of(state)
    ended = clocks.master
    clocks.master = clock.wrap(ended + 1)
    new = with_clocks(state, clocks)
    readied = wow_cards.ready_all(new) if ended == clock.TICKS else []
    if clocks.master == 1:
        new.round += 1
    report = TickReport(
        ended=ended,
        master=clocks.master,
        new_round=clocks.master == 1,
        vp_locations=ended in clock.VP_TICKS,
        cards_ready=ended == clock.TICKS,
        readied=readied,
    )
    return new, report
