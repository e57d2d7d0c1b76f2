"""The campaign pages: a read-only web page per campaign, reached by its unguessable link
(`/campaign link`), served by the bot process (`WARGAME_BOT_WEB_PORT`) or by `wargame-bot web`.

A page is the campaign's battle report (`/campaign export`: standings, each game round by round
with its dice, the journal) in the chat's language, rendered from its Markdown with raw HTML
off, so every name a player typed is text; an ended campaign keeps its page. Nothing else is
served: any other path, or an unknown or revoked link, answers 404. No JavaScript; one small
stylesheet that reads on a phone."""

from __future__ import annotations

import html
import logging
from typing import TYPE_CHECKING

from aiohttp import web

from bot.commands.campaign import CAMPAIGN_GUARD
from bot.protocol import Request
from bot.storage import campaign_links
from bot.storage import campaigns as campaigns_store

if TYPE_CHECKING:
    from bot.app import App

log = logging.getLogger(__name__)

HEADERS = {
    # No script, no frame, no outside resource; the link never leaks through a Referer.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
    "Cache-Control": "no-store",
}
STYLE = """
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fafafa}
main{max-width:46rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem}h2{font-size:1.3rem;border-bottom:1px solid #ccc}h3{font-size:1.1rem}
table{border-collapse:collapse;width:100%;overflow-x:auto;display:block}
th,td{border:1px solid #bbb;padding:.25rem .5rem;text-align:left}
code{background:#eee;padding:0 .2rem;overflow-wrap:anywhere}
footer{color:#555;font-size:.85rem;max-width:46rem;margin:0 auto;padding:1rem}
"""


def render(markdown_text: str, lang: str, title: str, footer: str) -> str:
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown_text)
    return (
        f'<!doctype html><html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f"<body><main>{body}</main><footer>{html.escape(footer)}</footer></body></html>"
    )


class CampaignPages:
    def __init__(self, app: App) -> None:
        self.app = app

    def application(self) -> web.Application:
        site = web.Application()
        site.router.add_get("/c/{token}", self.page)
        return site

    async def page(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        async with self.app.db.transaction(write=False) as conn:
            found = await campaign_links.resolve(conn, token)
            current = await campaigns_store.in_chat(conn, *found) if found else None
        if found is None or current is None:
            return web.Response(status=404, text="Not found.", headers=HEADERS)
        reader = Request(platform="web", chat_key=found[0], user_id="web", user_name="web")
        export = f"/campaign export {CAMPAIGN_GUARD}={current.id}"
        reply = await self.app.handle(reader.model_copy(update={"text": export}))
        if reply.error is not None or not reply.attachments:
            log.warning("campaign page of %s could not be made: %s", found[0], reply.error)
            return web.Response(status=503, text="Try again later.", headers=HEADERS)
        from bot import i18n

        lang = await self.app.lang_for(reader)
        page = render(
            reply.attachments[0].content.decode("utf-8"),
            lang,
            current.name,
            i18n.t(lang, "campaign_page.footer"),
        )
        return web.Response(text=page, content_type="text/html", headers=HEADERS)


async def serve(app: App, host: str, port: int) -> tuple[web.AppRunner, int]:
    """Start serving the pages; returns the runner (`await runner.cleanup()` stops it) and the
    port bound (useful with port 0)."""
    runner = web.AppRunner(CampaignPages(app).application(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = int(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
    log.info("campaign pages on http://%s:%d/", host, bound)
    return runner, bound
