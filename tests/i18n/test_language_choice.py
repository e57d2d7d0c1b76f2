"""Language choice (#24 item 5): the chat's language, else the user's own (/lang in their private
chat), else their client's, else English; a reply only its caller sees (Discord's ephemeral
errors) in the caller's language. One function decides (`i18n.choose_lang`)."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.app import App
from bot.protocol import Reply, Request


async def send(
    app: App,
    text: str,
    *,
    chat: str,
    user: str = "42",
    platform: str = "telegram",
    locale: str | None = None,
    private: bool = False,
    admin: bool = False,
) -> Reply:
    return await app.handle(
        Request(
            platform=platform,  # type: ignore[arg-type]
            chat_key=chat,
            user_id=user,
            user_name="Marco",
            locale=locale,
            admin=admin or private,
            private=private,
            text=text,
        )
    )


def text_of(reply: Reply) -> str:
    return " ".join(span.text for block in reply.blocks for span in block)


@pytest.mark.parametrize(
    ("kw", "expected"),
    [
        ({}, "en"),
        ({"client": "it-IT"}, "it"),
        ({"client": "de-DE"}, "en"),
        ({"user": "it", "client": "en-US"}, "it"),
        ({"chat": "en", "user": "it", "client": "it"}, "en"),
        ({"override": "en", "chat": "it"}, "en"),
        ({"chat": "it", "client": "en-US", "caller_only": True}, "en"),
        ({"chat": "it", "user": "en", "client": "it", "caller_only": True}, "en"),
        ({"chat": "it", "caller_only": True}, "it"),
        ({"override": "it", "client": "en", "caller_only": True}, "it"),
    ],
)
def test_the_one_rule(kw: dict[str, object], expected: str) -> None:
    assert i18n.choose_lang(**kw) == expected  # type: ignore[arg-type]


async def test_lang_in_a_private_chat_is_the_users_own_language(app: App) -> None:
    # Marco's Telegram client is in English; in his private chat he asks for Italian.
    done = await send(app, "/lang it", chat="telegram:42", locale="en", private=True)
    assert done.ok and done.data == {"lang": "it"}
    # A group that chose no language answers him in Italian...
    status = await send(app, "/game status", chat="telegram:-100", locale="en")
    assert status.error is not None and status.error.code == "game.none"
    assert text_of(status).startswith(i18n.t("it", "game.none"))
    # ...someone else there in their client's language...
    other = await send(app, "/game status", chat="telegram:-100", user="7", locale="en")
    assert text_of(other).startswith(i18n.t("en", "game.none"))
    # ...and a group that chose English in English.
    await send(app, "/lang en", chat="telegram:-200", admin=True)
    chosen = await send(app, "/game status", chat="telegram:-200", locale="en")
    assert text_of(chosen).startswith(i18n.t("en", "game.none"))


async def test_lang_in_a_group_is_the_chats_not_the_users(app: App) -> None:
    await send(app, "/lang it", chat="telegram:-300", admin=True, locale="en")
    reply = await send(app, "/game status", chat="telegram:-400", locale="en")
    assert text_of(reply).startswith(i18n.t("en", "game.none"))


async def test_an_ephemeral_error_on_discord_speaks_the_callers_language(app: App) -> None:
    chat = "discord:555"
    await send(app, "/lang it", chat=chat, platform="discord", admin=True, locale="it")
    # An English Discord client in an Italian channel: the error only they see is English,
    err = await send(app, "/game status", chat=chat, platform="discord", locale="en-US")
    assert err.ephemeral and text_of(err).startswith(i18n.t("en", "game.none"))
    # while what everyone sees stays in the channel's language.
    new = await send(app, "/game new aos", chat=chat, platform="discord", locale="en-US")
    assert new.ok and not new.ephemeral
    assert text_of(new) == i18n.t("it", "game.created", system=i18n.t("it", "systems.aos"))
    # On Telegram an error is seen by the whole group: the chat's language.
    await send(app, "/lang it", chat="telegram:-500", admin=True)
    public = await send(app, "/game status", chat="telegram:-500", locale="en-US")
    assert text_of(public).startswith(i18n.t("it", "game.none"))
