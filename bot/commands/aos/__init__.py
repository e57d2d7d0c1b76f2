"""/aos: Age of Sigmar 3rd edition attacks with exact odds, battleshock, magic, prayers,
charge, run, the priority roll, command points and commands, the combat phase's fights,
weapons and damage tables.

The rules live in rules_core.systems.aos (rulebook citations there). Here:
- declarations: names, options, it/en aliases, examples (`SPECS`);
- common: the chat's game, settings, dice and the one write of wounds;
- attack, rolls, round, profile: handlers (load -> rules_core -> save);
- fight: the combat phase's fights and whose pick is next (also on the board: `board_extra`);
- view: steps -> blocks.
"""

from bot.commands.aos.declarations import SPECS
from bot.commands.aos.fight_view import board_extra

__all__ = ["SPECS", "board_extra"]
