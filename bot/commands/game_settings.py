"""`/game settings`: a chat's game settings that aren't any one system's (who adds points with
`/score add`), stored and shown like every system's settings (bot.commands.system_kit)."""

from __future__ import annotations

from typing import Annotated

from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.spec import CommandSpec, OptionSpec
from bot.commands.system_kit import SystemSettings
from bot.session import name_of
from rules_core.errors import UserError
from rules_core.game.models import GameState
from rules_core.game.settings import SCORE_RIGHTS, GameSettings, may_add_own_points


class GameSettingsArgs(Args):
    score: Annotated[str | None, OptionSpec("score", choices=SCORE_RIGHTS, aliases=("punti",))] = (
        None
    )


SETTINGS = SystemSettings(
    "game",
    GameSettings,
    tuple(GameSettings.model_fields),
    lambda current, changes: GameSettings.model_validate({**current.model_dump(), **changes}),
    "game.settings_admin",
    per_value=True,
)


async def require_own_points_right(ctx: Context, state: GameState) -> None:
    """A player (neither organiser nor chat admin) adding to their own score: the chat's
    `score` setting says whether they may, and now."""
    right = (await SETTINGS.load(ctx)).score
    if may_add_own_points(right, on_turn=state.current == ctx.request.user_id):
        return
    if right == "own_on_turn":
        raise UserError("perm.score_on_turn", name=name_of(state, state.current))
    raise UserError("perm.score_organiser")


SPECS = [
    CommandSpec(
        path=("game", "settings"),
        handler=SETTINGS.command,
        aliases=("impostazioni",),
        args=GameSettingsArgs,
        examples=("/game settings", "/game settings score=own_on_turn"),
    ),
]
