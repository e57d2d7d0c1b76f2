"""Helpers for tests: run a text command through the App."""

from __future__ import annotations

from bot.app import App
from bot.protocol import Reply, Request


async def say(
    app: App,
    text: str,
    *,
    user: str = "u1",
    name: str | None = None,
    chat: str = "console:test",
    admin: bool = False,
    lang: str | None = None,
    locale: str | None = None,
    seed: int | None = None,
) -> Reply:
    """Run one text command as `user` in `chat` and return the reply."""
    return await app.handle(
        Request(
            platform="console",
            chat_key=chat,
            user_id=user,
            user_name=name or user,
            admin=admin,
            lang=lang,
            locale=locale,
            text=text,
            seed=seed,
        )
    )
