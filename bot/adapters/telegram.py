"""Telegram adapter on python-telegram-bot: text commands in, rendered HTML replies out.

It only translates: a message or button press becomes a `Request` for `App.handle`, and the
`Reply` is rendered with bot/render/telegram_html.py. No per-command code lives here.
Chat key: `telegram:<chat_id>`, plus `:<topic_id>` for a message in a forum topic.

First contact: `/start` is the registry's welcome (a deep-link payload after it is ignored); when
the bot is added to a group (`my_chat_member`) it posts the same welcome once. The command menu
is bot/adapters/telegram_menu.py; inline mode (`@Bot 2d6+3`, `@Bot rule charge wm`) is
bot/adapters/telegram_inline.py.

Unknown commands in groups: a group may hold other bots, and a command addressed to nobody
(`/ban`) may be theirs. There the bot answers an unknown command only when it is addressed to it
(`/x@ThisBot`) or close to one of its own (`/rol` -> "did you mean /roll?"); in a private chat it
always answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from telegram import (
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
    Chat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputFile,
    InputMediaPhoto,
    InputTextMessageContent,
    Message,
    Update,
    User,
)
from telegram.constants import ChatAction, ChatMemberStatus, ChatType, ParseMode
from telegram.error import (
    BadRequest,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    filters,
)

from bot import i18n
from bot.adapters import telegram_menu
from bot.adapters.base import AdapterStartError
from bot.adapters.slow import SLOW_AFTER, TYPING_EVERY, with_notice
from bot.adapters.telegram_inline import InlineCommand, inline_command, is_dice
from bot.app import App, HeldLock
from bot.commands.board_live import EditResult
from bot.config import Settings
from bot.flood import MAX_WAITING, Lanes, RateLimited
from bot.protocol import Attachment, Button, Reply, Request, bold, code, italic, plain
from bot.render import telegram_html
from bot.rules_import import MAX_BYTES

log = logging.getLogger(__name__)
T = TypeVar("T")

ADMIN_CACHE_SECONDS = 300.0
FLOOD_LIMIT = 8  # commands per user within FLOOD_WINDOW seconds
FLOOD_WINDOW = 10.0
MAX_RETRIES = 3
MAX_RETRY_WAIT = 30.0
RETRY_BACKOFF = 0.5  # seconds, times the attempt number, after a 5xx or a network error
MAX_KEYBOARD_ROWS = 100  # Telegram's most buttons in one keyboard
MAX_CAPTION = 1024  # Telegram's longest photo caption, counted after the HTML is parsed
CARD_SEPARATOR = "+"  # a live board kept as two messages: "TEXT_ID+CARD_ID"
_COMMAND = re.compile(r"^/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,64}))?(?=\s|$)")
ALLOWED_UPDATES = [
    "message",
    "callback_query",
    "my_chat_member",  # the bot added to a group: greet it
    "inline_query",
    "chosen_inline_result",  # needs @BotFather /setinlinefeedback: an inline roll is made here
]
SCOPES: dict[telegram_menu.Scope, BotCommandScope] = {
    "default": BotCommandScopeDefault(),
    "private": BotCommandScopeAllPrivateChats(),
    "group": BotCommandScopeAllGroupChats(),
}
POLLER_LOCK = "telegram-poller"  # the named lock (App.try_hold) of the one polling process
ELECTION_EVERY = 5.0  # seconds between a standing-by process's attempts to take over
INLINE_CACHE_SECONDS = 5  # short: a lookup follows the user's chat settings
ROLL_RESULT = "roll"  # the inline result id of a roll: the query says which one


def _chat_key(message: Message) -> str:
    key = f"telegram:{message.chat.id}"
    if message.is_topic_message and message.message_thread_id is not None:
        key += f":{message.message_thread_id}"
    return key


def _thread_of(message: Message) -> int | None:
    return message.message_thread_id if message.is_topic_message else None


def _inline_key(user: User) -> str:
    """Where inline mode keeps what it does: the user's private chat with the bot (a private
    chat's id is the user's id), so an inline roll is audited there with /roll show."""
    return f"telegram:{user.id}"


def _switch_inline(buttons: list[Button]) -> InlineKeyboardMarkup | None:
    """A reply's buttons for a message sent in inline mode: it belongs to no chat of ours, so a
    button can't run a command there; it reopens inline mode with that command instead."""
    rows = [
        [InlineKeyboardButton(b.label[:64], switch_inline_query_current_chat=b.command[1:256])]
        for b in buttons
        if b.command.startswith("/")
    ]
    return InlineKeyboardMarkup(rows) if rows else None


