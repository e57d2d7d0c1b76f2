"""Play-by-post campaign arithmetic: deadlines, reminder points, standings. Pure."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from pydantic import BaseModel, ConfigDict

from rules_core.errors import UserError
from rules_core.game.models import GameState

# `90m`, `24h`, `3d`; as a player writes it too: `2 giorni`, `36 ore`, `1,5g`, `2 days`
_DURATION = re.compile(r"^(\d{1,4}(?:[.,]\d{1,2})?)\s*([a-z]+)$")
_UNITS: dict[str, timedelta] = {
    **dict.fromkeys(("m", "min", "minuto", "minuti", "minute", "minutes"), timedelta(minutes=1)),
    **dict.fromkeys(("h", "ora", "ore", "hour", "hours"), timedelta(hours=1)),
    **dict.fromkeys(("d", "g", "giorno", "giorni", "day", "days"), timedelta(days=1)),
}
MAX_DEADLINE = timedelta(days=60)
MIN_DEADLINE = timedelta(minutes=5)
DEFAULT_POINTS = (0.5, 0.9)


def parse_duration(text: str) -> timedelta:
    """`90m`, `24h`, `3d` (Italian `3g` for giorni), the unit also as a word (`2 giorni`, `36
    ore`) and the amount with a decimal comma or point (`1,5g`), to the whole minute."""
    m = _DURATION.match(text.strip().lower())
    if m is None or m.group(2) not in _UNITS:
        raise UserError("campaign.bad_duration")
    amount = float(m.group(1).replace(",", "."))
    delta = timedelta(minutes=round(amount * _UNITS[m.group(2)].total_seconds() / 60))
    if not MIN_DEADLINE <= delta <= MAX_DEADLINE:
        raise UserError("campaign.duration_range")
    return delta


def parse_points(text: str | None) -> tuple[float, ...]:
    """Reminder points as percentages of the deadline: `50,90`."""
    if not text:
        return DEFAULT_POINTS
    try:
        values = sorted({int(p) for p in text.replace(" ", "").split(",") if p})
    except ValueError:
        raise UserError("campaign.bad_points") from None
    if not values or len(values) > 5 or values[0] < 1 or values[-1] > 99:
        raise UserError("campaign.bad_points")
    return tuple(v / 100 for v in values)


class Due(BaseModel):
    # Validators are built on first use, not at import: most processes use few models.
    model_config = ConfigDict(defer_build=True)
    kind: str  # "remind:50" ... or "expired"
    due_at: datetime


def schedule(start: datetime, deadline: timedelta, points: tuple[float, ...]) -> list[Due]:
    out = [Due(kind=f"remind:{round(p * 100)}", due_at=start + deadline * p) for p in points]
    out.append(Due(kind="expired", due_at=start + deadline))
    return out


class Standing(BaseModel):
    model_config = ConfigDict(defer_build=True)
    user_id: str
    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    vp: int = 0


def standings(finished: list[GameState]) -> list[Standing]:
    """A win for the winner, a loss for the others; no winner is a draw for everyone."""
    table: dict[str, Standing] = {}
    for game in finished:
        scores = game.score()
        for player in game.players:
            row = table.setdefault(
                player.user_id, Standing(user_id=player.user_id, name=player.name)
            )
            row.vp += scores.get(player.user_id, 0)
            if game.winner is None:
                row.draws += 1
            elif game.winner == player.user_id:
                row.wins += 1
            else:
                row.losses += 1
    return sorted(table.values(), key=lambda s: (-s.wins, -s.draws, -s.vp, s.name.casefold()))
