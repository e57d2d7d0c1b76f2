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
# Named in Italian still (the same defect, not fixed yet): the c5 mystic and shooting options.
NOT_YET = {"credente", "mira", "pieta", "recupero"}


def test_every_option_with_an_italian_name_has_an_english_main_name() -> None:
    """An option whose Italian name is its own name is either a word both languages read alike
    or an Italian word shown to English readers (`flagello` in the English /help)."""
    same = {
        o.name
        for spec in build_registry()
        for o in spec.options
        if option_names(spec, "it")[o.name] == o.name
    }
    assert same - SAME_IN_BOTH - NOT_YET == set()


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
