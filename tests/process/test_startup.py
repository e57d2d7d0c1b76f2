"""What a one-command process loads (issue #26, fast start): checked by module, never timed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (
    "import sys\n"
    "from bot import cli\n"
    "code = cli.main(['ask', '/roll 2d6'])\n"
    "from pydantic.plugin import _loader\n"
    "print('SCANNED' if _loader._plugins is not None else '')\n"
    "print('LOADED', ' '.join(sorted(sys.modules)))\n"
    "sys.exit(code)\n"
)


def _ask_roll(home: Path) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "HOME": str(home), "WARGAME_BOT_DB": str(home / "b.db")},
    )
    assert out.returncode == 0, out.stderr
    assert "2d6 (" in out.stdout
    loaded = set(out.stdout.split("LOADED", 1)[1].split())
    if "SCANNED" in out.stdout:
        loaded.add("<pydantic plugins>")
    return loaded


def test_ask_roll_loads_no_game_system_no_fuzzy_matcher_and_no_toml_once_cached(
    tmp_path: Path,
) -> None:
    """`ask "/roll 2d6"` loads no game system (storage and the transitions import the systems'
    package, which loads a system on first use), no rapidfuzz (the 'did you mean' of a
    subcommand is looked for only when the options fail) and, from the second process on, no
    TOML parser (the catalogues come from the user's cache folder)."""
    first = _ask_roll(tmp_path)
    again = _ask_roll(tmp_path)
    assert list((tmp_path / ".cache" / "wargame-bot").glob("catalogue-*.marshal"))
    for loaded in (first, again):
        systems = {m for m in loaded if m.startswith("rules_core.systems.")}
        assert systems <= {"rules_core.systems.base"}, systems
        assert not {m for m in loaded if m == "rapidfuzz" or m.startswith("rapidfuzz.")}
    assert "tomllib" in first
    assert "tomllib" not in again


# Loaded by /odds (its view and chart, numpy for a wide product) and never by /roll.
ODDS_ONLY = {"bot.commands.odds_view", "bot.images.odds_chart", "bot.images.render", "numpy"}


def test_ask_roll_loads_neither_the_odds_view_nor_the_chart(tmp_path: Path) -> None:
    """`ask "/roll 2d6"` rolls: the /odds reply's view and chart are imported when /odds
    runs, not by every process that loads the dice commands."""
    loaded = _ask_roll(tmp_path)
    assert not ODDS_ONLY & loaded, sorted(ODDS_ONLY & loaded)


# Not needed to answer `/roll 2d6`: the settings come from a pydantic model filled by one lookup
# per field (python-dotenv only for a `.env` file), the worker pool's processes start with the
# first heavy command, and no pydantic plugin is looked for among the installed packages.
NOT_AT_START = {
    "pydantic_settings", "dotenv", "multiprocessing", "concurrent.futures.process",
    "<pydantic plugins>",
}  # fmt: skip


def test_ask_roll_loads_no_settings_library_no_process_pool_and_looks_for_no_plugin(
    tmp_path: Path,
) -> None:
    loaded = _ask_roll(tmp_path)
    assert not NOT_AT_START & loaded, sorted(NOT_AT_START & loaded)
