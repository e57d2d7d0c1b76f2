"""The Telegram command menu (setMyCommands), generated from the registry.

One list per language and scope: English is the default list (no `language_code`), Italian the
list for Italian clients; private chats, group chats and the default scope each get their own.
Every top-level command appears once with its `help.groups.<group>` description. In Italian a
command whose registry alias (or its group's, `group_aliases`) is a valid Telegram name is
listed under it (`/tira`, `/regola`, `/aiuto`, `/partita`): the registry answers to both names.
Groups without an alias of their own (`/aos`) keep their name, since an unknown word would not
run.

Scopes: private chats start with /start; group chats leave it out (the bot greets a group when it
is added, and /start@Bot still works there); the default scope is the private list.
"""

from __future__ import annotations

import re
from typing import Literal

from bot import i18n
from bot.commands.registry import Registry

Scope = Literal["default", "private", "group"]
SCOPES: tuple[Scope, ...] = ("default", "private", "group")
NAME = re.compile(r"[a-z0-9_]{1,32}")  # Telegram's rule for a bot command
MAX_COMMANDS = 100
MAX_DESCRIPTION = 256
FIRST = ("start", "help", "roll", "rule", "game")  # what a newcomer needs, at the top
GROUP_ONLY_HIDDEN = frozenset({"start"})


def _menu_name(registry: Registry, group: str, lang: i18n.Lang, taken: set[str]) -> str | None:
    """The name a group is listed under in `lang`, or None when Telegram can't show it."""
    candidates: list[str] = []
    root = registry.get(group)
    if lang != i18n.DEFAULT_LANG:
        if root is not None and len(root.path) == 1:
            candidates += [a for a in root.aliases if registry.canonical([a]) == (group,)]
        # a group without a root command of its own: its `group_aliases` (`/partita`)
        candidates += [a for s in registry.groups().get(group, []) for a in s.group_aliases]
    candidates.append(group)
    return next((c for c in candidates if NAME.fullmatch(c) and c not in taken), None)


def _description(group: str, lang: i18n.Lang) -> str:
    text = " ".join(i18n.t(lang, f"help.groups.{group}").split())[:MAX_DESCRIPTION]
    return text[:1].upper() + text[1:] or group


def menu(registry: Registry, lang: i18n.Lang, scope: Scope) -> list[tuple[str, str]]:
    """(command, description) pairs for setMyCommands, newcomer's commands first."""
    groups = registry.groups()
    order = [g for g in FIRST if g in groups] + sorted(g for g in groups if g not in FIRST)
    taken = set(groups)  # an alias never hides another command's own name
    out: list[tuple[str, str]] = []
    for group in order:
        if all(s.hidden for s in groups[group]):
            continue
        if scope == "group" and group in GROUP_ONLY_HIDDEN:
            continue
        name = _menu_name(registry, group, lang, taken - {group})
        if name is None:
            continue
        taken.add(name)
        out.append((name, _description(group, lang)))
    return out[:MAX_COMMANDS]
