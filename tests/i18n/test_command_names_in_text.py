"""Commands named in the reader's language (#24, #25): a button's command (the console lists
it, Telegram puts it in the input box) and every command an Italian sentence mentions are the
Italian ones (`/tira 2d6`, `/aiuto`, `/annulla`), which run the same."""

from __future__ import annotations

import re

import pytest

from bot.app import App
from bot.commands import build_registry
from bot.commands.local_names import option_names, typed_command, typed_name
from bot.render import plain
from tests.helpers import say
from tests.i18n.test_catalogues import FILES, entries

REGISTRY = build_registry()
_MENTION = re.compile(r"(?<![\w/])/([a-z][a-z0-9_-]*)((?: [a-z_]+)?)")


def english_mentions(text: str) -> list[str]:
    """The commands `text` names other than as an Italian reader types them."""
    out = []
    for m in _MENTION.finditer(text):
        words = [m.group(1), *m.group(2).split()]
        path = REGISTRY.canonical(words)
        spec = REGISTRY.get(" ".join(path)) or REGISTRY.get(path[0])
        if spec is None:
            # a group that is no command itself (`/army`, `/campaign`): its first word
            members = REGISTRY.groups().get(path[0])
            if members and "/" + words[0] != typed_name(REGISTRY, members[0], "it").split()[0]:
                out.append("/" + words[0])
            continue
        typed = "/" + " ".join(words[: len(spec.path)])
        if typed != typed_name(REGISTRY, spec, "it"):
            out.append(typed)
    return out


@pytest.mark.parametrize("stem", FILES)
def test_italian_entries_name_commands_in_italian(stem: str) -> None:
    found = {k: w for k, text in entries("it", stem).items() if (w := english_mentions(text))}
    assert found == {}


def test_the_check_finds_an_english_command() -> None:
    assert english_mentions("per esempio /roll 2d6 oppure /help; /tira 2d6") == ["/roll", "/help"]
    assert english_mentions("/partita nuova aos e /game new") == ["/game new"]
    # a group named alone (no command of its own): "aggiungile con /army" said so
    assert english_mentions("con /army (NOME …) o /armata") == ["/army"]


@pytest.mark.parametrize(
    ("text", "italian"),
    [
        ("/roll 2d6+3 fire", "/tira 2d6+3 fire"),
        ("/roll 2d6 dice=3,5", "/tira 2d6 dadi=3,5"),
        ("/turn end", "/turno fine"),
        ('/rule "Lightning Shield" system=wow', '/regola "Lightning Shield" sistema=wow'),
        ("not a command", "not a command"),
    ],
)
def test_a_buttons_command_as_an_italian_types_it(text: str, italian: str) -> None:
    assert typed_command(REGISTRY, text, "it") == italian
    assert typed_command(REGISTRY, text, "en") == text
    if text.startswith("/"):
        assert REGISTRY.find(italian).spec.path == REGISTRY.find(text).spec.path


async def test_the_roll_again_and_repeat_buttons_show_the_italian_command(app: App) -> None:
    chat = "console:buttons-it"
    rolled = await say(app, "/tira 2d6", chat=chat, lang="it")
    assert [b.command for b in rolled.buttons] == ["/tira 2d6"]
    assert "— /tira 2d6" in plain.render(rolled)
    saved = await say(app, "/macro salva carica /roll 2d6+1", chat=chat, lang="it")
    assert saved.error is None, saved.error
    ran = await say(app, "/carica", chat=chat, lang="it")
    assert ran.error is None, ran.error
    assert [(b.label, b.command) for b in ran.buttons] == [("Ripeti", "/tira 2d6+1")]
    again = await say(app, ran.buttons[0].command, chat=chat, lang="it")
    assert again.error is None and again.command == "roll"
    english = await say(app, "/roll 2d6", chat="console:buttons-en", lang="en")
    assert [b.command for b in english.buttons] == ["/roll 2d6"]


@pytest.mark.parametrize(
    ("lang", "typed", "hint"),
    [
        ("it", "/partita nwe aos", "Forse intendevi /partita nuova?"),
        ("it", "/rol 2d6", "Forse intendevi /tira?"),
        ("en", "/game nwe aos", "Did you mean /game new?"),
        ("it", "/fase qwxz", "/aiuto fase li elenca"),
    ],
)
async def test_hints_name_commands_in_the_readers_language(
    app: App, lang: str, typed: str, hint: str
) -> None:
    """It answered "/partita nwe" with "did you mean /partita new?", half English."""
    reply = await say(app, typed, lang=lang)
    assert reply.error is not None and hint in reply.error.message


def _english_option_names() -> set[str]:
    """Option names an Italian never sees: those whose Italian name differs and that are no
    Italian name or alias of any command's option."""
    english, italian = set(), set()
    for spec in REGISTRY:
        local = option_names(spec, "it")
        for opt in spec.options:
            italian |= {local[opt.name], *opt.aliases}
            if local[opt.name] != opt.name:
                english.add(opt.name)
    return english - italian


_OPTION = re.compile(r"(?<![\w/.{])([a-z][a-z_]*)=")


@pytest.mark.parametrize("stem", FILES)
def test_italian_entries_name_options_in_italian(stem: str) -> None:
    """`bersaglio=UNITÀ`, `sistema=wm`, `danno=N` in an Italian sentence, never `target=`."""
    english = _english_option_names()
    found = {
        k: bad
        for k, text in entries("it", stem).items()
        if (bad := [m for m in _OPTION.findall(text) if m in english])
    }
    assert found == {}
