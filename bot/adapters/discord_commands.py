"""The application commands, generated from the registry (no per-command code).

Where each command goes and what it is called is `bot.commands.discord_names` (shared with
/help): `/help`, `/roll EXPR`, `/game new`, `/aos attack`, `/turn show`, `/rolls show`. This
module turns that tree into the JSON of a bulk overwrite and checks it against Discord's limits:
- options keep their registry names; required options come first, as Discord demands;
  `int`/`signed` -> integer with min/max, `flag` -> boolean, `user` -> user (sent to the registry
  as `<@id>`), `attachment` -> attachment (the adapter puts the file in `Request.files`),
  everything else -> string with `max_length`; up to 25 `choices` become Discord choices,
  more become autocomplete over the same values; an option with an autocomplete source
  (`OptionSpec.autocomplete`) gets autocomplete;
- a choice shows a label a player reads, its value stays the code: the catalogues'
  `discord.choices.<option>.<code>`, else `discord.choices.<code>` (yes/no), else for `system`
  the game's name (`systems.<code>`); codes with the same labels (`wound` and `ferita`) are
  offered once;
- descriptions come from the catalogues (`cmd.<path>.desc`, `cmd.<path>.opt.<name>`, a folder's
  `discord.groups.<name>` where Discord needs its own, else `help.groups.<name>`);
- every command, subcommand, option and choice carries its Italian name and description
  (`name_localizations`, `description_localizations`): command names from `discord_names`,
  option names from `discord.options.<name>`, else the option's first alias, else its own name,
  never one another option of that command already uses.

A registry that can't fit Discord's limits (more than 25 top-level commands, 25 subcommands or
options, a command over 8,000 characters, a choice without a label) raises `CommandTreeError`
when the tree is built: the test suite builds the real registry, so this shows up in CI, never
as a silent truncation.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from bot import i18n
from bot.clean_text import shorten
from bot.commands.discord_names import (
    OTHER_LANGS,
    CommandTreeError,
    Node,
    tree,
    valid_name,
)
from bot.commands.local_names import option_names
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec, OptionSpec

__all__ = ["CommandTreeError", "build", "digest", "resolve", "routes", "valid_name"]

MAX_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_CHOICE = 100
# Discord allows 100 top-level commands; the (and a readable picker's) ceiling is 25.
MAX_COMMANDS = 25
MAX_STRING = 6000
# Per top-level command, everything in it (Discord docs: application-commands, "Slash Commands").
MAX_COMMAND_SIZE = 8000
SHARED_LABELS = {"system": "systems"}  # option -> catalogue table that already names its codes

# Discord option types
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER = 1, 2, 3, 4, 5, 6
ATTACHMENT = 11
CHAT_INPUT = 1
DISCORD_LOCALE: dict[i18n.Lang, str] = {"it": "it"}  # our language -> Discord's locale key


def _short(text: str, limit: int = MAX_DESCRIPTION) -> str:
    return shorten(" ".join(text.split()), limit)


def _described(key: str) -> dict[str, Any]:
    return {
        "description": _short(i18n.t("en", key)) or "-",
        "description_localizations": {
            DISCORD_LOCALE[lang]: _short(i18n.t(lang, key)) or "-" for lang in OTHER_LANGS
        },
    }


def choice_label(opt: OptionSpec, code: str, lang: i18n.Lang) -> str | None:
    """The word a player reads for a choice's code, or None when the catalogues have none."""
    keys = [f"discord.choices.{opt.name}.{code}", f"discord.choices.{code}"]
    if opt.name in SHARED_LABELS:
        keys.append(f"{SHARED_LABELS[opt.name]}.{code}")
    cat = i18n.catalogue(lang)
    return next((cat[k][:MAX_CHOICE] for k in keys if cat.get(k)), None)


def _choices_json(spec: CommandSpec, opt: OptionSpec) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[tuple[str | None, ...]] = set()
    for code in opt.choices:
        labels = {lang: choice_label(opt, code, lang) for lang in i18n.LANGS}
        if None in labels.values():
            raise CommandTreeError(
                f"/{spec.name} {opt.name}={code}: no label (discord.choices.{opt.name}.{code})"
            )
        if tuple(labels.values()) in seen:
            continue  # an alias value (`ferita` beside `wound`): offered once
        seen.add(tuple(labels.values()))
        out.append(
            {
                "name": labels[i18n.DEFAULT_LANG],
                "value": code[:MAX_CHOICE],
                "name_localizations": {DISCORD_LOCALE[lang]: labels[lang] for lang in OTHER_LANGS},
            }
        )
    return out


