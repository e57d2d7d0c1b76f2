"""Typed options everywhere (#20 item 5): every command that takes options declares them as one
`Args` class (`bot.commands.args`), and no handler reads the untyped dict `ctx.opts`. The
dispatcher (bot/app.py) keeps the dict, a button's hidden guard is read by
`bot.session.sent_guard`, and `Context` itself (bot/commands/context.py) holds it."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.commands import build_registry
from bot.commands.spec import CommandSpec

ROOT = Path(__file__).resolve().parents[2]
HOLDER = "bot/commands/context.py"  # `Context.opts` and `Context.args` live here

# Still being converted when this test was written (/compare; the fallback in system_kit
# serves its options tuples until then). Delete an entry once it is
# converted: the test then holds it to the rule.
PENDING_FILES = (
    "bot/commands/compare.py",
    "bot/commands/system_kit.py",
)


def _pending_spec(spec: CommandSpec) -> bool:
    return spec.path[-1] == "compare"


def test_no_handler_reads_the_options_dict() -> None:
    found = []
    for path in sorted((ROOT / "bot" / "commands").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name == HOLDER or name.startswith(PENDING_FILES):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found += [
            f"{name}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "opts"
        ]
    assert not found, f"read the command's typed options (ctx.args(Cls)) instead: {found}"


def test_every_command_with_options_declares_them_as_a_class() -> None:
    untyped = [
        spec.name
        for spec in build_registry()
        if spec.options and spec.args is None and not _pending_spec(spec)
    ]
    assert not untyped, f"declare these commands' options as an Args class (args=): {untyped}"
