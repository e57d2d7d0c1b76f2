"""A chat's game settings that aren't any one system's (`/game settings`), with defaults.

- `score` (default `organiser`): who adds points with `/score add`. `organiser`: only the
  game's organiser or a chat admin, to anyone's score; `own_on_turn`: a player may also add to
  their own score on their turn; `own_any_time`: a player may add to their own score at any
  time. Only the organiser or a chat admin ever adds to someone else's score.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel

ScoreRight = Literal["organiser", "own_on_turn", "own_any_time"]
SCORE_RIGHTS: tuple[str, ...] = get_args(ScoreRight)


class GameSettings(BaseModel):
    score: ScoreRight = "organiser"


def may_add_own_points(right: ScoreRight, *, on_turn: bool) -> bool:
    """Whether a player who is neither organiser nor chat admin may add to their own score."""
    return right == "own_any_time" or (right == "own_on_turn" and on_turn)
