"""/inf: Infinity (N1/N2-era). The rules are in rules_core.systems.inf; this package declares
the commands (declarations), loads the chat's game, calls the rules and saves (the handler
modules) and renders the results (view)."""

from bot.commands.inf.declarations import SPECS

__all__ = ["SPECS"]
