"""/c5: Confrontation 5 tests, wound rolls, melee and shooting with exact odds, mana, faith,
fear, rally, the pass rule and per-chat settings.

The rules are in rules_core.systems.c5 (pure: `requests` reads the cards and options,
`transitions` changes the game state). Here: `declarations` (names, options, help),
`*_handlers` (load the chat's game and settings, call the rules, save one event, log the
dice), `view` (the reply blocks) and `common` (settings, game, the write path).
"""

from bot.commands.c5.declarations import SPECS

__all__ = ["SPECS"]
