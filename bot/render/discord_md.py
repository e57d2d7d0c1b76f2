"""Reply -> Discord markdown for embeds. User text is escaped (markdown and mentions): the
adapter also sets allowed_mentions, so even an unescaped mention could not ping anyone."""

from __future__ import annotations

import re

from bot.commands.models import Block, Reply, Span

_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()-])")


def escape(text: str) -> str:
    text = _MARKDOWN.sub(r"\\\1", text)
    # A zero-width space after '@' keeps @everyone/@here and <@...> inert as text.
    return text.replace("@", "@\u200b")


def span(s: Span) -> str:
    if s.style == "mention" and s.user_id and s.user_id.isdigit():
        return f"<@{s.user_id}>"
    if s.style == "code":
        return "`" + s.text.replace("`", "ˋ") + "`"
    if s.style == "pre":
        return "\n```\n" + s.text.replace("```", "ˋˋˋ") + "\n```\n"
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
    return "\n".join(block(b) for b in reply.blocks)


def render(reply: Reply) -> str:
    """Everything as one markdown text (used when an embed is not wanted)."""
    parts = [f"**{escape(reply.title)}**"] if reply.title else []
    parts.append(description(reply))
    parts.extend(f"**{escape(f.name)}**: {block(f.value)}" for f in reply.fields)
    return "\n".join(parts)
