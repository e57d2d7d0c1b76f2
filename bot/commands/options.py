"""Typed options: each command's options as one pydantic model, generated from its
`CommandSpec` rather than written per command. Numeric bounds are the `OptionSpec`'s, which for
a game's stats come from the rules' own models (`spec.stat_opt` reads a field's ge/le), so
what the rules would refuse is refused here first, as a user error naming the bound.

The registry converts each token to its type (`registry.convert_value`: words to numbers,
choices to their codes); the model then checks the whole set at once (`validate`). Handlers
read the validated values typed, as their command's `Args` class (`ctx.args`,
bot/commands/args.py)."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from bot.commands.spec import CommandSpec, OptionSpec
from rules_core.errors import UserError


def _field(opt: OptionSpec) -> tuple[Any, Any]:
    """The annotation and default of one option's field (aliased: option names such as
    `str`, `def` or `json` would clash with Python or BaseModel names)."""
    kind: Any
    if opt.type in ("int", "signed"):
        kind = Annotated[int, Field(ge=opt.min_value, le=opt.max_value)] | None
    elif opt.type == "flag":
        kind = bool
    elif opt.type == "faces":
        kind = list[int] | None
    elif opt.type == "pairs":
        kind = dict[str, int | str]  # a printed value (`4+`, `-`) for the game to read
    elif opt.choices:
        kind = Literal[opt.choices] | None
    else:
        kind = Annotated[str, Field(max_length=opt.max_length)] | None
    return kind, Field(default=opt.unset, alias=opt.name)


@cache  # one model per command (equal specs share it)
def options_model(spec: CommandSpec) -> type[BaseModel]:
    """The model of `spec`'s options."""
    fields: dict[str, Any] = {f"o_{o.name}": _field(o) for o in spec.options}
    if spec.guard is not None:  # the state a button acts on (`CommandSpec.guard`)
        fields[f"o_{spec.guard}"] = (str | None, Field(default=None, alias=spec.guard))
    return create_model(
        "Options_" + "_".join(spec.path),
        __config__=ConfigDict(extra="forbid", frozen=True),
        **fields,
    )


def _bound_error(opt: OptionSpec) -> UserError:
    """The sentence for a number out of bounds: both bounds when there are two, else the one."""
    lo, hi = opt.min_value, opt.max_value
    if lo is not None and hi is not None:
        return UserError("cmd.int_range", option=opt.shown, min=lo, max=hi)
    if lo is not None:
        return UserError("cmd.int_min", option=opt.shown, min=lo)
    return UserError("cmd.int_max", option=opt.shown, max=hi)


def validate(spec: CommandSpec, values: dict[str, Any]) -> dict[str, Any]:
    """`values` (every option of `spec`, converted) checked by the command's model; the first
    problem is raised as the user error that names it."""
    try:
        parsed = options_model(spec).model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0])
        opt = next((o for o in spec.options if o.name == name), None)
        if opt is None:
            raise UserError("cmd.unknown_option", option=name[:40]) from None
        if first["type"] in ("greater_than_equal", "less_than_equal"):
            raise _bound_error(opt) from None
        if first["type"] == "string_too_long":
            raise UserError("cmd.too_long_value", option=opt.shown, limit=opt.max_length) from None
        if first["type"] == "literal_error":
            raise UserError(
                "cmd.bad_choice", option=opt.shown, choices=", ".join(opt.choices)
            ) from None
        raise  # a converted value of the wrong type: the registry's bug, not the user's
    out = parsed.model_dump(by_alias=True)
    if spec.guard is not None and spec.guard not in values:
        del out[spec.guard]  # a typed command carries no guard: as before, no key
    return out
