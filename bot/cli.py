"""`wargame-bot run|console|ask|import-rules|import-roster|health`: the operator's entry points."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import logging
import os
import sys
from pathlib import Path

from pydantic import ValidationError

from bot import i18n
from bot.app import App
from bot.config import Settings, load_settings
from bot.logging_setup import setup_logging
from bot.protocol import ErrorInfo, Reply, Request, Span
from bot.render import plain
from bot.storage.db import StorageError

log = logging.getLogger(__name__)

CONSOLE_CHAT = "console:local"
EXIT_OK, EXIT_INTERNAL, EXIT_USER = 0, 1, 2
EXIT_UNHEALTHY = 1  # Docker's HEALTHCHECK reads 0 as healthy, 1 as unhealthy (2 is reserved)
NO_TOKEN = (
    "wargame-bot: no DISCORD_TOKEN or TELEGRAM_TOKEN set, and no terminal for the console "
    "chat: set one of them"
)
# Modes where log lines would bury the conversation: WARNING and above only, unless the
# operator set WARGAME_BOT_LOG_LEVEL.
QUIET_MODES = {"ask", "console", "import-rules", "health"}


def login_name() -> str:
    """The console's and `ask`'s default user: whoever is at the terminal, by their login
    name (an English placeholder like "player" would show on Italian screens)."""
    try:
        name = getpass.getuser().strip()
    except (KeyError, OSError):  # no passwd entry and no LOGNAME/USER (some containers)
        name = ""
    return name or "console"


def build_parser() -> argparse.ArgumentParser:
    # --db is accepted before or after the subcommand: `wargame-bot --db X ask ...` or
    # `wargame-bot ask --db X ...`.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        default=argparse.SUPPRESS,
        help="SQLite file or postgresql:// URL (default: $WARGAME_BOT_DB)",
    )
    parser = argparse.ArgumentParser(prog="wargame-bot", description=__doc__, parents=[common])
    sub = parser.add_subparsers(dest="mode", required=True)

    sub.add_parser(
        "run",
        parents=[common],
        help="start Discord and/or Telegram when tokens are set, else console",
    )

    console = sub.add_parser("console", parents=[common], help="chat with the bot here")
    console.add_argument("--user", default=login_name(), help="your name in the console chat")
    console.add_argument("--chat", default=CONSOLE_CHAT, help="chat key (default console:local)")

    ask = sub.add_parser("ask", parents=[common], help="run one command and print the reply")
    ask.add_argument("text", help='the command, e.g. "/roll 2d6+3"')
    ask.add_argument("--chat", default=CONSOLE_CHAT)
    ask.add_argument("--user", default=login_name(), help="user id (default: your login name)")
    ask.add_argument("--name", default=None, help="display name (default: the user id)")
    ask.add_argument("--admin", action="store_true", help="act as a chat admin")
    ask.add_argument("--lang", choices=("it", "en"), default=None)
    ask.add_argument("--seed", type=int, default=None, help="fixed dice seed")
    ask.add_argument("--json", action="store_true", help="print one JSON object")
    ask.add_argument(
        "--files",
        type=Path,
        default=None,
        help="where a reply's files (a campaign export, ...) are written "
        "(default: the bot's exports folder in your data directory)",
    )
    imp = sub.add_parser(
        "import-rules", parents=[common], help="import a rulebook (text, Markdown, PDF)"
    )
    imp.add_argument("file", type=Path)
    imp.add_argument("--system", required=True, choices=("wm", "aos", "wow", "inf", "c5"))
    # Who may search the book is never implied: a local file becoming visible to every chat
    # on the bot must be asked for by name.
    scope = imp.add_mutually_exclusive_group()
    scope.add_argument("--chat", default=None, help="only this chat key may search the book")
    scope.add_argument(
        "--all-chats", action="store_true", help="every chat on this bot may search the book"
    )
    sub.add_parser(
        "web",
        parents=[common],
        help="serve only the campaign pages (WARGAME_BOT_WEB_PORT) on the bot's database",
    )
    sub.add_parser(
        "health",
        parents=[common],
        help="exit 0 if the database is at the current schema and every platform that `run` "
        "started beat in the last 60 s (the container's HEALTHCHECK)",
    )
    roster = sub.add_parser(
        "import-roster",
        parents=[common],
        help="add a BattleScribe roster's units (.ros/.rosz) to a chat's game, for a player",
    )
    roster.add_argument("file", type=Path)
    roster.add_argument("--chat", required=True, help="the chat key, e.g. telegram:-100123")
    roster.add_argument("--user", required=True, help="the player's user id on that platform")
    roster.add_argument("--name", default=None, help="display name (default: the user id)")
    roster.add_argument("--save", default=None, help="also save the roster under this name")
    roster.add_argument("--system", choices=("wm", "aos", "wow", "inf", "c5"), default=None)
    roster.add_argument("--lang", choices=("it", "en"), default=None)
    roster.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


async def import_roster(settings: Settings, args: argparse.Namespace) -> int:
    """`/army import` for a player, from a file on this computer: the same command, checks
    and reply as in the chat (the player must be in the chat's game)."""
    from bot import i18n
    from bot.protocol import Attachment
    from bot.roster_import import read_local
    from rules_core.errors import UserError

    try:
        content = read_local(args.file)
    except UserError as err:
        print(f"wargame-bot: {i18n.t(args.lang or 'en', err.key, **err.params)}", file=sys.stderr)
        return EXIT_USER
    options = {k: v for k, v in (("save", args.save), ("system", args.system)) if v}
    return await run_request(
        settings,
        Request(
            platform="ask",
            chat_key=args.chat,
            user_id=args.user,
            user_name=args.name or args.user,
            lang=args.lang,
            text=f"/army import {args.file.name}",
            command="army import",
            options=options,
            files=[Attachment(filename=args.file.name, content=content)],
        ),
        as_json=args.json,
    )


async def import_rules(settings: Settings, args: argparse.Namespace) -> int:
    from bot import i18n
    from bot.protocol import Attachment
    from bot.rules_import import extract, read_local
    from bot.storage import rulebooks
    from rules_core.errors import UserError

    if not args.file.is_file():
        print(f"wargame-bot: no such file: {args.file}", file=sys.stderr)
        return EXIT_USER
    if args.chat is None and not args.all_chats:
        print(f"wargame-bot: {i18n.t('en', 'safety.import_scope')}", file=sys.stderr)
        return EXIT_USER
    app = App(settings.db_path, web_url=settings.web_base_url)
    await app.start()
    try:
        file = Attachment(filename=args.file.name, content=read_local(args.file))
        split = await extract(file.content, file.filename)
        if args.all_chats:
            warning = i18n.t("en", "safety.import_every_chat", title=file.filename)
            print(f"wargame-bot: {warning}", file=sys.stderr)
        async with app.db.transaction() as conn:
            book = await rulebooks.add(
                conn,
                scope=args.chat or rulebooks.EVERY_CHAT,
                system=args.system,
                title=file.filename,
                split=split,
                imported_by="operator",
                now=app.clock(),
            )
    except UserError as err:
        print(f"wargame-bot: {i18n.t('en', err.key, **err.params)}", file=sys.stderr)
        return EXIT_USER
    finally:
        await app.stop()
    scope = args.chat or "every chat"
    print(
        f"Imported {file.filename} as rulebook #{book} for {scope}: "
        f"{len(split.passages)} passages, {len(split.headings)} headings."
    )
    return EXIT_OK


def shown(reply: Reply) -> str:
    """The reply's text (its files aside); a part meant for the asker alone (a private roll)
    follows it: the one running `ask` is the asker."""
    text = plain.render(reply.model_copy(update={"attachments": [], "private": None}))
    return text if reply.private is None else text + "\n" + plain.render(reply.private)


def ask_payload(reply: Reply, written: list[dict[str, str]] | None = None) -> dict[str, object]:
    return {
        "ok": reply.ok,
        "command": reply.command,
        "text": shown(reply),
        "data": reply.data,
        "error": reply.error.model_dump() if reply.error else None,
        "files": written or [],
    }


def write_files(reply: Reply, folder: Path, lang: i18n.Lang) -> tuple[list[dict[str, str]], int]:
    """The reply's attachments written into `folder`: their list for --json, and EXIT_OK or
    EXIT_USER when one could not be written (the reason is printed on stderr)."""
    from bot import files

    written: list[dict[str, str]] = []
    status = EXIT_OK
    for item in reply.attachments:
        try:
            path = files.write(folder, item)
        except OSError as exc:
            print(
                i18n.t(lang, "console.save_failed", name=item.filename, path=str(folder)),
                f"({exc.strerror})",
                file=sys.stderr,
            )
            status = EXIT_USER
            continue
        written.append({"name": item.filename, "path": str(path), "mime": item.mime})
    return written, status


async def ask(settings: Settings, args: argparse.Namespace) -> int:
    request = Request(
        platform="ask",
        chat_key=args.chat,
        user_id=args.user,
        user_name=args.name or args.user,
        admin=args.admin,
        lang=args.lang,
        text=args.text,
        seed=args.seed,
    )
    return await run_request(settings, request, as_json=args.json, files=args.files)


async def run_request(
    settings: Settings, request: Request, *, as_json: bool, files: Path | None = None
) -> int:
    """Run one command, print its reply (plain text or one JSON object), give the exit code."""
    app = App(settings.db_path, web_url=settings.web_base_url)
    try:
        await app.start()
    except StorageError as exc:  # still one JSON object for a script, with the reason
        if not as_json:
            raise
        message = exc.message(i18n.normalize_lang(request.lang) or "en")
        error = ErrorInfo(code=exc.key, message=message)
        reply = Reply(blocks=[[Span(text=message)]], error=error)
        print(json.dumps(ask_payload(reply), ensure_ascii=False))
        return EXIT_USER
    try:
        reply = await app.handle(request)
        lang = await app.lang_for(request)
    finally:
        await app.stop()
    written: list[dict[str, str]] = []
    saved = EXIT_OK
    if reply.attachments:
        from bot.paths import exports_dir

        written, saved = write_files(reply, files or exports_dir(), lang)
    if as_json:
        print(json.dumps(ask_payload(reply, written), ensure_ascii=False))
    else:
        print(shown(reply))
        for item in written:
            print(i18n.t(lang, "console.saved", name=item["name"], path=item["path"]))
    if reply.error is None:
        return saved
    return EXIT_INTERNAL if reply.error.code == "internal" else EXIT_USER


async def console(settings: Settings, user: str, chat: str) -> int:
    from bot.adapters.console import run_console
    from bot.paths import console_history_file, exports_dir

    app = App(settings.db_path, web_url=settings.web_base_url)
    await app.start()
    try:
        await run_console(
            app, chat=chat, user=user, history_file=console_history_file(), exports=exports_dir()
        )
    finally:
        await app.stop()
    return EXIT_OK


def has_token(settings: Settings) -> bool:
    return settings.discord_token is not None or settings.telegram_token is not None


async def run(settings: Settings) -> int:
    if not has_token(settings):
        if not sys.stdin.isatty():
            # A container or service with no token: reading end-of-input and exiting 0 would
            # make `restart: always` loop forever; say what is missing instead.
            print(NO_TOKEN, file=sys.stderr)
            return EXIT_USER
        # On a terminal: the console chat, whose first screen is its (localized) welcome.
        return await console(settings, user=login_name(), chat=CONSOLE_CHAT)
    from bot.adapters.platforms import run_platforms

    return await run_platforms(settings)


async def web_only(settings: Settings) -> int:
    """`wargame-bot web`: the campaign pages in a process of their own, until SIGTERM/SIGINT."""
    import signal

    from bot.web import serve

    if settings.wargame_bot_web_port is None:
        print("wargame-bot: set WARGAME_BOT_WEB_PORT to serve the campaign pages", file=sys.stderr)
        return EXIT_USER
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    app = App(settings.db_path, web_url=settings.web_base_url)
    await app.start()
    try:
        runner, port = await serve(
            app, settings.wargame_bot_web_host, settings.wargame_bot_web_port
        )
        print(f"campaign pages on http://{settings.wargame_bot_web_host}:{port}/", flush=True)
        await stop.wait()
        await runner.cleanup()
    finally:
        await app.stop()
    return EXIT_OK


def health(settings: Settings) -> int:
    from bot.health import check

    problems, summary = check(settings.db_path)
    for problem in problems:
        print(f"wargame-bot health: {problem}", file=sys.stderr)
    if problems:
        return EXIT_UNHEALTHY
    print(summary)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # The bot uses no pydantic plugin, and looking for one reads every installed package's
    # metadata at each start (issue 26); PYDANTIC_DISABLE_PLUGINS= (empty) lets plugins load.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        settings = load_settings()
    except ValidationError as exc:  # a bad environment variable: say which, never a traceback
        for error in exc.errors():
            name = "_".join(str(part) for part in error["loc"]).upper() or "settings"
            print(f"wargame-bot: {name}: {error['msg']}", file=sys.stderr)
        return EXIT_USER
    if getattr(args, "db", None) is not None:
        settings.wargame_bot_db = args.db
    setup_logging(settings)
    quiet = args.mode in QUIET_MODES or (args.mode == "run" and not has_token(settings))
    if quiet and "wargame_bot_log_level" not in settings.model_fields_set:
        logging.getLogger().setLevel(logging.WARNING)
    if args.mode == "health":
        return health(settings)
    try:
        if args.mode == "ask":
            return asyncio.run(ask(settings, args))
        if args.mode == "import-rules":
            return asyncio.run(import_rules(settings, args))
        if args.mode == "import-roster":
            return asyncio.run(import_roster(settings, args))
        if args.mode == "web":
            return asyncio.run(web_only(settings))
        if args.mode == "console":
            return asyncio.run(console(settings, args.user, args.chat))
        return asyncio.run(run(settings))
    except StorageError as exc:
        print(f"wargame-bot: {exc}", file=sys.stderr)
        return EXIT_USER
    except KeyboardInterrupt:
        return EXIT_OK
    except BrokenPipeError:  # `ask … | head`: the reader left; nothing to say, no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
