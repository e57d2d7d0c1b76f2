"""A unit's status card (Age of Sigmar, Infinity, Confrontation, WoW and the rest): the game's
band, the name and owner, a health bar with its numbers and models left, the board stats,
then the game's states, the conditions and (WoW) the Action Bar, one line each."""

from __future__ import annotations

from bot.i18n import Lang
from bot.images.cards import draw as d
from bot.images.cards.facts import UnitCard

WIDTH = 480
MARGIN = 18
BAND = 30
NAME = 62
HEALTH = 56
STATS = 52
LINE = 24
SECTION = 28


def sections(card: UnitCard) -> list[tuple[str, list[str]]]:
    """The text sections under the stats, each with its lines (empty ones left out)."""
    out = [(card.states_title, card.states), (card.conditions_title, card.conditions)]
    if card.lines_title:
        out.append((card.lines_title, card.lines))
    return [(title, lines) for title, lines in out if lines]


def size(card: UnitCard) -> tuple[int, int]:
    height = BAND + NAME + HEALTH + (STATS if card.stats else 0)
    height += sum(SECTION + LINE * len(lines) for _, lines in sections(card))
    return WIDTH, height + MARGIN


def render_unit_card(card: UnitCard, lang: Lang) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size(card), d.PAPER)
    pen = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    pen.rectangle((0, 0, WIDTH, BAND - 1), fill=d.BLUE)
    pen.text((MARGIN, BAND / 2), card.game, fill=d.PAPER, font=d.font(14, True), anchor="lm")
    y = BAND + 8
    name = d.font(24, True)
    pen.text((MARGIN, y), d.fit(pen, card.name, name, inner), fill=d.INK, font=name)
    small = d.font(14)
    pen.text((MARGIN, y + 32), d.fit(pen, card.owner, small, inner), fill=d.MUTED, font=small)
    y = BAND + NAME
    body, bold = d.font(15), d.font(15, True)
    numbers = f"{card.health_label} {card.left}/{card.most}"
    pen.text((MARGIN, y), numbers, fill=d.INK, font=bold)
    if card.models:
        pen.text((WIDTH - MARGIN, y), card.models, fill=d.INK, font=body, anchor="ra")
    bar = (MARGIN, y + 24, WIDTH - MARGIN, y + 40)
    pen.rectangle(bar, fill=d.PANEL, outline=d.INK, width=1)
    if card.most > 0 and card.left > 0:
        filled = round((bar[2] - bar[0] - 2) * card.left / card.most)
        colour = d.GREEN if card.left * 2 > card.most else d.ORANGE
        pen.rectangle((bar[0] + 1, bar[1] + 1, bar[0] + 1 + filled, bar[3] - 1), fill=colour)
    y += HEALTH
    if card.stats:
        cell = inner // max(1, len(card.stats))
        for i, stat in enumerate(card.stats):
            x = MARGIN + i * cell
            pen.rectangle((x + 2, y, x + cell - 2, y + STATS - 8), fill=d.PANEL)
            pen.text(
                (x + cell / 2, y + 12),
                d.fit(pen, stat.label, small, cell - 8),
                fill=d.MUTED,
                font=small,
                anchor="mm",
            )
            pen.text((x + cell / 2, y + 32), stat.value, fill=d.INK, font=bold, anchor="mm")
        y += STATS
    for title, lines in sections(card):
        pen.text((MARGIN, y + 6), title, fill=d.BLUE, font=bold)
        y += SECTION
        for line in lines:
            pen.text(
                (MARGIN + 10, y), d.fit(pen, "• " + line, body, inner - 10), fill=d.INK, font=body
            )
            y += LINE
    return d.png(image)
