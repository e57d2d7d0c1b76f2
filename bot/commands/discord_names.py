"""Where each registry command sits in Discord's command tree, and what it is called there.

Pure (registry + catalogues): the Discord adapter builds its command tree from it, and /help on
Discord shows the names it gives, so both always agree.

Discord's shape: top-level commands (we publish at most 25), each either a command with options
or a folder of subcommands, never both. The registry maps onto it like this:
- a one-word command is a top-level command: `/help`, `/odds`, `/roll EXPR`;
- a group of two-word commands is a command with subcommands: `/game new`, `/aos attack`;
- a group that is also a command (`/turn` with `/turn end`, `/score`, `/res`): its root shows
  the state, so it becomes the subcommand `show`: `/turn show`, `/turn end`, `/turn order`;
- `/roll EXPR` is the exception (the most used command stays one word): its subcommands move to
  the folder `/rolls`: `/rolls show 3`, `/rolls history` (`SEPARATE`);
- a group too large for one Discord command (8,000 characters of names, descriptions and
  choices, Italian included) moves some subcommands to a second folder (`MOVED`): the steps of
  Confrontation's phases go to `/c5-phase` (`rally`, `pass`, `mystic`, `mana`, `faith`,
  `maintenance`, `combat`), its rolls stay in `/c5` (`melee`, `shoot`, `wound`, `test`, ...).
  Subcommand groups would not help: Discord counts everything under a top-level command;
- to stay within 25 top-level commands, `/phase next` and `/round next` sit with the turn:
  `/turn phase`, `/turn round`, and `/batch` with the macros: `/macro batch` (`MOVED` too).

Names in another language (Discord's `name_localizations`): the catalogue's
`discord.names.<discord path joined by _>` when it has one, else the registry's first alias of
the command published there (`tira`, `mostra`, `nuova`), else `discord.names.<last word>`, else
the English name; a candidate that is not a valid Discord name or that a sibling already uses is
skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot import i18n
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec

# Discord's `^[-_\p{L}\p{N}]{1,32}$` (lowercase): Python's \w is letters, digits and underscore.
_NAME = re.compile(r"^[-\w]{1,32}$")
ROOT_SUB = "show"  # the subcommand a group's own root becomes
SEPARATE = {"roll": "rolls"}  # groups whose root stays a command; their subcommands go here
C5_PHASES = ("rally", "pass", "mystic", "mana", "faith", "maintenance", "combat")
MOVED: dict[tuple[str, ...], tuple[str, str]] = {
    **{("c5", step): ("c5-phase", step) for step in C5_PHASES},
    ("phase", "next"): ("turn", "phase"),
    ("round", "next"): ("turn", "round"),
    ("batch",): ("macro", "batch"),  # several commands in one box: beside the macros
}
# Registry commands Discord doesn't publish: /start is Telegram's first contact (the bot greets a
# group it joins with it); on Discord the command picker introduces the bot.
# /save is the text form's short way to /macro save, which Discord shows, /lang to /settings lang
# (Discord's 25 top-level commands are all taken) and /compare to the chat's game's compare
# (/aos compare, /wm compare, /inf compare).
# /phase and /round alone show what /turn show does (the round, phase and turn).
NOT_PUBLISHED: frozenset[tuple[str, ...]] = frozenset(
    {("start",), ("save",), ("lang",), ("compare",), ("phase",), ("round",)}
)
OTHER_LANGS = tuple(lang for lang in i18n.LANGS if lang != i18n.DEFAULT_LANG)

Path = tuple[str, ...]


class CommandTreeError(ValueError):
    """The registry does not fit Discord's command tree (a programming error the tests catch)."""


def valid_name(name: str) -> bool:
    return bool(_NAME.fullmatch(name)) and name == name.lower()


