"""The whole shared surface in both languages (#24): every example of every shared command
(game, unit, turn, score, res, campaign, army, roll, odds, stats, help…), as a reader of each
language types it (/help's own rendering of it), run through the app in a chat with a game:
no reply carries a word of the other language. The rules lookup is left out (its references
quote the Italian books' section titles on purpose), and so is /lang (it switches language)."""

from __future__ import annotations

import re

import pytest

from bot.app import App
from bot.commands import build_registry
from bot.commands.core import shown_example
from bot.commands.local_names import text_names
from bot.i18n import Lang
from bot.render import plain
from tests.helpers import say
from tests.i18n.test_catalogues import PROPER_NAMES, prose
from tests.i18n_check import foreign_words

SHARED = {
    "game", "unit", "turn", "score", "res", "campaign", "army", "roll", "odds", "stats", "help",
    "phase", "round", "log", "undo", "start", "done", "macro", "save", "batch",
}  # fmt: skip
NAMES = PROPER_NAMES | {"Ann", "Bob", "Cygnar", "Liberators", "Warhammer", "gen", "aos", "wm"}
# A private roll's commitment (a SHA-256 in hex) is no word: "cba" or "fcc" in it is chance.
_HEX = re.compile(r"\b[0-9a-f]{16,}\b")
# /help roll lists an option's other names on purpose: `dice (dadi)`.
ALIASES = {a for spec in build_registry() for o in spec.options for a in o.aliases}


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_every_shared_example_answers_in_one_language(app: App, lang: Lang) -> None:
    registry = build_registry()
    names = text_names(registry, lang)
    chat = f"console:sweep-{lang}"
    await say(app, "/game new gen", chat=chat, lang=lang, user="u1", name="Ann")
    await say(app, "/game join", chat=chat, lang=lang, user="u2", name="Bob")
    found = {}
    for spec in registry:
        if spec.path[0] not in SHARED:
            continue
        for example in spec.examples:
            text = shown_example(registry, names, spec, example, lang)
            reply = await say(app, text, chat=chat, lang=lang, user="u1", name="Ann", admin=True)
            # A picture the reply carries is listed by the plain renderer, not a screen's words.
            shown = _HEX.sub(" ", plain.render(reply.model_copy(update={"attachments": []})))
            words = foreign_words(lang, prose(shown), allow=NAMES | ALIASES)
            if words:
                found[text] = words
    assert found == {}
