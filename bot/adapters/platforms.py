"""Start the chat platforms whose tokens are set, side by side on one App, and stop them
cleanly on SIGTERM/SIGINT (in-flight commands finish, then the database closes)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from bot.adapters.base import AdapterStartError, PlatformAdapter
from bot.app import App
from bot.config import Settings

log = logging.getLogger(__name__)


def build_adapters(app: App, settings: Settings) -> list[PlatformAdapter]:
    adapters: list[PlatformAdapter] = []
    if settings.telegram_token is not None:
        from bot.adapters.telegram import TelegramAdapter

        adapters.append(TelegramAdapter(app, settings))
    if settings.discord_token is not None:
        from bot.adapters.discord import DiscordAdapter

        adapters.append(DiscordAdapter(app, settings))
    return adapters


async def run_platforms(settings: Settings, stop: asyncio.Event | None = None) -> int:
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread
            loop.add_signal_handler(sig, stop.set)
    app = App(settings.db_path)
    await app.start()
    started: list[PlatformAdapter] = []
    try:
        for adapter in build_adapters(app, settings):
            await adapter.start()
            started.append(adapter)
            log.info("%s adapter running", adapter.name)
        await stop.wait()
        return 0
    except AdapterStartError as exc:
        print(f"wargame-bot: {exc}", file=sys.stderr)
        return 2
    finally:
        for adapter in reversed(started):
            await adapter.stop()
        await app.stop()
