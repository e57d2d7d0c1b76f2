"""Reply -> Telegram HTML. Every span's text is escaped; only our own tags are emitted."""

from __future__ import annotations

from html import escape

from bot.commands.models import Block, Reply, Span

MAX_MESSAGE = 4096
_TAGS = {"bold": "b", "italic": "i", "code": "code", "strike": "s", "pre": "pre"}


def span(s: Span) -> str:
    text = escape(s.text, quote=False)
    if s.style == "mention" and s.user_id and s.user_id.isdigit():
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
        parts.append(f"<b>{escape(reply.title, quote=False)}</b>")
    parts.extend(block(b) for b in reply.blocks)
    parts.extend(f"<b>{escape(f.name, quote=False)}</b>: {block(f.value)}" for f in reply.fields)
    return "\n".join(parts)


def split(html: str, limit: int = MAX_MESSAGE) -> list[str]:
    """Split on line boundaries so that no message exceeds `limit`. Tags never span lines except
    <pre>, which is closed and reopened around a cut."""
    chunks: list[str] = []
    current = ""
    in_pre = False
    for line in html.split("\n"):
        while len(line) > limit - 20:  # one enormous line: cut it (outside tags is all we emit)
            head, line = line[: limit - 20], line[limit - 20 :]
            chunks.extend(_flush(current, in_pre))
            current = head
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) + (6 if in_pre else 0) > limit and current:
            chunks.append(current + ("</pre>" if in_pre else ""))
            current = ("<pre>" if in_pre else "") + line
        else:
            current = candidate
        in_pre = (in_pre or "<pre>" in line) and "</pre>" not in line.split("<pre>")[-1]
    chunks.extend(_flush(current, False))
    return [c for c in chunks if c.strip()]


def _flush(text: str, in_pre: bool) -> list[str]:
    if not text:
        return []
    return [text + ("</pre>" if in_pre else "")]
