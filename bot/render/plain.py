"""Reply -> plain text, for the console and `ask`. No markup: styles become light punctuation."""

from __future__ import annotations

from bot.clean_text import multi_line
from bot.protocol import Block, Reply, Span


def span(s: Span) -> str:
    text = multi_line(s.text)
    if s.style == "strike":
        return f"~{text}~"
    if s.style == "mention":
        return f"@{text}"
    if s.style == "pre":
        return f"\n{text}\n"
    return text


def block(b: Block) -> str:
    return "".join(span(s) for s in b).strip("\n")


def render(reply: Reply) -> str:
    lines: list[str] = []
    if reply.title:
        lines.append(multi_line(reply.title))
    lines.extend(block(b) for b in reply.blocks)
    lines.extend(f"{multi_line(f.name)}: {block(f.value)}" for f in reply.fields)
    # Buttons as a numbered list: the console has no buttons, the command does the same.
    lines.extend(
        f"{n}. {multi_line(b.label)} — {multi_line(b.command)}"
        for n, b in enumerate(reply.buttons, start=1)
    )
    # A picture's facts are the text above it (bot/images): no line of its own.
    lines.extend(
        f"(attachment: {a.filename}, {len(a.content)} bytes)"
        for a in reply.attachments
        if not a.is_image
    )
    return "\n".join(lines)
