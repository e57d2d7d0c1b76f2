"""/wow: World of Warcraft Miniatures attacks, heals and their exact odds, the clocks, Action
Cards, Battleground respawns, the standings and per-chat settings. The rules are in
rules_core.systems.wow; here: declarations (the commands), common (the game and settings),
rolls and handlers (load, call, save) and view (the replies)."""

from bot.commands.wow.common import card_names
from bot.commands.wow.declarations import SPECS
from bot.commands.wow.view import card_blocks as unit_extra

__all__ = ["SPECS", "card_names", "unit_extra"]
