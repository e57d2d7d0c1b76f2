"""The Discord markdown renderer: user text is shown as typed and can never ping or format."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.adapters.discord import EMBED_TOTAL, embed
from bot.clean_text import multi_line
from bot.protocol import Field_, Reply, bold, code, mention, plain, pre
from bot.render import discord_md

ZWSP = "\u200b"


def unescaped(text: str) -> str:
    """What Discord displays for escaped text: a backslash before punctuation disappears."""
    return re.sub(r"\\([^0-9A-Za-z\s])", r"\1", text).replace(ZWSP, "")


def test_markdown_in_user_text_is_escaped() -> None:
    out = discord_md.escape("**bold** _it_ ~~s~~ `c` [x](http://e.com) > q # h -# small |spoiler|")
    assert "**" not in out.replace("\\*", "")
    assert "[x](" not in out
    assert unescaped(out) == "**bold** _it_ ~~s~~ `c` [x](http://e.com) > q # h -# small |spoiler|"


def test_mentions_in_user_text_stay_inert() -> None:
    for text in ("@everyone", "@here", "<@123>", "<@&123>", "<@!123>"):
        out = discord_md.escape(text)
        assert not re.search(r"@everyone|@here|<@[!&]?\d", out), out
        assert unescaped(out) == text


def test_a_number_at_line_start_does_not_become_a_list() -> None:
    assert discord_md.escape("1. first\n 2. second") == "1\\. first\n 2\\. second"
    assert discord_md.escape("7.00 mean") == "7.00 mean"


def test_styles_and_real_mentions() -> None:
    reply = Reply(
        title="Roll *x*",
        blocks=[
            [bold("2d6"), plain(" = "), code("`7` @here")],
            [mention("42", "Ann @everyone"), plain(" "), mention("bad id", "<@&1>")],
            [pre("a | b\n```oops")],
        ],
    )
    text = discord_md.description(reply)
    assert text.startswith("**2d6** = `ˋ7ˋ @\u200bhere`")
    assert "<@42>" in text and "Ann" not in text  # a real mention shows the user itself
    assert "<@&1>" not in text and "\\<@\u200b&1\\>" in text  # a bad id falls back to text
    assert text.endswith("```\na | b\nˋˋˋoops\n```")
    assert discord_md.render(reply).startswith("**Roll \\*x\\***\n")


def test_empty_spans_leave_no_stray_markers() -> None:
    assert discord_md.block([bold(""), plain("x"), code("")]) == "x"


def test_clip_closes_an_open_code_block_and_never_leaves_a_lone_backslash() -> None:
    text = "intro\n```\n" + "\n".join(f"row {i}" for i in range(200)) + "\n```"
    out = discord_md.clip(text, 300)
    assert len(out) <= 300 and out.count("```") == 2
    assert discord_md.clip("ab\\*cd", 5) in ("ab…", "ab\\*…")
    assert not discord_md.clip("abcd\\*efgh", 8).endswith("\\…")


def test_embed_fits_discords_total_limit() -> None:
    reply = Reply(
        title="T" * 300,
        blocks=[[plain("x" * 5000)]],
        fields=[Field_(name=f"f{i}", value=[plain("y" * 2000)]) for i in range(30)],
    )
    result = embed(reply).to_dict()
    total = len(result["title"]) + len(result["description"])
    total += sum(len(f["name"]) + len(f["value"]) for f in result["fields"])
    assert total <= EMBED_TOTAL and len(result["title"]) <= 256
    assert all(len(f["value"]) <= 1024 for f in result["fields"]) and result["fields"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_escape_shows_the_text_as_typed_and_never_pings(text: str) -> None:
    out = discord_md.escape(text)
    assert not re.search(r"@(everyone|here)|<@[!&]?\d", out)
    # As typed, less the control and format characters no renderer shows (bot.clean_text).
    assert unescaped(out) == multi_line(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab\\*`\n @"), max_size=400), st.integers(10, 300))
def test_clip_respects_the_limit_and_fences(text: str, limit: int) -> None:
    rendered = discord_md.block([plain(text[: len(text) // 2]), pre(text[len(text) // 2 :])])
    out = discord_md.clip(rendered, limit)
    assert len(out) <= limit
    assert out == rendered or out.endswith(("…", "```"))
    assert out.count("```") % 2 == 0
    trailing = len(out.rstrip("…")) - len(out.rstrip("…").rstrip("\\"))
    assert trailing % 2 == 0
