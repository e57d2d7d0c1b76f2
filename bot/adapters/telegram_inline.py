"""Telegram inline mode: what `@BotName <query>` typed in any chat asks for.

`2d6+3` (or `roll 2d6+3`, `tira 2d6+3`) is a roll; `rule charge wm` (or `regola carica`, or just
`charge`, anything that is not a dice expression) is a rule lookup. A trailing game id (`wm`,
`aos`, `wow`, `inf`, `c5`) picks the game, as `system=` does in `/rule`.

An inline result has no chat, so the bot stores what it does under the user's private chat with
it (`telegram:<user_id>`, the key of that private chat): an inline roll is audited there with
`/roll show N` or `/roll history`, and a rule lookup follows that chat's game and language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.commands.registry import Registry, tokenize
from rules_core.dice.parser import parse
from rules_core.errors import UserError
from rules_core.rules.models import SYSTEMS

MAX_QUERY = 256  # Telegram's limit for an inline query


@dataclass(frozen=True)
class InlineCommand:
    kind: Literal["roll", "rule"]
    args: str  # what follows the command's name: "2d6+3", "charge system=wm"

    @property
    def text(self) -> str:
        """The command's text form: "/roll 2d6+3", "/rule charge system=wm"."""
        return f"/{self.kind} {self.args}"

    @property
    def query(self) -> str:
        """The inline query that asks for this again (for a "switch inline" button)."""
        return self.text.removeprefix("/")


def is_dice(text: str) -> bool:
    try:
        parse(text)
    except UserError:
        return False
    return True


def _with_system(query: str) -> str:
    """`charge wm` -> `charge system=wm`: a trailing game id picks the game."""
    tokens = tokenize(query)
    last = tokens[-1] if len(tokens) > 1 else None
    if last is None or last.quoted or last.text.lower() not in SYSTEMS or "=" in query:
        return query
    return f"{query[: last.start].rstrip()} system={last.text.lower()}"


def inline_command(query: str, registry: Registry) -> InlineCommand | None:
    """The command an inline query asks for, or None for an empty one."""
    text = query.strip()[:MAX_QUERY].removeprefix("/")
    if not text:
        return None
    head, _, rest = text.partition(" ")
    rest = rest.strip()
    kind: Literal["roll", "rule"]
    match registry.canonical([head.split("@", 1)[0].lower()]):
        case ("roll",):
            kind = "roll"
        case ("rule",):
            kind = "rule"
        case _:
            kind, rest = ("roll" if is_dice(text) else "rule"), text
    if not rest:
        return None
    return InlineCommand(kind, _with_system(rest) if kind == "rule" else rest)
