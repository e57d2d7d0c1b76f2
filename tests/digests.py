"""The English rules digests (their section 6 lists each game's worked examples): tests read
them from the directory $WARGAME_DIGESTS names (CI: ../shared/rules-digests beside the clone);
unset, they skip with one reason. And the names of a test folder's test functions, which carry
the example ids the golden tests reproduce."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

ENV = "WARGAME_DIGESTS"
ROOT = Path(__file__).resolve().parents[1]


def read_digest(name: str) -> str:
    """One digest's text (a relative directory is taken from the project's root); skips the
    calling test when the variable is unset, at this one line so pytest folds the skips."""
    raw = os.environ.get(ENV, "").strip()
    if not raw:
        pytest.skip(f"rules digests not available: set {ENV} to their directory")
    folder = Path(raw).expanduser()
    return ((folder if folder.is_absolute() else ROOT / folder) / name).read_text(encoding="utf-8")


def golden_names_in(folder: Path) -> list[str]:
    """The names of the `test_*` functions (plain or async) in the folder's `test_*.py` files."""
    names: list[str] = []
    for path in sorted(folder.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names += [
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name.startswith("test_")
        ]
    return names
