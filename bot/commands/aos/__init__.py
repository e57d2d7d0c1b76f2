"""/aos: Age of Sigmar 3rd edition attacks with exact odds, battleshock, magic, prayers,
charge, run, the priority roll, command points and commands, weapons and damage tables.

The rules live in rules_core.systems.aos (rulebook citations there). Here:
- declarations: names, options, it/en aliases, examples (`SPECS`);
- common: the chat's game, settings, dice and the one write of wounds;
- attack, rolls, round, profile: handlers (load -> rules_core -> save);
- view: steps -> blocks.
"""

from bot.commands.aos.declarations import SPECS

__all__ = ["SPECS"]
