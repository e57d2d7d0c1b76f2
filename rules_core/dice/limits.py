"""Hard limits of the dice engine; every one is enforced with its own `UserError`."""

from __future__ import annotations

MAX_TEXT = 300
"""Characters in one whole input (all `;`-separated rolls together)."""
MAX_DICE_TERM = 500
"""Dice in one `NdX` term."""
MAX_DICE_COMMAND = 2_000
"""Dice actually rolled by one command: repeats, rerolls and explosions included."""
MIN_SIDES = 2
MAX_SIDES = 1_000
MAX_CHAIN = 20
"""Dice in one explosion chain (the original die included); longer chains are truncated."""
MAX_REPEAT = 20
"""Upper bound of `N#` repeats."""
MAX_ROLLS = 10
"""`;`-separated rolls in one input."""
MAX_DEPTH = 50
"""Nesting of parentheses and unary signs."""
MAX_LITERAL = 1_000_000
"""Largest integer literal."""
ODDS_BUDGET = 2_000_000
"""Estimated elementary operations allowed for one exact distribution."""
