"""Golden images of the cards, compared with a tolerance (anti-aliasing and font hinting may
move a few pixels between builds). `WARGAME_UPDATE_GOLDEN=1` rewrites them."""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
from PIL import Image

GOLDEN = Path(__file__).parent.parent / "golden" / "cards"
MEAN_TOLERANCE = 2.0  # mean absolute difference per channel, 0-255
CHANGED_SHARE = 0.02  # at most 2% of the pixels off by more than 64


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)


def assert_like_golden(png: bytes, name: str) -> None:
    path = GOLDEN / f"{name}.png"
    if os.environ.get("WARGAME_UPDATE_GOLDEN") == "1" or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        assert os.environ.get("WARGAME_UPDATE_GOLDEN") == "1", f"{path} was missing: written"
    got, want = pixels(png), pixels(path.read_bytes())
    assert got.shape == want.shape, f"{name}: {got.shape} != golden {want.shape}"
    diff = np.abs(got - want)
    assert diff.mean() <= MEAN_TOLERANCE, f"{name}: mean difference {diff.mean():.2f}"
    changed = float((diff.max(axis=2) > 64).mean())
    assert changed <= CHANGED_SHARE, f"{name}: {changed:.1%} of the pixels changed"
