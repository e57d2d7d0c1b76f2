"""`run` with a Telegram token: serves until told to stop, and webhook mode; and the HTML
splitter on arbitrary replies."""

from __future__ import annotations

import asyncio
import re
import socket
from pathlib import Path

import aiohttp
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import SecretStr

from bot.adapters.platforms import run_platforms
from bot.config import Settings
from bot.protocol import Reply, Span
from bot.render import telegram_html
from tests.telegram.fake_bot_api import FakeBotAPI
from tests.telegram.harness import settings_for


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_run_serves_until_stopped_then_exits_cleanly(tmp_path: Path) -> None:
    fake = FakeBotAPI()
    await fake.start()
    conf = settings_for(fake, tmp_path / "run.sqlite3")
    stop = asyncio.Event()
    task = asyncio.create_task(run_platforms(conf, stop))
    try:
        await fake.push(fake.message("/roll 2d6"))
        await fake.wait_for("sendMessage")
        stop.set()  # what SIGTERM/SIGINT do
        assert await asyncio.wait_for(task, 30) == 0
    finally:
        await fake.stop()


async def test_run_with_a_rejected_token_exits_2_with_one_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    fake = FakeBotAPI()
    await fake.start()
    conf = settings_for(fake, tmp_path / "bad.sqlite3", "1:wrong")
    try:
        assert await run_platforms(conf, asyncio.Event()) == 2
    finally:
        await fake.stop()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "rejected the token" in err[0]
    assert "1:wrong" not in err[0]


async def test_webhook_mode_registers_the_hook_and_answers_posted_updates(tmp_path: Path) -> None:
    fake = FakeBotAPI()
    await fake.start()
    port = free_port()
    conf = Settings(
        wargame_bot_db=tmp_path / "hook.sqlite3",
        telegram_token=SecretStr(fake.token),
        telegram_base_url=fake.base_url,
        telegram_webhook_url=f"http://127.0.0.1:{port}/",
        telegram_webhook_listen="127.0.0.1",
        telegram_webhook_port=port,
        telegram_webhook_secret=SecretStr("s3cret"),
    )
    stop = asyncio.Event()
    task = asyncio.create_task(run_platforms(conf, stop))
    try:
        (hook,) = await fake.wait_for("setWebhook")
        assert hook["url"] == f"http://127.0.0.1:{port}/" and hook["secret_token"] == "s3cret"
        update = fake.message("/roll d8")
        update["update_id"] = 1
        async with aiohttp.ClientSession() as http:
            for _ in range(50):  # the webhook server may still be binding
                try:
                    wrong = await http.post(f"http://127.0.0.1:{port}/", json=update)
                    break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)
            assert wrong.status == 403  # no secret header: refused
            ok = await http.post(
                f"http://127.0.0.1:{port}/",
                json=update,
                headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"},
            )
            assert ok.status == 200
        await fake.wait_for("sendMessage")
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)
        await fake.stop()


TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=300)
SPANS = st.lists(
    st.builds(Span, text=TEXT, style=st.sampled_from(["plain", "bold", "italic", "code", "pre"])),
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(SPANS, max_size=40), st.integers(min_value=60, max_value=4096))
def test_split_keeps_every_message_short_and_balanced(blocks: list[list[Span]], limit: int) -> None:
    html = telegram_html.render(Reply(blocks=blocks))
    parts = telegram_html.split(html, limit)
    for part in parts:
        assert len(part) <= limit
        stack: list[str] = []
        for m in re.finditer(r"<(/?)([a-z]+)[^>]*>", part):
            if m.group(1):
                assert stack and stack[-1] == m.group(2)
                stack.pop()
            else:
                stack.append(m.group(2))
        assert stack == []
    text = re.sub(r"<[^>]+>|\s", "", "".join(parts))
    assert text == re.sub(r"<[^>]+>|\s", "", html)
