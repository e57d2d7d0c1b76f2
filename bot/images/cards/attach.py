"""A unit's picture on a reply: a warjack's or warcaster's damage grid, else the unit's status
card (see `bot.images.render.attach`: rendered in the worker pool, text-only when the chat has
pictures off)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.images import render
from bot.images.cards.facts import grid_card, unit_card
from bot.images.cards.grid import render_grid
from bot.images.cards.unit import render_unit_card
from bot.protocol import Reply
from rules_core.game.models import Unit

if TYPE_CHECKING:
    from bot.commands.context import Context


async def unit_picture(ctx: Context, reply: Reply, unit: Unit, system: str) -> Reply:
    """`/unit show`: the grid of a model with one, else the status card."""
    grid = grid_card(unit, ctx.lang) if system == "wm" else None
    if grid is not None:
        return await render.attach(ctx, reply, render_grid, grid, "grid.png")
    card = unit_card(unit, system, ctx.lang)
    return await render.attach(ctx, reply, render_unit_card, card, "unit.png")


async def grid_picture(ctx: Context, reply: Reply, unit: Unit, system: str) -> Reply:
    """After damage: the grid when the unit has one (other units keep a text-only reply)."""
    grid = grid_card(unit, ctx.lang) if system == "wm" else None
    if grid is None:
        return reply
    return await render.attach(ctx, reply, render_grid, grid, "grid.png")