class FloodGuard:
    """Inline rolls only (chat commands are queued, never dropped: bot/flood.py): at most
    FLOOD_LIMIT per user per FLOOD_WINDOW; over it the inline message says to slow down."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.seen: dict[int, deque[float]] = {}
        self.warned: set[int] = set()

    def check(self, user_id: int) -> str:
        """'ok', 'warn' (send the note once) or 'drop'."""
        now = self.clock()
        times = self.seen.setdefault(user_id, deque())
        while times and now - times[0] > FLOOD_WINDOW:
            times.popleft()
        if len(times) < FLOOD_LIMIT:
            times.append(now)
            self.warned.discard(user_id)
            return "ok"
        if user_id in self.warned:
            return "drop"
        self.warned.add(user_id)
        return "warn"


Lane = tuple[int, int | None]  # (chat id, forum topic): where a message goes


@dataclass(frozen=True)
class Outgoing:
    """One message of a chat's lane: HTML text (with its keyboard), a document, or a photo
    (with `html` as its caption, possibly empty)."""

    html: str = ""
    markup: InlineKeyboardMarkup | None = None
    document: Attachment | None = None
    photo: Attachment | None = None
    board: str | None = None  # the live board of this chat key: its message id is kept
    posted: Reply | None = None  # the board's reply
    # The card of a live board whose text went first (longer than a caption): its message id
    # is kept beside the text's, so an edit replaces the card too.
    board_card: str | None = None


def caption_length(html: str) -> int:
    """The length Telegram gives a caption: its text once the HTML is parsed, in UTF-16 units."""
    from html import unescape

    text = unescape(re.sub(r"<[^>]*>", "", html))
    return len(text.encode("utf-16-le")) // 2


def _pictures(
    html: str, markup: InlineKeyboardMarkup | None, images: list[Attachment]
) -> list[Outgoing]:
    """A reply with pictures: the first photo carries the text as caption (and the keyboard)
    when it fits Telegram's caption (MAX_CAPTION); a longer text goes first, as messages, and
    the photos follow without caption: the text is the answer (readable and searchable in the
    chat, never cut), the picture shows it. Further pictures follow as photos."""
    if html and caption_length(html) <= MAX_CAPTION:
        first = [Outgoing(html=html, markup=markup, photo=images[0])]
        return first + [Outgoing(photo=image) for image in images[1:]]
    chunks = telegram_html.split(html) if html else []
    out = [
        Outgoing(html=chunk, markup=markup if i == len(chunks) - 1 else None)
        for i, chunk in enumerate(chunks)
    ]
    return out + [Outgoing(photo=image) for image in images]


def _merge(items: list[Outgoing]) -> list[Outgoing]:
    """Answers held while Telegram made the chat wait, as few messages as possible: runs of text
    joined (their keyboards too) and cut again at Telegram's length; documents stay apart."""
    out: list[Outgoing] = []
    run: list[Outgoing] = []

    def flush() -> None:
        if not run:
            return
        rows = [row for item in run if item.markup for row in item.markup.inline_keyboard]
        markup = InlineKeyboardMarkup(rows[:MAX_KEYBOARD_ROWS]) if rows else None
        chunks = telegram_html.split("\n\n".join(item.html for item in run))
        for i, chunk in enumerate(chunks):
            out.append(Outgoing(html=chunk, markup=markup if i == len(chunks) - 1 else None))
        run.clear()

    for item in items:
        if item.document is not None or item.photo is not None or item.board is not None:
            flush()
            out.append(item)
        else:
            run.append(item)
    flush()
    return out


