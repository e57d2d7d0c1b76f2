"""Names and labels that try to ping, format or hide: @everyone, @here, role and user
mentions, Telegram HTML, Markdown, zero-width and right-to-left characters, NUL bytes, 10,000
characters. They are stored as typed, less their control and format characters (Unicode Cc and
Cf, except the joiners ZWJ and ZWNJ that emoji and some scripts need), which the boundary drops
on the text and the Discord structured paths alike (or refused with one sentence when over a
length limit), and shown harmlessly by the plain, Telegram HTML and Discord renderers; Discord
replies carry allowed_mentions that can ping no one but the users a reply means to ping."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import AsyncIterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bot.adapters.discord import (
    EMBED_DESCRIPTION,
    EMBED_TOTAL,
    allowed_mentions,
    embed,
)
from bot.app import App
from bot.protocol import Attachment, Reply, Request
from bot.render import discord_md, plain, telegram_html
from tests.discord.fake_discord import CHANNEL_ID, FakeDiscord
from tests.discord.harness import running, sub, text_of
from tests.helpers import say, upload

HOSTILE = [
    "@everyone",
    "@here",
    "<@&123>",
    "<@456>",
    "<@!456>",
    "<b>bold</b>",
    '<a href="http://evil.example">x</a>',
    "&amp; &lt;",
    "**bold** __under__",
    "`code` ```fence```",
    "||spoiler|| ~~strike~~",
    "[link](http://evil.example)",
    "@\u200beveryone zero\u200dwidth",
    "\u202eevil\u202c rtl \u200f",
    "nul\x00byte \x1b[31mred\x07",
    "\u2066isolate\u2069 \ufeffbom \u00adsoft",
    "1. not a list",
    "> quote",
    "# heading",
]
LONG = "L" * 10_000
TAGS = {"b", "i", "code", "s", "pre", "a"}


class TagCheck(HTMLParser):
    """Every tag in Telegram output is one of ours; a link is only a user mention."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.bad: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TAGS:
            self.bad.append(tag)
        if tag == "a" and (
            len(attrs) != 1
            or attrs[0][0] != "href"
            or not re.fullmatch(r"tg://user\?id=\d+", attrs[0][1] or "")
        ):
            self.bad.append(f"a {attrs}")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def harmless(reply: Reply) -> None:
    """The reply is safe on every platform, whatever user text it holds."""
    # Telegram: every span's text escaped, only our own tags, every message within the limit.
    spans = [s for b in reply.blocks + [f.value for f in reply.fields] for s in b]
    whole = telegram_html.render(reply)
    for text in [reply.title or "", *(s.text for s in spans)]:
        assert html.escape(text, quote=False) in whole
    for chunk in telegram_html.split(whole):
        assert len(chunk) <= telegram_html.MAX_MESSAGE
        check = TagCheck()
        check.feed(chunk)
        check.close()
        assert check.bad == [], check.bad
    # Discord: no live mention except the reply's own, embed within Discord's limits.
    # Mention spans show a player as a mention (pinging only if allowed_mentions lists them).
    ours = {f"<@{s.user_id}>" for s in spans if s.style == "mention" and s.user_id}
    shown = embed(reply)
    parts = [shown.title or "", shown.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in shown.fields]
    for text in (discord_md.render(reply), *parts):
        rest = re.sub(r"<@\d+>", lambda m: "" if m.group(0) in ours else m.group(0), text)
        assert re.search(r"@(?!\u200b)", rest) is None, rest[:200]
        assert re.search(r"<@[!&]?\d+>", rest) is None
    assert len(shown.description or "") <= EMBED_DESCRIPTION and len(shown) <= EMBED_TOTAL
    allowed = allowed_mentions(reply).to_dict()
    assert allowed.get("parse", []) == []  # not everyone, not roles, not every user
    assert not allowed.get("roles")
    assert {str(u) for u in allowed.get("users", [])} <= set(reply.mentions)


