"""Retreat! (L1452-1459) counts the army's points lost: walking as a new player whose units had
no points (`pts=`), /inf retreat answered 'points lost 0 of 0 (0%) → no Retreat', a verdict on
nothing. A player with no points known is now told how to give them."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words


async def test_L1452_retreat_without_points_says_how_to_give_them(app: App) -> None:
    assert (await say(app, "/game new inf T", user="ann", name="Ann")).ok
    assert (await say(app, "/game join", user="bob", name="Bob")).ok
    line = "/unit add Angus cc=17 bs=12 ph=13 wip=13 arm=1 bts=0 w=1 type=1 lt=1"
    assert (await say(app, line, user="ann")).ok
    assert (await say(app, line.replace("Angus", "Wen") + " pts=20", user="bob")).ok
    text = plain.render(await say(app, "/inf retreat", user="ann"))
    assert "Ann: no unit has its points" in text and "/unit set Angus pts=" in text
    assert "0 of 0" not in text
    assert "Bob: points lost 0 of 20" in text
    it = plain.render(await say(app, "/inf ritirata", user="ann", lang="it"))
    assert "Ann: nessuna unità ha i suoi punti" in it
    assert not foreign_words("it", it, allow=("Ann", "Bob", "Angus"))
