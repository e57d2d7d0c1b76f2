"""Tokens never reach the log: not in a message, not in an exception's text or its traceback,
not in a stack dump, not in an uncaught exception (main thread or another), and a Telegram
bot URL (`bot<digits>:<secret>`) is hidden even when its token isn't the configured one.
Each case runs in a real process with the logging the bot installs."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

from bot.logging_setup import RedactSecrets

TELEGRAM = "123456789:AAHsecretTelegramTokenValue_0123456789ab"
DISCORD = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.discordSecretPartValue0123456789abcdef"
WEBHOOK = "webhook-secret-value-42"
OTHER = "987654321:AAOtherTokenNobodyConfigured_abcdefghijk"

SCRIPT = f"""
import logging, threading
from bot.config import load_settings
from bot.logging_setup import setup_logging

setup_logging(load_settings())
log = logging.getLogger("library")
try:
    raise RuntimeError("POST https://api.telegram.org/bot{TELEGRAM}/getUpdates: Conflict")
except RuntimeError:
    log.exception("telegram call failed")
try:
    raise ValueError("bad auth {DISCORD} and {WEBHOOK}")
except ValueError as exc:
    log.error("discord login failed", exc_info=exc)
url = "https://api.telegram.org/bot{TELEGRAM}/getMe"; log.warning("where", stack_info=True)
log.warning("someone else's bot: https://api.telegram.org/bot{OTHER}/getMe")
log.info("message %s", "{TELEGRAM}")

def worker():
    raise OSError("thread: {TELEGRAM}")

thread = threading.Thread(target=worker)
thread.start()
thread.join()
raise SystemError("uncaught: https://api.telegram.org/bot{TELEGRAM}/sendMessage")
"""


def _run_leaky_script(tmp_path: Path, **extra_env: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "leak.py"
    script.write_text(SCRIPT)
    env = dict(
        os.environ,
        TELEGRAM_TOKEN=TELEGRAM,
        DISCORD_TOKEN=DISCORD,
        TELEGRAM_WEBHOOK_SECRET=WEBHOOK,
        WARGAME_BOT_DB=str(tmp_path / "x.sqlite3"),
        WARGAME_BOT_LOG_LEVEL="INFO",
        PYTHONPATH=str(Path(__file__).resolve().parents[2]),
        **extra_env,
    )
    return subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )


def test_tokens_are_redacted_from_exceptions_tracebacks_and_stacks(tmp_path: Path) -> None:
    run = _run_leaky_script(tmp_path)
    out = run.stdout + run.stderr
    assert run.returncode == 1  # the uncaught exception still ends the process
    for what in ("telegram call failed", "discord login failed", "where", "someone else's bot"):
        assert what in out, what
    # the tracebacks are all there, only without the secrets
    assert out.count("Traceback (most recent call last)") >= 4, out
    assert "RuntimeError: POST https://api.telegram.org/bot***/getUpdates: Conflict" in out
    assert "ValueError: bad auth *** and ***" in out
    assert "OSError: thread: ***" in out and "SystemError: uncaught:" in out
    assert (
        "Stack (most recent call last)" in out and 'url = "https://api.telegram.org/bot***' in out
    )
    for secret in (TELEGRAM, DISCORD, WEBHOOK, OTHER, TELEGRAM.split(":")[1], OTHER.split(":")[1]):
        assert secret not in out, secret


def test_json_logs_are_one_object_per_line_and_redacted_too(tmp_path: Path) -> None:
    run = _run_leaky_script(tmp_path, WARGAME_BOT_LOG_FORMAT="json")
    assert run.returncode == 1
    records = [json.loads(line) for line in run.stderr.splitlines() if line.strip()]
    by_message = {r["message"]: r for r in records}
    failed = by_message["telegram call failed"]
    assert failed["level"] == "ERROR" and failed["logger"] == "library" and "time" in failed
    assert "RuntimeError: POST https://api.telegram.org/bot***/getUpdates" in failed["exc_info"]
    assert by_message["message ***"]["level"] == "INFO"
    assert any("uncaught" in r["message"] for r in records)  # the process's own end, as JSON
    for secret in (TELEGRAM, DISCORD, WEBHOOK, OTHER, TELEGRAM.split(":")[1], OTHER.split(":")[1]):
        assert secret not in run.stderr, secret


def test_the_filter_redacts_a_record_for_any_handler() -> None:
    """Any formatter sees the redacted record: the message, the exception and the stack."""
    try:
        raise ConnectionError(f"https://api.telegram.org/bot{TELEGRAM}/getFile")
    except ConnectionError:
        record = logging.LogRecord(
            "x",
            logging.ERROR,
            __file__,
            1,
            "failed %s",
            (TELEGRAM,),
            sys.exc_info(),
            sinfo=f"Stack:\n  token = {TELEGRAM}",
        )
    assert RedactSecrets([TELEGRAM]).filter(record)
    text = logging.Formatter("%(message)s").format(record)
    assert TELEGRAM not in text and "failed ***" in text
    assert "ConnectionError: https://api.telegram.org/bot***/getFile" in text
    assert "token = ***" in text
