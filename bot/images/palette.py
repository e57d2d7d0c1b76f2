"""The one palette and font of every picture.

Colours: Okabe & Ito's colour-blind-safe set (Color Universal Design, 2008), readable with
every common colour-vision deficiency; a picture never tells two things apart by colour alone
(a highlighted bar is also hatched, a line also has markers). Font: DejaVu Sans, which ships
with matplotlib (the same glyphs on every machine, so golden images compare; it has à, è, ≥).
"""

from __future__ import annotations

from typing import Final

BLACK: Final = "#000000"
ORANGE: Final = "#E69F00"
SKY_BLUE: Final = "#56B4E9"
GREEN: Final = "#009E73"  # bluish green
YELLOW: Final = "#F0E442"
BLUE: Final = "#0072B2"
VERMILLION: Final = "#D55E00"
PURPLE: Final = "#CC79A7"  # reddish purple
GREY: Final = "#999999"
WHITE: Final = "#FFFFFF"

# In this order when a picture needs several series (players, profiles).
SERIES: Final = (BLUE, ORANGE, GREEN, VERMILLION, SKY_BLUE, PURPLE, YELLOW, BLACK)

BASE: Final = SKY_BLUE  # ordinary bars
HIGHLIGHT: Final = VERMILLION  # what the question asked about (with HATCH)
HATCH: Final = "//"
LINE: Final = BLACK  # a cumulative line over bars
GRID: Final = "#DDDDDD"
TEXT: Final = "#222222"
BACKGROUND: Final = WHITE

FONT: Final = "DejaVu Sans"
TITLE_SIZE: Final = 13
LABEL_SIZE: Final = 10
TICK_SIZE: Final = 9

DPI: Final = 100  # pixels per inch of a figure: a 8 x 4.5 figure is 800 x 450 px


def series(i: int) -> str:
    """The colour of the i-th series (wraps after eight)."""
    return SERIES[i % len(SERIES)]
