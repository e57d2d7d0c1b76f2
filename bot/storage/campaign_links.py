"""The unguessable link of a campaign's read-only web page (`/campaign link`), kept in the
key-value table: token -> (chat, campaign) and campaign -> token, so the organiser can revoke
it and a new link never revives an old one."""

from __future__ import annotations

import json
import re
import secrets

from bot.storage.conn import Connection
from bot.storage.settings import kv_delete, kv_get, kv_set

TOKEN = re.compile(r"^[A-Za-z0-9_-]{32}$")  # secrets.token_urlsafe(24): 192 random bits
_BY_TOKEN = "campaign_link.token."
_BY_CAMPAIGN = "campaign_link.campaign."


async def current(conn: Connection, campaign_id: int) -> str | None:
    return await kv_get(conn, f"{_BY_CAMPAIGN}{campaign_id}")


async def create(conn: Connection, chat_key: str, campaign_id: int) -> str:
    """The campaign's token, made now if it has none."""
    token = await current(conn, campaign_id)
    if token is None:
        token = secrets.token_urlsafe(24)
        await kv_set(conn, f"{_BY_TOKEN}{token}", json.dumps([chat_key, campaign_id]))
        await kv_set(conn, f"{_BY_CAMPAIGN}{campaign_id}", token)
    return token


async def revoke(conn: Connection, campaign_id: int) -> bool:
    """Forget the campaign's link; False when it had none."""
    token = await current(conn, campaign_id)
    if token is None:
        return False
    await kv_delete(conn, f"{_BY_TOKEN}{token}")
    await kv_delete(conn, f"{_BY_CAMPAIGN}{campaign_id}")
    return True


async def resolve(conn: Connection, token: str) -> tuple[str, int] | None:
    """(chat, campaign id) of a live link; None for a malformed, unknown or revoked one."""
    if not TOKEN.match(token):
        return None
    found = await kv_get(conn, f"{_BY_TOKEN}{token}")
    if found is None:
        return None
    chat_key, campaign_id = json.loads(found)
    return str(chat_key), int(campaign_id)