JOINERS = "\u200c\u200d"  # kept: emoji sequences and some scripts need them


def hidden(text: str) -> list[str]:
    """The control and format characters in `text` that the boundary must have removed."""
    return [
        f"U+{ord(c):04X}"
        for c in text
        if unicodedata.category(c) in ("Cc", "Cf") and c not in JOINERS and c != "\n"
    ]


def visible(text: str) -> str:
    """What a name is stored as: the same text without its control and format characters."""
    return "".join(c for c in text if not hidden(c))


def shown_nothing_hidden(reply: Reply) -> None:
    """No reply shows a control or format character, except the zero-width space the Discord
    renderer itself puts after an `@` so that it can't ping."""
    shown = embed(reply)
    discord = [shown.title or "", shown.description or "", *(str(f.value) for f in shown.fields)]
    discord.append(discord_md.render(reply))
    for text in (
        plain.render(reply),
        telegram_html.render(reply),
        *(t.replace("@\u200b", "@") for t in discord),
    ):
        assert hidden(text) == [], hidden(text)


def quote(text: str) -> str:
    return '"' + text + '"' if '"' not in text else text


@pytest.mark.parametrize("name", HOSTILE)
async def test_hostile_names_are_stored_as_typed_and_shown_harmlessly(app: App, name: str) -> None:
    chat = "console:hostile"
    created = await say(app, f"/game new gen {name[:40]}", user="1", name=name, chat=chat)
    assert created.ok, plain.render(created)
    harmless(created)
    joined = await say(app, f"/game join {name[:30]}", user="2", name=name + "2", chat=chat)
    assert joined.ok
    harmless(joined)
    unit = " ".join(name.split())[:40]
    added = await say(app, f"/unit add {quote(unit)} wounds=3", user="2", chat=chat)
    if '"' in unit:  # a name with a quote can't be quoted whole: one sentence, nothing stored
        assert added.error is not None and added.error.code.startswith("cmd.")
        harmless(added)
        return
    stored = " ".join(visible(unit).split())
    assert added.data is not None and added.data["unit"]["name"] == stored  # as typed, less Cc/Cf
    harmless(added)
    shown_nothing_hidden(added)
    for text in (
        f"/unit show {unit}",
        "/unit list",
        f"/unit cond {quote(unit)} add {name[:40]}",
        f"/score add 2 {quote(name + '2')} {name[:100]}",
        "/turn end",
        "/game status",
        "/log",
        f"/roll d6 {name}",
        "/roll history",
    ):
        reply = await say(app, text, user="1", admin=True, chat=chat)
        assert reply.error is None or reply.error.code != "internal", text
        harmless(reply)
        shown_nothing_hidden(reply)
    status = await say(app, "/game status", chat=chat)
    assert status.data is not None
    state = status.data["state"]
    assert state["players"][0]["name"] == visible(name).strip()
    assert state["units"][0]["name"] == stored
    assert hidden(str(state)) == []
    shown = discord_md.render(status)
    assert discord_md.escape(stored) in shown  # escaped, so shown as typed
    assert telegram_html.escape(stored) in telegram_html.render(status)


async def test_mentions_in_names_never_ping_on_discord_even_when_the_reply_pings(
    app: App,
) -> None:
    chat = "discord:555"
    assert (await say(app, "/game new gen War", user="111", name="@everyone", chat=chat)).ok
    assert (await say(app, "/game join", user="222", name="<@&123> @here", chat=chat)).ok
    passed = await say(app, "/turn end", user="111", chat=chat)
    assert passed.ok and passed.mentions == ["222"]  # the next player is pinged: only them
    harmless(passed)
    allowed = allowed_mentions(passed).to_dict()
    assert [str(u) for u in allowed["users"]] == ["222"]
    text = embed(passed).description or ""
    assert "<@222>" in text and "<@&123>" not in text and "@here" not in text