@dataclass
class Node:
    """One Discord command, folder or subcommand. `spec` is the registry command it runs (None
    for a folder); `local` its names in the other languages."""

    path: Path
    spec: CommandSpec | None = None
    children: dict[str, Node] = field(default_factory=dict)
    local: dict[i18n.Lang, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.path[-1]


@dataclass
class Tree:
    roots: dict[str, Node]
    by_spec: dict[Path, Node]  # registry path -> the node that runs it


def discord_path(spec: CommandSpec, group_has_subs: bool) -> Path:
    """Where a registry command goes (see the module docstring)."""
    group = spec.path[0]
    if len(spec.path) > 2:
        raise CommandTreeError(f"/{spec.name}: paths deeper than two words are not mapped")
    if any("-" in part or not valid_name(part) for part in spec.path):
        raise CommandTreeError(f"/{spec.name}: not a valid Discord name (or has a '-')")
    if spec.path in MOVED:
        return MOVED[spec.path]
    if not group_has_subs:
        return spec.path
    if group in SEPARATE:
        return spec.path if len(spec.path) == 1 else (SEPARATE[group], spec.path[1])
    return spec.path if len(spec.path) == 2 else (group, ROOT_SUB)


def _candidates(node: Node, lang: i18n.Lang) -> Iterable[str]:
    cat = i18n.catalogue(lang)
    joined = cat.get("discord.names." + "_".join(node.path))
    if joined:
        yield joined
    if node.spec is not None and node.spec.path[-1] == node.name and node.spec.aliases:
        yield node.spec.aliases[0].lower()
    if len(node.path) == 1 and node.children and node.spec is None:
        # A folder named after a registry group whose root became `show`: the root's alias
        # names the group (`/turn` -> `turno`).
        # Only the group's own root: /batch, moved beside the macros, doesn't name /macro.
        roots = [c.spec for c in node.children.values() if c.spec and c.spec.path == (node.name,)]
        if roots and roots[0].aliases:
            yield roots[0].aliases[0].lower()
    last = cat.get("discord.names." + node.name)
    if last:
        yield last


def _localize(siblings: Iterable[Node]) -> None:
    nodes = list(siblings)
    for lang in OTHER_LANGS:
        for node in nodes:
            taken = ({n.name for n in nodes} | {n.local.get(lang, "") for n in nodes}) - {node.name}
            free = (c for c in _candidates(node, lang) if valid_name(c) and c not in taken)
            node.local[lang] = next(free, node.name)
    for node in nodes:
        _localize(node.children.values())


def tree(registry: Registry) -> Tree:
    groups = registry.groups()
    roots: dict[str, Node] = {}
    by_spec: dict[Path, Node] = {}
    for members in groups.values():
        has_subs = any(len(s.path) == 2 for s in members)
        for spec in members:
            if spec.path in NOT_PUBLISHED:
                continue
            path = discord_path(spec, has_subs)
            parent = roots.setdefault(path[0], Node((path[0],)))
            node = parent
            if len(path) == 2:
                if parent.spec is not None or path[1] in parent.children:
                    raise CommandTreeError(f"/{' '.join(path)} is published twice")
                node = parent.children[path[1]] = Node(path)
            elif parent.children or parent.spec is not None:
                raise CommandTreeError(f"/{path[0]} is published twice")
            node.spec = spec
            by_spec[spec.path] = node
    _localize(roots.values())
    return Tree(roots, by_spec)


def names(registry: Registry, lang: i18n.Lang) -> dict[Path, str]:
    """Every registry command as a Discord user in `lang` sees it: `("roll", "show")` ->
    `/rolls show` (English), `/tiri mostra` (Italian)."""
    found = tree(registry)
    out: dict[Path, str] = {}
    for path, node in found.by_spec.items():
        here = found.roots[node.path[0]]
        words = [here.local.get(lang, here.name)]
        for word in node.path[1:]:
            here = here.children[word]
            words.append(here.local.get(lang, here.name))
        out[path] = "/" + " ".join(words)
    return out


def usage(name: str, spec: CommandSpec) -> str:
    """`spec.usage()` under its Discord name: `/rolls show ID`."""
    return " ".join([name, *(o.usage() for o in spec.options)])
