"""Helpers for tests: run a text command, or import a rulebook file, through the App."""

from __future__ import annotations

from bot.app import App
from bot.protocol import Attachment, Reply, Request


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


async def upload(
    app: App,
    name: str,
    content: bytes,
    *,
    chat: str = "telegram:9",
    system: str = "wm",
    admin: bool = True,
    user: str = "admin",
    lang: str | None = None,
) -> Reply:
    """`/rules import system=...` with the file `name` attached, from a Telegram chat."""
    return await app.handle(
        Request(
            platform="telegram",
            chat_key=chat,
            user_id=user,
            user_name="Ada",
            admin=admin,
            lang=lang,
            text=f"/rules import system={system}",
            files=[Attachment(filename=name, content=content)],
        )
    )
