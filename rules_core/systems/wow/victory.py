"""Victory points and winning (rules 102, 403.2c, 304.2, 502.1)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

KILL_VP = 4
LEGENDARY_KILL_VP = 8

Reason = Literal["none", "reached", "margin", "honor", "continue"]


def kill_vp(legendary: bool, pet: bool) -> int:
    """403.2c: 4 VP for a kill, 8 for a Legendary; a Pet is worth nothing (304.2)."""
    if pet:
        return 0
    return LEGENDARY_KILL_VP if legendary else KILL_VP


class Standing(BaseModel):
    player: str
    vp: int
    honor: int  # the total Honor of the player's own party (102.1)

    @property
    def margin(self) -> int:
        return self.vp - self.honor

    @property
    def reached(self) -> bool:
        return self.honor > 0 and self.vp >= self.honor


class Decision(BaseModel):
    """Who wins now and by which step of 102.1-102.2; `tied` lists the players still level
    when play must continue."""

    winner: str | None
    reason: Reason
    tied: list[str] = []


def decide(standings: list[Standing]) -> Decision:
    """102.1 (L60): a player wins on reaching their own party's Honor total (a party without
    Honor has no target). 102.2 (L64-79), when several reach it together: the one furthest
    above their own total wins; then the one whose party's Honor total is higher; if still
    level, play continues until one of them has more VP than every other."""
    reached = [s for s in standings if s.reached]
    if not reached:
        return Decision(winner=None, reason="none")
    if len(reached) == 1:
        return Decision(winner=reached[0].player, reason="reached")
    best_margin = max(s.margin for s in reached)
    by_margin = [s for s in reached if s.margin == best_margin]
    if len(by_margin) == 1:
        return Decision(winner=by_margin[0].player, reason="margin")
    best_honor = max(s.honor for s in by_margin)
    by_honor = [s for s in by_margin if s.honor == best_honor]
    if len(by_honor) == 1:
        return Decision(winner=by_honor[0].player, reason="honor")
    # Equal margin and equal Honor means equal VP: nobody wins yet.
    return Decision(winner=None, reason="continue", tied=[s.player for s in by_honor])


def winner(standings: list[Standing]) -> str | None:
    return decide(standings).winner
