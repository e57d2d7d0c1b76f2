"""What `run` needs from a chat platform adapter."""

from __future__ import annotations

from typing import Protocol

from bot.protocol import Reply


class AdapterStartError(RuntimeError):
    """The platform refused to start (missing or rejected token, unreachable server): the
    message is one clear line for the operator; `run` prints it and exits with status 2."""


class PlatformAdapter(Protocol):
    name: str

    async def start(self) -> None:
        """Connect and begin serving; return once running (raise AdapterStartError if not)."""

    async def stop(self) -> None:
        """Stop taking new commands, let in-flight ones finish, disconnect."""

    def alive(self) -> bool:
        """Still serving: False once its connection loop has stopped (`health` reads this
        through `run`'s heartbeat; see bot/health.py)."""

    def owns(self, chat_key: str) -> bool:
        """Whether this chat key belongs to this platform (`telegram:...`, `discord:...`)."""

    async def send(self, chat_key: str, reply: Reply) -> None:
        """Post a reply nobody asked for right now (campaign reminders) to that chat/thread."""
