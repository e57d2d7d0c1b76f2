"""/wow: World of Warcraft Miniatures attacks, heals and their exact odds, the clocks, Action
Cards, Battleground respawns, the standings and per-chat settings. The rules are in
rules_core.systems.wow; here: declarations (the commands), handlers (load, call, save) and
view (the replies)."""

from bot.commands.wow.declarations import SPECS
from bot.commands.wow.handlers import card_names

__all__ = ["SPECS", "card_names"]
