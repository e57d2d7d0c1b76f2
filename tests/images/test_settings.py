"""/settings (#28 item 1): pictures on or off per chat, by chat admins; /settings lang beside it,
and /lang still working as text. Discord keeps its 25 top-level commands: /lang became
/settings lang there."""

from __future__ import annotations

from pathlib import Path

from bot.adapters import discord_commands
from bot.app import App
from bot.commands import build_registry
from bot.render import plain
from bot.storage import settings as settings_repo
from tests.discord import harness as discord_harness
from tests.discord.fake_discord import CHANNEL_ID
from tests.helpers import say


async def test_pictures_off_and_on_again_by_an_admin(app: App) -> None:
    assert [a.mime for a in (await say(app, "/odds 2d6")).attachments] == ["image/png"]
    shown = await say(app, "/settings images", admin=True)
    assert shown.data == {"images": True} and "/settings images off" in plain.render(shown)
    off = await say(app, "/settings images off", admin=True)
    assert off.ok and off.data == {"images": False}
    quiet = await say(app, "/odds 2d6")
    assert quiet.ok and quiet.attachments == []
    assert (await say(app, "/settings images", admin=True)).data == {"images": False}
    assert (await say(app, "/odds 2d6", chat="console:other")).attachments  # only this chat
    on = await say(app, "/impostazioni immagini sì", admin=True, lang="it")
    assert on.data == {"images": True} and "immagini" in plain.render(on)
    assert (await say(app, "/odds 2d6")).attachments


async def test_only_a_chat_admin_switches_pictures(app: App) -> None:
    refused = await say(app, "/settings images off")
    assert refused.error is not None and refused.error.code == "perm.admin_only"
    assert (await say(app, "/odds 2d6")).attachments  # unchanged


async def test_italian_names_and_values(app: App) -> None:
    off = await say(app, "/impostazioni immagini no", admin=True, lang="it")
    assert off.data == {"images": False}
    assert "solo testo" in plain.render(off)
    bad = await say(app, "/settings images maybe", admin=True)
    assert bad.error is not None and "/settings images" in plain.render(bad)


async def test_settings_lang_and_the_old_lang_both_switch_the_language(app: App) -> None:
    done = await say(app, "/settings lang it", admin=True)
    assert done.ok and done.data == {"lang": "it"}
    current = await say(app, "/impostazioni lingua", admin=True)
    assert "/impostazioni lingua" in plain.render(current)
    assert (await say(app, "/lang en", admin=True)).data == {"lang": "en"}
    assert (await say(app, "/impostazioni lingua it", admin=True)).data == {"lang": "it"}


def test_discord_has_settings_with_lang_and_images_and_still_25_commands() -> None:
    commands = discord_commands.build(build_registry())
    assert len(commands) == discord_commands.MAX_COMMANDS
    names = {c["name"]: c for c in commands}
    assert "lang" not in names
    settings = names["settings"]
    assert settings["name_localizations"]["it"] == "impostazioni"
    subs = {o["name"]: o for o in settings["options"]}
    assert set(subs) == {"lang", "images"}
    assert subs["lang"]["name_localizations"]["it"] == "lingua"
    assert subs["images"]["name_localizations"]["it"] == "immagini"
    (state,) = subs["images"]["options"]
    assert [c["value"] for c in state["choices"]] == ["on", "off"]
    assert [c["name_localizations"]["it"] for c in state["choices"]] == ["Sì", "No"]


async def test_discord_settings_images_off_then_odds_is_text_only(tmp_path: Path) -> None:
    async with discord_harness.running(tmp_path, defer_after=120.0) as env:
        off = discord_harness.sub("settings", "images", state="off")
        await env.fake.dispatch(
            "INTERACTION_CREATE", env.fake.interaction(2, off, manage_channels=True)
        )
        odds = discord_harness.command("odds", expression="2d6")
        await env.fake.dispatch("INTERACTION_CREATE", env.fake.interaction(2, odds))
        first, second = await env.fake.callbacks(2)
        async with env.app.db.transaction(write=False) as conn:
            assert await settings_repo.chat_images(conn, f"discord:{CHANNEL_ID}") is False
    assert "text only" in discord_harness.text_of(first)
    assert "image" not in second["data"]["embeds"][0] and "_files" not in second
