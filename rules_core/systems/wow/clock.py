"""The Master Clock and Personal Clocks (rule 408, L708-746).

Every clock shows 1-10 and wraps past 10 to 1; each return of the Master Clock to 1 starts a
new round. A character's Personal Clock is kept as its offset ahead of the Master Clock,
`(PC - MC) mod 10`, which the rules keep between 0 and 9, so it is never ambiguous.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from rules_core.errors import UserError

TICKS = 10
MAX_AHEAD = 9  # 408.2a: never 10 or more ticks ahead of the Master Clock
VP_TICKS = (5, 10)  # 502.1 (L839): VP locations score at the end of ticks 5 and 10


def wrap(tick: int) -> int:
    """A clock value after moving: 1..10."""
    return (tick - 1) % TICKS + 1


def offset(master: int, personal: int) -> int:
    return (personal - master) % TICKS


def pay(master: int, personal: int, cost: int) -> int:
    """The Personal Clock after paying a tick cost (408.2). Illegal when it would end 10 or
    more ahead of the Master Clock (408.2a): the ability is not played (703.1d)."""
    if cost < 0:
        raise UserError("wow.negative_cost")
    ahead = offset(master, personal)
    if ahead + cost > MAX_AHEAD:
        raise UserError("wow.too_far_ahead", ahead=ahead, cost=cost, limit=MAX_AHEAD)
    return wrap(personal + cost)


def forced_tick_up(master: int, personal: int, ticks: int) -> int:
    """An effect moves the clock forward: it stops at exactly 9 ahead (408.2a)."""
    ahead = min(offset(master, personal) + max(0, ticks), MAX_AHEAD)
    return wrap(master + ahead)


def tick_down(master: int, personal: int, ticks: int) -> int:
    """A clock never falls behind the Master Clock: it stops level with it (408.2a)."""
    ahead = max(offset(master, personal) - max(0, ticks), 0)
    return wrap(master + ahead)


class Character(BaseModel):
    name: str
    owner: str
    clock: int = Field(default=1, ge=1, le=10)
    in_play: bool = True


def ready(master: int, characters: list[Character]) -> list[Character]:
    """Who may take a turn now: every character whose Personal Clock equals the Master Clock
    (500.3), destroyed ones waiting to respawn included (403.1)."""
    return [c for c in characters if c.clock == master]


def chooser(
    candidates: list[Character],
    players: list[str],
    last_active: str | None,
    allied: Callable[[str, str], bool] | None = None,
) -> str:
    """Who picks the next character among tied ones (500.3c): their only owner; across
    players, the first player to the left (next in order) of the active player, who comes
    last; at the very start the first player (101.4). In a team game a team counts as one
    player (500.3c, L788; `allied` says whether two players are one team, 400.2): the active
    team comes last, and the team that chooses speaks through its first seat, left of the
    active player, that owns a tied character."""
    same = allied or (lambda a, b: a == b)
    owners = {c.owner for c in candidates}
    if last_active is None or last_active not in players:
        seats = players
    else:
        start = players.index(last_active)
        seats = [players[(start + step) % len(players)] for step in range(1, len(players) + 1)]
    seated = [p for p in seats if p in owners]
    if not seated:
        return next(iter(sorted(owners)))
    if last_active in players:
        others = [p for p in seated if not same(p, last_active)]
        if others:
            return others[0]
    return seated[0]


def end_of_turn(master: int, personal: int) -> int:
    """501.3b: a character whose clock still equals the Master Clock at the end of its turn
    (it only moved, or used free abilities) ticks forward 1."""
    return wrap(personal + 1) if personal == master else personal


def respawn_clock(master: int, personal: int) -> int:
    """403.2b (classic Battleground): a destroyed character's clock moves 2 forward, capped at
    9 ahead like any forced move."""
    return forced_tick_up(master, personal, 2)
