"""Every option a rules_core request builder reads is one some command declares.

The builders take the options the bot parsed as a plain mapping (`opts`), so a name read there
that no command declares is dead: the player can never set it, and the rule it guards never
applies. (Found: C5 shooting read `printed_fire`, which no command had.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.commands import all_specs

ROOT = Path(__file__).resolve().parents[2]
BUILDERS = sorted((ROOT / "rules_core" / "systems").glob("*/request*.py"))


def _is_opts(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "opts"


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def options_read(path: Path) -> set[str]:
    """Names read as `opts.get("x")`, `opts["x"]`, `f(opts, "x", …)` or `mod_option="x"`."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Subscript) and _is_opts(node.value):
            names.add(_text(node.slice) or "")
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "get" and _is_opts(func.value):
                names.add(_text(node.args[0]) or "")
            for before, after in zip(node.args, node.args[1:], strict=False):
                if _is_opts(before):
                    names.add(_text(after) or "")
            names.update(_text(k.value) or "" for k in node.keywords if k.arg == "mod_option")
    names.discard("")
    return names


def test_the_scan_finds_what_a_builder_reads() -> None:
    c5 = ROOT / "rules_core" / "systems" / "c5" / "requests.py"
    # one of each form: .get, a helper's option argument, the wound modifier's keyword
    assert {"fire", "aim", "wound_mod"} <= options_read(c5)


@pytest.mark.parametrize("path", BUILDERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_option_read_is_declared(path: Path) -> None:
    declared = {option.name for spec in all_specs() for option in spec.options}
    assert options_read(path) - declared == set()
