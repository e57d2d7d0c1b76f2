"""Start the chat platforms whose tokens are set, side by side on one App, and stop them
cleanly on SIGTERM/SIGINT (in-flight commands finish, then the database closes). While they
run, a heartbeat file beside the database says they are alive (see bot/health.py)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import signal
import sys
from collections.abc import Callable

from bot import metrics
from bot.adapters.base import AdapterStartError, PlatformAdapter
from bot.app import App
from bot.config import Settings
from bot.health import HeartbeatWriter, heartbeat_path
from bot.images.render import warm as warm_pictures
from bot.protocol import Reply
from bot.scheduler import Scheduler

log = logging.getLogger(__name__)


ADAPTERS = {
    "Telegram": ("bot.adapters.telegram", "TelegramAdapter"),
    "Discord": ("bot.adapters.discord", "DiscordAdapter"),
}


def build_adapters(app: App, settings: Settings) -> list[PlatformAdapter]:
    wanted = []
    if settings.telegram_token is not None:
        wanted.append("Telegram")
    if settings.discord_token is not None:
        wanted.append("Discord")
    adapters: list[PlatformAdapter] = []
    for name in wanted:
        module_name, class_name = ADAPTERS[name]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            raise AdapterStartError(
                f"the {name} adapter is not part of this build yet; unset its token to use "
                "the other platform or the console"
            ) from None
        factory: Callable[[App, Settings], PlatformAdapter] = getattr(module, class_name)
        adapters.append(factory(app, settings))
    return adapters


async def run_platforms(settings: Settings, stop: asyncio.Event | None = None) -> int:
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread
            loop.add_signal_handler(sig, stop.set)
    app = App(settings.db_path, web_url=settings.web_base_url)
    await app.start()
    # The workers start now and draw a first picture each, off the event loop: the first
    # player's picture doesn't pay matplotlib's import and font cache.
    warming = asyncio.create_task(app.pool.warm_up(warm_pictures))
    pages = None
    if settings.wargame_bot_web_port is not None:
        from bot.web import serve

        pages, _ = await serve(app, settings.wargame_bot_web_host, settings.wargame_bot_web_port)
    exporter = None
    if settings.wargame_bot_metrics_port is not None:
        exporter = metrics.serve(
            settings.wargame_bot_metrics_port, settings.wargame_bot_metrics_host
        )
        metrics.watch_pool(app.pool)
    started: list[PlatformAdapter] = []
    reminders: asyncio.Task[None] | None = None
    heartbeat: asyncio.Task[None] | None = None

    async def deliver(chat_key: str, reply: Reply) -> None:
        for adapter in started:
            if adapter.owns(chat_key):
                await adapter.send(chat_key, reply)
                return
        log.warning("no running adapter for %s; reminder not delivered", chat_key)

    try:
        for adapter in build_adapters(app, settings):
            await adapter.start()
            started.append(adapter)
        beats = HeartbeatWriter(heartbeat_path(settings.db_path), started)
        beats.beat()  # before "running" is logged: whoever reads that line can check health
        heartbeat = asyncio.create_task(beats.run(stop))
        for adapter in started:
            log.info("%s adapter running", adapter.name)
        scheduler = Scheduler(app, deliver, owns=lambda key: any(a.owns(key) for a in started))
        reminders = asyncio.create_task(scheduler.run_forever(stop))
        await stop.wait()
        return 0
    except AdapterStartError as exc:
        print(f"wargame-bot: {exc}", file=sys.stderr)
        return 2
    finally:
        warming.cancel()
        if reminders is not None or heartbeat is not None:
            stop.set()
            await asyncio.gather(*(t for t in (reminders, heartbeat) if t is not None))
        for adapter in reversed(started):
            await adapter.stop()
        if pages is not None:
            await pages.cleanup()
        await app.stop()
        if exporter is not None:
            metrics.stop(exporter)
