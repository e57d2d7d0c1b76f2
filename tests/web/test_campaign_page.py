"""The campaign page: made and revoked by the organiser, served read-only by its unguessable
link, 404 for anything else, every player-typed name rendered as text. The browser tests open
it in a real headless Chromium (Playwright driving the system's chromium)."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from bot.app import App
from bot.web import serve
from tests.helpers import say

CHAT = "telegram:-900"
HOSTILE = "<script>alert(1)</script>**B**"  # a unit name (at most 40 characters)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass
class Site:
    app: App
    base: str
    url: str  # the campaign's link


async def as_user(app: App, user: str, text: str, **kw: object) -> object:
    reply = await say(app, text, user=user, name={"1": "Ann", "2": "Bob"}[user], chat=CHAT, **kw)  # type: ignore[arg-type]
    assert reply.error is None, (text, reply.error)
    return reply


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    app = App(tmp_path / "web.sqlite3")
    await app.start()
    runner, port = await serve(app, "127.0.0.1", 0)
    app.web_url = f"http://127.0.0.1:{port}"
    try:
        await as_user(app, "1", "/lang it", admin=True)
        await as_user(app, "1", "/campaign new Lega d'autunno")
        await as_user(app, "2", "/campaign join")
        await as_user(app, "1", '/game new gen "Battaglia"')
        await as_user(app, "2", "/game join")
        await as_user(app, "1", f'/unit add "{HOSTILE}" models=3 wounds=2')
        await as_user(app, "1", "/roll 2d6 carica dice=5,6")
        await as_user(app, "1", "/game end Ann")
        reply = await say(app, "/campaign link", user="1", name="Ann", chat=CHAT)
        assert reply.error is None and reply.ephemeral
        yield Site(app, app.web_url, str(reply.data["url"]))  # type: ignore[index]
    finally:
        await runner.cleanup()
        await app.stop()


async def get(url: str) -> tuple[int, str, dict[str, str]]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text(), dict(response.headers)


async def test_the_link_serves_the_report_in_the_chat_language(site: Site) -> None:
    assert site.url.startswith(site.base + "/c/") and len(site.url.rsplit("/", 1)[1]) == 32
    status, page, headers = await get(site.url)
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "<h1>Lega d&#x27;autunno</h1>" in page or "<h1>Lega d'autunno</h1>" in page
    assert "Classifica" in page and "<table>" in page  # the standings, in Italian
    assert "vinta da Ann" in page and "2d6 carica" in page  # the battle report with its dice
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "no-referrer"


async def test_player_text_is_text(site: Site) -> None:
    _, page, _ = await get(site.url)
    assert "<script" not in page and "<strong>B</strong>" not in page
    assert "&lt;script&gt;" in page


async def test_unknown_revoked_and_other_paths_are_404(site: Site) -> None:
    token = site.url.rsplit("/", 1)[1]
    for path in ("/c/" + "A" * 32, "/c/short", "/", "/c/", "/metrics", f"/c/{token}/x"):
        assert (await get(site.base + path))[0] == 404, path
    # Only the organiser (or a chat admin) revokes; then the link is dead for good.
    refused = await say(site.app, "/campaign unlink", user="2", name="Bob", chat=CHAT)
    assert refused.error is not None and (await get(site.url))[0] == 200
    await as_user(site.app, "1", "/campaign unlink")
    assert (await get(site.url))[0] == 404
    again = await say(site.app, "/campaign link", user="1", name="Ann", chat=CHAT)
    assert again.data["url"] != site.url  # type: ignore[index]
    assert (await get(site.url))[0] == 404


async def test_only_the_organiser_makes_the_link_and_only_when_pages_are_on(site: Site) -> None:
    refused = await say(site.app, "/campaign link", user="2", name="Bob", chat=CHAT)
    assert refused.error is not None and refused.error.code == "perm.campaign_organiser_only"
    site.app.web_url = None
    off = await say(site.app, "/campaign link", user="1", name="Ann", chat=CHAT)
    assert off.error is not None and off.error.code == "campaign_page.off"


async def test_an_ended_campaign_keeps_its_page_and_never_shows_the_next(site: Site) -> None:
    await as_user(site.app, "1", "/campaign end")
    status, page, _ = await get(site.url)
    assert status == 200 and "Lega d" in page and "vinta da Ann" in page  # the final report
    other = await say(site.app, "/campaign new Nuova", user="1", name="Ann", chat=CHAT)
    assert other.error is None
    status, page, _ = await get(site.url)
    assert status == 200 and "<h1>Nuova</h1>" not in page  # still the campaign it was made for
    assert "<h1>Lega d" in page
    # The hidden option can't reach outside the chat or past a bad id.
    for bad in ("999", "x"):
        refused = await say(site.app, f"/campaign export campaign={bad}", user="1", chat=CHAT)
        assert refused.error is not None and refused.error.code == "campaign.none"
    elsewhere = await say(site.app, "/campaign export campaign=1", user="1", chat="telegram:-1")
    assert elsewhere.error is not None and elsewhere.error.code == "campaign.none"


browser = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("WARGAME_REQUIRE_BROWSER"),
    reason="no chromium on this machine: the campaign page's browser tests need it "
    "(.ci/run installs it)",
)


@browser
async def test_in_a_real_browser_on_a_phone_screen(site: Site, tmp_path: Path) -> None:
    from playwright.async_api import async_playwright

    assert CHROMIUM is not None, "WARGAME_REQUIRE_BROWSER is set but chromium is missing"
    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            page = await chromium.new_page(viewport={"width": 390, "height": 844})
            dialogs: list[str] = []
            page.on("dialog", lambda d: dialogs.append(d.message))
            response = await page.goto(site.url)
            assert response is not None and response.status == 200
            assert await page.locator("h1").inner_text() == "Lega d'autunno"
            standings = page.locator("table").last
            assert "Ann" in await standings.inner_text()
            assert await page.locator("script").count() == 0
            assert "<script>alert(1)</script>" in await page.locator("main").inner_text()
            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390  # nothing wider than the phone
            await page.screenshot(path=str(tmp_path / "page.png"))
            assert dialogs == []  # no alert ever ran

            missing = await page.goto(site.base + "/c/" + "B" * 32)
            assert missing is not None and missing.status == 404
        finally:
            await chromium.close()
