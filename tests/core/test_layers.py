"""Boundaries import-linter cannot see (it checks imports, not attribute use or calls), and one
rule about the tests themselves:

- adapters reach storage only through `App` (`save_buttons`, `button_command`, `load_value`,
  `save_value`, `try_hold`), never `app.db`;
- a command handler never re-dispatches through the registry or the app (one command, one
  handler run: `App.handle` is the only dispatcher);
- the request's language is decided once per request (`session.request_lang`), also on the
  error path;
- every `pytest.raises(UserError)` in the suite checks which error it was (its message key).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import session
from bot.app import App
from bot.protocol import Request

ROOT = Path(__file__).resolve().parents[2]


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _attributes(path: Path) -> Iterator[tuple[int, str]]:
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Attribute):
            yield node.lineno, node.attr


def test_adapters_never_reach_the_database_themselves() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "bot" / "adapters").glob("*.py"))
        for line, name in _attributes(path)
        if name == "db"
    ]
    assert not found, f"adapters use app.db (add an App method instead): {found}"


# What running another command looks like from inside a handler.
_DISPATCH = {"handle", "_handle", "_handle_batch", "_run_macro", "handler", "resolve"}


def test_no_handler_re_dispatches_a_command() -> None:
    found = []
    for path in sorted((ROOT / "bot" / "commands").rglob("*.py")):
        for node in ast.walk(_tree(path)):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            if node.func.attr in _DISPATCH:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.func.attr}(")
    assert not found, found


def test_commands_never_decide_the_language_again() -> None:
    """Handlers read `ctx.lang`; only the app (and the session rule it calls) decides it."""
    deciders = {"request_lang", "choose_lang", "lang_for", "fallback_lang"}
    found = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in sorted((ROOT / "bot" / "commands").rglob("*.py"))
        for line, name in _attributes(path)
        if name in deciders
    ]
    assert not found, found


@pytest.fixture
async def counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    calls: list[str] = []
    real = session.request_lang

    async def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[1].text)
        return await real(*args, **kwargs)

    monkeypatch.setattr(session, "request_lang", counting)
    app = App(tmp_path / "lang.sqlite3")
    await app.start()
    try:
        yield app, calls
    finally:
        await app.stop()


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("/roll 2d6", None),  # a reply
        ("/roll 2d6 dice=9,9", "dice.given_out_of_range"),  # the handler refuses
        ("/inf attack attr=12 arm=25", "cmd.int_range"),  # the option check refuses
        ("/rol 2d6", "cmd.unknown_hint"),  # no command at all
    ],
)
async def test_the_language_is_decided_once_per_request(
    counted: Any, text: str, error: str | None
) -> None:
    app, calls = counted
    request = Request(
        platform="telegram", chat_key="telegram:5", user_id="7", user_name="Ann", text=text
    )
    reply = await app.handle(request)
    assert (reply.error.code if reply.error else None) == error
    assert calls == [text]


def _names(node: ast.expr) -> set[str]:
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Attribute):
        return {node.attr}
    if isinstance(node, ast.Tuple):
        return {name for item in node.elts for name in _names(item)}
    return set()


def _unchecked_raises(path: Path) -> Iterator[str]:
    """`with pytest.raises(UserError…)` blocks with no `match=` and whose `as err` is never
    followed by a look at `err.value.key` in the same test."""
    tree = _tree(path)
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        checked = {
            node.value.value.id
            for node in ast.walk(fn)
            if isinstance(node, ast.Attribute)
            and node.attr == "key"
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "value"
            and isinstance(node.value.value, ast.Name)
        }
        for block in ast.walk(fn):
            if not isinstance(block, ast.With | ast.AsyncWith):
                continue
            for item in block.items:
                call = item.context_expr
                if not (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute | ast.Name)
                    and (_names(call.func) & {"raises"})
                    and call.args
                    and _names(call.args[0]) & {"UserError", "UnknownCommand"}
                ):
                    continue
                if any(k.arg == "match" for k in call.keywords):
                    continue
                var = item.optional_vars
                if isinstance(var, ast.Name) and var.id in checked:
                    continue
                yield f"{path.relative_to(ROOT)}:{block.lineno} {fn.name}"


def test_every_user_error_a_test_expects_is_named() -> None:
    found = [
        where
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for where in _unchecked_raises(path)
    ]
    assert not found, "pytest.raises(UserError) without a key check:\n" + "\n".join(found)


# A rulebook reference as the rules code writes it: a transcript line (L1374, L1374-1389), a
# WoW rule number (301.2b, 601.1b; not 300.0 or 127.0.0.1), a Confrontation paragraph (§8.2,
# @64709). `/rule`'s own module handles references as data (`/rule 301.2`) and is left out.
_CITATION = re.compile(r"\bL\d{3,5}\b|\b[1-9]\d{2}\.[1-9]\d?[a-z]?\b(?!\.)|§\s?\d|@\d{4,}")
_REFERENCES_AS_DATA = {"bot/commands/rules.py"}


def test_no_rulebook_citation_lives_under_bot() -> None:
    """Rules and their references live in rules_core; `bot/` declares, calls and renders, so a
    citation there means a rule (or a note about one) in the wrong layer."""
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if str(path.relative_to(ROOT)) not in _REFERENCES_AS_DATA
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if _CITATION.search(line)
    ]
    assert found == []
