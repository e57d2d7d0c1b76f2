"""Reply -> Telegram HTML. Every span's text is escaped; only our own tags are emitted."""

from __future__ import annotations

import re
from html import escape as _escape

from bot.clean_text import multi_line
from bot.protocol import Block, Reply, Span

MAX_MESSAGE = 4096
_TAGS = {"bold": "b", "italic": "i", "code": "code", "strike": "s", "pre": "pre"}


def span(s: Span) -> str:
    text = escape(s.text)
    if s.style == "mention" and s.user_id and s.user_id.isdecimal():
        return f'<a href="tg://user?id={s.user_id}">{text}</a>'
    tag = _TAGS.get(s.style)
    if tag == "pre":
        return f"\n<pre>{text}</pre>\n"
    return f"<{tag}>{text}</{tag}>" if tag else text


def block(b: Block) -> str:
    return "".join(span(s) for s in b).strip("\n")


def render(reply: Reply) -> str:
    parts: list[str] = []
    if reply.title:
        parts.append(f"<b>{escape(reply.title)}</b>")
    parts.extend(block(b) for b in reply.blocks)
    parts.extend(f"<b>{escape(f.name)}</b>: {block(f.value)}" for f in reply.fields)
    return "\n".join(parts)


def escape(text: str) -> str:
    return _escape(multi_line(text), quote=False)


def split(html: str, limit: int = MAX_MESSAGE) -> list[str]:
    """Cut a rendered reply into messages of at most `limit` characters, preferably at line
    ends. A cut never falls inside a tag or an entity, and tags open at a cut are closed
    there and reopened in the next message, so every message is valid HTML on its own."""
    text_run = max(1, min(200, limit // 4))
    piece_re = re.compile(rf"<(/?)([a-z]+)[^>]*>|&#?\w+;|\n|[^<&\n]{{1,{text_run}}}|[<&]")
    chunks: list[str] = []
    pieces: list[str] = []
    stack: list[tuple[str, str]] = []  # (tag name, its opening text)
    size = 0
    newline_at: tuple[int, list[tuple[str, str]]] | None = None

    def closing(tags: list[tuple[str, str]]) -> str:
        return "".join(f"</{name}>" for name, _ in reversed(tags))

    def cut(at: int, tags: list[tuple[str, str]]) -> None:
        nonlocal pieces, size, newline_at
        head, tail = pieces[:at], pieces[at:]
        text = "".join(head).strip("\n") + closing(tags)
        if text.strip():
            chunks.append(text)
        pieces = [opening for _, opening in tags] + tail
        size = sum(len(p) for p in pieces)
        newline_at = None

    for m in piece_re.finditer(html):
        piece = m.group(0)
        opens = bool(m.group(2)) and not m.group(1)
        # Room for the piece and for closing every tag open after it, its own included.
        reserve = len(piece) + len(closing(stack)) + (len(m.group(2)) + 3 if opens else 0)
        if size + reserve > limit and pieces:
            if newline_at is not None and newline_at[0] > len(newline_at[1]):
                cut(*newline_at)
            if size + reserve > limit:
                cut(len(pieces), list(stack))
        pieces.append(piece)
        size += len(piece)
        if m.group(2):
            if m.group(1):
                if stack and stack[-1][0] == m.group(2):
                    stack.pop()
            else:
                stack.append((m.group(2), piece))
        elif piece == "\n":
            newline_at = (len(pieces), list(stack))
    cut(len(pieces), [])
    return chunks
