"""A reply's picture on every platform: Discord's embed image, Telegram's photo with its caption
(or the text first when it is longer than a caption), the console's and `ask`'s files; and the
text alone when the chat turned pictures off or the picture could not be drawn."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from bot.adapters import console
from bot.adapters.telegram import MAX_CAPTION, caption_length
from bot.app import App
from bot.cli import run_request
from bot.config import Settings
from bot.images import render
from bot.protocol import Request
from bot.render import telegram_html
from bot.storage import settings as settings_repo
from bot.workers import WorkerPool
from tests.discord import harness as discord_harness
from tests.helpers import say
from tests.telegram import harness as telegram_harness

SLOW = 120.0  # a first picture imports matplotlib in a fresh worker: seconds on a busy machine


def png_size(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.size


async def test_odds_reply_carries_its_chart_as_an_image(app: App) -> None:
    reply = await say(app, "/odds 2d6+3>=10", lang="it")
    (image,) = reply.attachments
    assert image.is_image and image.mime == "image/png" and image.filename == "odds.png"
    assert png_size(image.content) == (800, 420)
    assert image.alt is not None and "58,3%" in image.alt  # the text's facts, as alt text


async def test_pictures_off_in_a_chat_means_text_only(app: App) -> None:
    async with app.db.transaction() as conn:
        await settings_repo.set_chat_images(conn, "console:quiet", False)
    quiet = await say(app, "/odds 2d6", chat="console:quiet")
    assert quiet.ok and quiet.attachments == [] and quiet.data is not None
    other = await say(app, "/odds 2d6", chat="console:other")  # another chat keeps them
    assert [a.mime for a in other.attachments] == ["image/png"]
    assert quiet.blocks == other.blocks


async def test_a_picture_that_fails_leaves_the_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(render, "DEADLINE_S", 0.001)  # no picture is drawn that fast
    pool = WorkerPool(1)
    app = App(tmp_path / "bot.sqlite3", pool=pool)
    await app.start()
    try:
        reply = await say(app, "/odds 2d6+3>=10")
        assert reply.ok and reply.attachments == []
        assert reply.title == "Odds" and "58.3%" in str(reply.blocks)
    finally:
        await app.stop()
        pool.shutdown()


async def test_discord_shows_the_chart_inside_the_embed(tmp_path: Path) -> None:
    async with discord_harness.running(tmp_path, defer_after=SLOW) as env:
        await env.fake.dispatch(
            "INTERACTION_CREATE",
            env.fake.interaction(2, discord_harness.command("odds", expression="2d6+3>=10")),
        )
        (body,) = await env.fake.callbacks()
    assert body["type"] == 4
    (embed,) = body["data"]["embeds"]
    assert embed["image"]["url"] == "attachment://odds.png"
    assert "58.3%" in embed["description"]
    ((name, content),) = body["_files"].items()
    assert name == "odds.png" and png_size(content) == (800, 420)
    (meta,) = body["data"]["attachments"]
    assert meta["filename"] == "odds.png" and "58.3%" in meta["description"]  # alt text


async def test_telegram_sends_a_photo_with_the_text_as_caption(tmp_path: Path) -> None:
    async with telegram_harness.running(tmp_path) as env:
        await env.fake.push(env.fake.message("/odds 2d6+3>=10", chat_id=-1001))
        (sent,) = await env.fake.wait_for("sendPhoto", timeout=SLOW)
        assert env.fake.sent("sendMessage") == []  # one message: the photo and its caption
    assert int(sent["chat_id"]) == -1001 and sent["parse_mode"] == "HTML"
    assert "<b>P(2d6+3 ≥ 10) = 58.3%</b>" in sent["caption"]
    assert caption_length(sent["caption"]) <= MAX_CAPTION
    assert sent["photo"]["filename"] == "odds.png"
    assert png_size(sent["photo"]["content"]) == (800, 420)


async def test_telegram_sends_a_long_text_first_then_the_photo(tmp_path: Path) -> None:
    text = "/odds 20d20; 20d20+1; 20d20+2"
    async with telegram_harness.running(tmp_path) as env:
        await env.fake.push(env.fake.message(text, chat_id=-1001))
        (photo,) = await env.fake.wait_for("sendPhoto", timeout=SLOW)
        methods = [m for m in env.fake.methods() if m in ("sendMessage", "sendPhoto")]
        messages = env.fake.sent("sendMessage")
    assert methods[-1] == "sendPhoto" and set(methods[:-1]) == {"sendMessage"}
    shown = "".join(m["text"] for m in messages)
    assert caption_length(shown) > MAX_CAPTION and "374–402" in shown  # the last part too
    assert not photo.get("caption")
    assert png_size(photo["photo"]["content"]) == (800, 3 * 420)


def test_caption_length_counts_what_telegram_shows() -> None:
    html = "<b>P(2d6 ≥ 7)</b> = 58,3% &lt;x&gt; 🎲"
    assert caption_length(html) == len("P(2d6 ≥ 7) = 58,3% <x> ") + 2  # the die: 2 UTF-16 units
    assert caption_length(telegram_html.escape("a" * 1024)) == 1024


async def test_console_writes_the_picture_and_prints_its_path(
    app: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    request = Request(
        platform="console", chat_key="console:c", user_id="u", user_name="u", text="/odds 2d6"
    )
    reply = await app.handle(request)
    await console.show(app, reply, request, tmp_path / "out")
    printed = capsys.readouterr().out
    path = tmp_path / "out" / "odds.png"
    assert f"Saved odds.png to {path}" in printed
    assert "attachment" not in printed  # the picture's facts are the text: no line of its own
    assert png_size(path.read_bytes()) == (800, 420)


async def test_ask_json_lists_the_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(wargame_bot_db=tmp_path / "ask.sqlite3")
    request = Request(
        platform="ask", chat_key="ask:x", user_id="u", user_name="u", text="/odds 3d6"
    )
    code = await run_request(settings, request, as_json=True, files=tmp_path / "files")
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["ok"] is True
    (item,) = out["files"]
    assert item["name"] == "odds.png" and item["mime"] == "image/png"
    assert Path(item["path"]).parent == tmp_path / "files"
    assert png_size(Path(item["path"]).read_bytes()) == (800, 420)
