"""The Discord application commands, generated from the registry (no per-command code).

Mapping:
- a registry group whose commands all have a subcommand (`/game new`, `/wow attack`) becomes one
  command with subcommands;
- a group that is also a command itself (`/roll EXPR` with `/roll show`, `/roll history`) can't be
  both on Discord, so the root stays `/roll` and its subcommands become top-level commands
  `/roll-show`, `/roll-history` (an interaction's `roll-show` resolves back to `roll show`);
- a group too big for Discord's 4000-character budget per command (the descriptions of every
  option of every subcommand count) is published the same way, one top-level command per
  subcommand: `/aos-attack`, `/wm-odds` (Italian names `aos-attacco`, `wm-prob`);
- options keep their registry names; required options come first, as Discord demands;
  `int`/`signed` -> integer with min/max, `flag` -> boolean, `user` -> user (sent to the registry as
  `<@id>`), everything else -> string with `max_length`; up to 25 `choices` become Discord choices,
  more become autocomplete over the same values; an option with an autocomplete source
  (`OptionSpec.autocomplete`) gets autocomplete;
- descriptions come from the catalogues (`cmd.<path>.desc`, `cmd.<path>.opt.<name>`,
  `help.groups.<group>`) in English with Italian `description_localizations`; command and
  subcommand names get an Italian `name_localizations` entry from their first alias (`tira`,
  `tira-mostra`, `/partita nuova` ...) when it is a valid, unique Discord name. Option names stay
  English (their aliases mix Italian words and game abbreviations).

A registry that can't fit Discord's limits (more than 100 top-level commands, 25 subcommands in a
group, 25 options, paths deeper than two words) raises `CommandTreeError` when the tree is built:
the test suite builds the real registry, so this shows up in CI, never as a silent truncation.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from bot import i18n
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec, OptionSpec

# Discord's `^[-_\p{L}\p{N}]{1,32}$`: Python's \w is letters, digits and underscore.
NAME = re.compile(r"^[-\w]{1,32}$")
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMANDS = 100
MAX_STRING = 6000
MAX_COMMAND_SIZE = 4000

# Discord option types
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER = 1, 2, 3, 4, 5, 6
CHAT_INPUT = 1


class CommandTreeError(ValueError):
    """The registry does not fit Discord's limits (a programming error, caught by the tests)."""


def valid_name(name: str) -> bool:
    return bool(NAME.fullmatch(name)) and name == name.lower()


def short(text: str, limit: int = MAX_DESCRIPTION) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def described(key: str) -> dict[str, Any]:
    return {
        "description": short(i18n.t("en", key)) or "-",
        "description_localizations": {"it": short(i18n.t("it", key)) or "-"},
    }


def option_json(spec: CommandSpec, opt: OptionSpec) -> dict[str, Any]:
    if not valid_name(opt.name):
        raise CommandTreeError(f"/{spec.name}: option name {opt.name!r} is not valid on Discord")
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
        out["max_length"] = max(1, min(opt.max_length, MAX_STRING))
        if opt.choices and len(opt.choices) <= MAX_CHOICES:
            out["choices"] = [{"name": c[:100], "value": c[:100]} for c in opt.choices]
        elif opt.choices or opt.autocomplete:
            out["autocomplete"] = True
    return out


def options_json(spec: CommandSpec) -> list[dict[str, Any]]:
    if len(spec.options) > MAX_OPTIONS:
        raise CommandTreeError(f"/{spec.name} has more than {MAX_OPTIONS} options")
    opts = [option_json(spec, o) for o in spec.options]
    return sorted(opts, key=lambda o: not o["required"])  # stable: registry order otherwise


def localized(entry: dict[str, Any], it_name: str | None, taken: set[str]) -> None:
    """Add the Italian name if it is a valid Discord name no sibling already uses."""
    if it_name and valid_name(it_name) and it_name != entry["name"] and it_name not in taken:
        entry["name_localizations"] = {"it": it_name}
        taken.add(it_name)


def first_alias(spec: CommandSpec) -> str | None:
    return spec.aliases[0].lower() if spec.aliases else None


def command_size(entry: dict[str, Any]) -> int:
    """Discord's measure for its 4000-character budget per top-level command: names,
    descriptions and choice names/values of the command and everything in it, counting only the
    longest localization of each field."""
    total = max([len(entry["name"]), *map(len, entry.get("name_localizations", {}).values())])
    total += max(
        [
            len(entry.get("description", "")),
            *map(len, entry.get("description_localizations", {}).values()),
        ]
    )
    total += sum(len(c["name"]) + len(str(c["value"])) for c in entry.get("choices", []))
    return total + sum(command_size(o) for o in entry.get("options", []))