async def test_ten_thousand_character_names_are_stored_and_clipped_when_shown(app: App) -> None:
    chat = "console:long"
    assert (await say(app, "/game new gen Long", user="1", name=LONG, chat=chat)).ok
    assert (await say(app, "/game join", user="2", name=LONG + "!", chat=chat)).ok
    assert (await say(app, "/unit add Tank wounds=3", user="2", name=LONG + "!", chat=chat)).ok
    for text in ("/game status", "/unit list", "/turn end", "/score", "/log", "/turn"):
        reply = await say(app, text, user="1", chat=chat)
        assert reply.ok, text
        harmless(reply)
    status = await say(app, "/game status", chat=chat)
    assert status.data is not None and status.data["state"]["players"][0]["name"] == LONG
    pieces = telegram_html.split(telegram_html.render(status))
    assert len(pieces) >= 3 and "".join(pieces).count("L") >= 20_000  # all of it, in pieces


@pytest.mark.parametrize(
    "text",
    [
        f"/roll d6 {LONG}",
        f"/game new gen {LONG}",
        f"/unit add {LONG[:41]}",
        f"/campaign new {LONG[:61]}",
        f"/rules search {LONG}",
    ],
)
async def test_ten_thousand_character_options_are_one_sentence(app: App, text: str) -> None:
    reply = await say(app, text, admin=True)
    assert reply.error is not None
    assert reply.error.code in {"cmd.too_long", "cmd.too_long_value", "game.bad_name"}
    assert len(plain.render(reply)) < 400
    harmless(reply)


@pytest.mark.parametrize("name", HOSTILE)
async def test_campaign_names_and_journal_are_harmless(app: App, name: str) -> None:
    chat = "console:camp"
    created = await say(app, f"/campaign new {name}", user="1", name=name, chat=chat)
    assert created.ok, plain.render(created)
    harmless(created)
    assert (await say(app, "/campaign join", user="2", name=name[::-1], chat=chat)).ok
    for text in ("/campaign status", "/campaign journal", "/campaign standings"):
        reply = await say(app, text, chat=chat)
        assert reply.ok, text
        harmless(reply)
        assert visible(name) in plain.render(reply) or text != "/campaign status"
        shown_nothing_hidden(reply)
    export = await say(app, "/campaign export", chat=chat)
    assert export.ok and export.attachments
    harmless(export)


# --- control and format characters, removed at the boundary ------------------------------------

RTL = "Tank\u202eknaT\x00"  # would show "Tank" then the rest of the line reversed


async def test_a_unit_named_with_rtl_override_and_nul_is_stored_and_echoed_without_them(
    app: App,
) -> None:
    chat = "telegram:-77"
    created = await say(
        app, "/game new gen W\u202ear\x00", user="1", name="Ann\u202e\x00", chat=chat
    )
    assert created.ok, plain.render(created)
    added = await say(app, f'/unit add "{RTL}" wounds=3', user="1", name="Ann\u202e", chat=chat)
    assert added.data is not None and added.data["unit"]["name"] == "TankknaT"
    shown_nothing_hidden(added)
    for text in ("/unit show TankknaT", "/unit list", "/game status", "/log", "/score"):
        reply = await say(app, text, user="1", chat=chat)
        assert reply.ok, text
        assert "TankknaT" in plain.render(reply) or text == "/score"
        shown_nothing_hidden(reply)
    status = await say(app, "/game status", chat=chat)
    assert status.data is not None
    state = status.data["state"]
    assert (state["name"], state["players"][0]["name"]) == ("War", "Ann")
    assert hidden(str(status.data)) == []


