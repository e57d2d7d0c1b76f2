"""The Discord application commands, generated from the registry.

Mapping: a registry group with only subcommands (`/game new`, `/wow attack`) becomes one
command with subcommands. A group that is also a command itself (`/roll EXPR` with `/roll show`,
`/roll history`) can't be both on Discord, so the root stays `/roll` and its subcommands become
top-level commands `/roll-show`, `/roll-history`. Options keep their registry names; required
options come first, as Discord demands. Italian descriptions come from the catalogues.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from bot import i18n
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec, OptionSpec

NAME = re.compile(r"^[-_\w]{1,32}$", re.UNICODE)
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMANDS = 100

# Discord option types
SUB_COMMAND, STRING, INTEGER, BOOLEAN, USER = 1, 3, 4, 5, 6


def short(text: str, limit: int = MAX_DESCRIPTION) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def described(key: str) -> dict[str, Any]:
    return {
        "description": short(i18n.t("en", key)) or "-",
        "description_localizations": {"it": short(i18n.t("it", key)) or "-"},
    }


def option_json(spec: CommandSpec, opt: OptionSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"name": opt.name, "required": opt.required}
    out.update(described(f"{spec.key}.opt.{opt.name}"))
    if opt.type == "flag":
        out["type"] = BOOLEAN
    elif opt.type in ("int", "signed"):
        out["type"] = INTEGER
        if opt.min_value is not None:
            out["min_value"] = opt.min_value
        if opt.max_value is not None:
            out["max_value"] = opt.max_value
    elif opt.type == "user":
        out["type"] = USER
    else:
        out["type"] = STRING
        out["max_length"] = min(opt.max_length, 6000)
        if opt.choices and len(opt.choices) <= MAX_CHOICES:
            out["choices"] = [{"name": c, "value": c} for c in opt.choices]
        elif opt.autocomplete:
            out["autocomplete"] = True
    return out


def options_json(spec: CommandSpec) -> list[dict[str, Any]]:
    opts = [option_json(spec, o) for o in spec.options]
    return sorted(opts, key=lambda o: not o["required"])[:MAX_OPTIONS]


def command_name(spec: CommandSpec, roots: set[str]) -> str:
    """The Discord name of a registry command: see the module docstring."""
    if len(spec.path) == 1:
        return spec.path[0]
    if spec.path[0] in roots:
        return "-".join(spec.path)
    raise ValueError(f"{spec.name} is a subcommand")


def build(registry: Registry) -> list[dict[str, Any]]:
    groups = registry.groups()
    roots = {g for g, specs in groups.items() if any(len(s.path) == 1 for s in specs)}
    out: list[dict[str, Any]] = []
    for group, specs in groups.items():
        if group in roots:
            for spec in specs:
                entry = {
                    "name": command_name(spec, roots),
                    "type": 1,
                    **described(spec.key + ".desc"),
                }
                entry["options"] = options_json(spec)
                if len(spec.path) == 1 and spec.aliases:
                    entry["name_localizations"] = {"it": spec.aliases[0]}
                out.append(entry)
            continue
        help_key = f"help.groups.{group}"
        desc_key = help_key if i18n.has(help_key) else specs[0].key + ".desc"
        subs = []
        for spec in specs[:MAX_OPTIONS]:
            sub = {"name": spec.path[1], "type": SUB_COMMAND, **described(spec.key + ".desc")}
            sub["options"] = options_json(spec)
            subs.append(sub)
        out.append({"name": group, "type": 1, **described(desc_key), "options": subs})
    return out[:MAX_COMMANDS]


def resolve(name: str, options: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """The registry command name and the leaf options of an interaction's data."""
    path = name.replace("-", " ")
    while options and options[0].get("type") in (SUB_COMMAND, 2):
        path += " " + options[0]["name"]
        options = options[0].get("options", [])
    return path, options


def digest(commands: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(commands, sort_keys=True).encode()).hexdigest()
