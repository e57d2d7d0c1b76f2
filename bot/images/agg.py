"""Matplotlib's Agg canvas with its text drawing cached: the same pixels, half a chart's time.

Matplotlib 3.11 draws text one glyph at a time in Python: per glyph a transform built with
numpy and a FreeType render; each text shaped again on every draw. A chart is mostly text
(ticks, titles, legend), so that was half of a render. A worker draws the same few dozen
strings picture after picture, so `Renderer` keeps what a draw computed:

- a string's shaping (glyphs and their offsets), per font, size, resolution and hinting;
- a glyph's bitmap, per font, size, angle and its position's fraction of a pixel (1/64):
  FreeType renders a glyph moved by whole pixels as the same bitmap moved by those pixels, so
  the cached one is pasted where FreeType would have drawn it (the same bytes: golden tests);
- the font's line metrics (`Text._get_layout` reads them from the font's tables per text).

Only plain, antialiased text is cached (what every picture draws: `text.parse_math` is off);
anything else goes to Agg's own drawing. Both caches are bounded (emptied when full): a label
users type can't grow a worker's memory.

The private matplotlib calls this uses (`FT2Font._layout`, `_set_transform`, `_render_glyph`,
the C renderer's `draw_text_image`) are those of `RendererAgg.draw_text` in the locked version;
the golden image tests fail if an upgrade changes them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag
from matplotlib.font_manager import FontProperties, fontManager, get_font
from matplotlib.ft2font import RenderMode

MAX_ENTRIES = 20_000
"""Shapings, glyphs or metrics kept per process before that cache is emptied; a chart has a
few hundred glyphs, so this is many pictures' worth (about 1 MB of bitmaps)."""

Glyph = tuple[Any, int, float, float]  # FT2Font, glyph index, offset x, offset y (upwards)
_shapes: dict[tuple[Any, ...], list[Glyph]] = {}
_bitmaps: dict[tuple[Any, ...], tuple[np.ndarray[Any, Any], int, int]] = {}
_metrics: dict[tuple[Any, ...], tuple[float, float, float]] = {}


def _bounded(cache: dict[Any, Any]) -> dict[Any, Any]:
    if len(cache) >= MAX_ENTRIES:
        cache.clear()
    return cache


class Renderer(RendererAgg):
    """`RendererAgg` with the text caches above."""

    def draw_text(
        self,
        gc: Any,
        x: float,
        y: float,
        s: str,
        prop: FontProperties,
        angle: float,
        ismath: bool | str = False,
        mtext: Any = None,
    ) -> None:
        if ismath or not gc.get_antialiased():
            super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)  # type: ignore[no-untyped-call]
            return
        flags = get_hinting_flag()  # type: ignore[no-untyped-call]
        features = mtext.get_fontfeatures() if mtext is not None else None
        language = mtext.get_language() if mtext is not None else None
        font = get_font(fontManager._find_fonts_by_props(prop))
        size = prop.get_size_in_points()
        key = (s, font, size, self.dpi, flags, features and tuple(features), language)
        glyphs = _shapes.get(key)
        if glyphs is None:
            font = self._prepare_font(prop)  # type: ignore[no-untyped-call]
            items = font._layout(s, flags=flags, features=features, language=language)
            glyphs = [(i.ft_object, i.glyph_index, i.x, i.y) for i in items]
            _bounded(_shapes)[key] = glyphs
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        height = self.height
        for glyph_font, index, dx, dy in glyphs:  # dy is upwards, y downwards
            tx = round(0x40 * (x + dx * cos - dy * sin))
            ty = round(0x40 * (height - y + dx * sin + dy * cos))  # FreeType's y is upwards
            bkey = (glyph_font, size, self.dpi, flags, index, angle, tx & 0x3F, ty & 0x3F)
            cached = _bitmaps.get(bkey)
            if cached is None:
                glyph_font.set_size(size, self.dpi)
                glyph_font._set_transform(
                    (0x10000 * np.array([[cos, -sin], [sin, cos]])).round().astype(int),
                    [tx & 0x3F, ty & 0x3F],
                )
                bitmap = glyph_font._render_glyph(index, flags, RenderMode.NORMAL)
                cached = (np.array(bitmap.buffer), bitmap.left, bitmap.top)
                _bounded(_bitmaps)[bkey] = cached
            buffer, left, top = cached
            self._renderer.draw_text_image(  # y: downwards, the bitmap's bottom side
                buffer, left + (tx >> 6), int(height) - (top + (ty >> 6)) + buffer.shape[0], 0, gc
            )

    def _get_font_height_metrics(self, prop: FontProperties) -> tuple[float, float, float]:
        """(ascent, descent, line gap) in pixels, as `Text._get_layout` reads them itself."""
        font = get_font(fontManager._find_fonts_by_props(prop))
        size = prop.get_size_in_points()
        key = (font, size, self.dpi)
        found = _metrics.get(key)
        if found is not None:
            return found
        tables: Any = font  # (the stubs type each table apart)
        for table, gap, ascent, descent in (
            ("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
            ("hhea", "lineGap", "ascent", "descent"),
        ):
            values = tables.get_sfnt_table(table)
            if values is not None:  # the same arithmetic as Text's, to the last bit
                scale = 1 / tables.get_sfnt_table("head")["unitsPerEm"] * size * self.dpi / 72
                found = (values[ascent] * scale, -values[descent] * scale, values[gap] * scale)
                _bounded(_metrics)[key] = found
                return found
        return (None, None, None)  # type: ignore[return-value]  # Text measures "lp" itself


class Canvas(FigureCanvasAgg):
    """`FigureCanvasAgg` drawing with `Renderer`."""

    def get_renderer(self) -> Renderer:
        w, h = self.get_width_height(physical=True)
        key = w, h, self.figure.dpi
        if self._lastKey != key:
            self.renderer = Renderer(w, h, self.figure.dpi)  # type: ignore[no-untyped-call]
            self._lastKey = key
        renderer: Renderer = self.renderer
        return renderer
