"""Victory points and winning (rules 102, 403.2c, 304.2, 502.1)."""

from __future__ import annotations

from pydantic import BaseModel

KILL_VP = 4
LEGENDARY_KILL_VP = 8


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


def winner(standings: list[Standing]) -> str | None:
    """102.1: a player wins on reaching their own party's Honor total. 102.2 tie-breakers when
    several reach it together: the largest margin above their target, then the higher party
    Honor; still tied, play continues (None) until someone has more VP than every other."""
    reached = [s for s in standings if s.vp >= s.honor]
    if not reached:
        return None
    best_margin = max(s.margin for s in reached)
    reached = [s for s in reached if s.margin == best_margin]
    best_honor = max(s.honor for s in reached)
    reached = [s for s in reached if s.honor == best_honor]
    # Equal margin and equal Honor means equal VP too: nobody wins yet.
    return reached[0].player if len(reached) == 1 else None
