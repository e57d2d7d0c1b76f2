"""The parsed catalogues kept between processes (bot/i18n.py): read back without parsing,
read afresh when a file changes, skipped when unreadable or unwritable."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bot import i18n


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    data, cache = tmp_path / "data", tmp_path / "cache"
    (data / "locales" / "en").mkdir(parents=True)
    (data / "locales" / "en" / "a.toml").write_text('[dice]\nempty = "Nothing"\n')
    (data / "locales" / "en" / "b.toml").write_text('[dice]\nempty = "Still nothing"\n')
    monkeypatch.setattr(i18n, "data_dir", lambda: data)
    monkeypatch.setattr(i18n, "cache_dir", lambda: cache)
    return data, cache


def load() -> dict[str, str]:
    return i18n.catalogue.__wrapped__("en")  # type: ignore[attr-defined,no-any-return]


def test_the_second_load_reads_the_cache_without_parsing(
    folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, cache = folders
    assert load() == {"dice.empty": "Still nothing"}  # files in name order: b's key wins
    assert len(list(cache.glob("catalogue-en-*.marshal"))) == 1

    def no_parsing(*_: Any) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(tomllib, "load", no_parsing)
    assert load() == {"dice.empty": "Still nothing"}


def test_an_edited_file_is_read_afresh_and_the_old_cache_dropped(
    folders: tuple[Path, Path],
) -> None:
    data, cache = folders
    load()
    file = data / "locales" / "en" / "b.toml"
    stat = file.stat()
    file.write_text('[dice]\nempty = "Edited"\nnew = "x"\n')
    os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert load() == {"dice.empty": "Edited", "dice.new": "x"}
    assert len(list(cache.glob("catalogue-en-*.marshal"))) == 1


def test_a_damaged_cache_is_parsed_over(folders: tuple[Path, Path]) -> None:
    _, cache = folders
    load()
    (cached,) = cache.glob("catalogue-en-*.marshal")
    cached.write_bytes(b"\x00not marshal")
    assert load() == {"dice.empty": "Still nothing"}


def test_an_unwritable_cache_folder_only_costs_the_parsing(
    folders: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setattr(i18n, "cache_dir", lambda: blocker / "cache")  # under a file
    assert load() == {"dice.empty": "Still nothing"}
