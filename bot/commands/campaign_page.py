"""/campaign link and /campaign unlink: the campaign's read-only web page (bot/web.py), shared
by an unguessable link that only the organiser (or a chat admin) can make or revoke."""

from __future__ import annotations

from bot.commands.campaign import load, require_manager
from bot.commands.context import Context
from bot.commands.spec import CommandSpec
from bot.protocol import Reply, plain
from bot.storage import campaign_links
from rules_core.errors import UserError


def page_url(base: str, token: str) -> str:
    return f"{base.rstrip('/')}/c/{token}"


async def link(ctx: Context) -> Reply:
    c = await load(ctx)
    require_manager(ctx, c)
    if ctx.app.web_url is None:
        raise UserError("campaign_page.off")
    token = await campaign_links.create(ctx.conn, c.chat_key, c.id)
    url = page_url(ctx.app.web_url, token)
    return Reply(
        blocks=[[plain(ctx.t("campaign_page.link", name=c.name))], [plain(url)]],
        ephemeral=True,  # the organiser decides where to share it
        data={"url": url},
    )


async def unlink(ctx: Context) -> Reply:
    c = await load(ctx)
    require_manager(ctx, c)
    if not await campaign_links.revoke(ctx.conn, c.id):
        raise UserError("campaign_page.no_link")
    return Reply(blocks=[[plain(ctx.t("campaign_page.revoked", name=c.name))]])


SPECS = [
    CommandSpec(
        path=("campaign", "link"),
        handler=link,
        aliases=("collegamento",),
        examples=("/campaign link",),
    ),
    CommandSpec(
        path=("campaign", "unlink"),
        handler=unlink,
        aliases=("revoca",),
        examples=("/campaign unlink",),
    ),
]
