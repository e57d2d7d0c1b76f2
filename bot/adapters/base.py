"""What `run` needs from a chat platform adapter."""

from __future__ import annotations

from typing import Protocol


class AdapterStartError(RuntimeError):
    """The platform refused to start (missing or rejected token, unreachable server): the
    message is one clear line for the operator; `run` prints it and exits with status 2."""


class PlatformAdapter(Protocol):
    name: str

    async def start(self) -> None:
        """Connect and begin serving; return once running (raise AdapterStartError if not)."""

    async def stop(self) -> None:
        """Stop taking new commands, let in-flight ones finish, disconnect."""
