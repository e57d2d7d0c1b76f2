"""/start, /help and "did you mean" through the App on a real SQLite file."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.app import App
from bot.commands.local_names import text_names
from bot.protocol import Request
from bot.render import plain
from tests.helpers import say


@pytest.mark.parametrize(("command", "lang"), [("/start", "en"), ("/inizia", "it")])
async def test_start_gives_five_first_steps_that_work(app: App, command: str, lang: str) -> None:
    reply = await say(app, command, lang=lang)
    assert reply.ok, reply.error
    assert reply.title == i18n.t(lang, "start.title")  # type: ignore[arg-type]
    assert reply.data is not None
    steps = reply.data["steps"]
    assert len(steps) == 5
    paths = [app.registry.find(step).spec.path for step in steps]
    assert paths == [("game", "new"), ("roll",), ("aos", "attack"), ("rule",), ("help",)]
    for step in steps:
        app.registry.find(step).options()  # each parses as shown
        assert step in plain.render(reply)
    other = "it" if lang == "en" else "en"
    assert i18n.t(other, "start.step_roll") not in plain.render(reply)  # type: ignore[arg-type]


async def test_start_attack_step_follows_the_chats_game(app: App) -> None:
    await say(app, "/game new wm")
    reply = await say(app, "/start")
    assert reply.data is not None
    assert app.registry.find(reply.data["steps"][2]).spec.path == ("wm", "attack")
    rule = await say(app, "/start", lang="it")
    assert rule.data is not None and rule.data["steps"][3] == "/regola carica"


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_help_describes_every_top_level_command(app: App, lang: str) -> None:
    reply = await say(app, "/help", lang=lang)
    lines = plain.render(reply).splitlines()
    names = text_names(app.registry, lang)  # type: ignore[arg-type]
    for group, members in app.registry.groups().items():
        assert i18n.has(f"help.groups.{group}", lang)  # type: ignore[arg-type]
        if all(s.hidden for s in members):  # a text-only short form (/lang for /settings lang)
            assert not [ln for ln in lines if ln.startswith(f"/{group} — ")]
            continue
        word = names[members[0].path].split()[0]  # `/partita` in Italian
        (line,) = [ln for ln in lines if ln.startswith(f"{word} — ")]
        assert i18n.t(lang, f"help.groups.{group}") in line  # type: ignore[arg-type]


async def test_help_of_a_group_lists_each_subcommand_with_an_example(app: App) -> None:
    reply = await say(app, "/help aos")
    text = plain.render(reply)
    for spec in app.registry.groups()["aos"]:
        assert f"/{spec.name} — {i18n.t('en', spec.key + '.desc')}" in text
        assert f"e.g. {spec.examples[0]}" in text


async def test_help_of_a_command_that_is_a_group_names_the_others(app: App) -> None:
    text = plain.render(await say(app, "/help roll"))
    assert (
        "In the same group: /roll history, /roll private, /roll reroll, /roll reveal, /roll show"
        in text
    )
    italian = plain.render(await say(app, "/aiuto tira", lang="it"))
    assert (
        "Nello stesso gruppo: /tira storico, /tira privato, /tira ritira, /tira rivela, "
        "/tira mostra" in italian
    )


async def test_unknown_command_answers_did_you_mean_with_the_syntax(app: App) -> None:
    reply = await say(app, "/rol 2d6")
    assert reply.error is not None and reply.error.code == "cmd.unknown_hint"
    text = plain.render(reply)
    assert "Did you mean /roll?" in text
    assert "Syntax: /roll EXPRESSION…" in text
    italian = plain.render(await say(app, "/game nwe wm", lang="it"))
    assert "Forse intendevi /partita nuova?" in italian  # the suggestion in their words
    assert "Sintassi: /partita nuova SISTEMA" in italian


async def test_unknown_help_topic_suggests_too(app: App) -> None:
    reply = await say(app, "/help rol")
    assert reply.error is not None and reply.error.code == "help.unknown_hint"
    assert "Did you mean /roll?" in plain.render(reply)


async def test_discord_help_leaves_out_start_which_discord_does_not_publish(app: App) -> None:
    request = Request(platform="discord", chat_key="discord:1", user_id="1", user_name="Ann")
    text = plain.render(await app.handle(request.model_copy(update={"text": "/help"})))
    assert "/roll" in text and "/start" not in text
    start = await app.handle(request.model_copy(update={"text": "/help start"}))
    assert start.error is not None


@pytest.mark.parametrize("locale", ["en-US", "it"])
async def test_discord_help_intro_speaks_of_the_command_picker(app: App, locale: str) -> None:
    # Discord has no text commands: "Options are NAME=VALUE, e.g. /roll 2d6+3 fire" told a
    # Discord user to type what Discord's picker asks for field by field.
    request = Request(
        platform="discord", chat_key="discord:2", user_id="1", user_name="Ann", locale=locale
    )
    text = plain.render(await app.handle(request.model_copy(update={"text": "/help"})))
    lang = "it" if locale == "it" else "en"
    assert i18n.t(lang, "help.intro_discord") in text  # type: ignore[arg-type]
    assert "=" not in text.splitlines()[1], text.splitlines()[1]


@pytest.mark.parametrize(
    ("text", "lang", "name"), [("/help turn", "en", "/turn"), ("/aiuto annulla", "it", "/annulla")]
)
async def test_help_of_a_command_without_options_names_it_once(
    app: App, text: str, lang: str, name: str
) -> None:
    """Found walking as a new player: its title and its syntax line were the same line, twice.
    A command with options keeps its syntax line."""
    lines = plain.render(await say(app, text, lang=lang)).splitlines()
    assert [line for line in lines if line.strip() == name] == [lines[0]]
    with_options = plain.render(await say(app, "/help roll")).splitlines()
    assert with_options[0].strip() == "/roll" and with_options[1].startswith("/roll ")


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_the_help_intro_example_shows_a_name_value_option(app: App, lang: str) -> None:
    # The intro says options are NAME=VALUE; its example was `/roll 2d6+3 fire`, which has none.
    intro = i18n.t(lang, "help.intro")  # type: ignore[arg-type]
    example = intro[intro.index("/") :].rstrip(".")
    found = app.registry.find(example)
    typed = [tok.text.partition("=")[0] for tok in found.tokens if "=" in tok.text]
    assert typed, example
    options = found.options()
    assert all(found.spec.option(name) is not None for name in typed), example
    assert any(options[found.spec.option(n).name] for n in typed)  # type: ignore[union-attr]
    reply = await say(app, example, lang=lang)
    assert reply.error is None, reply.error


@pytest.mark.parametrize(
    ("text", "lang", "title"),
    [("/game", "en", "Commands of /game"), ("/impostazioni", "it", "Comandi di /impostazioni")],
)
async def test_a_group_alone_lists_its_subcommands(
    app: App, text: str, lang: str, title: str
) -> None:
    # Telegram's menu offers /aos, /game, /impostazioni…: tapping one sent the group alone and
    # answered "/game needs a subcommand; /help game lists them" instead of the list itself.
    reply = await say(app, text, lang=lang)
    assert reply.error is None, reply.error
    assert reply.title == title
    expected = plain.render(
        await say(app, f"/{'aiuto' if lang == 'it' else 'help'} {text[1:]}", lang=lang)
    )
    assert plain.render(reply) == expected
    for group in app.registry.groups():  # every group: its list, never an error
        if app.registry.get(group) is None:
            alone = await say(app, f"/{group}", lang="en")
            assert alone.error is None and alone.title == f"Commands of /{group}", group
