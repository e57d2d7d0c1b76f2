"""Settings come from the environment over a `.env` file, by field name in any case."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import load_settings

ROOT = Path(__file__).resolve().parents[2]


def test_a_variable_is_read_in_any_case_and_unknown_ones_are_ignored(tmp_path: Path) -> None:
    settings = load_settings(
        {"WARGAME_BOT_DB": "league.sqlite3", "discord_shard_count": "4", "UNRELATED": "x"},
        env_file=None,
    )
    assert settings.db_path == Path("league.sqlite3")
    assert settings.discord_shard_count == 4
    assert settings.wargame_bot_log_level == "INFO"  # the default
    assert settings.model_fields_set == {"wargame_bot_db", "discord_shard_count"}


def test_the_environment_wins_over_the_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# the operator's file\nWARGAME_BOT_LOG_LEVEL=DEBUG\nTELEGRAM_TOKEN='123:abc'\n"
        "WARGAME_BOT_DB=from-file.sqlite3\n",
        encoding="utf-8",
    )
    settings = load_settings({"WARGAME_BOT_DB": "from-env.sqlite3"}, env_file=env_file)
    assert settings.db_path == Path("from-env.sqlite3")
    assert settings.wargame_bot_log_level == "DEBUG"
    assert settings.telegram_token is not None
    assert settings.telegram_token.get_secret_value() == "123:abc"
    assert "123:abc" not in repr(settings)


def test_shard_ids_are_read_as_the_environment_writes_them() -> None:
    settings = load_settings(
        {"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "0, 2"}, env_file=None
    )
    assert settings.discord_shard_ids == (0, 2)


def test_a_bad_value_names_its_variable() -> None:
    with pytest.raises(ValidationError) as err:
        load_settings({"WARGAME_BOT_METRICS_PORT": "http"}, env_file=None)
    assert [e["loc"] for e in err.value.errors()] == [("wargame_bot_metrics_port",)]


def test_the_env_file_reader_is_imported_only_when_there_is_a_file(tmp_path: Path) -> None:
    """python-dotenv is no part of a start without a `.env` (issue #26, fast start)."""
    script = (
        "import sys\nfrom bot.config import load_settings\n"
        "s = load_settings()\nprint(s.wargame_bot_log_level, 'dotenv' in sys.modules)\n"
    )
    run = [sys.executable, "-c", script]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    without = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert without.stdout.split() == ["INFO", "False"], without.stderr
    (tmp_path / ".env").write_text("WARGAME_BOT_LOG_LEVEL=ERROR\n", encoding="utf-8")
    with_file = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert with_file.stdout.split() == ["ERROR", "True"], with_file.stderr