class TelegramAdapter:
    name = "telegram"
    slow_after = SLOW_AFTER  # seconds of waiting before "typing…" (bot/adapters/slow.py)

    def __init__(
        self,
        app: App,
        settings: Settings,
        *,
        poll_timeout: int = 30,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        queue_limit: int = MAX_WAITING,
    ) -> None:
        if settings.telegram_token is None:
            raise AdapterStartError("TELEGRAM_TOKEN is not set")
        self.app = app
        self.settings = settings
        self.poll_timeout = poll_timeout
        self.clock = clock
        self.flood = FloodGuard(clock)
        # Polling mode among several processes: the lock says which one polls (see start).
        self.poller: HeldLock | None = None
        self.election: asyncio.Task[None] | None = None
        self.election_every = ELECTION_EVERY
        self.polling = asyncio.Event()  # set while this process polls
        self.sleep = sleep
        # Each chat's commands in order, its answers in order, waits for Telegram merged.
        self.lanes: Lanes[Lane, Outgoing] = Lanes(
            self.send_item, _merge, limit=queue_limit, clock=clock, sleep=sleep
        )
        self.admins: dict[int, tuple[float, set[int]]] = {}
        self.admin_requests: dict[int, asyncio.Future[set[int] | None]] = {}
        base = settings.telegram_base_url.rstrip("/")
        file_base = re.sub(r"/bot$", "/file/bot", base)
        self.application: Application[Any, Any, Any, Any, Any, Any] = (
            ApplicationBuilder()
            .token(settings.telegram_token.get_secret_value())
            .base_url(base)
            .base_file_url(file_base)
            .concurrent_updates(8)
            .job_queue(None)
            .build()
        )
        self.application.add_handler(
            MessageHandler(filters.COMMAND | filters.CaptionRegex(r"^/"), self.on_command)
        )
        self.application.add_handler(CallbackQueryHandler(self.on_button))
        self.application.add_handler(
            ChatMemberHandler(self.on_membership, ChatMemberHandler.MY_CHAT_MEMBER)
        )
        self.application.add_handler(InlineQueryHandler(self.on_inline_query))
        self.application.add_handler(ChosenInlineResultHandler(self.on_inline_chosen))
        self.username = ""
        self.board_texts: dict[str, int] = {}  # a live board's text, its card still to go out

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        try:
            await self.application.initialize()  # getMe: checks the token
        except (InvalidToken, Forbidden):
            # The library's message quotes the token itself: never repeat it.
            raise AdapterStartError(
                "Telegram rejected the token (TELEGRAM_TOKEN); check it with @BotFather"
            ) from None
        except NetworkError as exc:
            raise AdapterStartError(
                f"cannot reach the Telegram Bot API at {self.settings.telegram_base_url} "
                f"({exc.message})"
            ) from None
        self.username = (self.application.bot.username or "").lower()
        await self.publish_commands()
        await self.application.start()
        updater = self.application.updater
        assert updater is not None
        if self.settings.telegram_webhook_url:
            secret = self.settings.telegram_webhook_secret
            await updater.start_webhook(
                listen=self.settings.telegram_webhook_listen,
                port=self.settings.telegram_webhook_port,
                webhook_url=self.settings.telegram_webhook_url,
                secret_token=secret.get_secret_value() if secret else None,
                allowed_updates=ALLOWED_UPDATES,
            )
        else:
            # Telegram gives each update to one getUpdates caller only if there is one caller:
            # among several processes, the one holding the poller lock polls, the others wait.
            try:
                self.poller = await self.app.try_hold(POLLER_LOCK)
            except OSError:  # no lock file beside a read-only database: assume we're alone
                log.warning("cannot take the Telegram poller lock: polling without it")
                await self._start_polling()
            else:
                if self.poller is not None:
                    await self._start_polling()
                else:
                    log.info("another process polls Telegram: this one stands by to take over")
                self.election = asyncio.create_task(self._keep_poller_elected())
        self.app.boards.attach(self.name, self)
        log.info("Telegram bot @%s running", self.username)

    async def _start_polling(self) -> None:
        updater = self.application.updater
        assert updater is not None
        await updater.start_polling(timeout=self.poll_timeout, allowed_updates=ALLOWED_UPDATES)
        self.polling.set()

    async def _keep_poller_elected(self) -> None:
        """Standing by: take the lock (and start polling) once its holder is gone. Polling:
        stop if the lock is lost (the database connection behind it dropped)."""
        updater = self.application.updater
        assert updater is not None
        while True:
            await asyncio.sleep(self.election_every)
            try:
                if self.poller is None:
                    self.poller = await self.app.try_hold(POLLER_LOCK)
                    if self.poller is not None:
                        log.info("this process now polls Telegram")
                        await self._start_polling()
                elif not await self.poller.alive():
                    log.warning("lost the Telegram poller lock: standing by")
                    self.poller = None
                    self.polling.clear()
                    if updater.running:
                        await updater.stop()
            except Exception:  # the database is unreachable for now: try again next time
                log.warning("Telegram poller election failed; retrying", exc_info=True)

    async def stop(self) -> None:
        """Stop fetching updates, let the ones in progress finish, then shut down."""
        if self.election is not None:
            self.election.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.election
            self.election = None
        updater = self.application.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.application.running:
            await self.application.stop()
        await self.lanes.drain()  # the commands received are run and answered
        self.app.boards.detach(self.name)
        await self.app.boards.drain()  # board edits under way finish before the shutdown
        await self.application.shutdown()
        if self.poller is not None:
            await self.poller.release()  # hand polling over to a standing-by process now
            self.poller = None

    def alive(self) -> bool:
        updater = self.application.updater
        if self.election is not None and self.poller is None:  # standing by, not polling
            return self.application.running and not self.election.done()
        return self.application.running and updater is not None and updater.running

    def owns(self, chat: str) -> bool:
        return chat.startswith("telegram:")

    async def send(self, chat: str, reply: Reply) -> None:
        parts = chat.split(":")
        thread = int(parts[2]) if len(parts) > 2 else None
        await self.deliver(int(parts[1]), thread, reply)

    async def publish_commands(self) -> None:
        """The command menu per language and scope (telegram_menu); a failure is logged, never
        fatal."""
        bot = self.application.bot
        for lang in i18n.LANGS:
            code = None if lang == i18n.DEFAULT_LANG else lang
            for scope, scope_object in SCOPES.items():
                menu = telegram_menu.menu(self.app.registry, lang, scope)
                commands = [BotCommand(name, text) for name, text in menu]
                try:
                    await bot.set_my_commands(commands, scope=scope_object, language_code=code)
                except TelegramError as exc:
                    log.warning("setMyCommands (%s, %s) failed: %s", lang, scope, exc)

    # --- incoming ----------------------------------------------------------------------------

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None:
            return
        text = message.text or message.caption or ""
        match = _COMMAND.match(text)
        if match is None:
            return
        addressed = match.group(2)
        if addressed and addressed.lower() != self.username:
            return  # a command for another bot in the same group
        private = message.chat.type == ChatType.PRIVATE
        # An unknown command addressed to nobody is probably another bot's (see top), unless
        # it is one of the user's macros: looked up in its turn (run_command).
        ours = bool(addressed or private or self.app.registry.recognizes(match.group(1)))
        lane = (message.chat.id, _thread_of(message))
        # Queued before any await: updates handled concurrently keep the order they came in.
        wait = self.lanes.submit(lane, lambda: self.run_command(message, user, text, match, ours))
        if wait:  # the chat's queue is full: say so once, with how long to wait
            lang = await self.app.lang_for(self.user_request(message, user))
            note = i18n.t(lang, "telegram.flood_wait", seconds=int(wait))
            self.lanes.post(lane, [Outgoing(html=telegram_html.escape(note))])

    def user_request(self, message: Message, user: User, **fields: Any) -> Request:
        return Request(
            platform="telegram",
            chat_key=_chat_key(message),
            user_id=str(user.id),
            user_name=user.full_name,
            locale=user.language_code,
            private=message.chat.type == ChatType.PRIVATE,
            **fields,
        )

    async def run_command(
        self, message: Message, user: User, text: str, match: re.Match[str], ours: bool = True
    ) -> list[Outgoing]:
        """One command of a chat's lane: run it and render the answer (not sent yet)."""
        thread = _thread_of(message)
        if not ours and not await self.app.has_macro(
            _chat_key(message), str(user.id), match.group(1)
        ):
            return []  # another bot's command: not a word from us
        files: list[Attachment] = []
        if message.document is not None:
            size = message.document.file_size
            if size is not None and size > MAX_BYTES:
                lang = await self.app.lang_for(self.user_request(message, user))
                note = telegram_html.escape(i18n.t(lang, "telegram.file_too_big"))
                return [Outgoing(html=note)]
            files = await self.download(message)
        spec_name = match.group(1).lower()
        spec = self.app.registry.get(spec_name)
        if spec is not None and spec.path == ("start",):
            text = match.group(0)  # `/start <payload>` from a deep link: the payload isn't ours
        request = self.user_request(
            message, user, admin=await self.is_admin(message.chat, user.id), text=text, files=files
        )
        # "typing…" at once for a command declared slow, else once it has taken slow_after
        reply = await with_notice(
            self.app.handle(request),
            lambda: self.retry(
                lambda: message.chat.send_action(ChatAction.TYPING, message_thread_id=thread)
            ),
            after=0.0 if spec is not None and spec.slow else self.slow_after,
            every=TYPING_EVERY,
        )
        if reply.private is not None:
            return await self.with_private(message, user, reply)
        return await self.render(message.chat.id, thread, reply)

    async def with_private(self, message: Message, user: User, reply: Reply) -> list[Outgoing]:
        """A reply with a part for the asker alone (a private roll): that part goes to the
        user's private chat with the bot, the rest to the chat. In the private chat itself
        only the private part is shown; if Telegram won't let the bot write to the user (they
        never pressed Start), the chat is told how to fix it, the roll staying hidden."""
        secret = reply.private
        assert secret is not None
        thread = _thread_of(message)
        if message.chat.type == ChatType.PRIVATE:
            return await self.render(message.chat.id, thread, secret)
        html = telegram_html.render(secret)
        delivered = True
        for chunk in telegram_html.split(html):
            sent = await self.retry(
                lambda chunk=chunk: self.application.bot.send_message(  # type: ignore[misc]
                    user.id, chunk, parse_mode=ParseMode.HTML
                )
            )
            delivered = delivered and sent is not None
        out = await self.render(message.chat.id, thread, reply.model_copy(update={"private": None}))
        if not delivered:
            lang = await self.app.lang_for(self.user_request(message, user))
            number = (reply.data or {}).get("id", "?")
            note = i18n.t(lang, "private.private_failed", id=number)
            out.append(Outgoing(html=telegram_html.escape(note)))
        return out

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        message = query.message
        user = query.from_user
        if not isinstance(message, Message) or not query.data:
            await query.answer()
            return
        key = _chat_key(message)
        command = await self.app.button_command(key, query.data)
        lang = await self.app.lang_for(
            Request(
                platform="telegram",
                chat_key=key,
                user_id=str(user.id),
                user_name=user.full_name,
                locale=user.language_code,
            )
        )
        if command is None:
            await self.retry(lambda: query.answer(i18n.t(lang, "telegram.button_expired")))
            return
        await self.retry(lambda: query.answer())
        request = Request(
            platform="telegram",
            chat_key=key,
            user_id=str(user.id),
            user_name=user.full_name,
            locale=user.language_code,
            admin=await self.is_admin(message.chat, user.id),
            private=message.chat.type == ChatType.PRIVATE,
            text=command,
        )
        thread = _thread_of(message)

        async def press() -> list[Outgoing]:
            return await self.render(message.chat.id, thread, await self.app.handle(request))

        wait = self.lanes.submit((message.chat.id, thread), press)
        if wait:
            note = i18n.t(lang, "telegram.flood_wait", seconds=int(wait))
            self.lanes.post((message.chat.id, thread), [Outgoing(html=telegram_html.escape(note))])

    async def on_membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Added to a group: post the /start welcome once, in the chat's language or else the
        language of whoever added the bot. A promotion or a restriction is no arrival."""
        change = update.my_chat_member
        if change is None or change.chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP):
            return
        arrived = change.new_chat_member.status in (
            ChatMemberStatus.MEMBER,
            ChatMemberStatus.ADMINISTRATOR,
        ) and change.old_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
        if not arrived:
            return
        user = change.from_user
        request = Request(
            platform="telegram",
            chat_key=f"telegram:{change.chat.id}",
            user_id=str(user.id),
            user_name=user.full_name,
            locale=user.language_code,
            text="/start",
        )
        await self.deliver(change.chat.id, None, await self.app.handle(request))

    # --- inline mode (see bot/adapters/telegram_inline.py) -------------------------------------

    def inline_request(self, user: User, text: str = "") -> Request:
        return Request(
            platform="telegram",
            chat_key=_inline_key(user),
            user_id=str(user.id),
            user_name=user.full_name,
            locale=user.language_code,
            text=text,
        )

    async def on_inline_query(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Offer the roll (made only when chosen: a roll shown before would let a player pick
        a good one) or the rule card (looked up now, sent as is)."""
        query = update.inline_query
        if query is None:
            return
        user = query.from_user
        command = inline_command(query.query, self.app.registry)
        lang = await self.app.lang_for(self.inline_request(user))
        results: list[InlineQueryResultArticle] = []
        note: str | None = None
        if command is None:
            note = i18n.t(lang, "telegram.inline_hint")
        elif command.kind == "roll":
            if is_dice(command.args):
                results.append(self.roll_article(command, user, lang))
            else:
                note = i18n.t(lang, "telegram.inline_bad_roll")
        else:
            reply = await self.app.handle(self.inline_request(user, command.text))
            if reply.error is not None:
                note = reply.error.message
            else:
                results.append(self.card_article(reply, command))
        # The button opens the private chat with /start: the welcome explains the rest.
        button = InlineQueryResultsButton(note[:64], start_parameter="inline") if note else None
        await self.retry(
            lambda: query.answer(
                results, cache_time=INLINE_CACHE_SECONDS, is_personal=True, button=button
            )
        )

    def roll_article(
        self, command: InlineCommand, user: User, lang: i18n.Lang
    ) -> InlineQueryResultArticle:
        rolling = Reply(
            blocks=[
                [
                    bold(user.full_name),
                    plain(f" {i18n.t(lang, 'telegram.inline_rolling')} "),
                    code(command.args),
                    plain(" 🎲…"),
                ]
            ]
        )
        again = Button(label=i18n.t(lang, "roll.again"), command=command.text)
        return InlineQueryResultArticle(
            id=ROLL_RESULT,
            title=i18n.t(lang, "telegram.inline_roll_title", expression=command.args[:80]),
            description=i18n.t(lang, "telegram.inline_roll_desc"),
            input_message_content=InputTextMessageContent(
                telegram_html.render(rolling), parse_mode=ParseMode.HTML
            ),
            # The keyboard is what makes Telegram report an inline_message_id to edit later.
            reply_markup=_switch_inline([again]),
        )

    def card_article(self, reply: Reply, command: InlineCommand) -> InlineQueryResultArticle:
        html = telegram_html.split(telegram_html.render(reply))[0]
        # The card's gist under its title: the longest of its first lines (the summary, not the
        # line of other names).
        lines = ["".join(s.text for s in block) for block in reply.blocks[:3]]
        gist = max(lines, key=len, default="")
        ident = str((reply.data or {}).get("id") or command.args)
        return InlineQueryResultArticle(
            id=("rule:" + ident)[:64],
            title=(reply.title or command.args)[:100],
            description=gist[:120],
            input_message_content=InputTextMessageContent(html, parse_mode=ParseMode.HTML),
            reply_markup=_switch_inline(reply.buttons),
        )

    async def on_inline_chosen(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """An inline roll was sent: roll now, store it, and put the result in its message."""
        chosen = update.chosen_inline_result
        if chosen is None or chosen.result_id != ROLL_RESULT or not chosen.inline_message_id:
            return
        command = inline_command(chosen.query, self.app.registry)
        if command is None or command.kind != "roll":
            return
        user = chosen.from_user
        message_id = chosen.inline_message_id
        lang = await self.app.lang_for(self.inline_request(user))
        if self.flood.check(user.id) != "ok":
            note = telegram_html.escape(i18n.t(lang, "telegram.flood"))
            await self.retry(
                lambda: self.application.bot.edit_message_text(
                    note, inline_message_id=message_id, parse_mode=ParseMode.HTML
                )
            )
            return
        reply = await self.app.handle(self.inline_request(user, command.text))
        roll_id = (reply.data or {}).get("id")
        if reply.ok and roll_id is not None:
            bot = self.application.bot.username
            kept = i18n.t(lang, "telegram.inline_kept", name=user.full_name, bot=bot, id=roll_id)
            reply.blocks.append([italic(kept)])
        html = telegram_html.split(telegram_html.render(reply))[0]
        await self.retry(
            lambda: self.application.bot.edit_message_text(
                html,
                inline_message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=_switch_inline(reply.buttons),
            )
        )

    async def download(self, message: Message) -> list[Attachment]:
        document = message.document
        assert document is not None
        file = await document.get_file()
        data = await file.download_as_bytearray()
        return [Attachment(filename=document.file_name or "file", content=bytes(data))]

    async def is_admin(self, chat: Chat, user_id: int) -> bool:
        if chat.type == ChatType.PRIVATE:
            return True
        admins = await self.chat_admins(chat)
        return admins is not None and user_id in admins

    async def chat_admins(self, chat: Chat) -> set[int] | None:
        """The chat's administrators, cached ADMIN_CACHE_SECONDS; None when Telegram won't say.

        Single-flight: concurrent misses for one chat (a burst of updates, handled eight at a
        time) await the same getChatAdministrators call instead of each sending one."""
        cached = self.admins.get(chat.id)
        if cached is not None and cached[0] >= self.clock():
            return cached[1]
        pending = self.admin_requests.get(chat.id)
        if pending is None:
            pending = asyncio.ensure_future(self._fetch_admins(chat))
            self.admin_requests[chat.id] = pending
        # shield: one waiter being cancelled (shutdown) must not cancel the others' request
        return await asyncio.shield(pending)

    async def _fetch_admins(self, chat: Chat) -> set[int] | None:
        try:
            members = await chat.get_administrators()
        except TelegramError as exc:
            log.warning("getChatAdministrators failed for %s: %s", chat.id, exc)
            return None  # not cached: the next command asks again
        finally:
            self.admin_requests.pop(chat.id, None)
        admins = {m.user.id for m in members}
        self.admins[chat.id] = (self.clock() + ADMIN_CACHE_SECONDS, admins)
        return admins

    # --- outgoing ----------------------------------------------------------------------------

    async def deliver(self, chat_id: int, thread: int | None, reply: Reply) -> None:
        """Send a reply now, outside the chat's queue (a reminder, the group greeting): the
        caller waits until Telegram took it (the scheduler records a reminder only then)."""
        for item in await self.render(chat_id, thread, reply):
            await self.send_item((chat_id, thread), item, flood="wait")

    async def render(self, chat_id: int, thread: int | None, reply: Reply) -> list[Outgoing]:
        html = telegram_html.render(reply)
        markup = await self.keyboard(chat_id, thread, reply)
        images = [a for a in reply.attachments if a.is_image]
        documents = [Outgoing(document=a) for a in reply.attachments if not a.is_image]
        if images:
            out = _pictures(html, markup, images)
        else:
            chunks = telegram_html.split(html) or [telegram_html.escape(reply.command or "…")]
            out = [
                Outgoing(html=chunk, markup=markup if i == len(chunks) - 1 else None)
                for i, chunk in enumerate(chunks)
            ]
        if reply.live_board and reply.ok:  # its first message is the one kept up to date
            key = f"telegram:{chat_id}" + (f":{thread}" if thread is not None else "")
            out[0] = dataclasses.replace(out[0], board=key, posted=reply)
            if out[0].photo is None and out[-1].photo is not None:  # text first, then the card
                out[-1] = dataclasses.replace(out[-1], board_card=key, posted=reply)
        return out + documents

    async def send_item(
        self, lane: Lane, item: Outgoing, flood: Literal["wait", "raise"] = "raise"
    ) -> None:
        """One message; in a lane, RateLimited when Telegram says to wait (bot/flood.py)."""
        chat_id, thread = lane
        if item.photo is not None:
            photo = InputFile(item.photo.content, filename=item.photo.filename)
            shown = await self.retry(
                lambda: self.application.bot.send_photo(
                    chat_id,
                    photo,
                    caption=item.html or None,
                    parse_mode=ParseMode.HTML if item.html else None,
                    message_thread_id=thread,
                    reply_markup=item.markup,
                ),
                flood=flood,
            )
            await self.board_posted(item, shown)
            await self.board_card_posted(item, shown)
            return
        if item.document is not None:
            document = InputFile(item.document.content, filename=item.document.filename)
            await self.retry(
                lambda: self.application.bot.send_document(
                    chat_id, document, message_thread_id=thread
                ),
                flood=flood,
            )
            return
        sent = await self.retry(
            lambda: self.application.bot.send_message(
                chat_id,
                item.html,
                parse_mode=ParseMode.HTML,
                message_thread_id=thread,
                reply_markup=item.markup,
            ),
            flood=flood,
        )
        await self.board_posted(item, sent)

    async def board_posted(self, item: Outgoing, sent: Message | None) -> None:
        """A live board's message went out: its id to the app, and pinned if the bot may."""
        if item.board is None or item.posted is None or sent is None:
            return
        await self.app.boards.posted(item.board, str(sent.message_id), item.posted)
        self.board_texts[item.board] = sent.message_id  # its card may follow (board_card)
        try:
            await self.application.bot.pin_chat_message(
                sent.chat_id, sent.message_id, disable_notification=True
            )
        except TelegramError as exc:  # not an admin with the right to pin: left unpinned
            log.info("live board not pinned in %s: %s", sent.chat_id, exc)

    async def board_card_posted(self, item: Outgoing, sent: Message | None) -> None:
        """A long board's card went out after its text: the board is kept as both messages,
        `TEXT_ID+CARD_ID` (edit_board replaces both)."""
        if item.board_card is None or item.posted is None or sent is None:
            return
        text_id = self.board_texts.pop(item.board_card, None)
        if text_id is not None:
            both = f"{text_id}{CARD_SEPARATOR}{sent.message_id}"
            await self.app.boards.posted(item.board_card, both, item.posted)

    async def edit_board(self, chat: str, message_id: str, reply: Reply) -> EditResult:
        """The live board's message made to show `reply` (bot/commands/board_live.py): a photo
        gets the new card and caption (editMessageMedia), a text message the new text. A board
        posted with pictures off and drawn now with them (or the reverse) keeps its kind."""
        bot = self.application.bot
        text_id, _, card_id = message_id.partition(CARD_SEPARATOR)
        chat_id = int(chat.split(":")[1])
        where: dict[str, Any] = {"chat_id": chat_id, "message_id": int(text_id)}
        html = telegram_html.render(reply)
        image = next((a for a in reply.attachments if a.is_image), None)
        first = (telegram_html.split(html) or ["…"])[0]
        try:
            if card_id and image is not None:  # a long board: its card is a message of its own
                card = InputMediaPhoto(image.content, filename=image.filename)
                try:
                    await bot.edit_message_media(card, chat_id=chat_id, message_id=int(card_id))
                except BadRequest as exc:
                    if "not modified" not in str(exc).lower():
                        raise
            if not card_id and image is not None and caption_length(html) <= MAX_CAPTION:
                media = InputMediaPhoto(  # bytes: sent as an attach:// upload
                    image.content, caption=html, parse_mode=ParseMode.HTML, filename=image.filename
                )
                try:
                    await bot.edit_message_media(media, **where)
                    return "ok"
                except BadRequest as exc:
                    if "media" not in str(exc).lower():
                        raise  # else: a text message, edited as text below
            try:
                await bot.edit_message_text(first, parse_mode=ParseMode.HTML, **where)
            except BadRequest as exc:
                if "no text" not in str(exc).lower() or caption_length(first) > MAX_CAPTION:
                    raise
                await bot.edit_message_caption(caption=first, parse_mode=ParseMode.HTML, **where)
        except BadRequest as exc:
            text = str(exc).lower()
            if "not modified" in text:
                return "ok"
            if "not found" in text:
                return "gone"
            log.warning("live board of %s not edited: %s", chat, exc)
            return "failed"
        except TelegramError as exc:
            log.warning("live board of %s not edited: %s", chat, exc)
            return "failed"
        return "ok"

    async def keyboard(
        self, chat_id: int, thread: int | None, reply: Reply
    ) -> InlineKeyboardMarkup | None:
        if not reply.buttons:
            return None
        key = f"telegram:{chat_id}" + (f":{thread}" if thread is not None else "")
        ids = await self.app.save_buttons(key, [b.command for b in reply.buttons])
        rows = [
            [InlineKeyboardButton(b.label[:64], callback_data=ident)]
            for b, ident in zip(reply.buttons, ids, strict=True)
        ]
        return InlineKeyboardMarkup(rows)

    async def retry(
        self, call: Callable[[], Awaitable[T]], flood: Literal["wait", "raise"] = "wait"
    ) -> T | None:
        """Honour Telegram's 429 retry_after (bounded) so a reply is delayed, not lost; with
        flood="raise" the wait is the caller's (a chat's lane: RateLimited)."""
        for attempt in range(MAX_RETRIES + 1):
            try:
                return await call()
            except RetryAfter as exc:
                wait = exc.retry_after
                seconds = wait.total_seconds() if hasattr(wait, "total_seconds") else float(wait)
                if flood == "raise":
                    raise RateLimited(seconds) from None
                if attempt == MAX_RETRIES or seconds > MAX_RETRY_WAIT:
                    log.warning("Telegram flood limit: giving up after %s attempts", attempt + 1)
                    return None
                await self.sleep(seconds)
            except NetworkError as exc:
                # A 5xx or a refused connection: Telegram did not take the call, so try again
                # (bounded). A timeout is not retried: the message may have gone out already.
                if isinstance(exc, TimedOut) or attempt == MAX_RETRIES:
                    log.warning("Telegram call failed: %s", exc)
                    return None
                await self.sleep(RETRY_BACKOFF * (attempt + 1))
            except TelegramError as exc:
                log.warning("Telegram call failed: %s", exc)
                return None
        return None
