"""The golden pictures the image tests compare with, and how to make them again.

Regenerate (after a deliberate change of a chart's look; look at the new files before committing):

    .venv/bin/python -m tests.images.golden

Each case is (file name, renderer, facts, language). A comparison passes when the picture has
the same size and its mean absolute difference per channel is at most TOLERANCE (of 255): a
font hinting or antialiasing change passes, a moved bar or a missing label does not.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.commands.odds_view import odds_views
from bot.i18n import Lang
from bot.images import odds_chart, stats_chart
from bot.images.render import picture

FOLDER = Path(__file__).parent / "golden"
TOLERANCE = 2.0


def odds_facts(text: str) -> odds_chart.OddsChart:
    """The chart /odds draws for `text` (each part labelled as typed)."""
    parts = [p.strip() for p in text.split(";")]
    return odds_chart.facts(list(zip(odds_views(text), parts, strict=True)))


STATS = stats_chart.StatsChart(
    name="Marco", rolls=57, played=4, won=3, luck_rolls=50, observed=190, expected=175.0,
    percentile=0.83,
)  # fmt: skip

Case = tuple[str, Callable[[Any, Lang], bytes], Any, Lang]


def cases() -> list[Case]:
    from tests.images.cards import samples  # the cards' own (grid, unit status cards)

    return [
        ("odds-2d6+3-ge-10-it.png", odds_chart.render, odds_facts("2d6+3>=10"), "it"),
        ("odds-3d6-10d10-en.png", odds_chart.render, odds_facts("3d6; 10d10"), "en"),
        ("stats-it.png", stats_chart.render, STATS, "it"),
        *samples.cases(),
    ]


def mean_abs_diff(a: bytes, b: bytes) -> float:
    """Mean absolute difference of two PNGs' RGB pixels (inf when their sizes differ)."""
    import numpy as np
    from PIL import Image

    x = np.asarray(Image.open(io.BytesIO(a)).convert("RGB"), dtype=np.int16)
    y = np.asarray(Image.open(io.BytesIO(b)).convert("RGB"), dtype=np.int16)
    if x.shape != y.shape:
        return float("inf")
    return float(np.abs(x - y).mean())


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for name, render, facts, lang in cases():
        path = FOLDER / name
        path.write_bytes(picture(render, facts, lang))
        print(path)


if __name__ == "__main__":
    main()
