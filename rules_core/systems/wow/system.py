"""WoW Miniatures in the game state: the character card's stats and the clocks.

Turns in WoW are not a player order but the clocks (rules 408, 500-501): the Master Clock
runs 1-10, each character has a Personal Clock, and whoever's clock equals the Master Clock
may take a turn. The clock state lives in `GameState.extra["wow"]`, so every change is a
normal versioned game change that `/undo` reverts.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from rules_core.errors import UserError
from rules_core.game.models import GameState, ScoreEntry, Unit
from rules_core.rules.text import fold
from rules_core.systems.base import GameSystem, Note, StatSpec
from rules_core.systems.wow import clock

# 403.2c (standard scenario): destroying a character scores 4 VP, a Legendary one 8; 304.2:
# a Pet scores none.
KILL_VP = 4
LEGENDARY_VP = 8


def kill_vp(unit: Unit) -> int:
    if unit.stats.get("pet"):
        return 0
    return LEGENDARY_VP if unit.stats.get("legendary") else KILL_VP


def scorer(state: GameState, victim: Unit) -> str | None:
    """Who scores a kill. 403.2c does not say (digest section 8); we give it to the only
    opponent, or with more players to the player whose character took the last turn, and to
    nobody when that is the victim's own player (the group adds it by hand)."""
    opponents = [p.user_id for p in state.players if p.user_id != victim.owner]
    if len(opponents) == 1:
        return opponents[0]
    last = clocks_of(state).last_active
    return last if last in opponents else None


def honor_total(state: GameState, user_id: str) -> int:
    """102.1: a player wins on reaching their own party's Honor total."""
    return sum(u.stats.get("honor", 0) for u in state.units if u.owner == user_id)


class WowSystem(GameSystem):
    def on_destroyed(self, state: GameState, unit: Unit) -> list[Note]:
        points = kill_vp(unit)
        if points == 0:
            return [("wow.kill_pet", {"unit": unit.name})]
        who = scorer(state, unit)
        if who is None:
            return [("wow.kill_unassigned", {"unit": unit.name, "vp": points})]
        state.score_log.append(ScoreEntry(user_id=who, points=points, reason=unit.name))
        player = state.player(who)
        name = player.name if player else who
        notes: list[Note] = [("wow.kill_vp", {"unit": unit.name, "vp": points, "player": name})]
        total, honor = state.score().get(who, 0), honor_total(state, who)
        if honor and total >= honor:
            notes.append(("wow.honor_reached", {"player": name, "vp": total, "honor": honor}))
        return notes


WOW = WowSystem(
    id="wow",
    stats=(
        StatSpec(name="health", min=1, max=99, required=True),  # 401: Health
        StatSpec(name="armor", min=0, max=20, default=0),  # 602: Armor dice vs physical
        StatSpec(name="resist", min=0, max=20, default=0),  # 602: Resist dice vs magical
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


class Clocks(BaseModel):
    master: int = Field(default=1, ge=1, le=10)
    personal: dict[str, int] = Field(default_factory=dict)  # folded unit name -> 1..10
    last_active: str | None = None  # the player whose character took the last turn


class TickReport(BaseModel):
    """What the end of a tick brought, for the reply."""

    ended: int  # the tick that ended
    master: int  # the Master Clock now
    new_round: bool
    vp_locations: bool  # 502.1: VP locations score at the end of ticks 5 and 10
    cards_ready: bool  # 502.2: the end of tick 10 readies every exhausted Action Card


def clocks_of(state: GameState) -> Clocks:
    return Clocks.model_validate(state.extra.get("wow", {}))


def with_clocks(state: GameState, clocks: Clocks) -> GameState:
    new = state.model_copy(deep=True)
    new.extra["wow"] = clocks.model_dump()
    return new


def characters(state: GameState, clocks: Clocks) -> list[clock.Character]:
    """The characters still in play (a destroyed one leaves the clocks in standard play)."""
    return [
        clock.Character(
            name=u.name, owner=u.owner, clock=clocks.personal.get(fold(u.name), 1), in_play=True
        )
        for u in state.units
        if not u.destroyed
    ]


def ready_now(state: GameState) -> list[clock.Character]:
    clocks = clocks_of(state)
    return clock.ready(clocks.master, characters(state, clocks))


def next_chooser(state: GameState) -> str | None:
    """The player who picks the next character to act (500.3c), or None when nobody can."""
    ready = ready_now(state)
    if not ready:
        return None
    order = [p.user_id for p in state.players]
    return clock.chooser(ready, order, clocks_of(state).last_active)


def _take_turn(state: GameState, unit: Unit, new_clock: int) -> GameState:
    clocks = clocks_of(state)
    key = fold(unit.name)
    current = clocks.personal.get(key, 1)
    if current != clocks.master:
        raise UserError("wow.not_ready", unit=unit.name, clock=current, master=clocks.master)
    clocks.personal[key] = new_clock
    clocks.last_active = unit.owner
    return with_clocks(state, clocks)


def act(state: GameState, unit: Unit, cost: int) -> GameState:
    """The character's turn, paying `cost` ticks in all for what it played (408.2, 501.3).
    A cost of 0 (it only moved or played free abilities) still ends one tick forward (501.3b)."""
    clocks = clocks_of(state)
    current = clocks.personal.get(fold(unit.name), 1)
    paid = clock.pay(clocks.master, current, cost)
    return _take_turn(state, unit, clock.end_of_turn(clocks.master, paid))


def moved(state: GameState, unit: Unit) -> GameState:
    """A turn of only moving costs 1 tick (501.3b)."""
    clocks = clocks_of(state)
    return _take_turn(state, unit, clock.end_of_turn(clocks.master, clocks.master))


def tick(state: GameState) -> tuple[GameState, TickReport]:
    """The tick ends when nobody can act (500.3a, read as in the digest's note A): end-of-tick
    effects (502), then the Master Clock advances; past 10 it wraps to 1, a new round."""
    waiting = ready_now(state)
    if waiting:
        raise UserError("wow.still_ready", units=", ".join(c.name for c in waiting))
    clocks = clocks_of(state)
    ended = clocks.master
    clocks.master = clock.wrap(ended + 1)
    new = with_clocks(state, clocks)
    if clocks.master == 1:
        new.round += 1
    report = TickReport(
        ended=ended,
        master=clocks.master,
        new_round=clocks.master == 1,
        vp_locations=ended in clock.VP_TICKS,
        cards_ready=ended == clock.TICKS,
    )
    return new, report
