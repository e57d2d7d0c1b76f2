"""What every /wow handler shares: the chat's WoW game and settings, the acting character and
its card, how a roll is named in the roll log."""

from __future__ import annotations

from collections.abc import Callable

from bot.commands.context import Context
from bot.commands.system_kit import SystemGame, SystemSettings
from bot.commands.wow import view
from bot.session import apply_change
from bot.storage.games import StoredGame
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.systems.wow import system as wow_state
from rules_core.systems.wow import transitions as wow_tr
from rules_core.systems.wow.cards import Card
from rules_core.systems.wow.settings import CHOICES, WowSettings, update

SYSTEM = view.SYSTEM


async def copy_to_game(
    ctx: Context, game: StoredGame | None, current: WowSettings, changes: dict[str, str]
) -> None:
    """The chat's WoW game gets a copy of a change at once (and with every /wow command that
    changes it), so kills scored by /unit damage follow it."""
    if game is None or game.state.system != SYSTEM:
        return
    new = wow_state.with_settings(game.state, current, replace=True)
    if new != game.state:
        await apply_change(ctx, new, "wow_settings", game=game)


# Its lines name each setting and value as the reader types them (`campo_di_battaglia=sì`):
# the options' names and `values.*`, like every game's settings.
SETTINGS = SystemSettings(
    SYSTEM,
    WowSettings,
    tuple(CHOICES),
    update,
    "wow.settings_admin",
    per_value=True,
    on_change=copy_to_game,
)


GAME = SystemGame(SYSTEM, "wow.not_a_wow_game", "wow.apply_needs_target")


async def settings_copier(ctx: Context) -> Callable[[GameState], GameState]:
    """A change that copies the chat's settings into the game, for a command outside /wow that
    changes WoW units by the settings (an /army import's Action Cards: the card limit)."""
    current = await SETTINGS.load(ctx)
    return lambda state: wow_state.with_settings(state, current, replace=True)


async def synced(ctx: Context, state: GameState) -> GameState:
    """The game with the chat's settings copied in (the game-state hooks read the copy)."""
    return wow_state.with_settings(state, await SETTINGS.load(ctx), replace=True)


async def actor_and_card(
    ctx: Context, option: str, name: str | None, card_name: str | None
) -> tuple[Unit | None, Card | None]:
    """`attacker=NAME` (`healer=` for heals: `option`) and `card=CARD`, read from the chat's
    game."""
    if not name:
        if card_name:
            raise UserError("wow.card_needs_actor", option=option)
        return None, None
    game = await GAME.load(ctx)
    actor = tr.find_unit(game.state, name)
    return actor, wow_tr.find_actor_card(game.state, actor.name, card_name)


def card_names(text: str | None) -> list[str]:
    """`card=A, B`: the names, comma separated."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def roll_expression(ctx: Context) -> str:
    """What the roll log names a WoW roll by: the command's text, else (a Discord command) its
    name, without the slash the other systems put in front."""
    return ctx.request.text or ctx.spec.name
