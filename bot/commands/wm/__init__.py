"""/wm: WARMACHINE Mk II attacks with exact odds, checks, falls, deviation, focus and settings.

The rules are in rules_core.systems.wm (pure; what a command does to the game state is in its
transitions.py). Here: `declarations` (names, options, aliases, examples), `handlers` (read the
options and the chat's game, call the rules, save one undoable event, log the dice) and `view`
(the chain of steps as blocks).
"""

from __future__ import annotations

from bot.commands.wm.declarations import SPECS
from bot.commands.wm.view import unit_facts

__all__ = ["SPECS", "unit_facts"]
