"""What every /inf handler reads: the chat's Infinity settings, game and weapons."""

from __future__ import annotations

from typing import Any

from bot import session
from bot.commands import system_kit
from bot.commands.context import Context
from bot.storage import games
from rules_core.systems.inf import transitions as inf_tr
from rules_core.systems.inf.models import SETTING_CHOICES, InfSettings, update_settings


async def keep_retreat(
    ctx: Context, game: games.StoredGame | None, current: InfSettings, changes: dict[str, str]
) -> None:
    """A change of the Retreat! rule is copied into the chat's Infinity game (the turn-start
    recount reads it from there)."""
    if game is None or game.state.system != "inf" or "retreat" not in changes:
        return
    rule = current.retreat
    await session.apply_change(ctx, lambda s: inf_tr.keep_retreat_rule(s, rule), "inf_settings")


SETTINGS = system_kit.SystemSettings(
    "inf",
    InfSettings,
    tuple(SETTING_CHOICES),
    update_settings,
    "inf.settings_admin_only",
    per_value=False,
    on_change=keep_retreat,
)
GAME = system_kit.SystemGame("inf", "inf.not_inf_game", "inf.apply_needs_target")


async def weapons_of_chat(ctx: Context) -> dict[str, dict[str, Any]]:
    """The weapons added to the chat's game (none when it has no Infinity game)."""
    game = await ctx.active_game()
    return inf_tr.custom_weapons(game.state if game is not None else None)
