"""The one error type for bad user input, shared by rules_core and the bot.

A `UserError` carries a message key (looked up in data/locales/<lang>/*.toml) and the
parameters to format it with; the bot turns it into one localized sentence plus the
command's syntax. Anything else that escapes a handler is an internal error.
"""

from __future__ import annotations

from typing import Any


class UserError(Exception):
    """Bad input from a user: reported in their language, never as a traceback."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __repr__(self) -> str:
        return f"UserError({self.key!r}, {self.params!r})"
