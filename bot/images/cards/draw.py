"""What the Pillow cards share: the pictures' one palette (`bot.images.palette`) as RGB, the
font as a file, text fitting and PNG bytes.

The font is the palette's DejaVu Sans, the file matplotlib ships: the same glyphs on every
machine, accents and `✔ ✘` included, so golden images hold across hosts. Pillow is imported
inside the functions (the renderers run in the worker pool).
"""

from __future__ import annotations

import importlib.util
import io
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from bot.images import palette

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont


def rgb(hex_colour: str) -> tuple[int, int, int]:
    """`#D55E00` -> (213, 94, 0)."""
    value = int(hex_colour.removeprefix("#"), 16)
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF


INK = rgb(palette.TEXT)
PAPER = rgb(palette.BACKGROUND)
BLUE = rgb(palette.BLUE)
ORANGE = rgb(palette.ORANGE)  # a crippled system's frame
VERMILLION = rgb(palette.HIGHLIGHT)  # a marked box (crossed as well: never colour alone)
GREEN = rgb(palette.GREEN)
MUTED = (110, 110, 110)  # neutral greys: secondary text, a system box's and a stat's ground
PANEL = (242, 242, 242)


@cache
def _font_dir() -> Path:
    spec = importlib.util.find_spec("matplotlib")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(_font_dir() / name), size)


def fit(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont, width: int) -> str:
    """`text` cut with an ellipsis to fit `width` pixels (a long unit name stays one line)."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


def png(image: Image.Image) -> bytes:
    """The image as PNG bytes (no metadata: the same card gives the same bytes)."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()
