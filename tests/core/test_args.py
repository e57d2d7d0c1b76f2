"""Typed options (`bot.commands.args`): a command's options declared once as a class, checked at
definition against the option each field carries, and read by handlers as typed attributes."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest

from bot.commands.args import Args, option_value
from bot.commands.context import Context
from bot.commands.spec import CommandSpec, OptionSpec, flag_opt, int_opt
from bot.protocol import Reply


class _Sample(Args):
    mode: Annotated[
        Literal["a", "b"], OptionSpec("mode", positional=True, required=True, choices=("a", "b"))
    ]
    def_: Annotated[int | None, int_opt("def", "difesa", hi=10)] = None
    apply: Annotated[bool, flag_opt("apply", "applica")] = False
    note: Annotated[str | None, OptionSpec("note", type="text")] = None


async def _handler(ctx: Context) -> Reply:  # never called
    raise AssertionError


def test_the_spec_takes_its_options_from_the_class_in_field_order() -> None:
    spec = CommandSpec(path=("sample",), handler=_handler, args=_Sample)
    assert [o.name for o in spec.options] == ["mode", "def", "apply", "note"]
    assert spec.option("difesa") is spec.options[1]
    assert spec.usage() == "/sample MODE [def=N] [apply] [note=…]"


def test_values_become_typed_attributes_even_under_a_keyword_name() -> None:
    a = _Sample.from_options({"mode": "b", "def": 4, "apply": True, "note": None})
    assert (a.mode, a.def_, a.apply, a.note) == ("b", 4, True, None)


def test_options_and_args_together_are_refused() -> None:
    with pytest.raises(TypeError, match="options come from args"):
        CommandSpec(
            path=("x",),
            handler=_handler,
            args=_Sample,
            options=(flag_opt("y"),),
        )


@pytest.mark.parametrize(
    ("annotation", "option", "why"),
    [
        (str | None, int_opt("n"), "an int option read as text"),
        (int, int_opt("n"), "an optional number typed as always there"),
        (int | None, int_opt("n", required=True), "a required number typed as maybe absent"),
        (bool | None, flag_opt("f"), "a flag is never None"),
        (Literal["a"], OptionSpec("c", required=True, choices=("a", "b")), "a choice missing"),
    ],
)
def test_a_field_whose_type_does_not_fit_its_option_is_refused_at_definition(
    annotation: object, option: OptionSpec, why: str
) -> None:
    with pytest.raises(TypeError, match="doesn't fit"):
        type("Bad", (Args,), {"__annotations__": {"f": Annotated[annotation, option]}})


def test_a_field_without_its_option_is_refused() -> None:
    with pytest.raises(TypeError, match="one OptionSpec"):
        type("Bad", (Args,), {"__annotations__": {"f": int | None}})


def test_a_handler_reading_another_commands_class_is_a_bug_not_a_value() -> None:
    from bot.commands.stats import StatsArgs

    spec = CommandSpec(path=("stats",), handler=_handler, args=StatsArgs)
    ctx = Context.__new__(Context)
    ctx.spec, ctx.opts = spec, {"player": "Ann"}
    assert ctx.args(StatsArgs).player == "Ann"
    with pytest.raises(TypeError):
        ctx.args(_Sample)


def test_a_shared_helper_reads_an_option_by_its_name_and_none_when_the_command_lacks_it() -> None:
    a = _Sample.from_options({"mode": "a", "def": 3, "apply": False, "note": None})
    assert [option_value(a, o) for o in ("def", "apply", "target")] == [3, False, None]


def test_a_field_named_like_a_method_of_args_is_refused() -> None:
    # a field `options` would hide Args.options, which the spec reads its options from
    with (
        pytest.raises(TypeError, match="name it options_"),
        pytest.warns(UserWarning, match="shadows"),
    ):
        type(
            "Bad",
            (Args,),
            {"__annotations__": {"options": Annotated[int | None, int_opt("options")]}},
        )


def test_options_that_are_data_make_a_class_read_by_name() -> None:
    from bot.commands.args import args_of

    made = args_of(
        "Made",
        [OptionSpec("rule", choices=("a", "b"), aliases=("regola",)), flag_opt("strict")],
    )
    spec = CommandSpec(path=("made",), handler=_handler, args=made)
    assert spec.usage() == "/made [rule=a|b] [strict]"
    assert spec.option("regola") is spec.options[0]
    assert made.from_options({"rule": "b", "strict": False}).model_dump() == {
        "rule": "b",
        "strict": False,
    }
