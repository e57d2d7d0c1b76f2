"""The WARMACHINE damage grid as the card prints it: six numbered columns of boxes read top
to bottom, system boxes lettered, marked boxes filled and crossed, a crippled system's boxes
framed, then the boxes left and the crippled systems by name."""

from __future__ import annotations

from bot.i18n import Lang
from bot.images.cards import draw as d
from bot.images.cards.facts import GridCard

MARGIN = 16
CELL = 44
GAP = 6
HEADER = 64
NUMBERS = 26
LINE = 24
WIDTH = 2 * MARGIN + 6 * CELL + 5 * GAP


def size(card: GridCard) -> tuple[int, int]:
    """The image's size: fixed width, one row of boxes per grid row, a line per footer item."""
    footer = 1 + (1 + len(card.crippled) if card.crippled else 0) + (1 if card.disabled else 0)
    height = HEADER + NUMBERS + card.rows * (CELL + GAP) + GAP + footer * LINE + MARGIN
    return WIDTH, height


def box_origin(column: int, row: int) -> tuple[int, int]:
    """The top-left pixel of the box at `column` (1-6) and `row` (0 = top)."""
    return MARGIN + (column - 1) * (CELL + GAP), HEADER + NUMBERS + row * (CELL + GAP)


def render_grid(card: GridCard, lang: Lang) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size(card), d.PAPER)
    pen = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    pen.text(
        (MARGIN, 12),
        d.fit(pen, card.name, d.font(22, True), inner),
        fill=d.INK,
        font=d.font(22, True),
    )
    pen.text((MARGIN, 40), card.title, fill=d.MUTED, font=d.font(14))
    numbers = d.font(15, True)
    for column in range(1, 7):
        x, _ = box_origin(column, 0)
        pen.text(
            (x + CELL / 2, HEADER + NUMBERS / 2 - 2),
            str(column),
            fill=d.INK,
            font=numbers,
            anchor="mm",
        )
    letters = d.font(20, True)
    for box in card.boxes:
        x, y = box_origin(box.column, box.row)
        rect = (x, y, x + CELL - 1, y + CELL - 1)
        fill = d.VERMILLION if box.marked else (d.PANEL if box.system else d.PAPER)
        pen.rectangle(rect, fill=fill, outline=d.INK, width=2)
        if box.marked:  # a cross as well as the colour: readable without colour vision
            pen.line((x + 6, y + 6, x + CELL - 7, y + CELL - 7), fill=d.PAPER, width=3)
            pen.line((x + 6, y + CELL - 7, x + CELL - 7, y + 6), fill=d.PAPER, width=3)
        if box.crippled:
            pen.rectangle((x - 3, y - 3, x + CELL + 2, y + CELL + 2), outline=d.ORANGE, width=3)
        if box.letter:
            colour = d.INK if not box.marked else d.PAPER
            pen.text(
                (x + CELL / 2, y + CELL / 2),
                box.letter,
                fill=colour,
                font=letters,
                anchor="mm",
                stroke_width=2 if box.marked else 0,
                stroke_fill=d.VERMILLION,
            )
    y = HEADER + NUMBERS + card.rows * (CELL + GAP) + GAP
    body, bold = d.font(15), d.font(15, True)
    pen.text((MARGIN, y), d.fit(pen, card.left_label, body, inner), fill=d.INK, font=body)
    y += LINE
    if card.crippled:
        pen.text((MARGIN, y), card.crippled_title, fill=d.INK, font=bold)
        y += LINE
        for item in card.crippled:
            pen.rectangle((MARGIN, y + 3, MARGIN + 12, y + 15), outline=d.ORANGE, width=3)
            pen.text((MARGIN + 20, y), d.fit(pen, item, body, inner - 20), fill=d.INK, font=body)
            y += LINE
    if card.disabled:
        pen.text((MARGIN, y), card.disabled, fill=d.VERMILLION, font=bold)
    return d.png(image)
