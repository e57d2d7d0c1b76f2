"""Every user-visible key exists in English and Italian, with the same placeholders."""

from __future__ import annotations

import re
from pathlib import Path

from bot import i18n
from bot.commands import all_specs

ROOT = Path(__file__).resolve().parents[2]
KEY_IN_CODE = re.compile(
    r"""(?:UserError|ctx\.t|i18n\.t\(\w+,)\(?\s*["']([a-z0-9_]+\.[a-z0-9_.]+)["']"""
)


def keys_used_in_code() -> set[str]:
    found: set[str] = set()
    for folder in ("bot", "rules_core"):
        for file in (ROOT / folder).rglob("*.py"):
            found.update(KEY_IN_CODE.findall(file.read_text(encoding="utf-8")))
    return found


def test_catalogues_have_the_same_keys_and_placeholders() -> None:
    en, it = i18n.catalogue("en"), i18n.catalogue("it")
    assert sorted(set(en) ^ set(it)) == []
    for key in en:
        assert i18n.placeholders(en[key]) == i18n.placeholders(it[key]), key


def test_every_key_used_in_code_exists() -> None:
    used = keys_used_in_code()
    assert len(used) > 30  # the scan itself works
    missing = sorted(k for k in used if not (i18n.has(k, "en") or i18n.has(k + ".other", "en")))
    assert missing == []


def test_every_command_and_option_is_described_in_both_languages() -> None:
    missing = []
    for spec in all_specs():
        keys = [spec.key + ".desc"] + [f"{spec.key}.opt.{o.name}" for o in spec.options]
        missing += [(lang, k) for k in keys for lang in i18n.LANGS if not i18n.has(k, lang)]
    assert missing == []


def test_translation_falls_back_and_formats() -> None:
    assert i18n.t("it", "cmd.int_range", option="n", min=1, max=3) == "n deve essere tra 1 e 3."
    assert i18n.t("it", "no.such.key") == "no.such.key"
    assert i18n.normalize_lang("it-IT") == "it"
    assert i18n.normalize_lang("en_GB") == "en"
    assert i18n.normalize_lang("de") is None
    # A parameter the caller forgot stays visible as its placeholder instead of raising.
    assert i18n.t("it", "cmd.int_range", option="n", min=1) == "n deve essere tra 1 e {max}."
    # User text inside a parameter is never parsed as a template.
    assert i18n.t("en", "cmd.int_range", option="{max}", min=1, max=3).startswith("{max}")
