"""What the cards share: fonts, the colour-blind-safe palette, text fitting and PNG bytes.

Fonts are the DejaVu faces matplotlib ships (a dependency already): the same glyphs on every
machine, accents and `✔ ✘` included, so golden images hold across hosts. Pillow is imported
lazily, by the renderers' callers in the worker pool.
"""

from __future__ import annotations

import importlib.util
import io
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

# Okabe & Ito's palette (safe for the common colour-vision deficiencies), as on the charts.
INK = (34, 34, 34)
MUTED = (110, 110, 110)
PAPER = (255, 255, 255)
PANEL = (242, 242, 242)
BLUE = (0, 114, 178)
SKY = (86, 180, 233)
ORANGE = (230, 159, 0)
VERMILLION = (213, 94, 0)
GREEN = (0, 158, 115)
YELLOW = (240, 228, 66)


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
