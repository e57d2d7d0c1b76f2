"""The local console chat: one user typing commands in a terminal, with line editing and
history (prompt_toolkit) when stdin is a terminal, plain lines otherwise (pipes, tests)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot import i18n
from bot.app import App
from bot.commands.models import Reply, Request
from bot.render import plain
from bot.scheduler import Scheduler

PROMPT = "> "
QUIT = {"/quit", "/exit", "/esci", "quit", "exit"}


def make_request(text: str, chat: str, user: str, admin: bool = True) -> Request:
    line = text.strip()
    if not line.startswith("/"):
        line = "/" + line
    return Request(
        platform="console", chat_key=chat, user_id=user, user_name=user, text=line, admin=admin
    )


async def run_console(app: App, chat: str, user: str, history_file: Path | None = None) -> None:
    """The chat loop, with campaign reminders for this chat printed as they fall due."""
    stop = asyncio.Event()

    async def show(chat_key: str, reply: Reply) -> None:
        if chat_key == chat:
            print(plain.render(reply), flush=True)

    scheduler = Scheduler(app, show, owns=lambda key: key == chat)  # others' stay queued
    reminders = asyncio.create_task(scheduler.run_forever(stop))
    try:
        await chat_loop(app, chat, user, history_file)
    finally:
        stop.set()
        await reminders


async def chat_loop(app: App, chat: str, user: str, history_file: Path | None) -> None:
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    print(i18n.t("en", "console.banner", chat=chat, user=user))
    if interactive:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory

        history = FileHistory(str(history_file)) if history_file else InMemoryHistory()
        session: PromptSession[str] = PromptSession(history=history)
    while True:
        try:
            if interactive:
                line = await session.prompt_async(PROMPT)
            else:
                line = await asyncio.to_thread(sys.stdin.readline)
                if not line:
                    break
        except (EOFError, KeyboardInterrupt):
            break
        if not line.strip():
            continue
        if line.strip().lower() in QUIT:
            break
        reply = await app.handle(make_request(line, chat, user))
        print(plain.render(reply), flush=True)
        print(flush=True)
