"""The board card (bot/images/board_card.py): its facts are the stored game's (the same as the
text board), the PNG decodes at the designed size, Italian labels carry no English word, and
the picture matches its golden image within a tolerance (`WARGAME_UPDATE_GOLDEN=1` rewrites
tests/board/golden/*.png)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image

from bot.app import App
from bot.images import board_card as bc
from rules_core.game.models import GameState
from tests.helpers import say
from tests.i18n_check import foreign_words
from tests.images.golden import TOLERANCE, mean_abs_diff

GOLDEN = Path(__file__).parent / "golden"
NAMES = ("Ann", "Bob", "Guards", "Iron", "Giant", "Orcs")


async def a_game(app: App, lang: str = "en") -> GameState:
    await say(app, "/game new gen Skirmish", user="u1", name="Ann", lang=lang)
    await say(app, "/game join North", user="u2", name="Bob", lang=lang)
    await say(app, "/unit add Guards wounds=2 models=5", user="u1", lang=lang)
    await say(app, '/unit add "Iron Giant" wounds=12', user="u2", lang=lang)
    await say(app, "/unit damage Guards 3", user="u1", lang=lang)
    await say(app, '/unit damage "Iron Giant" 8', user="u1", admin=True, lang=lang)
    await say(app, "/unit cond Guards add Shaken until=end-of-round", user="u1", lang=lang)
    await say(app, "/score add 3 Ann", user="u1", lang=lang)
    status = await say(app, "/game status", lang=lang)
    assert status.data is not None
    return GameState.model_validate(status.data["state"])


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_facts_are_the_stored_game(app: App, lang: str) -> None:
    state = await a_game(app, lang)
    card = bc.board_facts(state, lang)  # type: ignore[arg-type]
    assert [p.name for p in card.players] == ["Ann", "Bob (North)"]
    assert [p.current for p in card.players] == [state.current == "u1", state.current == "u2"]
    guards, giant = card.players[0].units[0], card.players[1].units[0]
    stored = {u.name: u for u in state.units}
    assert (guards.left, guards.most) == (stored["Guards"].wounds_left, stored["Guards"].max_wounds)
    assert (guards.left, guards.most, giant.left, giant.most) == (7, 10, 4, 12)
    assert guards.models == ("4/5 models" if lang == "en" else "4/5 modelli")
    assert card.players[0].score == ("3 VP" if lang == "en" else "3 PV")
    assert len(guards.conditions) == 1 and "Shaken" in guards.conditions[0]
    assert "1" in card.round_phase and card.turn is not None and "Ann" in card.turn
    assert "Guards 7/10" in card.alt and "Iron Giant 4/12" in card.alt
    if lang == "it":
        assert not foreign_words(
            "it",
            card.alt + "\n".join(card.players[0].units[0].conditions),
            (*NAMES, "Shaken", "North", "Skirmish"),
        )


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_the_png_decodes_at_its_size_and_matches_its_golden(app: App, lang: str) -> None:
    card = bc.board_facts(await a_game(app, lang), lang)  # type: ignore[arg-type]
    png = bc.render_board_card(card, lang)  # type: ignore[arg-type]
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == bc.size(card)
    assert_like_golden(png, f"board_{lang}")


async def test_an_ended_game_says_who_won(app: App) -> None:
    await a_game(app)
    await say(app, "/game end Ann", user="u1")
    history = await say(app, "/game history")
    assert history.ok
    state = await app_state(app)
    card = bc.board_facts(state, "it")
    assert card.ended is not None and "Ann" in card.ended
    assert bc.render_board_card(card, "it").startswith(b"\x89PNG")


async def app_state(app: App) -> GameState:
    from bot.storage import games

    async with app.db.transaction(write=False) as conn:
        (last,) = await games.history(conn, "console:test", 1)
    return last.state


def test_a_long_name_and_many_units_stay_on_the_card() -> None:
    units = [
        bc.BoardUnit(
            name="N" * 80, left=i, most=10, models=None, destroyed=None, conditions=["x" * 200]
        )
        for i in range(12)
    ]
    card = bc.BoardCard(
        game="Generic",
        title="T" * 90,
        round_phase="Round 1",
        turn=None,
        ended=None,
        players=[
            bc.BoardPlayer(name="P" * 70, score="0 VP", current=True, resources="cp 2", units=units)
        ],
        others=[],
        alt="",
    )
    image = Image.open(io.BytesIO(bc.render_board_card(card, "en")))
    assert image.size == bc.size(card) and image.size[1] > 12 * bc.UNIT


def assert_like_golden(png: bytes, name: str) -> None:
    """The card as its golden image within the pictures' tolerance (tests/images/golden.py)."""
    path = GOLDEN / f"{name}.png"
    if os.environ.get("WARGAME_UPDATE_GOLDEN") == "1" or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        assert os.environ.get("WARGAME_UPDATE_GOLDEN") == "1", f"{path} was missing: written"
    assert mean_abs_diff(png, path.read_bytes()) <= TOLERANCE, name