async def test_names_keep_their_joiners_and_a_name_of_nothing_but_controls_is_the_user_id(
    app: App,
) -> None:
    chat = "console:joiners"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 \u0915\u094d\u200c\u0937"  # ZWJ, ZWNJ
    assert (await say(app, "/game new gen", user="1", name=family, chat=chat)).ok
    assert (await say(app, "/game join", user="77", name="\u202e\x00\u200b", chat=chat)).ok
    status = await say(app, "/game status", chat=chat)
    assert status.data is not None
    names = [p["name"] for p in status.data["state"]["players"]]
    assert names == [family, "77"]


def test_request_text_keeps_its_lines_and_turns_tabs_into_spaces() -> None:
    request = Request(
        platform="telegram",
        chat_key="telegram:1",
        user_id="1",
        user_name="Ann\nBob\tCat\x00",
        text="/roll d6 first\r\nsecond\tthird\x00\u202e\x1b[0m\nlast",
        options={"name": "A\u202eB\x00", "n": 3, "list": ["x\x00y"]},
        files=[Attachment(filename="book\u202etxt.md\x00", content=b"x")],
    )
    assert request.text == "/roll d6 first\nsecond third[0m\nlast"
    assert request.user_name == "Ann Bob Cat"  # a name is one line
    assert request.options == {"name": "AB", "n": 3, "list": ["xy"]}
    assert request.files[0].filename == "booktxt.md"


async def test_a_rulebook_file_name_with_controls_is_stored_without_them(app: App) -> None:
    book = b"# Charge\n\nUp to 12 inches.\n"
    reply = await upload(app, "house\u202edm.md\x00", book, chat="telegram:5", user="1")
    assert reply.ok, plain.render(reply)
    assert "housedm.md" in plain.render(reply)
    listed = await say(app, "/rules list", chat="telegram:5")
    assert listed.data is not None and listed.data["rulebooks"][0]["title"] == "housedm.md"
    shown_nothing_hidden(listed)


@pytest.fixture
async def discord_env(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, App]]:
    async with running(tmp_path) as env:
        yield env.fake, env.app


async def test_discord_structured_options_lose_their_controls_too(
    discord_env: tuple[FakeDiscord, App],
) -> None:
    fake, app = discord_env
    steps = [
        sub("game", "new", system="gen", name="W\u202ear\x00"),
        sub("unit", "add", name=RTL),
        sub("unit", "show", name="Tank\u2066knaT"),
    ]
    for count, data in enumerate(steps, start=1):
        await fake.dispatch("INTERACTION_CREATE", fake.interaction(2, data, name="Ann\u202e\x00"))
        bodies = await fake.callbacks(count)
        shown = text_of(bodies[-1])
        assert hidden(shown) == [], (data, hidden(shown))
    assert "TankknaT" in shown
    status = await say(app, "/game status", chat=f"discord:{CHANNEL_ID}")
    assert status.data is not None
    state = status.data["state"]
    assert (state["name"], state["players"][0]["name"]) == ("War", "Ann")
    assert state["units"][0]["name"] == "TankknaT"


async def test_names_stored_before_the_boundary_cleaned_them_are_shown_without_controls(
    tmp_path: Path,
) -> None:
    """A database written by an older version holds names with a right-to-left override and
    a NUL: the renderers drop them when shown, whatever the storage holds."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    app = App(path)
    await app.start()
    try:
        chat = "telegram:-78"
        assert (await say(app, "/game new gen War", user="1", name="Ann", chat=chat)).ok
        assert (await say(app, "/unit add Tank wounds=3", user="1", chat=chat)).ok
    finally:
        await app.stop()
    with sqlite3.connect(path) as db:  # as an older version stored it
        db.execute(
            "UPDATE games SET state = replace(state, '\"Tank\"', ?)", ('"Ta\u202enk\\u0000"',)
        )
    app = App(path)
    await app.start()
    try:
        for text in ("/unit list", "/game status", "/unit show Tank"):
            reply = await say(app, text, user="1", chat=chat)
            assert "Ta" in plain.render(reply), text
            shown_nothing_hidden(reply)
    finally:
        await app.stop()
