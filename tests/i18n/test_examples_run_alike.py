"""An Italian /help example does what its English original does (#24): each game's examples,
typed as /help shows them in each language, run in order in two chats with the same game and
the same dice; each pair ends alike (both done, or both refused for the same reason). A value
or field the Italian form names that the command doesn't read would be refused there only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.app import App
from bot.commands import build_registry
from bot.commands.core import shown_example
from bot.commands.local_names import example_words, text_names
from bot.i18n import Lang
from bot.protocol import Reply
from tests.helpers import say
from tests.i18n_check import foreign_words

REGISTRY = build_registry()
# Each group and the game its chat plays (/army and /compare: Age of Sigmar's examples).
GROUPS = {"aos": "aos", "wm": "wm", "inf": "inf", "c5": "c5", "wow": "wow", "army": "aos",
          "compare": "aos"}  # fmt: skip
UNITS = ("Vindictors", "Gutrippaz", "Knight-Arcanum", "Lord", "Drake", "Ironclad", "Lancer",
         "Stryker", "Juggernaut", "Slayer", "Trenchers", "Defender", "Crusader", "Deathripper",
         "Flameguard", "Angus", "WenLiu", "Silva", "Doucher", "Bipandra", "JangQi", "Abel",
         "Orc", "Wolfen", "Griffin", "Troll", "Enoch", "Archer", "Thrall", "Jaina",
         "Anduin", "Rexxar")  # fmt: skip
ADD = REGISTRY.get("unit add")


async def _replies(app: App, group: str, lang: Lang) -> list[tuple[str, Reply]]:
    """Each of the group's examples as /help shows it in `lang`, and its reply."""
    names = text_names(REGISTRY, lang)
    chat = f"console:alike-{group}-{lang}"
    user = f"alike-{lang}"  # rosters are a user's own, across chats
    await say(app, f"/game new {GROUPS[group]}", chat=chat, lang=lang, user=user, name="Ann")
    for unit in UNITS:  # the examples' units, under the reader's sample names (Orc: Orco)
        name = example_words(REGISTRY, ADD, unit, lang)
        await say(app, f"/unit add {name}", chat=chat, lang=lang, user=user, admin=True)
    out = []
    for spec in (s for s in REGISTRY if s.path[0] == group):
        for example in spec.examples:
            text = shown_example(REGISTRY, names, spec, example, lang)
            reply = await say(app, text, chat=chat, lang=lang, user=user, admin=True, seed=7)
            out.append((text, reply))
    return out


async def _outcomes(app: App, group: str, lang: Lang) -> list[tuple[str, str]]:
    return [
        (text, reply.error.code if reply.error else "ok")
        for text, reply in await _replies(app, group, lang)
    ]


def _keys(data: object) -> Iterator[str]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from _keys(value)
    elif isinstance(data, list):
        for item in data:
            yield from _keys(item)


@pytest.mark.parametrize("group", sorted(GROUPS))
async def test_an_italian_example_ends_as_the_english_one(app: App, group: str) -> None:
    english = await _outcomes(app, group, "en")
    italian = await _outcomes(app, group, "it")
    differ = [(e, i) for e, i in zip(english, italian, strict=True) if e[1] != i[1]]
    assert differ == []


@pytest.mark.parametrize("group", sorted(GROUPS))
async def test_reply_data_keys_are_english(app: App, group: str) -> None:
    """`--json` and the stored roll log read the reply's data: its keys are English whatever the
    chat's language (#24 named `recupero`; /c5 mana, faith and the wound odds still had
    `recupero`, `credente`, `p_nulla`)."""
    italian_keys = {
        (text, key)
        for text, reply in await _replies(app, group, "en")
        for key in _keys(reply.data)
        if foreign_words("en", key.replace("_", " "))
    }
    assert italian_keys == set()