def leaf_command(spec: CommandSpec) -> dict[str, Any]:
    """A registry command published as a top-level command of its own (`roll`, `roll-show`)."""
    return {
        "name": "-".join(spec.path),
        "type": CHAT_INPUT,
        **described(spec.key + ".desc"),
        "options": options_json(spec),
    }


def group_command(group: str, specs: list[CommandSpec]) -> dict[str, Any]:
    """A registry group published as one command with subcommands (`game` with `new`, ...)."""
    if len(specs) > MAX_OPTIONS:
        raise CommandTreeError(f"/{group} has more than {MAX_OPTIONS} subcommands")
    help_key = f"help.groups.{group}"
    desc_key = help_key if i18n.has(help_key) else specs[0].key + ".desc"
    siblings = {s.path[1] for s in specs}
    subs = []
    for spec in specs:
        sub: dict[str, Any] = {
            "name": spec.path[1],
            "type": SUB_COMMAND,
            **described(spec.key + ".desc"),
            "options": options_json(spec),
        }
        localized(sub, first_alias(spec), siblings)
        subs.append(sub)
    return {"name": group, "type": CHAT_INPUT, **described(desc_key), "options": subs}


def build(registry: Registry) -> list[dict[str, Any]]:
    """The JSON body of a bulk overwrite (`PUT /applications/{id}/commands`)."""
    groups = registry.groups()
    for spec in registry:
        if len(spec.path) > 2:
            raise CommandTreeError(f"/{spec.name}: paths deeper than two words are not mapped")
        if any("-" in part or not valid_name(part) for part in spec.path):
            raise CommandTreeError(f"/{spec.name}: not a valid Discord name (or has a '-')")
    nested: dict[str, dict[str, Any]] = {}
    for group, specs in groups.items():
        if all(len(s.path) == 2 for s in specs):
            entry = group_command(group, specs)
            if command_size(entry) <= MAX_COMMAND_SIZE:
                nested[group] = entry
    # Every other group is flat: one top-level command per registry command, dashed names.
    # Italian names must not collide with any English or Italian top-level name.
    taken = set(nested)
    taken.update("-".join(s.path) for g, specs in groups.items() if g not in nested for s in specs)
    out: list[dict[str, Any]] = []
    for group, specs in groups.items():
        if group in nested:
            out.append(nested[group])
            continue
        root = next((s for s in specs if len(s.path) == 1), None)
        base = (first_alias(root) if root else None) or group
        for spec in specs:
            entry = leaf_command(spec)
            sub_alias = first_alias(spec) if len(spec.path) == 2 else None
            it_name = first_alias(spec) if len(spec.path) == 1 else None
            if sub_alias:
                it_name = f"{base}-{sub_alias}"
            localized(entry, it_name, taken)
            if command_size(entry) > MAX_COMMAND_SIZE:
                raise CommandTreeError(f"/{spec.name} exceeds {MAX_COMMAND_SIZE} characters")
            out.append(entry)
    for entry in out:
        if not valid_name(entry["name"]):
            raise CommandTreeError(f"{entry['name']!r} is not a valid Discord command name")
    if len(out) > MAX_COMMANDS:
        raise CommandTreeError(f"{len(out)} top-level commands; Discord allows {MAX_COMMANDS}")
    return out


def resolve(name: str, options: Any) -> tuple[str, list[dict[str, Any]]]:
    """The registry command name and the leaf options of an interaction's data: `roll-show`
    -> `roll show`; `game` + subcommand `new` -> `game new`. Malformed data gives a name the
    registry doesn't know (the user gets "unknown command"), never an exception."""
    path = str(name).replace("-", " ")
    leaves = [o for o in options if isinstance(o, dict)] if isinstance(options, list) else []
    while leaves and leaves[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        path += " " + str(leaves[0].get("name", ""))
        inner = leaves[0].get("options", [])
        leaves = [o for o in inner if isinstance(o, dict)] if isinstance(inner, list) else []
    return path, [o for o in leaves if isinstance(o.get("name"), str)]


def digest(commands: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(commands, sort_keys=True).encode()).hexdigest()
