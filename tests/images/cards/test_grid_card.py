"""The WARMACHINE damage grid card: its facts are the stored grid (marks, crippled systems,
the Italian book's letters), the picture draws those facts, and it matches its golden image."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from bot.app import App
from bot.images.cards import grid as grid_image
from bot.images.cards.facts import GridCard, grid_card
from bot.images.render import picture
from rules_core.game.models import Unit
from rules_core.systems.wm import grid as grids
from tests.helpers import say
from tests.i18n_check import foreign_words
from tests.images.cards.samples import JACK, jack


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


async def stored_jack(app: App, *damage: str) -> Unit:
    await say(app, "/game new wm")
    assert (await say(app, f"/unit add Ironclad def=12 arm=18 grid={JACK}")).ok
    for line in damage:
        assert (await say(app, line)).ok, line
    reply = await say(app, "/unit show Ironclad")
    return Unit.model_validate(reply.data["unit"])  # type: ignore[index]


async def test_facts_are_the_stored_grid(app: App) -> None:
    unit = await stored_jack(app, "/unit damage Ironclad 8 column=2")
    grid = grids.Grid.model_validate(unit.extra["grid"])
    card = grid_card(unit, "en")
    assert card is not None
    assert {(b.column - 1, b.row) for b in card.boxes if b.marked} == grid.marked
    assert len(card.boxes) == grid.boxes == card.total
    assert card.left == grid.boxes - len(grid.marks)
    crippled = {b.system for b in card.boxes if b.crippled}
    assert crippled == set(grid.crippled()) and crippled  # 8 from column 2 takes the L arm
    assert card.crippled == [f"{k} {name}" for k, name in [("L", "left arm")] if k in crippled]


def test_letters_as_each_book_prints_them() -> None:
    unit = jack(8, 2)
    it, en = grid_card(unit, "it"), grid_card(unit, "en")
    assert it is not None and en is not None
    assert sorted({b.letter for b in it.boxes} - {""}) == ["C", "D", "M", "S"]
    assert sorted({b.letter for b in en.boxes} - {""}) == ["C", "L", "M", "R"]
    assert it.crippled == ["S braccio sinistro"]
    assert it.left_label == "28 caselle libere su 36"
    # a grid typed with the Italian letters reads the same system keys
    grid = grids.parse_grid(JACK.replace("L", "S").replace("R", "D"))
    same = Unit(name="X", owner="u", owner_name="A", extra={"grid": grid.model_dump()})
    card = grid_card(same, "en")
    assert card is not None and {b.letter for b in card.boxes} == {b.letter for b in en.boxes}


def test_no_grid_no_card() -> None:
    assert grid_card(Unit(name="Trencher", owner="u", owner_name="A"), "it") is None


@pytest.mark.parametrize("lang", ["it", "en"])
def test_labels_in_the_language(lang: str) -> None:
    card = grid_card(jack(40, 1), lang)  # type: ignore[arg-type]
    assert card is not None and card.disabled
    text = " ".join(
        [card.title, card.left_label, card.crippled_title, card.disabled, *card.crippled]
    )
    assert foreign_words(lang, text) == []  # type: ignore[arg-type]


def box_colour(png: bytes, card: GridCard, column: int, row: int) -> tuple[int, int, int]:
    x, y = grid_image.box_origin(column, row)
    px = pixels(png)
    return tuple(int(c) for c in px[y + 8, x + grid_image.CELL // 2])  # type: ignore[return-value]


def test_picture_draws_the_facts() -> None:
    card = grid_card(jack(8, 2), "it")
    assert card is not None
    png = picture(grid_image.render_grid, card, "it")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == grid_image.size(card)
    for box in card.boxes:
        colour = box_colour(png, card, box.column, box.row)
        want = grid_image.d.VERMILLION if box.marked else None
        if want:
            assert colour == want, box
        else:
            assert colour != grid_image.d.VERMILLION, box


async def test_a_write_s_picture_is_drawn_after_its_transaction_is_committed(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The grid after damage was rendered while the command held its write transaction, so
    every other chat's write waited for the picture (seconds in a cold worker)."""
    from bot.images import render

    drawn_while_held: list[bool] = []
    real_png = render.png

    async def watched(*args: object, **kwargs: object) -> bytes:
        drawn_while_held.append(app.db._lock.locked())  # type: ignore[attr-defined]
        return await real_png(*args, **kwargs)  # type: ignore[arg-type]

    await stored_jack(app)
    monkeypatch.setattr(render, "png", watched)
    damaged = await say(app, "/unit damage Ironclad 8 column=2")
    assert damaged.ok and [a.filename for a in damaged.attachments if a.is_image]
    assert drawn_while_held == [False]
    both = await say(app, "/unit damage Ironclad 1 column=3\n/unit damage Ironclad 1 column=4")
    assert both.ok and len([a for a in both.attachments if a.is_image]) == 2
    assert drawn_while_held == [False, False, False]
