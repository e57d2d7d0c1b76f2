"""Every `dice.*` key raised in the code exists in both catalogues with the same placeholders."""

from __future__ import annotations

import ast
import string
import tomllib
from pathlib import Path

import pytest

from bot import i18n
from bot.app import App
from tests.helpers import say

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "rules_core" / "dice").glob("*.py"))
LANGS = ["en", "it"]


def raised_keys() -> dict[str, set[str]]:
    """Key -> keyword parameters, from every `UserError("dice.…", ...)` call in the package."""
    found: dict[str, set[str]] = {}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "UserError"
            ):
                continue
            first = node.args[0]
            assert isinstance(first, ast.Constant) and isinstance(first.value, str)
            params = {kw.arg for kw in node.keywords if kw.arg is not None}
            key = first.value
            assert key.startswith("dice."), key
            assert found.setdefault(key, params) == params, f"{key} raised with other params"
    return found


def catalogue(lang: str) -> dict[str, str]:
    path = ROOT / "data" / "locales" / lang / "dice.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {f"dice.{k}": v for k, v in data["dice"].items()}


def placeholders(message: str | dict[str, str]) -> set[str]:
    """A message's parameters; a counted one's (a plural table) in any of its forms."""
    forms = message.values() if isinstance(message, dict) else [message]
    parsed = (string.Formatter().parse(form) for form in forms)
    return {name for parts in parsed for _, name, _, _ in parts if name is not None}


def test_grep_finds_the_raises() -> None:
    keys = raised_keys()
    text = "".join(p.read_text(encoding="utf-8") for p in SOURCES)
    assert text.count('UserError("dice.') >= len(keys) >= 20


@pytest.mark.parametrize("lang", LANGS)
def test_every_raised_key_has_a_message(lang: str) -> None:
    messages = catalogue(lang)
    for key, params in raised_keys().items():
        assert key in messages, f"{key} missing in {lang}"
        assert placeholders(messages[key]) == params, f"{key} placeholders differ in {lang}"


def test_catalogues_have_the_same_keys_and_no_strays() -> None:
    en, it = catalogue("en"), catalogue("it")
    assert set(en) == set(it) == set(raised_keys())
    for key in en:
        assert placeholders(en[key]) == placeholders(it[key]), key
        assert en[key] != it[key], key


# --- /roll with the players' own dice: every face given must be used ---------------------------


@pytest.mark.parametrize(
    ("text", "given", "used"),
    [
        ("/roll 2d6 dice=1,2,3", 3, 2),
        ("/roll d20 dice=4,5", 2, 1),
        ("/roll 2d6; d6 dice=1,2,3,4", 4, 3),
    ],
)
async def test_roll_with_a_face_too_many_says_so(
    app: App, text: str, given: int, used: int
) -> None:
    reply = await say(app, text)
    assert reply.error is not None and reply.error.code == "dice.unused_dice"
    assert f"{given} given, only {used} used" in reply.error.message
    history = await say(app, "/roll history")
    assert history.data == {"rolls": []}  # nothing was logged


async def test_roll_with_a_face_too_many_says_so_in_italian(app: App) -> None:
    reply = await say(app, "/roll 2d6 dice=1,2,3", lang="it")
    assert reply.error is not None and reply.error.code == "dice.unused_dice"
    assert reply.error.message == i18n.t("it", "dice.unused_dice", given=3, used=2)


async def test_roll_with_exactly_the_faces_needed_uses_them(app: App) -> None:
    reply = await say(app, "/roll 2d6 dice=1,2")
    assert reply.error is None and reply.data is not None and reply.data["total"] == 3


def test_italian_dice_messages_have_no_english_words() -> None:
    from tests.i18n_check import foreign_words

    with (ROOT / "data" / "locales" / "it" / "dice.toml").open("rb") as fh:
        tables = tomllib.load(fh)
    found = {
        f"{section}.{key}": words
        for section, entries in tables.items()
        for key, entry in entries.items()  # a counted message: a table of forms
        for text in (entry.values() if isinstance(entry, dict) else [entry])
        if (words := foreign_words("it", text))
    }
    assert found == {}