def _option_json(
    spec: CommandSpec, opt: OptionSpec, local: dict[i18n.Lang, dict[str, str]]
) -> dict[str, Any]:
    if not valid_name(opt.name):
        raise CommandTreeError(f"/{spec.name}: option name {opt.name!r} is not valid on Discord")
    out: dict[str, Any] = {
        "name": opt.name,
        "name_localizations": {DISCORD_LOCALE[lang]: local[lang][opt.name] for lang in local},
        "required": opt.required,
    }
    out.update(_described(f"{spec.key}.opt.{opt.name}"))
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
    elif opt.type == "attachment":
        out["type"] = ATTACHMENT  # the adapter downloads it into Request.files
    else:
        out["type"] = STRING
        out["max_length"] = max(1, min(opt.max_length, MAX_STRING))
        if opt.choices and len(opt.choices) <= MAX_CHOICES:
            out["choices"] = _choices_json(spec, opt)
        elif opt.choices or opt.autocomplete:
            out["autocomplete"] = True
    return out


def _options_json(spec: CommandSpec) -> list[dict[str, Any]]:
    if len(spec.options) > MAX_OPTIONS:
        raise CommandTreeError(f"/{spec.name} has more than {MAX_OPTIONS} options")
    local = {lang: option_names(spec, lang) for lang in OTHER_LANGS}
    opts = [_option_json(spec, o, local) for o in spec.options]
    return sorted(opts, key=lambda o: not o["required"])  # stable: registry order otherwise


def _command_size(entry: dict[str, Any]) -> int:
    """Discord's measure for its 8,000-character budget per top-level command: names,
    descriptions and choice names/values of the command and everything in it, counting only the
    longest localization of each field."""

    def longest(field: str) -> int:
        values = [str(entry.get(field, "")), *entry.get(f"{field}_localizations", {}).values()]
        return max(map(len, values))

    total = longest("name") + longest("description")
    for choice in entry.get("choices", []):
        total += _command_size(choice) + len(str(choice["value"]))
    return total + sum(_command_size(o) for o in entry.get("options", []))


def _folder_description(node: Node) -> str:
    for key in (f"discord.groups.{node.name}", f"help.groups.{node.name}"):
        if i18n.has(key):
            return key
    first = next(c.spec for c in node.children.values() if c.spec is not None)
    return first.key + ".desc"


def _node_json(node: Node, depth: int) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": node.name,
        "name_localizations": {DISCORD_LOCALE[lang]: node.local[lang] for lang in OTHER_LANGS},
    }
    if depth == 0:
        entry["type"] = CHAT_INPUT
    else:
        entry["type"] = SUB_COMMAND if node.spec is not None else SUB_COMMAND_GROUP
    if node.spec is not None:
        entry.update(_described(node.spec.key + ".desc"))
        entry["options"] = _options_json(node.spec)
        return entry
    if len(node.children) > MAX_OPTIONS:
        raise CommandTreeError(f"/{node.name} has more than {MAX_OPTIONS} subcommands")
    entry.update(_described(_folder_description(node)))
    entry["options"] = [_node_json(child, depth + 1) for child in node.children.values()]
    return entry


def build(registry: Registry) -> list[dict[str, Any]]:
    """The JSON body of a bulk overwrite (`PUT /applications/{id}/commands`)."""
    out = [_node_json(root, 0) for root in tree(registry).roots.values()]
    for entry in out:
        if not valid_name(entry["name"]):
            raise CommandTreeError(f"{entry['name']!r} is not a valid Discord command name")
        if (size := _command_size(entry)) > MAX_COMMAND_SIZE:
            raise CommandTreeError(
                f"/{entry['name']} has {size} characters; Discord allows {MAX_COMMAND_SIZE}"
            )
    if len(out) > MAX_COMMANDS:
        raise CommandTreeError(f"{len(out)} top-level commands; the limit is {MAX_COMMANDS}")
    return out


def routes(registry: Registry) -> dict[str, str]:
    """Discord path -> registry command: `rolls show` -> `roll show`, `turn show` -> `turn`."""
    return {" ".join(node.path): " ".join(path) for path, node in tree(registry).by_spec.items()}


def resolve(
    name: Any, options: Any, routes: dict[str, str] | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """The registry command name and the leaf options of an interaction's data: `rolls` +
    subcommand `show` -> `roll show`; `game` + `new` -> `game new`. Malformed data gives a name
    the registry doesn't know (the user gets "unknown command"), never an exception. A dashed
    name of the earlier flat tree (`aos-attack`, from a client that has not refreshed yet) still
    resolves."""
    path = str(name)
    leaves = [o for o in options if isinstance(o, dict)] if isinstance(options, list) else []
    while leaves and leaves[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        path += " " + str(leaves[0].get("name", ""))
        inner = leaves[0].get("options", [])
        leaves = [o for o in inner if isinstance(o, dict)] if isinstance(inner, list) else []
    routes = routes or {}
    if path not in routes:
        path = path.replace("-", " ")
    return routes.get(path, path), [o for o in leaves if isinstance(o.get("name"), str)]


def digest(commands: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(commands, sort_keys=True).encode()).hexdigest()
