"""Reply -> Discord markdown for embeds and message text.

Every span's text is escaped: markdown characters get a backslash (so a unit called `**x**` or
`[link](http://…)` shows as typed), a number followed by a dot at the start of a line can't become
a list, and a zero-width space after every `@` keeps `@everyone`, `@here`, `<@123>` and `<@&123>`
inert as text. Only `mention` spans with a numeric user id become real mentions. The adapter also
sets `allowed_mentions` to the reply's own `mentions`, so even a slip here could not ping anyone.
"""

from __future__ import annotations

import re

from bot.clean_text import multi_line
from bot.protocol import Block, Reply, Span

_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()<-])")
_LIST_NUMBER = re.compile(r"(?m)^(\s*\d+)\.(?=\s|$)")
ZWSP = "\u200b"
FENCE = "```"


def escape(text: str) -> str:
    text = _MARKDOWN.sub(r"\\\1", multi_line(text))
    text = _LIST_NUMBER.sub(r"\1\\.", text)
    return text.replace("@", "@" + ZWSP)


def _inert(text: str) -> str:
    """Inside code nothing is markdown, but keep mentions inert there too."""
    return multi_line(text).replace("@", "@" + ZWSP)


def span(s: Span) -> str:
    if s.style == "mention" and s.user_id and s.user_id.isdecimal():
        return f"<@{s.user_id}>"
    if not s.text:
        return ""
    if s.style == "code":
        return "`" + _inert(s.text.replace("`", "ˋ")) + "`"
    if s.style == "pre":
        return f"\n{FENCE}\n" + _inert(s.text.replace(FENCE, "ˋˋˋ")) + f"\n{FENCE}\n"
    text = escape(s.text)
    if s.style == "bold":
        return f"**{text}**"
    if s.style == "italic":
        return f"*{text}*"
    if s.style == "strike":
        return f"~~{text}~~"
    return text


def block(b: Block) -> str:
    return "".join(span(s) for s in b).strip("\n")


def description(reply: Reply) -> str:
    return "\n".join(text for text in (block(b) for b in reply.blocks) if text)


def _cut(text: str, room: int) -> str:
    cut = text[: max(room, 0)]
    newline = cut.rfind("\n")
    if newline > room // 2:
        cut = cut[:newline]
    cut = cut.rstrip()
    if (len(cut) - len(cut.rstrip("\\"))) % 2:
        cut = cut[:-1]  # a lone backslash would escape what follows
    return cut


def clip(text: str, limit: int) -> str:
    """Shorten rendered markdown to `limit` characters: cut at a line end when one is near,
    never leave a dangling escape backslash or an unclosed code block, end with `…`."""
    if len(text) <= limit:
        return text
    cut = _cut(text, limit - 1)
    if cut.count(FENCE) % 2:
        cut = _cut(text, limit - len(FENCE) - 2)
        if cut.count(FENCE) % 2:
            return cut + "\n" + FENCE + "…"
    return cut + "…"


def render(reply: Reply) -> str:
    """Everything as one markdown text (used when an embed is not wanted)."""
    parts = [f"**{escape(reply.title)}**"] if reply.title else []
    parts.append(description(reply))
    parts.extend(f"**{escape(f.name)}**: {block(f.value)}" for f in reply.fields)
    return "\n".join(p for p in parts if p)
