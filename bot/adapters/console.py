"""The local console chat: one user typing commands in a terminal, with line editing and
history (prompt_toolkit) when stdin is a terminal, plain lines otherwise (pipes, tests).

It writes nothing in the working directory: the history goes to the user's state folder and
the files replies carry (a campaign export) to the user's data folder (see bot/paths.py); each
saved file's path is printed."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot import files, i18n
from bot.app import App
from bot.protocol import Attachment, Reply, Request
from bot.render import plain
from bot.scheduler import Scheduler

if TYPE_CHECKING:
    from prompt_toolkit.history import History

log = logging.getLogger(__name__)

PROMPT = "> "
QUIT = {"/quit", "/exit", "/esci", "quit", "exit", "esci"}


def terminal_locale() -> str | None:
    """The terminal's language as POSIX ranks it (LC_ALL, then LC_MESSAGES, then LANG)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return value
    return None


def make_request(text: str, chat: str, user: str, admin: bool = True) -> Request:
    line = text.strip()
    if not line.startswith("/"):
        line = "/" + line
    return Request(
        platform="console",
        chat_key=chat,
        user_id=user,
        user_name=user,
        text=line,
        admin=admin,
        locale=terminal_locale(),
    )


def save(folder: Path, item: Attachment, lang: i18n.Lang) -> str:
    """Write one attachment into `folder` and say where (or why not)."""
    path = folder / Path(item.filename).name
    try:
        path = files.write(folder, item)
    except OSError as exc:
        log.warning("could not save %s: %s", path, exc)
        return i18n.t(lang, "console.save_failed", name=item.filename, path=str(path))
    return i18n.t(lang, "console.saved", name=item.filename, path=str(path))


async def show(app: App, reply: Reply, request: Request, exports: Path | None) -> None:
    """Print a reply; its files are saved in `exports` and their paths printed instead. The
    console has one user, the asker: a part meant for them alone is printed after it."""
    if reply.private is not None:
        await show(app, reply.model_copy(update={"private": None}), request, exports)
        print(plain.render(reply.private), flush=True)
        return
    if not reply.attachments or exports is None:
        print(plain.render(reply), flush=True)
        return
    print(plain.render(reply.model_copy(update={"attachments": []})), flush=True)
    lang = await app.lang_for(request)
    for item in reply.attachments:
        print(save(exports, item, lang), flush=True)


async def run_console(
    app: App,
    chat: str,
    user: str,
    history_file: Path | None = None,
    exports: Path | None = None,
) -> None:
    """The chat loop, with campaign reminders for this chat printed as they fall due."""
    stop = asyncio.Event()

    async def remind(chat_key: str, reply: Reply) -> None:
        if chat_key == chat:
            print(plain.render(reply), flush=True)

    scheduler = Scheduler(app, remind, owns=lambda key: key == chat)  # others' stay queued
    reminders = asyncio.create_task(scheduler.run_forever(stop))
    try:
        await chat_loop(app, chat, user, history_file, exports)
    finally:
        stop.set()
        await reminders


def history(history_file: Path | None) -> History:
    """prompt_toolkit's history: the file when its folder can be made, else in memory."""
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    if history_file is not None:
        try:
            history_file.parent.mkdir(parents=True, exist_ok=True)
            return FileHistory(str(history_file))
        except OSError as exc:
            log.warning("console history kept in memory only: %s", exc)
    return InMemoryHistory()


async def chat_loop(
    app: App, chat: str, user: str, history_file: Path | None, exports: Path | None = None
) -> None:
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    lang = await app.lang_for(make_request("/help", chat, user))
    print(i18n.t(lang, "console.banner", chat=chat, user=user), flush=True)
    if interactive:
        from prompt_toolkit import PromptSession

        session: PromptSession[str] = PromptSession(history=history(history_file))
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
        request = make_request(line, chat, user)
        reply = await app.handle(request)
        await show(app, reply, request, exports)
        print(flush=True)
