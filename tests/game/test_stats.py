"""/stats: a player's rolls, luck and games in this chat, in both languages."""

from __future__ import annotations

from pathlib import Path

from bot.app import App
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words


async def test_stats_count_rolls_luck_and_games(tmp_path: Path) -> None:
    app = App(tmp_path / "s.sqlite3")
    await app.start()
    try:
        for text in ("/roll 2d6 dice=6,6", "/roll 1d6 dice=1", "/roll 5d6>=4 dice=1,2,3,4,5"):
            assert (await say(app, text, user="1", name="Ann")).error is None
        assert (await say(app, "/roll 1d6", user="2", name="Bob")).error is None
        for text, user in (
            ('/game new gen "Duel"', "1"),
            ("/game join", "2"),
            ("/game end Ann", "1"),
        ):
            assert (
                await say(app, text, user=user, name={"1": "Ann", "2": "Bob"}[user])
            ).error is None

        mine = await say(app, "/stats", user="1", name="Ann")
        assert mine.data is not None
        assert (mine.data["rolls"], mine.data["games"], mine.data["won"]) == (3, 1, 1)
        # 12 + 1 + 2 successes = 15 against 7 + 3.5 + 2.5 = 13 expected
        assert (mine.data["observed"], mine.data["expected"]) == (15, 13.0)
        assert 0.5 < mine.data["percentile"] < 1

        theirs = await say(app, "/statistiche Bob", user="1", name="Ann", lang="it")
        text = plain.render(theirs)
        assert theirs.data is not None and theirs.data["rolls"] == 1 and theirs.data["won"] == 0
        assert "1 tiro fatto." in text and "Partite: 0 vinte su 1 finita." in text
        assert "l'ultimo tiro" in text
        assert foreign_words("it", text, allow=["Bob"]) == []

        english = plain.render(mine)
        assert "3 rolls made." in english and "Games: 1 won of 1 finished." in english
        assert foreign_words("en", english, allow=["Ann"]) == []

        nobody = await say(app, "/stats Zed", user="1", name="Ann")
        assert nobody.error is not None and nobody.error.code == "stats.no_player"
    finally:
        await app.stop()
