"""An option's main name is the English one (#24): English syntax lines, English /help and
Discord's English picker show it; the Italian name is its Italian localisation and alias, shown on
Italian screens. Both are typed in an Italian chat (`/c5 ferire flagello` and `scourge` alike)."""

from __future__ import annotations

from typing import Any

from bot.adapters.discord_commands import build
from bot.app import App
from bot.commands import build_registry
from bot.commands.local_names import option_names
from bot.render import plain
from tests.helpers import say

# Option names that read the same in both languages: letters, codes, loanwords, proper names.
SAME_IN_BOTH = {"a", "b", "c", "d", "n", "x", "file", "jack", "mod", "morat"}


def test_every_option_with_an_italian_name_has_an_english_main_name() -> None:
    """An option whose Italian name is its own name is either a word both languages read alike
    or an Italian word shown to English readers (`flagello` in the English /help)."""
    same = {
        o.name
        for spec in build_registry()
        for o in spec.options
        if option_names(spec, "it")[o.name] == o.name
    }
    assert same - SAME_IN_BOTH == set()


async def test_c5_scourge_and_hardboned_read_in_each_language(app: App) -> None:
    english = plain.render(await say(app, "/help c5 wound", lang="en"))
    assert "[scourge] [hardboned]" in english
    assert "flagello" not in english.split("\n")[1] and "Ossoduro" not in english
    italian = plain.render(await say(app, "/c5 ferire forza=99", lang="it"))
    assert "[flagello] [ossoduro]" in italian and "scourge" not in italian


def test_c5_discord_picker_is_english_with_italian_localisations() -> None:
    (c5,) = [c for c in build(build_registry()) if c["name"] == "c5"]
    seen: dict[str, dict[str, Any]] = {}
    for sub in c5["options"]:
        for opt in sub.get("options") or []:
            seen.setdefault(opt["name"], opt)
    assert "flagello" not in seen and "ossoduro" not in seen
    assert seen["scourge"]["name_localizations"] == {"it": "flagello"}
    assert seen["hardboned"]["name_localizations"] == {"it": "ossoduro"}


async def test_both_spellings_are_typed_in_italian_and_the_english_one_in_english(
    app: App,
) -> None:
    wounds = set()
    for lang, text in [
        ("it", "/c5 ferire forza=7 resistenza=8 flagello dadi=5,6"),
        ("it", "/c5 ferire forza=7 resistenza=8 scourge dadi=5,6"),
        ("en", "/c5 wound str=7 res=8 scourge dice=5,6"),
    ]:
        reply = await say(app, text, lang=lang)
        assert reply.error is None, reply.error
        wounds.add(reply.data["outcome"]["wounds"])
    assert wounds == {4}  # R11: one band heavier
    for lang, text in [
        ("it", "/c5 ferire forza=7 resistenza=8 ossoduro dadi=5,6"),
        ("en", "/c5 wound str=7 res=8 hardboned dice=5,6"),
    ]:
        reply = await say(app, text, lang=lang)
        assert reply.error is None and reply.data["outcome"]["wounds"] == 2  # R10


async def test_c5_mystic_and_shooting_options_in_each_language(app: App) -> None:
    """Mira, Recupero/X, Credente/X and Pietà/X: English main names (the digest's Bull's-eye,
    Recovery, Believer, Piety), the Italian ones shown and typed in an Italian chat."""
    english = plain.render(await say(app, "/help c5 faith", lang="en")).split("\n")[1]
    assert "[believer=N]" in english and "[piety=N]" in english and "credente" not in english
    italian = plain.render(await say(app, "/aiuto c5 fede", lang="it")).split("\n")[1]
    assert "[credente=N]" in italian and "[pietà=N]" in italian and "believer" not in italian
    shoot = "/c5 shoot aim=4 range=medium str=6 res=5 {} dice=6,2,3,4"
    shots = [
        await say(app, shoot.format("bullseye"), lang="en"),
        await say(app, shoot.format("mira"), lang="it"),
    ]
    assert all(s.error is None for s in shots) and shots[0].data == shots[1].data
    mana = "/c5 mana rank=2 power=4 {}=2 dice=5"
    gems = [
        (await say(app, mana.format(w), lang=lang)).data
        for lang, w in (("en", "recovery"), ("it", "recupero"))
    ]
    assert gems[0] == gems[1] and gems[0] is not None
    faith = "/c5 faith rank=3 aspects=4 followers=4 {}=2"
    for lang, word in (("en", "believer"), ("it", "credente"), ("en", "piety"), ("it", "pieta")):
        reply = await say(app, faith.format(word), lang=lang)
        assert reply.error is None, (word, reply.error)


async def test_c5_piety_is_an_english_stat_name(app: App) -> None:
    chat = "console:piety"
    await say(app, "/game new c5", lang="en", chat=chat)
    added = await say(app, "/unit add Priest aspects=3 rank=1 piety=2", lang="en", chat=chat)
    assert added.error is None, added.error
    assert added.data["unit"]["stats"]["pieta"] == 2
