"""The cached text drawing (bot.images.agg) draws exactly the pixels matplotlib's own Agg draws:
every chart, first draw and again from the caches, rotated labels, a label that moves by a
fraction of a pixel, Italian accents and symbols, and a full cache emptied mid-way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from bench import images_bench
from bot.images import agg
from bot.images import render as render_module
from bot.images.render import picture
from tests.images import golden


def with_plain_agg(render: Callable[[Any, Any], bytes]) -> Callable[[Any, Any], bytes]:
    """`render` drawn by matplotlib's own renderer: the canvas class swapped for the call, on
    new figures (a kept figure's canvas would keep its renderer)."""

    def plain(facts: Any, lang: Any) -> bytes:
        cached, kept = agg.Canvas.get_renderer, render_module._KEPT.__dict__.pop("figures", {})
        agg.Canvas.get_renderer = FigureCanvasAgg.get_renderer  # type: ignore[method-assign]
        try:
            return render(facts, lang)
        finally:
            agg.Canvas.get_renderer = cached  # type: ignore[method-assign]
            render_module._KEPT.figures = kept

    return plain


def all_cases() -> list[tuple[str, Callable[[Any, Any], bytes], Any, Any]]:
    cases = [(name, render, facts, lang) for name, render, facts, lang in golden.cases()]
    for name, make in images_bench.CASES:
        render, facts, lang = make()
        cases.append((name, render, facts, lang))
    return cases


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c[0])
def test_cached_text_draws_the_same_bytes_as_agg(case: tuple[str, Any, Any, Any]) -> None:
    _, render, facts, lang = case
    want = picture(with_plain_agg(render), facts, lang)
    assert picture(render, facts, lang) == want  # caches filled (or already full)
    assert picture(render, facts, lang) == want  # drawn from the caches


def test_text_at_every_fraction_of_a_pixel_and_angle() -> None:
    from bot.images.render import figure, to_png

    def draw(plain: bool) -> list[bytes]:
        out = []
        for step in range(0, 64, 7):  # positions a 64th of a pixel apart, and more
            fig = figure(200, 80)
            if plain:
                FigureCanvasAgg(fig)
            for angle in (0, 30, 90):
                x, y = 0.1 + step / 64 / 200, 0.3 + step / 64 / 80
                fig.text(x, y, "Perché ≥ 12,5%", rotation=angle)
            out.append(to_png(fig))
        return out

    assert draw(plain=False) == draw(plain=False) == draw(plain=True)


def test_a_full_cache_is_emptied_and_still_draws_right(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agg, "MAX_ENTRIES", 5)
    for cache in (agg._shapes, agg._bitmaps, agg._metrics):
        cache.clear()
    case = all_cases()[0]
    test_cached_text_draws_the_same_bytes_as_agg(case)
    assert len(agg._bitmaps) <= 5 and len(agg._shapes) <= 5


@pytest.mark.parametrize("case", all_cases()[:3], ids=lambda c: c[0])
def test_the_png_decodes_to_exactly_the_drawn_pixels(case: tuple[str, Any, Any, Any]) -> None:
    import io

    import numpy as np
    from PIL import Image

    from bot.images import odds_chart, stats_chart

    name, render, facts, lang = case
    draw = odds_chart.draw if render is odds_chart.render else stats_chart.draw
    fig = draw(facts, lang)
    data = render_module.to_png(fig)
    image = Image.open(io.BytesIO(data))
    image.load()  # (checks every chunk's CRC and the zlib stream)
    assert image.format == "PNG" and image.mode == "RGB"
    drawn = np.asarray(fig.canvas.buffer_rgba())[:, :, :3]  # type: ignore[attr-defined]
    assert np.array_equal(np.asarray(image), drawn), name
