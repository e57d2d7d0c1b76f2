"""One declaration per command. The text parser, `/help`, and the Discord and Telegram command
lists are all generated from these specs; no adapter has per-command code."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import annotated_types
from pydantic import BaseModel

from rules_core.rules.text import fold

if TYPE_CHECKING:
    from bot.commands.args import Args
    from bot.commands.context import Context
    from bot.protocol import Reply

OptionType = Literal[
    "str", "int", "flag", "text", "faces", "user", "signed", "pairs", "lines", "attachment"
]
Handler = Callable[["Context"], Awaitable["Reply"]]


@dataclass(frozen=True)
class OptionSpec:
    """One option. `text` options take the rest of the line (e.g. a dice expression and its label);
    `faces` is a comma list of die faces (`dice=3,5,6`); `signed` accepts `+1` / `-2`; `pairs`
    collects every `name=number` token that isn't another option (a unit's stats), or takes
    them as one text `a=1 b=2` on platforms with structured options; `lines` (positional, the
    last one) is the rest of the message verbatim, every line and quote kept, nothing in it read
    as an option (a list of units); `attachment` is a file: on Discord an attachment option, in
    the text form a path on this computer (console and `ask` only)."""

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

    @property
    def unset(self) -> Any:
        """What a handler reads when the option isn't given: False for a flag, {} for pairs,
        else its default (None unless declared)."""
        return {"flag": False, "pairs": {}}.get(self.type, self.default)

    @property
    def shown(self) -> str:
        """The option as an error names it: a positional one as the syntax line's placeholder
        (`QUANTITY`, so the sentence begins as the reader sees it below), else its name."""
        return self.name.upper() if self.positional else self.name

    def usage(self) -> str:
        if self.positional:
            token = self.name.upper()
            if self.type in ("text", "lines"):
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
    group_aliases: tuple[str, ...] = ()  # names of the first word, a group: /armata for /army
    # Words of the game's books, in either language, for what this command does (C5's `parata`
    # for /c5 melee): no aliases, they don't run it, but typed as a subcommand they offer it
    # before a name that only looks alike (`parata` is no `paura`).
    book_words: tuple[str, ...] = ()
    hidden: bool = False  # not listed in /help overview (still callable)
    examples: tuple[str, ...] = field(default=())
    # A hidden option only buttons send (`/turn end turn=…`): the state the button acts on, so
    # a press after it moved on changes nothing. Parsed like any option, but left out of the
    # usage, /help and the platforms' command lists, which read `options`.
    guard: str | None = None
    # The options as one typed class (`bot.commands.args`): `options` is then taken from it.
    args: type[Args] | None = None

    def __post_init__(self) -> None:
        if self.args is not None:
            if self.options:
                raise TypeError(f"{self.name}: options come from args={self.args.__name__}")
            object.__setattr__(self, "options", self.args.options())

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
        low = fold(name)  # `quantità=` as /help reads it: the names are ASCII
        for opt in self.options:
            if opt.name == low or low in opt.aliases:
                return opt
        for opt in self.options:  # the name Discord shows in another language (`quantita`)
            if low in _localized_names(opt.name):
                return opt
        if self.guard is not None and low in {self.guard, *_localized_names(self.guard)}:
            return OptionSpec(self.guard, max_length=32)
        return None


def _localized_names(option: str) -> set[str]:
    """An option's names in the catalogues' `discord.options` (what Discord's picker shows in
    each language), so a name seen there can be typed in text too."""
    from bot import i18n  # the catalogues load once, on the first miss

    return {i18n.catalogue(lang).get(f"discord.options.{option}", "") for lang in i18n.LANGS} - {""}


def typed_values(option: str, code: str) -> set[str]:
    """What a user may type for a choice's `code` besides the code itself: its word in each
    language (`values.<option>.<code>`: `aggiungi` for `add`) and the label Discord shows
    (`discord.choices.<option>.<code>`), folded (lower case, no accents)."""
    from bot import i18n
    from rules_core.rules.text import fold

    found = {
        i18n.catalogue(lang).get(f"{table}.{option}.{code}", "")
        for lang in i18n.LANGS
        for table in ("values", "discord.choices")
    }
    # A label naming a stat with its book code ("Coraggio (COR)", "Potere (POT)"): the word
    # and the code are each typed by players (`caratteristica=coraggio`, `=pot`).
    parts = {p for v in found for m in [_NAMED_CODE.fullmatch(v)] if m for p in m.groups()}
    return {fold(v) for v in found | parts if v}


_NAMED_CODE = re.compile(r"(\w+) \(([A-Z]{2,4})\)")


# --- option builders the game-system modules share (/aos, /wm, /wow, /c5, /inf) -----------------


def int_opt(
    name: str, *aliases: str, lo: int = 0, hi: int = 20, required: bool = False
) -> OptionSpec:
    """A whole number from lo to hi: every game system declares its stats this way."""
    return OptionSpec(
        name, type="int", min_value=lo, max_value=hi, required=required, aliases=aliases
    )


def stat_bounds(model: type[BaseModel], field: str) -> tuple[int | None, int | None]:
    """The inclusive bounds a rules_core model declares for one of its numeric fields."""
    lo: int | None = None
    hi: int | None = None
    for rule in model.model_fields[field].metadata:
        if isinstance(rule, annotated_types.Ge):
            lo = int(rule.ge)  # type: ignore[call-overload]
        elif isinstance(rule, annotated_types.Le):
            hi = int(rule.le)  # type: ignore[call-overload]
    return lo, hi


def stat_opt(model: type[BaseModel], field: str, name: str, *aliases: str) -> OptionSpec:
    """An option that becomes `model.field` of a game's rules: its bounds are that field's, so
    the option check refuses whatever the rules model would (one definition of each stat)."""
    lo, hi = stat_bounds(model, field)
    kind: OptionType = "signed" if lo is not None and lo < 0 else "int"
    return OptionSpec(name, type=kind, min_value=lo, max_value=hi, aliases=aliases)


def signed_opt(name: str, *aliases: str, limit: int = 20) -> OptionSpec:
    """A modifier such as `+2` or `-1`, from -limit to +limit."""
    return OptionSpec(name, type="signed", min_value=-limit, max_value=limit, aliases=aliases)


def flag_opt(name: str, *aliases: str) -> OptionSpec:
    """An on/off word (`apply`, `cover`): one builder so every flag is declared alike."""
    return OptionSpec(name, type="flag", aliases=aliases)


def unit_opt(
    name: str, *aliases: str, positional: bool = False, required: bool = False
) -> OptionSpec:
    """A unit of the chat's game, completed from its units: one shape for every system."""
    return OptionSpec(
        name,
        positional=positional,
        required=required,
        max_length=40,
        autocomplete="units",
        aliases=aliases,
    )


# The options every game system's rolls take with the same names and Italian aliases.
DICE = OptionSpec("dice", type="faces", aliases=("dadi",))
APPLY = flag_opt("apply", "applica")
TARGET = unit_opt("target", "bersaglio")
ATTACKER = unit_opt("attacker", "attaccante")


def odds_spec(
    system: str,
    handler: Handler,
    args: type[Args],
    *examples: str,
    slow: bool = False,
) -> CommandSpec:
    """`/<system> odds`: every system's odds twin changes nothing and also answers to `prob`;
    `args`: its options class."""
    return CommandSpec(
        path=(system, "odds"),
        handler=handler,
        readonly=True,
        slow=slow,
        aliases=("prob",),
        args=args,
        examples=examples,
    )
