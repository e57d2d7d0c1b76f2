"""The real discord.py client against the fake Discord: `/army import` with the `file`
attachment option (the file is downloaded from the attachment's URL into the request)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.army.battlescribe_files import ros, rosz
from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.harness import Env, running
from tests.helpers import say

CHAT = f"discord:{CHANNEL_ID}"


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with running(tmp_path) as started:
        yield started


def army_import(meta: dict[str, Any], **options: str) -> dict[str, Any]:
    inner = [{"name": "file", "type": 11, "value": meta["id"]}]
    inner += [{"name": k, "type": 3, "value": v} for k, v in options.items()]
    return {
        "id": "1",
        "name": "army",
        "type": 1,
        "options": [{"name": "import", "type": 1, "options": inner}],
        "resolved": {"attachments": {meta["id"]: meta}},
    }


async def followup(env: Env, count: int) -> str:
    found = await env.fake.wait_for(
        lambda m, p, b: m == "POST" and p.startswith("/webhooks/"), count=count, timeout=60
    )
    embed = found[-1][2]["embeds"][0]
    return f"{embed.get('title') or ''}\n{embed.get('description') or ''}"


async def test_the_command_tree_offers_a_file_option(env: Env) -> None:
    (put,) = await env.fake.wait_for(lambda m, p, b: m == "PUT" and p.endswith("/commands"))
    army = next(c for c in put[2] if c["name"] == "army")
    assert army["name_localizations"] == {"it": "armata"}
    imp = next(o for o in army["options"] if o["name"] == "import")
    assert next(o for o in imp["options"] if o["name"] == "file")["type"] == 11
    rules = next(c for c in put[2] if c["name"] == "rules")
    rules_import = next(o for o in rules["options"] if o["name"] == "import")
    assert next(o for o in rules_import["options"] if o["name"] == "file")["type"] == 11


async def test_a_rosz_attached_to_the_slash_command(env: Env) -> None:
    ok = await say(env.app, "/game new aos", user="42", name="Ann", chat=CHAT)
    assert ok.error is None
    meta = env.fake.attachment("hammers.rosz", rosz(("hammers.ros", ros("aos"))))
    await env.fake.dispatch(
        "INTERACTION_CREATE", env.fake.interaction(2, army_import(meta, save="Hammers"))
    )
    (deferred,) = await env.fake.callbacks()
    assert deferred["type"] == 5  # acknowledged before the download
    text = await followup(env, 1)
    assert "Units added for Ann: 3." in text and "Roster Hammers saved" in text
    status = await say(env.app, "/game status", chat=CHAT)
    assert status.data is not None
    names = [u["name"] for u in status.data["state"]["units"]]
    assert names == ["Lord-Celestant", "Liberators", "Knight-Incantor"]


async def test_a_bad_attachment_changes_nothing(env: Env) -> None:
    await say(env.app, "/game new aos", user="42", name="Ann", chat=CHAT)
    meta = env.fake.attachment("two.rosz", rosz(("a.ros", ros("aos")), ("b.ros", ros("aos"))))
    await env.fake.dispatch("INTERACTION_CREATE", env.fake.interaction(2, army_import(meta)))
    text = await followup(env, 1)
    assert "exactly one roster file" in text
    status = await say(env.app, "/game status", chat=CHAT)
    assert status.data is not None and status.data["state"]["units"] == []


async def test_an_attachment_that_cannot_be_fetched_is_said_so(env: Env) -> None:
    await say(env.app, "/game new aos", user="42", name="Ann", chat=CHAT)
    meta = env.fake.attachment("gone.rosz", b"")
    del env.fake.attachments[meta["id"]]  # the CDN answers 404
    await env.fake.dispatch("INTERACTION_CREATE", env.fake.interaction(2, army_import(meta)))
    found = await env.fake.wait_for(
        lambda m, p, b: m == "POST" and p.startswith("/webhooks/"), timeout=60
    )
    assert "couldn't fetch the file" in found[-1][2]["content"]
    assert found[-1][2]["flags"] & 64  # only the user sees it
