"""The Dockerfile, the compose files and `.env.example` agree with the code.

No Docker engine runs where the suite runs, so the images are never built here; these checks
catch what would only show in a container: a misspelt setting (the settings ignore
unknown variables, so a typo is silently a default), shards that don't cover the count, a
health check naming a command that doesn't exist, a COPY of a path that moved."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli import build_parser
from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILES = ("compose.yaml", "compose.postgres.yaml")
_VARIABLE = re.compile(r"\$\{([A-Z_]+)(?::?[?-][^}]*)?\}")
SETTINGS = {name.upper() for name in Settings.model_fields}


def compose(name: str) -> dict[str, Any]:
    with (ROOT / name).open(encoding="utf-8") as fh:
        loaded: dict[str, Any] = yaml.safe_load(fh)
    return loaded


def bot_services(name: str) -> dict[str, dict[str, Any]]:
    """The services built from this project's Dockerfile (not PostgreSQL, not the proxy)."""
    return {key: s for key, s in compose(name)["services"].items() if s.get("build") == "."}


def filled(value: object) -> str:
    """A compose value with each ${VAR} replaced by a plausible value for its setting."""
    return _VARIABLE.sub(lambda m: "secret" if "PASSWORD" in m[1] else "bot.example", str(value))


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_every_variable_a_bot_service_sets_is_a_setting_and_valid(name: str) -> None:
    services = bot_services(name)
    assert services, f"{name} has no service built from the Dockerfile"
    for service, spec in services.items():
        environment = {key: filled(value) for key, value in (spec.get("environment") or {}).items()}
        assert set(environment) <= SETTINGS, (service, set(environment) - SETTINGS)
        values: dict[str, Any] = {key.lower(): value for key, value in environment.items()}
        Settings(**values)


def test_the_discord_shard_processes_cover_every_shard_once() -> None:
    shards = [
        spec["environment"]
        for spec in bot_services("compose.postgres.yaml").values()
        if "DISCORD_SHARD_IDS" in (spec.get("environment") or {})
    ]
    assert len(shards) >= 2
    counts = {int(env["DISCORD_SHARD_COUNT"]) for env in shards}
    assert len(counts) == 1  # every process agrees on the total
    ids = sorted(int(i) for env in shards for i in env["DISCORD_SHARD_IDS"].split(","))
    assert ids == list(range(counts.pop()))


def test_env_example_names_only_settings() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    names = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", text, flags=re.MULTILINE))
    assert {"DISCORD_TOKEN", "TELEGRAM_TOKEN"} <= names
    assert names <= SETTINGS, names - SETTINGS


def test_the_dockerfile_copies_what_exists_and_checks_health_with_a_real_command() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    for line in re.findall(r"^COPY (.+)$", dockerfile, flags=re.MULTILINE):
        *sources, _target = line.split()
        for source in sources:
            assert (ROOT / source).exists(), source
    healthcheck = re.search(
        r'CMD \["wargame-bot", "(\w+)"\]\s*\nCMD \["wargame-bot", "(\w+)"\]', dockerfile
    )
    assert healthcheck is not None
    assert healthcheck[1] == "health" and healthcheck[2] == "run"
    for command in healthcheck.groups():  # each parses as it stands (argparse exits 2 if not)
        build_parser().parse_args([command])
    exposed = re.search(r"^ARG WEBHOOK_PORT=(\d+)$", dockerfile, flags=re.MULTILINE)
    assert exposed is not None
    assert int(exposed[1]) == Settings.model_fields["telegram_webhook_port"].default
