"""Discord in Italian, end to end (#24 item 4): the real discord.py client syncs its commands to
the fake Discord on 127.0.0.1, and the payload it uploads names and describes every command,
subcommand, option and choice in Italian, within Discord's rules, in words an Italian reads."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.discord_commands import build
from bot.commands import build_registry
from tests.discord import harness
from tests.i18n.test_catalogues import PROPER_NAMES, prose
from tests.i18n_check import foreign_words

NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's ^[-_\p{L}\p{N}]{1,32}$ (\w: letters, digits, _)
GAME_CODES = {"aos", "c5", "inf", "wm", "wow", "c5-phase"}
SAME_IN_BOTH = {"macro"}  # an Italian word too (/macro salva, /macro esegui)


async def uploaded(tmp_path: Path) -> list[dict[str, Any]]:
    async with harness.running(tmp_path) as env:
        (body,) = [b for m, p, b in env.fake.calls if m == "PUT" and p.endswith("/commands")]
    assert isinstance(body, list)
    return body


def everything(commands: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any], bool]]:
    """(where, entry, is_choice) for every command, subcommand, option and choice."""
    out: list[tuple[str, dict[str, Any], bool]] = []

    def walk(entry: dict[str, Any], where: str) -> None:
        out.append((where, entry, False))
        for choice in entry.get("choices") or []:
            out.append((f"{where}={choice['value']}", choice, True))
        for child in entry.get("options") or []:
            walk(child, f"{where} {child['name']}")

    for command in commands:
        walk(command, "/" + command["name"])
    return out


async def test_the_synced_commands_are_italian_everywhere(tmp_path: Path) -> None:
    commands = await uploaded(tmp_path)
    problems = []
    for where, entry, is_choice in everything(commands):
        local = entry.get("name_localizations") or {}
        name = local.get("it")
        if name is None:
            problems.append(f"{where}: no Italian name")
            continue
        if not is_choice and not (NAME.fullmatch(name) and name == name.lower()):
            problems.append(f"{where}: {name!r} is not a valid Discord name")
        if is_choice and not 1 <= len(name) <= 100:
            problems.append(f"{where}: choice label {name!r} too long")
        if is_choice:
            continue
        described = (entry.get("description_localizations") or {}).get("it", "")
        if not 1 <= len(described) <= 100:
            problems.append(f"{where}: Italian description of {len(described)} characters")
    assert problems == []
    assert commands == build(build_registry())  # what the checks below read is what is synced


# The games' own commands, still with English in their Italian names or descriptions, and
# whose they are (see test_catalogues.OWNERS).
GAME_OWNERS: dict[str, str] = {}
PAYLOAD = build(build_registry())


def _groups() -> list[object]:
    """Each top-level command; a game's is xfail(strict) while its owner works on it: remove
    its line from GAME_OWNERS when it is clean (the strict xfail fails the day it passes)."""
    return [
        pytest.param(
            c["name"],
            marks=[pytest.mark.xfail(strict=True, reason=f"owner: {GAME_OWNERS[c['name']]}")]
            if c["name"] in GAME_OWNERS
            else [],
            id=c["name"],
        )
        for c in PAYLOAD
    ]


def english_in(group: str) -> dict[str, list[str]]:
    command = next(c for c in PAYLOAD if c["name"] == group)
    found = {}
    for where, entry, is_choice in everything([command]):
        texts = [(entry.get("name_localizations") or {}).get("it", "")]
        if not is_choice:
            texts.append((entry.get("description_localizations") or {}).get("it", ""))
        words = [w for t in texts for w in foreign_words("it", prose(t), allow=PROPER_NAMES)]
        if words and not where.endswith(("=yes", "=no")):
            found[where] = words
    return found


@pytest.mark.parametrize("group", _groups())
def test_no_english_in_the_italian_picker(group: str) -> None:
    assert english_in(group) == {}


async def test_every_top_level_command_has_its_italian_name(tmp_path: Path) -> None:
    commands = await uploaded(tmp_path)
    names = {c["name"]: c["name_localizations"]["it"] for c in commands}
    assert {k: v for k, v in names.items() if k == v and k not in GAME_CODES | SAME_IN_BOTH} == {}
    for english, italian in [
        ("game", "partita"),
        ("unit", "unita"),
        ("turn", "turno"),
        ("army", "armata"),
        ("roll", "tira"),
        ("campaign", "campagna"),
        ("rules", "regole"),
    ]:
        assert names[english] == italian
    turn = next(c for c in commands if c["name"] == "turn")
    subs = {o["name"]: o["name_localizations"]["it"] for o in turn["options"]}
    assert subs["end"] == "fine" and subs["phase"] == "fase"
