"""Logging to stderr with every configured secret redacted from every record."""

from __future__ import annotations

import logging
import re
import sys
import threading
from types import TracebackType

from bot.config import Settings

MASK = "***"
# Tokens of any bot, configured here or not: a library error quoting a request URL carries one.
# Telegram: `<bot id>:<secret>` (in URLs as `bot<id>:<secret>`); Discord: three dotted parts.
TOKEN_SHAPES = re.compile(
    r"(?<!\d)\d{5,}:[A-Za-z0-9_-]{30,}"
    r"|(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}"
)
_EXCEPTIONS = logging.Formatter()  # formats a record's traceback once, before it is redacted


class RedactSecrets(logging.Filter):
    """Redacts the message, the exception text (traceback included) and the stack of a record,
    so whichever formatter prints it later sees no secret."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return TOKEN_SHAPES.sub(MASK, text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            # Formatter.format uses a record's exc_text when it is set: set it, redacted.
            record.exc_text = _EXCEPTIONS.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class RedactingFormatter(logging.Formatter):
    """The last line of defence: the printed line itself, whatever went into it."""

    def __init__(self, fmt: str, redactor: RedactSecrets) -> None:
        super().__init__(fmt)
        self.redactor = redactor

    def format(self, record: logging.LogRecord) -> str:
        return self.redactor.redact(super().format(record))


class RedactingJsonFormatter(logging.Formatter):
    """One JSON object per line (time, level, logger, message, exc_info), redacted as a whole."""

    def __init__(self, redactor: RedactSecrets) -> None:
        from pythonjsonlogger.json import JsonFormatter

        super().__init__()
        self.redactor = redactor
        self.json = JsonFormatter(
            "%(asctime)s %(levelname)s %(name)s %(message)s",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        )

    def format(self, record: logging.LogRecord) -> str:
        return self.redactor.redact(self.json.format(record))


def log_uncaught(redactor: RedactSecrets) -> None:
    """Uncaught exceptions (main thread, other threads, "Exception ignored in") are printed
    through logging, so their tracebacks are redacted too."""
    log = logging.getLogger("bot.uncaught")

    def main_hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        log.critical("uncaught exception", exc_info=(kind, exc, tb))

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit or args.exc_value is None:
            return  # what the default hook ignores too
        name = args.thread.name if args.thread is not None else "?"
        exc_info = (args.exc_type, args.exc_value, args.exc_traceback)
        log.error("uncaught exception in thread %s", name, exc_info=exc_info)

    def unraisable_hook(args: sys.UnraisableHookArgs) -> None:
        what = redactor.redact(f"{args.err_msg or 'Exception ignored in'}: {args.object!r}")
        if args.exc_value is None:
            log.warning("%s", what)
            return
        exc_info = (args.exc_type, args.exc_value, args.exc_traceback)
        log.warning("%s", what, exc_info=exc_info)

    sys.excepthook = main_hook
    threading.excepthook = thread_hook
    sys.unraisablehook = unraisable_hook


def setup_logging(settings: Settings) -> None:
    secrets = [
        s.get_secret_value()
        for s in (settings.discord_token, settings.telegram_token, settings.telegram_webhook_secret)
        if s is not None
    ]
    redactor = RedactSecrets(secrets)
    handler = logging.StreamHandler()
    formatter: logging.Formatter
    if settings.wargame_bot_log_format.lower() == "json":
        formatter = RedactingJsonFormatter(redactor)
    else:
        formatter = RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s", redactor)
    handler.setFormatter(formatter)
    handler.addFilter(redactor)
    log_uncaught(redactor)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.wargame_bot_log_level.upper())
    # httpx logs every request URL, and Telegram's URLs contain the bot token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
