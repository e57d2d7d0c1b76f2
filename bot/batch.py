"""Multi-line messages: several command lines sent at once, run in order as one transaction.

A line that starts with `/` begins a command; a line that doesn't continues the command above it
(a label or a note written over two lines stays one command, as before). A command with a `lines`
option (`/army add`, a unit per line) takes the rest of the message, whatever it holds, so an
army list is never cut into commands. A message of one command is not a batch: the dispatcher
runs it as it always did.

Limits: MAX_LINES lines and MAX_BYTES bytes per batch (a message over them is refused whole,
before anything runs). The dispatcher (`bot.app.App.handle`) runs the lines; this module only
cuts the message and builds the one reply that summarises them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import i18n
from bot.clean_text import shorten
from bot.commands.registry import Registry
from bot.protocol import Attachment, Block, Reply, bold, code, plain
from rules_core.errors import UserError

MAX_LINES = 50
MAX_BYTES = 8 * 1024
SHOWN_COMMAND = 80  # characters of a line's command shown in the summary


@dataclass(frozen=True)
class Line:
    number: int  # 1-based, the message's line where this command begins
    text: str  # the command, with its continuation lines


def _takes_rest(registry: Registry, text: str) -> bool:
    """Whether the command on this line has a `lines` option (it takes the rest)."""
    try:
        found = registry.find(text)
    except UserError:
        return False  # reported when the line runs
    return any(o.type == "lines" for o in found.spec.options)


def split(text: str, registry: Registry) -> list[Line]:
    """The commands of a message, in order (one for a message that is no batch)."""
    raw = text.split("\n")
    out: list[Line] = []
    current: list[str] = []
    start = 0
    for i, line in enumerate(raw):
        if line.lstrip().startswith("/") and current:
            if _takes_rest(registry, current[0]):
                current.extend(raw[i:])
                break
            out.append(Line(start + 1, "\n".join(current).strip()))
            current = []
        if not current:
            if not line.strip():
                continue
            start = i
        current.append(line)
    if current:
        out.append(Line(start + 1, "\n".join(current).strip()))
    return out


def check_limits(text: str) -> None:
    lines = sum(1 for line in text.split("\n") if line.strip())
    if lines > MAX_LINES:
        raise UserError("batch.too_many_lines", limit=MAX_LINES, count=lines)
    size = len(text.encode())
    if size > MAX_BYTES:
        raise UserError("batch.too_big", limit=MAX_BYTES // 1024)


def _first_line(text: str) -> str:
    first = text.split("\n", 1)[0]
    return shorten(first, SHOWN_COMMAND)


def summary(lang: i18n.Lang, done: list[tuple[Line, Reply]]) -> Reply:
    """One reply for the whole message: each line's command, then what it answered. Buttons
    are left out: each acted on the state after its own line, which later lines changed."""
    blocks: list[Block] = []
    attachments: list[Attachment] = []
    mentions: list[str] = []
    data: list[dict[str, Any]] = []
    secret: list[Block] = []  # the lines' parts for the asker alone (private rolls)
    for line, reply in done:
        if reply.private is not None:
            secret.append([bold(i18n.t(lang, "batch.line", line=line.number))])
            secret.extend(reply.private.blocks)
        head: Block = [
            bold(i18n.t(lang, "batch.line", line=line.number) + " "),
            code(_first_line(line.text)),
        ]
        blocks.append(head)
        if reply.title:
            blocks.append([bold(reply.title)])
        blocks.extend(reply.blocks)
        for item in reply.fields:
            blocks.append([bold(item.name + ": "), *item.value])
        attachments.extend(reply.attachments)
        mentions.extend(m for m in reply.mentions if m not in mentions)
        data.append({"line": line.number, "command": reply.command, "data": reply.data})
    return Reply(
        command="batch",
        title=i18n.tn(lang, "batch.title", len(done)),
        blocks=blocks,
        attachments=attachments,
        mentions=mentions,
        data={"lines": data},
        private=Reply(command="batch", blocks=secret) if secret else None,
    )


class LineFailed(Exception):
    """A line of a batch was refused: the whole batch is rolled back."""

    def __init__(
        self, line: Line, error: UserError, usage: str | None, reason: str | None = None
    ) -> None:
        super().__init__(error.key)
        self.line = line
        self.error = error
        self.usage = usage
        self.reason = reason  # already translated (a reply that carried its error)


def failure(lang: i18n.Lang, failed: LineFailed) -> tuple[str, list[Block]]:
    """The message and blocks of a refused batch: which line, why, its syntax, nothing done."""
    reason = failed.reason or i18n.t(lang, failed.error.key, **failed.error.params)
    message = i18n.t(lang, "batch.failed", line=failed.line.number, reason=reason)
    blocks: list[Block] = [
        [
            bold(i18n.t(lang, "batch.line", line=failed.line.number) + " "),
            code(_first_line(failed.line.text)),
        ],
        [plain(message)],
    ]
    if failed.usage:
        blocks.append([plain(i18n.t(lang, "error.syntax") + " "), code(failed.usage)])
    blocks.append([plain(i18n.t(lang, "batch.nothing_done"))])
    return message, blocks
