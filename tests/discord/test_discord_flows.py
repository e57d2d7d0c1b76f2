"""More end-to-end flows of the real discord.py client against the fake Discord: command sync,
deferred replies, attachments, user options, autocomplete sources, threads, shutdown."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.base import AdapterStartError
from bot.adapters.discord import DiscordAdapter
from bot.app import App
from bot.commands import all_specs, build_registry
from bot.commands.context import Context
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Reply, mention, plain
from tests.discord import harness
from tests.discord.fake_discord import APP_ID, CHANNEL_ID, FakeDiscord, user
from tests.discord.harness import command, press, settings_for, sub, text_of
from tests.discord.test_discord_commands import validate
from tests.helpers import say

Started = tuple[FakeDiscord, App, DiscordAdapter]


@asynccontextmanager
async def running(tmp_path: Path, **kw: Any) -> AsyncIterator[Started]:
    async with harness.running(tmp_path, "flows.sqlite3", **kw) as env:
        yield env.fake, env.app, env.adapter


def puts(fake: FakeDiscord) -> list[Any]:
    return [b for m, p, b in fake.calls if m == "PUT" and p.endswith("/commands")]


async def test_sync_uploads_once_and_again_only_when_the_commands_change(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        async with running(tmp_path, fake=fake):
            assert fake.identify["intents"] == 1  # guilds only: no privileged intent
            (body,) = puts(fake)
            assert [p for m, p, _ in fake.calls if m == "PUT"] == [
                f"/applications/{APP_ID}/commands"
            ]
            assert validate(body) == []
            roll = next(c for c in body if c["name"] == "roll")
            assert roll["name_localizations"] == {"it": "tira"}
            assert roll["description_localizations"]["it"] != roll["description"]
        async with running(tmp_path, fake=fake):
            assert len(puts(fake)) == 1  # same database, same commands: no upload

        async def extra(ctx: Context) -> Reply:
            return Reply(blocks=[[plain("extra")]])

        # A new subcommand: the tree already has Discord's 25 top-level commands.
        changed = Registry([*all_specs(), CommandSpec(path=("game", "extra"), handler=extra)])
        async with running(tmp_path, registry=changed, fake=fake):
            assert len(puts(fake)) == 2
            game = next(c for c in puts(fake)[1] if c["name"] == "game")
            assert "extra" in {o["name"] for o in game["options"]}
    finally:
        await fake.stop()


async def test_an_error_after_a_defer_stays_ephemeral(tmp_path: Path) -> None:
    # defer_after=0: every command is acknowledged with "thinking..." before its answer.
    async with running(tmp_path, defer_after=0) as (fake, _, _):
        await fake.dispatch(
            "INTERACTION_CREATE",
            fake.interaction(2, command("roll", expression="2d6+"), locale="it"),
        )
        (ack,) = await fake.callbacks()
        assert ack["type"] == 5
        ((_, _, followup),) = await fake.wait_for(lambda m, p, b: m == "POST" and "/webhooks/" in p)
        deleted = [p for m, p, _ in fake.calls if m == "DELETE"]
        assert len(deleted) == 1 and deleted[0].endswith("/messages/@original")
        assert followup["flags"] & 64
        assert "Sintassi" in followup["embeds"][0]["description"]


async def test_slow_command_with_an_attachment_is_deferred_and_sent_as_a_file(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as (fake, app, _):
        chat = f"discord:{CHANNEL_ID}"
        assert (await say(app, "/campaign new Autumn", user="42", chat=chat)).error is None
        data = {
            "id": "1",
            "name": "campaign",
            "type": 1,
            "options": [{"name": "export", "type": 1, "options": []}],
        }
        await fake.dispatch("INTERACTION_CREATE", fake.interaction(2, data))
        (ack,) = await fake.callbacks()
        assert ack["type"] == 5  # campaign export is declared slow
        ((_, _, followup),) = await fake.wait_for(lambda m, p, b: m == "POST" and "/webhooks/" in p)
        ((filename, content),) = followup["_files"].items()
        assert filename.endswith(".md") and b"Autumn" in content
        assert followup["attachments"][0]["filename"] == filename


async def test_user_option_reaches_the_command_as_a_mention_and_pings_only_that_user(
    tmp_path: Path,
) -> None:
    seen: list[dict[str, Any]] = []

    async def poke(ctx: Context) -> Reply:
        seen.append(dict(ctx.opts))
        target = str(ctx.opts["who"])[2:-1]
        return Reply(
            blocks=[[mention(target, "them"), plain(" @everyone " + str(ctx.opts["note"]))]],
            mentions=[target],
        )

    spec = CommandSpec(
        path=("poke",),
        handler=poke,
        options=(OptionSpec("note", type="text"), OptionSpec("who", type="user", required=True)),
    )
    async with running(tmp_path, registry=Registry([spec])) as (fake, _, _):
        (body,) = puts(fake)
        assert [o["type"] for o in body[0]["options"]] == [6, 3]  # user, required first
        data = {
            "id": "1",
            "name": "poke",
            "type": 1,
            "options": [
                {"name": "who", "type": 6, "value": "77"},
                {"name": "note", "type": 3, "value": "<@&5> hi"},
            ],
            "resolved": {"users": {"77": user(77, "Cid")}},
        }
        await fake.dispatch("INTERACTION_CREATE", fake.interaction(2, data))
        (reply,) = await fake.callbacks()
        assert seen == [{"who": "<@77>", "note": "<@&5> hi"}]
        allowed = reply["data"]["allowed_mentions"]
        assert [str(u) for u in allowed["users"]] == ["77"]
        assert allowed["parse"] == [] and not allowed.get("roles")
        assert reply["data"]["content"] == "<@77>"
        description = reply["data"]["embeds"][0]["description"]
        assert "<@77>" in description and "<@&5>" not in description
        assert "@everyone" not in description


async def test_systems_autocomplete_and_long_choice_lists(tmp_path: Path) -> None:
    async def noop(ctx: Context) -> Reply:
        return Reply()

    spec = CommandSpec(
        path=("pick",),
        handler=noop,
        options=(
            OptionSpec("system", autocomplete="systems"),
            OptionSpec("colour", choices=tuple(f"shade{i:02d}" for i in range(40))),
        ),
    )
    async with running(tmp_path, registry=Registry([spec])) as (fake, _, _):
        for focused, value in (("system", ""), ("colour", "shade1"), ("colour", "")):
            options = [{"name": focused, "type": 3, "value": value, "focused": True}]
            data = {"id": "1", "name": "pick", "type": 1, "options": options}
            await fake.dispatch("INTERACTION_CREATE", fake.interaction(4, data))
        systems, tens, everything = await fake.callbacks(3)
        assert {"wm", "aos", "wow", "inf", "c5", "gen"} <= {
            c["value"] for c in systems["data"]["choices"]
        }
        assert [c["value"] for c in tens["data"]["choices"]] == [f"shade{i}" for i in range(10, 20)]
        assert len(everything["data"]["choices"]) == 25


async def test_units_autocomplete_sees_only_this_channels_game(tmp_path: Path) -> None:
    async with running(tmp_path) as (fake, app, _):
        here, elsewhere = f"discord:{CHANNEL_ID}", "discord:1"
        for chat, unit in ((here, "Ironclad"), (elsewhere, "Juggernaut")):
            assert (await say(app, "/game new gen", user="42", chat=chat)).error is None
            result = await say(app, f"/unit add {unit} wounds=5", user="42", chat=chat)
            assert result.error is None, result.blocks
        options = [
            {
                "name": "show",
                "type": 1,
                "options": [{"name": "name", "type": 3, "value": "", "focused": True}],
            }
        ]
        data = {"id": "1", "name": "unit", "type": 1, "options": options}
        await fake.dispatch("INTERACTION_CREATE", fake.interaction(4, data))
        (body,) = await fake.callbacks()
        assert [c["value"] for c in body["data"]["choices"]] == ["Ironclad"]


async def test_a_new_forum_post_is_its_own_chat(tmp_path: Path) -> None:
    async with running(tmp_path) as (fake, app, _):
        post = 900000000000000099  # never announced in GUILD_CREATE
        await fake.dispatch(
            "INTERACTION_CREATE",
            fake.interaction(
                2, command("roll", expression="d8 inpost"), thread=True, thread_id=post
            ),
        )
        await fake.callbacks()
        history = await say(app, "/roll history", chat=f"discord:{CHANNEL_ID}:{post}")
        assert "inpost" in str(history.blocks)


async def test_shutdown_lets_running_commands_finish_and_refuses_new_ones(
    tmp_path: Path,
) -> None:
    entered, release = asyncio.Event(), asyncio.Event()

    async def wait(ctx: Context) -> Reply:
        entered.set()
        await release.wait()
        return Reply(blocks=[[plain("finished")]])

    # A subcommand: the tree already has Discord's 25 top-level commands.
    registry = Registry([*build_registry(), CommandSpec(path=("game", "wait"), handler=wait)])
    fake = FakeDiscord()
    await fake.start()
    try:
        async with running(tmp_path, registry=registry, fake=fake) as (_, _, adapter):
            await fake.dispatch("INTERACTION_CREATE", fake.interaction(2, sub("game", "wait")))
            await asyncio.wait_for(entered.wait(), 5)
            stopping: asyncio.Task[None] = asyncio.create_task(adapter.stop())
            await fake.dispatch(
                "INTERACTION_CREATE", fake.interaction(2, command("help"), locale="it")
            )
            refused = (await fake.callbacks())[0]
            assert refused["data"]["flags"] & 64
            assert "riavvia" in refused["data"]["content"]
            assert not stopping.done()
            release.set()
            await asyncio.wait_for(stopping, 5)
            texts = [b["data"]["embeds"][0]["description"] for b in (await fake.callbacks(2))[1:]]
            assert texts == ["finished"]
            assert adapter.client.is_closed()
    finally:
        await fake.stop()


async def test_the_channel_language_wins_over_the_users_client(tmp_path: Path) -> None:
    async with running(tmp_path) as (fake, app, _):
        chat = f"discord:{CHANNEL_ID}"
        assert (await say(app, "/lang en", chat=chat, admin=True)).error is None
        await fake.dispatch("INTERACTION_CREATE", fake.interaction(2, command("help"), locale="it"))
        (body,) = await fake.callbacks()
        assert "Commands" in text_of(body) and "Comandi" not in text_of(body)


async def test_a_button_works_only_in_the_chat_it_was_sent_to(tmp_path: Path) -> None:
    async with running(tmp_path) as (fake, _, _):
        await fake.dispatch(
            "INTERACTION_CREATE", fake.interaction(2, command("roll", expression="d6 here"))
        )
        (body,) = await fake.callbacks()
        custom_id = body["data"]["components"][0]["components"][0]["custom_id"]
        payload = press(fake, custom_id, "960000000000000001", thread=True)
        await fake.dispatch("INTERACTION_CREATE", payload)
        refused = (await fake.callbacks(2))[1]
        assert refused["data"]["flags"] & 64
        assert "expired" in refused["data"]["content"]


async def test_a_token_refused_by_the_gateway_is_one_clear_error(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    fake.gateway_token = "another-token"  # REST accepts it, the gateway closes with 4004
    app = App(tmp_path / "gw.sqlite3")
    await app.start()
    adapter = DiscordAdapter(app, settings_for(fake, tmp_path / "gw.sqlite3"))
    try:
        with pytest.raises(AdapterStartError, match="gateway rejected the token"):
            await adapter.start()
        assert adapter.client.is_closed()
    finally:
        await app.stop()
        await fake.stop()
