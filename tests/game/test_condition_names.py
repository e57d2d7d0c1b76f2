"""A condition the game knows is stored under its canonical name (`charged`) whatever the
player typed (`caricato`); every screen names it in the reader's language, as the book does."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from tests.helpers import say

CASES = [
    ("aos", "/unit add Liberators models=5 wounds=2 save=4", "Liberators", "caricato",
     "ha caricato (questo turno)", "charged (this turn)"),
    ("c5", "/unit add Abel att=5 str=7 def=4 res=6", "Abel", "stordito",
     "Stordito (questo round)", "Stunned (this round)"),
    ("inf", "/unit add Fusilier bs=12 arm=1 w=1", "Fusilier", "imm",
     "Immobilizzato", "Immobilized"),
]  # fmt: skip


@pytest.mark.parametrize(("system", "add", "name", "typed", "it", "en"), CASES)
async def test_known_condition_in_the_readers_language(
    app: App, system: str, add: str, name: str, typed: str, it: str, en: str
) -> None:
    chat = f"console:cond-{system}"
    assert (await say(app, f"/game new {system}", chat=chat)).ok
    assert (await say(app, add, chat=chat)).ok
    assert (await say(app, f"/unit cond {name} add {typed}", chat=chat, lang="it")).ok
    shown_it = plain.render(await say(app, f"/unit show {name}", chat=chat, lang="it"))
    shown_en = plain.render(await say(app, f"/unit show {name}", chat=chat, lang="en"))
    assert it in shown_it, shown_it
    assert en in shown_en, shown_en
