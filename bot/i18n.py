"""Message catalogues: every user-visible string lives in data/locales/<lang>/*.toml.

Each TOML file is a tree of tables; keys are flattened to dotted paths (`[dice] empty = ...`
becomes `dice.empty`). Files of one language are merged, so each area owns its own file.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal, get_args

from bot.paths import data_dir

Lang = Literal["en", "it"]
LANGS: tuple[Lang, ...] = get_args(Lang)
DEFAULT_LANG: Lang = "en"


def _flatten(prefix: str, tree: Mapping[str, Any], out: dict[str, str]) -> None:
    for key, value in tree.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, Mapping):
            _flatten(path, value, out)
        else:
            out[path] = str(value)


@cache
def catalogue(lang: Lang) -> dict[str, str]:
    out: dict[str, str] = {}
    folder = data_dir() / "locales" / lang
    for file in sorted(folder.glob("*.toml")):
        with file.open("rb") as fh:
            _flatten("", tomllib.load(fh), out)
    return out


def normalize_lang(code: str | None) -> Lang | None:
    """Map a client locale such as 'it-IT' or 'en_GB' to a supported language."""
    if not code:
        return None
    base = code.replace("_", "-").split("-", 1)[0].lower()
    for lang in LANGS:
        if lang == base:
            return lang
    return None


class _SafeDict(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def has(key: str, lang: Lang = DEFAULT_LANG) -> bool:
    return key in catalogue(lang)


def t(lang: Lang, key: str, /, **params: Any) -> str:
    """Translate `key`; falls back to English, then to the key itself (never raises)."""
    template = catalogue(lang).get(key) or catalogue(DEFAULT_LANG).get(key)
    if template is None:
        return key
    return template.format_map(_SafeDict(params))  # str.format's C parser, missing -> {name}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}
