"""Message catalogues: every user-visible string lives in data/locales/<lang>/*.toml.

Each TOML file is a tree of tables; keys are flattened to dotted paths (`[dice] empty = ...`
becomes `dice.empty`). Files of one language are merged, so each area owns its own file.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args

from bot.paths import cache_dir, data_dir

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
    """Every key of `lang`'s files, flattened (a later file's key wins, files in name order).

    Parsing the ~25 TOML files of a language was most of a one-command process's time
    (`wargame-bot ask`), so the flattened result is kept in the user's cache folder, named by a
    hash of the files' names, sizes and modification times (as Python's .pyc files are): an
    edited catalogue is read afresh, and a cache that can't be read or written is skipped."""
    folder = data_dir() / "locales" / lang
    with os.scandir(folder) as found:
        files = sorted((e.name, e.stat()) for e in found if e.name.endswith(".toml"))
    digest = hashlib.blake2b(str(folder).encode(), digest_size=16)
    for name, st in files:
        digest.update(f"\0{name}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    cached = _cache_file(lang, digest.hexdigest())
    out = _read_cached(cached)
    if out is None:
        import tomllib  # only when the cache misses

        out = {}
        for name, _ in files:
            with (folder / name).open("rb") as fh:
                _flatten("", tomllib.load(fh), out)
        _write_cached(cached, out)
    return out


def _cache_file(lang: Lang, digest: str) -> Path:
    return cache_dir() / f"catalogue-{lang}-{digest}.marshal"


def _read_cached(path: Path) -> dict[str, str] | None:
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(data, dict) or not all(
        type(k) is str and type(v) is str for k, v in data.items()
    ):
        return None  # not ours: parse the files
    return data


def _write_cached(path: Path, out: dict[str, str]) -> None:
    """Write atomically (another process may be reading it) and drop the language's older
    caches."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps(out))
        os.replace(tmp, path)
        prefix = path.name.rsplit("-", 1)[0] + "-"
        for old in path.parent.glob(f"{prefix}*.marshal"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only home: the next process parses the files again


def normalize_lang(code: str | None) -> Lang | None:
    """Map a client locale such as 'it-IT' or 'en_GB' to a supported language."""
    if not code:
        return None
    base = code.replace("_", "-").split("-", 1)[0].lower()
    for lang in LANGS:
        if lang == base:
            return lang
    return None


def choose_lang(
    *,
    override: str | None = None,
    chat: str | None = None,
    user: str | None = None,
    client: str | None = None,
    caller_only: bool = False,
) -> Lang:
    """The one rule for a reply's language: an explicit override (`ask --lang`) first; then the
    chat's language (`/lang` in the chat), else the user's own (`/lang` in their private chat),
    else their client's (`it-IT`), else English. A reply only its caller sees (`caller_only`:
    Discord's ephemeral replies) puts the caller's own language before the chat's."""
    order = (override, user, client, chat) if caller_only else (override, chat, user, client)
    return next((lang for lang in map(normalize_lang, order) if lang), DEFAULT_LANG)


class _SafeDict(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def readable(lang: Lang, name: str) -> str:
    """An option's name as a sentence shows it, its accents back (`accents.<word>`:
    `quantita` -> `quantità`, `difficolta` -> `difficoltà`); typed, both forms are accepted."""
    cat = catalogue(lang)
    return "_".join(cat.get(f"accents.{part}", part) for part in name.split("_"))


def has(key: str, lang: Lang = DEFAULT_LANG) -> bool:
    return key in catalogue(lang)


def t(lang: Lang, key: str, /, **params: Any) -> str:
    """Translate `key`; falls back to English, then to the key itself (never raises). A key
    that is a plural table (`key.one`, `key.other`) given `n` is counted: `tn(lang, key, n)`, so
    a message becomes plural-aware in the catalogue alone, its callers unchanged."""
    template = catalogue(lang).get(key) or catalogue(DEFAULT_LANG).get(key)
    if template is None:
        n = params.get("n")
        if isinstance(n, int | float) and has(f"{key}.other"):
            return tn(lang, key, n, **params)
        return key
    return template.format_map(_SafeDict(params))  # str.format's C parser, missing -> {name}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# --- Plurals and numbers (Babel: CLDR plural rules and number symbols per language) -------------
#
# A counted message is a table in the catalogue, one entry per CLDR plural category the language
# uses, `other` always present:  `units = { one = "{n} modello", other = "{n} modelli" }`
# (flattened to `units.one` / `units.other`). `tn` picks the category by the language's rule, so
# "1 modello", "2 modelli", "0 modelli" in Italian and "1 model", "0 models" in English.


@cache
def _locale(lang: Lang) -> Any:
    from babel import Locale  # lazy: Babel's locale data is not needed for a plain /roll

    return Locale.parse(lang)


def plural_category(lang: Lang, n: float) -> str:
    """CLDR plural category of `n` in `lang`: 'one', 'many', 'other', ..."""
    return str(_locale(lang).plural_form(abs(n)))


def tn(lang: Lang, key: str, n: float, /, **params: Any) -> str:
    """Translate a counted message: `key.<category>` for `n` (falls back to `key.other`, then to
    English). `{n}` in the template is `n` written the language's way (`fmt_num`)."""
    category = plural_category(lang, n)
    chosen = f"{key}.{category}"
    if not has(chosen, lang) and not has(chosen):
        chosen = f"{key}.other"
    params.setdefault("n", fmt_num(lang, n))
    return t(lang, chosen, **params)


def alternatives(lang: Lang, items: list[str]) -> str:
    """`a, b or c` / `a, b o c`: items joined the language's way (Babel's CLDR lists)."""
    from babel.lists import format_list

    return str(format_list(items, style="or", locale=_locale(lang))) if items else ""


def fmt_num(lang: Lang, x: float, digits: int | None = None) -> str:
    """A number the language's way: `7,5` / `7.5`, `1.234` / `1,234`. `digits` fixes the decimals
    (`fmt_num("it", 7, 2)` → `7,00`); None keeps an int an int and shows up to 2 decimals."""
    from babel.numbers import format_decimal

    if digits is None:
        pattern = "#,##0" if float(x).is_integer() else "#,##0.##"
    else:
        pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return str(format_decimal(x, format=pattern, locale=_locale(lang), decimal_quantization=True))


def fmt_pct(lang: Lang, p: float, digits: int = 1, *, bounds: bool = True) -> str:
    """A probability (0..1) as a percentage the language's way: `12,5%` / `12.5%`. With `bounds`,
    a chance that rounds to 0 or 100 but isn't is shown as `<0,1%` / `>99,9%`, never a false 0%."""
    from babel.numbers import format_percent

    pattern = "#,##0" + ("." + "0" * digits if digits else "") + "%"
    step = 10.0 ** -(digits + 2)  # the smallest chance shown: 0.1% with one digit
    if bounds and p in (0, 1):
        return str(format_percent(p, format="0%", locale=_locale(lang)))  # exact: "0%", "100%"
    if bounds and 0 < p < step / 2:
        return "<" + str(format_percent(step, format=pattern, locale=_locale(lang)))
    if bounds and 1 - step / 2 < p < 1:
        return ">" + str(format_percent(1 - step, format=pattern, locale=_locale(lang)))
    return str(format_percent(p, format=pattern, locale=_locale(lang), decimal_quantization=True))
