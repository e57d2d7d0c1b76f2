"""Where the shipped data folder lives: beside the source in a checkout, in the wheel otherwise."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def data_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "_data", here.parent / "data"):
        if (candidate / "locales").is_dir():
            return candidate
    raise RuntimeError("data folder not found (expected data/locales beside the bot package)")
