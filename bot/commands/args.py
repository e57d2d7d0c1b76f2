"""A command's options as one typed class, declared once.

Each field of an `Args` subclass is one option: its Python type is what the handler reads, its
`OptionSpec` (in `Annotated[...]`) is how users type it (name, aliases, bounds, choices):

    class CardArgs(Args):
        action: Annotated[str, OptionSpec("action", positional=True, required=True, ...)]
        cost: Annotated[int | None, int_opt("cost", "costo", hi=9)] = None

    CommandSpec(path=("wow", "card"), handler=card_cmd, args=CardArgs)   # options from the class

    async def card_cmd(ctx: Context) -> Reply:
        a = ctx.args(CardArgs)   # typed: a.cost is int | None
        ...

The spec's `options` (what the parser, `/help` and the platforms' command lists read) are taken
from the class, in field order, so the two can't disagree; the class checks at definition that
each field's type fits its option (an `int` option is an `int`, optional unless required...).
Values are validated once, with the bounds, by the model `bot.commands.options` derives from
the spec; `from_options` then only builds the typed object from the checked values."""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Literal, Self, cast

from pydantic import BaseModel, ConfigDict, create_model

from bot.commands.spec import OptionSpec


def _base_type(opt: OptionSpec) -> object:
    """The Python type a converted value of `opt` has (see `registry.convert_value`)."""
    if opt.type in ("int", "signed"):
        return int
    if opt.type == "flag":
        return bool
    if opt.type == "faces":
        return list[int]
    if opt.type == "pairs":
        return dict[str, int | str]
    return str


def _may_be_absent(opt: OptionSpec) -> bool:
    """Whether the handler can receive None: an option neither required nor defaulted (flags
    default to False, pairs to {}: `OptionSpec.unset`)."""
    return not opt.required and opt.unset is None


def _fits(annotation: object, opt: OptionSpec) -> bool:
    """`annotation` is the type `opt`'s values have: its base type (a `Literal` of the choices
    for a choice), with None exactly when the option may be absent."""
    members = (
        typing.get_args(annotation)
        if typing.get_origin(annotation) in (typing.Union, types.UnionType)
        else (annotation,)
    )
    nullable = type(None) in members
    rest = [m for m in members if m is not type(None)]
    if len(rest) != 1 or nullable != _may_be_absent(opt):
        return False
    (kind,) = rest
    if opt.choices and typing.get_origin(kind) is Literal:
        return set(typing.get_args(kind)) == set(opt.choices)
    return bool(kind == _base_type(opt))


class Args(BaseModel):
    """Base of every command's options class (see the module's docstring)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    # option name -> field name (`def` is a keyword, so its field is `def_`), in field order
    _fields: ClassVar[dict[str, str]]

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._fields = {}
        for field_name, info in cls.model_fields.items():
            if hasattr(Args, field_name):  # e.g. `options` would hide Args.options
                raise TypeError(f"{cls.__name__}.{field_name}: name it {field_name}_")
            specs = [m for m in info.metadata if isinstance(m, OptionSpec)]
            if len(specs) != 1:
                raise TypeError(f"{cls.__name__}.{field_name}: one OptionSpec in Annotated[...]")
            (opt,) = specs
            if not _fits(info.annotation, opt):
                raise TypeError(
                    f"{cls.__name__}.{field_name}: {info.annotation} doesn't fit option "
                    f"{opt.name!r} of type {opt.type!r}"
                )
            if opt.name in cls._fields:
                raise TypeError(f"{cls.__name__}: option {opt.name!r} declared twice")
            cls._fields[opt.name] = field_name

    @classmethod
    def options(cls) -> tuple[OptionSpec, ...]:
        """The options this class declares, in field order."""
        return tuple(
            next(m for m in cls.model_fields[f].metadata if isinstance(m, OptionSpec))
            for f in cls._fields.values()
        )

    @classmethod
    def from_options(cls, values: dict[str, Any]) -> Self:
        """The typed object of values the command's options model has already checked (every
        option present: `options.validate` fills the defaults)."""
        # model_construct: no second validation, the values are checked already
        made = cls.model_construct(**{f: values.get(name) for name, f in cls._fields.items()})
        return cast(Self, made)


def option_value(args: Args, option: str) -> Any:
    """The value of the option named `option`, None when `args` has no such option: for the
    helpers several commands share (`system_kit`: `target=`, `apply`, a system's settings),
    which read an option whatever command they serve. A function, not a method: a field may be
    named like any method (`value`), which would hide it."""
    field_name = type(args)._fields.get(option)
    return None if field_name is None else getattr(args, field_name)


def args_of(name: str, options: Sequence[OptionSpec]) -> type[Args]:
    """An options class made from options that are data (a system's settings, one choice per
    setting of its rules model): each field is named as its option and typed by what it holds.
    Its handler walks the values by name (`model_dump()`), not as typed attributes."""
    fields: dict[str, Any] = {}
    for opt in options:
        kind = _base_type(opt)
        absent = _may_be_absent(opt)
        fields[opt.name] = (Annotated[kind | None if absent else kind, opt], opt.unset)  # type: ignore[operator]
    made: type[Args] = create_model(name, __base__=Args, **fields)
    return made
