"""Typed options everywhere (#20 item 5): every command that takes options declares them as one
`Args` class (`bot.commands.args`), and no handler reads the untyped dict `ctx.opts`. The
dispatcher (bot/app.py) keeps the dict, and a button's hidden guard is read by
`bot.session.sent_guard`; `Context` itself (bot/commands/context.py) holds it."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.commands import build_registry

ROOT = Path(__file__).resolve().parents[2]
HOLDER = ROOT / "bot" / "commands" / "context.py"  # `Context.opts` and `Context.args` live here


def test_no_handler_reads_the_options_dict() -> None:
    found = []
    for path in sorted((ROOT / "bot" / "commands").rglob("*.py")):
        if path == HOLDER:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found += [
            f"{path.relative_to(ROOT)}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "opts"
        ]
    assert not found, f"read the command's typed options (ctx.args(Cls)) instead: {found}"


def test_every_command_with_options_declares_them_as_a_class() -> None:
    untyped = [spec.name for spec in build_registry() if spec.options and spec.args is None]
    assert not untyped, f"declare these commands' options as an Args class (args=): {untyped}"
