"""What every C5 handler shares: the chat's settings and game, the one write path for the
results (each a pure change from rules_core.systems.c5.transitions) and the source line."""

from __future__ import annotations

from collections.abc import Callable

from bot import session
from bot.commands import game_view, system_kit
from bot.commands.context import Context
from bot.commands.spec import Handler
from bot.protocol import Block, Reply, plain
from rules_core.errors import UserError
from rules_core.game.models import GameState, Unit
from rules_core.systems.base import Note
from rules_core.systems.c5 import transitions as c5tr
from rules_core.systems.c5.models import SETTING_CHOICES, SETTING_INTS, C5Settings, update_settings

SETTING_NAMES = (*SETTING_CHOICES, *SETTING_INTS)
SETTINGS = system_kit.SystemSettings(
    "c5", C5Settings, SETTING_NAMES, update_settings, "c5.settings_admin_only", per_value=False
)
GAME = system_kit.SystemGame("c5", "c5.not_c5_game", "c5.apply_needs_target")


def open_ended(settings: C5Settings) -> bool:
    return settings.open_ended == "yes"


def no_roll(dice: list[int] | None, apply: bool = False) -> None:
    """The odds twin takes its attack's options; rolling and applying have no meaning there."""
    for name, given in (("dice", bool(dice)), ("apply", apply)):
        if given:
            raise UserError("c5.odds_no_roll", option=name)


async def apply_noted(
    ctx: Context,
    change: Callable[[GameState], tuple[GameState, list[Note]]],
    kind: str,
    unit: str,
    *,
    attack: bool = False,
    rights: bool = True,
) -> list[Block]:
    """Save a change that explains itself with notes as ONE event (/undo reverts it) and show
    the notes and the unit after it. `rights=False`: the caller has checked them already."""
    notes: list[Note] = []

    def mutate(state: GameState) -> GameState:
        new, said = change(state)
        notes[:] = said
        return new

    done = await session.apply_change(
        ctx, mutate, kind, unit=unit if rights else None, attack=attack
    )
    blocks = game_view.notes_blocks(ctx, notes)
    after = done.unit or next((u for u in done.after.units if u.name == unit), None)
    if after is not None:
        blocks += game_view.unit_blocks(ctx, after, done.after.system)
    return blocks


async def apply_wounds(
    ctx: Context, target: Unit, wounds: int, stunned: bool, *, striker: Unit | None = None
) -> list[Block]:
    """Wounds and Stordito on the target as ONE event that /undo reverts. `striker`: a melee
    blow in a pass of arms by that fighter (its rights checked): the target may strike back."""
    if not wounds and not stunned:
        return [[plain(ctx.t("c5.nothing_applied", unit=target.name))]]
    blocks = await apply_noted(
        ctx,
        lambda st: c5tr.wound(st, target.name, wounds, stunned),
        "c5_wound",
        target.name,
        attack=True,
        rights=striker is None,
    )
    if striker is not None and c5tr.survives(target, wounds):
        blocks.append([plain(ctx.t("c5.note.riposte", unit=target.name, attacker=striker.name))])
    return blocks


async def change_pool(ctx: Context, unit: Unit, name: str, op: str, amount: int) -> int:
    result: list[int] = []

    def mutate(state: GameState) -> GameState:
        new, value = c5tr.change_pool(state, unit.name, name, op, amount)
        result[:] = [value]
        return new

    await session.apply_change(ctx, mutate, f"c5_{name}", unit=unit.name)
    return result[0] if result else amount


def sourced(handler: Handler) -> Handler:
    """Close the reply with the line saying where the rules it used come from: C5's own
    section, Confrontation 3 background, or an open point decided by a setting."""

    async def run(ctx: Context) -> Reply:
        reply = await handler(ctx)
        reply.blocks.append([plain(ctx.t(f"c5.src.{ctx.spec.path[-1]}"))])
        return reply

    return run
