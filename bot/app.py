"""The application core shared by every adapter: settings, database, registry, clock, worker
pool, and the dispatcher that turns a `Request` into a `Reply` (one transaction per command).

Heavy work and the transaction. Commands are serialised on one connection, so a transaction held
while a worker computes for seconds would make every other chat wait just as a computation on
the event loop did. A handler therefore runs its heavy pure computation with
`await ctx.offload(fn, *args)` (`bot.workers`), and while the worker computes the dispatcher
closes the command's transaction and begins a new one when the result is back (`_Transaction`).
The one rule: offload before the command writes anything, since what is written cannot be
committed halfway (an offload after a write is a programming error and fails loudly). Whatever
the handler read before may have changed meanwhile: odds commands only read; a command that
writes after offloading saves its game version-checked like any other. The simpler alternative,
a separate "compute" phase declared on each `CommandSpec`, would split every odds handler in two
around its reads; `offload` keeps them one function.

Budget. Each message gets one `rules_core.budget.Budget`, which its parts charge with their
estimated work, result and reply size before anything is computed; a multi-line message passes
one budget to `handle` for all its lines.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

from bot import batch, i18n, metrics, session, workers
from bot.commands import local_names, macros
from bot.commands.board_live import LiveBoards
from bot.commands.context import Context, need_admin
from bot.commands.registry import Found, Registry, UnknownCommand
from bot.commands.spec import CommandSpec
from bot.protocol import Button, ErrorInfo, Reply, Request, code, plain
from bot.storage import buttons as buttons_repo
from bot.storage import games
from bot.storage import macros as macros_repo
from bot.storage import settings as settings_repo
from bot.storage.conn import Connection
from bot.storage.db import Database, HeldLock, storage_user_error
from rules_core.budget import Budget
from rules_core.errors import UserError

# HeldLock: what `try_hold` gives adapters, which never import bot.storage themselves.
__all__ = ["App", "HeldLock"]

log = logging.getLogger(__name__)
BATCH_HELD_SECONDS = 1.0
"""Seconds heavy work in a multi-line message may hold its transaction (see `_handle_batch`)."""
BATCH = ("batch",)  # the command that names a batch (bot/commands/batch.py)
UNKNOWN = ("cmd.unknown", "cmd.unknown_hint")  # errors of a command word that may be a macro


def _utcnow() -> datetime:
    return datetime.now(UTC)


class _Transaction:
    """One command's transaction, which `paused()` closes while a worker computes and begins
    again afterwards (see the module docstring)."""

    def __init__(self, db: Database, write: bool) -> None:
        self.db = db
        self.write = write
        self._stack: AsyncExitStack | None = None
        self._conn: Connection | None = None
        self._changes = 0
        # Called with the new transaction's connection after a pause (the command's context
        # takes it: on PostgreSQL it is another connection, whose chat must be locked again).
        self.on_resume: Callable[[Connection], Awaitable[None]] | None = None

    async def begin(self) -> Connection:
        stack = AsyncExitStack()
        conn = await stack.enter_async_context(self.db.transaction(write=self.write))
        self._stack = stack
        self._conn = conn
        self._changes = conn.total_changes
        return conn

    async def commit(self) -> None:
        stack, self._stack = self._stack, None
        if stack is not None:
            await stack.aclose()

    async def abort(self, exc: BaseException) -> None:
        stack, self._stack = self._stack, None
        if stack is not None:
            await stack.__aexit__(type(exc), exc, exc.__traceback__)

    @asynccontextmanager
    async def paused(self) -> AsyncIterator[None]:
        if self._conn is not None and self._conn.total_changes != self._changes:
            raise RuntimeError("offload after a write: heavy work must come before any write")
        await self.commit()  # nothing written: this only ends the read and frees the lock
        try:
            yield
        finally:
            conn = await self.begin()
            if self.on_resume is not None:
                await self.on_resume(conn)


# An error's syntax line longer than this is cut (`App.short_usage`).
LONG_SYNTAX = 120


class App:
    def __init__(
        self,
        db_path: Path | str,
        registry: Registry | None = None,
        clock: Callable[[], datetime] = _utcnow,
        pool: workers.WorkerPool | None = None,
        web_url: str | None = None,
    ) -> None:
        from bot.commands import lazy_registry

        self.db = Database(db_path)
        self.registry = registry or lazy_registry()  # modules load as commands are used
        self.clock = clock
        self.pool = pool or workers.shared()  # one per process; its workers start on first use
        self.web_url = web_url  # the campaign pages' public base URL; None: pages are off
        self.batch_held_seconds = BATCH_HELD_SECONDS
        # Each chat's live board message, refreshed after a command changed its game.
        self.boards = LiveBoards(self.db, lambda: self.clock(), pool=self.pool)

    async def start(self) -> None:
        await self.db.open()

    async def stop(self) -> None:
        await self.boards.stop()
        await self.db.close()

    # --- what adapters keep: they reach storage only through these (import-linter contract) --

    async def save_buttons(self, chat_key: str, commands: Sequence[str]) -> list[str]:
        """Store each button's command under a short id (one per command, in order) in one
        transaction: the id is what the platform sends back when the button is pressed."""
        async with self.db.transaction() as conn:
            return [await buttons_repo.save(conn, chat_key, c, self.clock()) for c in commands]

    async def button_command(self, chat_key: str, ident: str) -> str | None:
        """The command a pressed button runs, or None (unknown id, or a button of another chat)."""
        async with self.db.transaction(write=False) as conn:
            return await buttons_repo.load(conn, chat_key, ident)

    async def load_value(self, key: str) -> str | None:
        """A value the bot keeps for itself (not a chat's): e.g. the last command-list upload."""
        async with self.db.transaction(write=False) as conn:
            return await settings_repo.kv_get(conn, key)

    async def save_value(self, key: str, value: str) -> None:
        async with self.db.transaction() as conn:
            await settings_repo.kv_set(conn, key, value)

    async def try_hold(self, name: str) -> HeldLock | None:
        """The named lock across processes (`Database.try_hold`), or None when another has it."""
        return await self.db.try_hold(name)

    async def lang_for(self, request: Request, *, ephemeral: bool = False) -> i18n.Lang:
        """The reply language outside a command (adapters, reminders, errors): the one rule of
        `session.request_lang`; `ephemeral` for a reply only the caller may see."""
        if i18n.normalize_lang(request.lang):  # an explicit override needs no query
            return session.fallback_lang(request)
        async with self.db.transaction(write=False) as conn:
            stored = await settings_repo.chat_lang(conn, request.chat_key)
            return await session.request_lang(conn, request, stored, ephemeral=ephemeral)

    async def _error_lang(self, request: Request, lang: i18n.Lang | None) -> i18n.Lang:
        """The language of an error (an ephemeral reply): the command's when it was decided and
        the whole chat sees the error, else decided again for the caller."""
        if lang is not None and request.platform not in session.CALLER_ONLY_EPHEMERAL:
            return lang
        try:
            return await self.lang_for(request, ephemeral=True)
        except Exception:  # the store itself may be what failed
            return session.fallback_lang(request, lang)

    async def handle(self, request: Request, budget: Budget | None = None) -> Reply:
        """Run one command. Never raises: user errors and internal errors become replies.
        `budget` is the message's when the command is one of several in it."""
        started = time.perf_counter()
        reply = await self._handle(request, budget, expand=True)
        metrics.command_done(reply, time.perf_counter() - started)
        return reply

    async def _handle(self, request: Request, budget: Budget | None, *, expand: bool) -> Reply:
        """`handle`; `expand` is False for the command a macro ran (a macro runs no macro)."""
        lang: i18n.Lang | None = None
        spec: CommandSpec | None = None
        found: Found | None = None
        try:
            if request.command is None and request.text.count("\n"):
                lines = batch.split(request.text, self.registry)
                if len(lines) > 1:
                    return await self._handle_batch(request, lines, budget or Budget())
            if request.command is not None:
                spec = self.registry.get(request.command)
                if spec is None:
                    raise UserError("cmd.unknown", name=request.command)
                opts = self.registry.convert(spec, request.options)
            else:
                try:
                    found = self.registry.find(request.text)
                except UserError as err:
                    if not expand or err.key not in UNKNOWN:
                        raise
                    async with self.db.transaction(write=False) as conn:
                        expanded = await self._expansion(conn, request, request.text)
                    if expanded is None:
                        raise
                    return await self._run_macro(request, expanded, budget)
                spec = found.spec  # known before the options: their errors show its syntax
                opts = found.options()
            if spec.admin_only:
                need_admin(request)
            if spec.path == macros.RUN and expand:  # Discord's way to run a macro
                typed = f"/{opts['name']} {opts.get('args') or ''}"
                async with self.db.transaction(write=False) as conn:
                    expanded = await self._expansion(conn, request, typed)
                if expanded is not None:
                    return await self._run_macro(request, expanded, budget)
            if spec.path == BATCH and opts.get("commands"):  # /batch named (Discord's box)
                named = request.model_copy(update={"text": opts["commands"], "command": None})
                lines = batch.split(named.text, self.registry)
                return await self._handle_batch(named, lines, budget or Budget())
            tx = _Transaction(self.db, write=not spec.readonly)
            conn = await tx.begin()
            try:
                first = await games.chat_read(conn, request.chat_key)
                lang = await session.request_lang(conn, request, first.lang)
                ctx = Context(self, request, spec, opts, lang, conn, self.clock(), first)
                ctx.budget = budget or Budget()
                ctx.pause = tx.paused
                tx.on_resume = ctx.resume
                try:
                    reply = await spec.handler(ctx)
                except UserError as err:  # a subcommand's typo the command took as its text
                    raise (err if found is None else found.hint(err)) from None
                if ctx.lang != lang:  # /lang changed it: later lookups follow
                    lang = ctx.lang
            except BaseException as exc:
                await tx.abort(exc)
                raise
            await tx.commit()
            if ctx.game_changed:
                self.boards.changed(request.chat_key)
            for then in ctx.after_commit:
                reply = await then(reply)
            reply.command = spec.name
            self._localize_buttons(reply, lang)
            return reply
        except UserError as err:
            return self.error_reply(
                err, await self._error_lang(request, lang), spec, request.platform
            )
        except sqlite3.OperationalError as exc:
            stored = storage_user_error(exc)
            return self.error_reply(
                stored, await self._error_lang(request, lang), spec, request.platform
            )
        except Exception:
            ident = secrets.token_hex(4)
            log.exception("internal error %s while handling %r", ident, request.text[:200])
            text = i18n.t(session.fallback_lang(request, lang), "error.internal", id=ident)
            return Reply(
                command=spec.name if spec else "",
                blocks=[[plain(text)]],
                ephemeral=True,
                error=ErrorInfo(code="internal", message=text),
            )

    async def _expansion(self, conn: Connection, request: Request, text: str) -> str | None:
        """What `/NAME args` runs when NAME is one of the caller's macros here, else None."""
        head, _, args = text.strip().lstrip("/").partition(" ")
        name = head.split("@", 1)[0].lower()
        command = await macros_repo.get(conn, request.chat_key, request.user_id, name)
        if command is None:
            return None
        return f"{command} {args.strip()}".strip()

    async def has_macro(self, chat_key: str, user_id: str, word: str) -> bool:
        """Whether `/word` is one of the user's macros in the chat (adapters that ignore
        commands not theirs ask this first)."""
        async with self.db.transaction(write=False) as conn:
            found = await macros_repo.get(conn, chat_key, user_id, word.lower())
        return found is not None

    async def _run_macro(self, request: Request, text: str, budget: Budget | None) -> Reply:
        """Run a macro's command as the caller, with a button that runs it again."""
        run = request.model_copy(update={"text": text, "command": None, "options": {}})
        reply = await self._handle(run, budget, expand=False)
        if reply.ok:
            lang = await self.lang_for(request)
            # One button runs it again (a roll's own "Roll again" would be the same command),
            # named as the reader types it, as the command's own buttons are.
            shown = local_names.typed_command(self.registry, text, lang)
            reply.buttons = [b for b in reply.buttons if b.command not in (text, shown)]
            reply.buttons.append(Button(label=i18n.t(lang, "macro.repeat"), command=shown))
        return reply

    def _localize_buttons(self, reply: Reply, lang: i18n.Lang) -> None:
        """Each button's command as the reader types it (`/tira 2d6`, not `/roll 2d6`): the
        console lists it and Telegram puts it in the input box."""
        for button in reply.buttons:
            button.command = local_names.typed_command(self.registry, button.command, lang)

    async def _handle_batch(
        self, request: Request, lines: list[batch.Line], budget: Budget
    ) -> Reply:
        """Run a multi-line message's commands in order in ONE write transaction: all apply or
        none (a refused line rolls back the lines before it). No line may pause the
        transaction for a worker (`Context.pause` stays None): heavy work then runs with the
        transaction held, which is the price of all-or-none, so it may take at most
        `batch_held_seconds` (other chats' writes wait that long at worst), else the line is
        refused with "send it on its own". User and storage errors propagate to
        `handle`, except a refused line, answered with its number, reason and syntax."""
        batch.check_limits(request.text)
        tx = _Transaction(self.db, write=True)
        conn = await tx.begin()
        done: list[tuple[batch.Line, Reply]] = []
        later: list[list[Callable[[Reply], Awaitable[Reply]]]] = []  # each line's after-commit
        changed = False
        try:
            first = await games.chat_read(conn, request.chat_key)
            lang = await session.request_lang(conn, request, first.lang)
            for line in lines:
                sub = request.model_copy(update={"text": line.text})
                spec = None
                try:
                    try:
                        found = self.registry.find(line.text)
                    except UserError as err:
                        expanded = await self._expansion(conn, request, line.text)
                        if err.key not in UNKNOWN or expanded is None:
                            raise
                        sub = request.model_copy(update={"text": expanded})
                        found = self.registry.find(expanded)
                    spec = found.spec
                    opts = found.options()
                    if spec.admin_only:
                        need_admin(request)
                    if spec.path == BATCH:
                        raise UserError("batch.nested")
                    ctx = Context(self, sub, spec, opts, lang, conn, self.clock(), first)
                    ctx.budget = budget
                    ctx.held_seconds = self.batch_held_seconds
                    reply = await spec.handler(ctx)
                except UserError as err:
                    raise batch.LineFailed(line, err, spec.usage() if spec else None) from err
                if reply.error is not None:  # a handler that answered an error without raising
                    refused = UserError(reply.error.code)
                    raise batch.LineFailed(line, refused, None, reply.error.message)
                reply.command = spec.name
                changed = changed or ctx.game_changed
                lang = ctx.lang  # /lang on one line: the next lines follow it
                done.append((line, reply))
                later.append(ctx.after_commit)
        except batch.LineFailed as failed:
            await tx.abort(failed)
            message, blocks = batch.failure(lang, failed)
            return Reply(
                command="batch",
                blocks=blocks,
                ephemeral=True,
                error=ErrorInfo(code=failed.error.key, message=message),
                data={"line": failed.line.number},
            )
        except BaseException as exc:
            await tx.abort(exc)
            raise
        await tx.commit()
        if changed:
            self.boards.changed(request.chat_key)
        for i, thens in enumerate(later):
            for then in thens:
                done[i] = (done[i][0], await then(done[i][1]))
        return batch.summary(lang, done)

    def shown_name(self, spec: CommandSpec, lang: i18n.Lang, platform: str | None) -> str:
        """A command's name as the user types it in their language: on Discord its Discord
        name (`/tiri mostra`), elsewhere its text form (`/tira mostra`)."""
        if platform == "discord":
            from bot.commands import discord_names

            head = discord_names.names(self.registry, lang).get(spec.path)
            if head is not None:
                return head
        return local_names.typed_name(self.registry, spec, lang)

    def usage(self, spec: CommandSpec, lang: i18n.Lang, platform: str | None) -> str:
        """A command's syntax as the user can type it, in their language: on Discord under its
        Discord name (`/rolls show ID`, `/tiri mostra ID`), elsewhere as typed (`/tira
        ESPRESSIONE… [dadi=3,5,6…]`), options under their names in that language."""
        head = self.shown_name(spec, lang, platform)
        return local_names.syntax(self.registry, spec, lang, head)

    def short_usage(self, spec: CommandSpec, lang: i18n.Lang, platform: str | None) -> str:
        """`usage` for an error's last line: a syntax past `LONG_SYNTAX` characters (`/wm attack`
        has 25 options, about 400) keeps its first options and names the help that lists them
        all, so a phone shows the reason, not a screenful of options."""
        usage = self.usage(spec, lang, platform)
        if len(usage) <= LONG_SYNTAX:
            return usage
        head, *options = usage.split(" [")
        kept = head
        for option in options:
            if len(kept) + len(option) + 2 > LONG_SYNTAX * 2 // 3:
                break
            kept += " [" + option
        help_name = local_names.typed_command(self.registry, "/help", lang)
        command = self.shown_name(spec, lang, None).lstrip("/")
        return kept + " … " + i18n.t(lang, "error.all_options", help=f"{help_name} {command}")

    def error_reply(
        self,
        err: UserError,
        lang: i18n.Lang,
        spec: CommandSpec | None,
        platform: str | None = None,
    ) -> Reply:
        params = local_names.error_params(spec, err.params, lang)
        if isinstance(err, UnknownCommand):  # "did you mean /partita nuova?" in their words
            named = (
                self.shown_name(s.spec, lang, platform) if s.spec else s.text
                for s in err.suggestions
            )
            params["names"] = ", ".join(dict.fromkeys(named))
        message = i18n.t(lang, err.key, **params)
        blocks = [[plain(message)]]
        # The command's syntax (not after a storage failure: the syntax was fine); for an
        # unknown command, the syntax of the commands it resembles.
        shown = [spec] if spec is not None and not err.key.startswith("storage.") else []
        if spec is None and isinstance(err, UnknownCommand):
            shown = [s.spec for s in err.suggestions if s.spec is not None]
        for each in shown:
            blocks.append(
                [
                    plain(i18n.t(lang, "error.syntax") + " "),
                    code(self.short_usage(each, lang, platform)),
                ]
            )
        return Reply(
            command=spec.name if spec else "",
            blocks=blocks,
            ephemeral=True,
            error=ErrorInfo(code=err.key, message=message),
        )
