"""The built-in rule entries: data/systems/<id>/rules/*.toml with the reader references of
data/systems/<id>/refs.toml (written by scripts/build_refs.py), validated and indexed once."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from pydantic import ValidationError

from bot.paths import data_dir
from rules_core.rules.index import RuleIndex
from rules_core.rules.models import RuleEntry, RuleFile, check_collection


class RuleDataError(RuntimeError):
    """A rule file is malformed: the message names the file and the entry."""


def rule_files(root: Path | None = None) -> list[Path]:
    base = (root or data_dir()) / "systems"
    return sorted(base.glob("*/rules/*.toml"))


@cache
def book_refs(system_dir: Path) -> dict[str, object]:
    """Entry id -> its reference in the printed book (raw, validated with the entry)."""
    path = system_dir / "refs.toml"
    if not path.is_file():
        return {}
    with path.open("rb") as fh:
        refs: dict[str, object] = tomllib.load(fh).get("refs", {})
    return refs


def load_file(path: Path) -> list[RuleEntry]:
    with path.open("rb") as fh:
        raw = tomllib.load(fh)
    refs = book_refs(path.parent.parent)
    for item in raw.get("entry", []):
        if isinstance(item, dict) and "ref" not in item and item.get("id") in refs:
            item["ref"] = refs[item["id"]]
    try:
        entries = RuleFile.model_validate(raw).entry
    except ValidationError as exc:
        first = exc.errors()[0]
        where = first["loc"]
        ident = "?"
        if len(where) >= 2 and isinstance(where[1], int):
            ident = str(raw.get("entry", [{}])[where[1]].get("id", f"entry #{where[1] + 1}"))
        raise RuleDataError(f"{path}: {ident}: {first['msg']} at {where}") from exc
    system = path.parent.parent.name
    for entry in entries:
        if entry.system != system:
            raise RuleDataError(f"{path}: {entry.id}: id does not start with '{system}.'")
    return entries


def load_entries(root: Path | None = None) -> list[RuleEntry]:
    entries: list[RuleEntry] = []
    for path in rule_files(root):
        entries += load_file(path)
    problems = check_collection(entries)
    if problems:
        raise RuleDataError("; ".join(problems[:10]))
    return entries


@cache
def rule_index() -> RuleIndex:
    return RuleIndex(load_entries())
