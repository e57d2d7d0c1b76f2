"""One declaration per command. The text parser, `/help`, and the Discord and Telegram command
lists are all generated from these specs; no adapter has per-command code."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from bot.commands.context import Context
    from bot.commands.models import Reply

OptionType = Literal["str", "int", "flag", "text", "faces", "user", "signed", "pairs"]
Handler = Callable[["Context"], Awaitable["Reply"]]


@dataclass(frozen=True)
class OptionSpec:
    """One option. `text` options take the rest of the line (e.g. a dice expression and its label);
    `faces` is a comma list of die faces (`dice=3,5,6`); `signed` accepts `+1` / `-2`; `pairs`
    collects every `name=number` token that isn't another option (a unit's stats), or takes
    them as one text `a=1 b=2` on platforms with structured options."""

    name: str
    type: OptionType = "str"
    required: bool = False
    positional: bool = False
    choices: tuple[str, ...] = ()
    min_value: int | None = None
    max_value: int | None = None
    max_length: int = 200
    aliases: tuple[str, ...] = ()  # e.g. Italian names; matched case-insensitively
    autocomplete: str | None = None  # name of an autocomplete source (units, rules, systems)
    default: Any = None

    def usage(self) -> str:
        if self.positional:
            token = self.name.upper()
            if self.type == "text":
                token += "…"
            return token if self.required else f"[{token}]"
        if self.type == "flag":
            return f"[{self.name}]"
        if self.choices:
            value = "|".join(self.choices)
        elif self.type == "faces":
            value = "3,5,6…"
        else:
            value = "N" if self.type in ("int", "signed") else "…"
        token = f"{self.name}={value}"
        return token if self.required else f"[{token}]"


@dataclass(frozen=True)
class CommandSpec:
    path: tuple[str, ...]  # ("roll",), ("roll", "show"), ("game", "new")
    handler: Handler
    options: tuple[OptionSpec, ...] = ()
    admin_only: bool = False  # chat admins only (game organisers are checked by the handler)
    readonly: bool = (
        False  # changes nothing: runs in a read transaction (works on a read-only file)
    )
    slow: bool = False  # may exceed Discord's 3-second window: defer first
    aliases: tuple[str, ...] = ()  # alternative names for the last path part (e.g. Italian)
    hidden: bool = False  # not listed in /help overview (still callable)
    examples: tuple[str, ...] = field(default=())

    @property
    def name(self) -> str:
        return " ".join(self.path)

    @property
    def key(self) -> str:
        """Catalogue prefix of this command's strings: `cmd.game_new`."""
        return "cmd." + "_".join(self.path)

    def usage(self) -> str:
        parts = ["/" + " ".join(self.path), *(o.usage() for o in self.options)]
        return " ".join(parts)

    def option(self, name: str) -> OptionSpec | None:
        low = name.lower()
        for opt in self.options:
            if opt.name == low or low in opt.aliases:
                return opt
        return None
