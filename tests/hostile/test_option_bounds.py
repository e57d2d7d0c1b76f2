"""Every command of the registry with each numeric option at its bounds and one past them, in a
chat with a game of its system: always a result or a clear user error (a message key in both
languages, never "internal"); past a bound, the error is that option's bound error and its
sentence names the bound. Exhaustive over the edges through the app (a miss here is a crash in
chat: `/inf attack arm=25` passed the option check, then failed the rules model), and a
hypothesis property over any number through the registry."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import i18n
from bot.app import App
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Request
from bot.render import plain
from rules_core.errors import UserError
from tests.hostile.test_fuzz_commands import (
    NAMES,
    REGISTRY,
    chat_of,
    fuzz_app,  # noqa: F401  (fixture)
    setup_game,
    system_of,
)


def filler(opt: OptionSpec) -> str:
    """A plausible value for a required option the case does not vary."""
    if opt.choices:
        return opt.choices[0]
    if opt.type in ("int", "signed"):
        return str(opt.min_value if opt.min_value is not None else 1)
    if opt.type == "faces":
        return "3"
    if opt.type == "pairs":
        return "wounds=2"
    if opt.autocomplete == "units" or opt.name in ("name", "unit", "target", "attacker"):
        return "Beta"
    return "x"


BOUND_KEYS = {"cmd.int_range", "cmd.int_min", "cmd.int_max"}
CATALOGUES = {lang: i18n.catalogue(lang) for lang in i18n.LANGS}
LANGS = i18n.LANGS


def passed_bound(opt: OptionSpec, number: int) -> int | None:
    """The bound `number` is past, or None when it is inside the bounds."""
    if opt.min_value is not None and number < opt.min_value:
        return opt.min_value
    if opt.max_value is not None and number > opt.max_value:
        return opt.max_value
    return None


def edges(opt: OptionSpec) -> list[int]:
    out: list[int] = []
    if opt.min_value is not None:
        out += [opt.min_value, opt.min_value - 1]
    if opt.max_value is not None:
        out += [opt.max_value, opt.max_value + 1]
    return out


def command(spec: CommandSpec, varied: OptionSpec, number: int, shape: str) -> str:
    """`bare`: only what is required; `units`: with a target and an attacker of the game;
    examples (below) give the options that only make sense together."""
    words = ["/" + " ".join(spec.path)]
    for opt in spec.options:
        if opt is varied:
            token = str(number)
        elif opt.required:
            token = filler(opt)
        elif shape == "units" and opt.name in ("target", "attacker"):
            token = "Beta" if opt.name == "target" else "Alpha"
        else:
            continue
        if opt.positional:
            words.append(token if " " not in token else f'"{token}"')
        else:
            words.append(f"{opt.name}={token}")
    return " ".join(words)


def with_option(example: str, opt: OptionSpec, number: int) -> str:
    """A declared example (a valid combination of options) with this option set to `number`."""
    names = "|".join(re.escape(n) for n in (opt.name, *opt.aliases))
    kept = re.sub(rf"(?i)(?<=\s)(?:{names})=\S*", "", example)
    return " ".join(f"{kept} {opt.name}={number}".split())


def cases() -> Iterator[tuple[str, str, str, int | None]]:
    """(system, text, option, the bound it passes or None when inside the bounds)."""
    for spec in REGISTRY:
        for opt in spec.options:
            if opt.type not in ("int", "signed"):
                continue
            for number in edges(opt):
                bound = passed_bound(opt, number)
                for shape in ("bare", "units"):
                    yield system_of(spec), command(spec, opt, number, shape), opt.name, bound
                if not opt.positional:
                    for example in spec.examples:
                        text = with_option(example, opt, number)
                        yield system_of(spec), text, opt.name, bound


CASES = sorted(set(cases()), key=repr)


def test_the_cases_cover_every_numeric_option() -> None:
    numeric = [(s.name, o.name) for s in REGISTRY for o in s.options if o.type in ("int", "signed")]
    assert len(numeric) > 100
    assert len(CASES) >= 2 * len(numeric)


async def test_every_numeric_option_at_and_past_its_bounds(
    fuzz_app: App,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    for system in sorted({case[0] for case in CASES}):
        await setup_game(fuzz_app, system)
    failures: list[str] = []
    caplog.set_level(logging.ERROR)
    for system, text, option, bound in CASES:
        reply = await fuzz_app.handle(
            Request(
                platform="console",
                chat_key=chat_of(system),
                user_id="u1",
                user_name=NAMES["u1"],
                admin=True,
                text=text,
                seed=7,
            )
        )
        said = f"{text}  ->  {plain.render(reply)[:120]}"
        if bound is not None:  # past a bound: that option's bound error, naming the bound
            error = reply.error
            named = (
                error is not None
                and str(bound) in error.message
                and option.lower() in error.message.lower()  # a positional: its placeholder
            )
            if not named or error.code not in BOUND_KEYS or "None" in error.message:
                failures.append(said)
            elif not any(
                i18n.t(lang, "error.syntax") in plain.render(reply) for lang in i18n.LANGS
            ):
                failures.append(said + "  (no syntax line)")
        elif reply.error is not None:
            code = reply.error.code
            known = all(code in c or f"{code}.other" in c for c in CATALOGUES.values())
            if code == "internal" or not known:  # a key of both catalogues, or a plural table
                failures.append(said)
    assert not failures, "\n".join(failures)


NUMERIC = [(s, o) for s in REGISTRY for o in s.options if o.type in ("int", "signed")]


@st.composite
def numeric_case(draw: st.DrawFn) -> tuple[CommandSpec, OptionSpec, int]:
    spec, opt = draw(st.sampled_from(NUMERIC))
    lo = opt.min_value if opt.min_value is not None else -1000
    hi = opt.max_value if opt.max_value is not None else 1000
    number = draw(st.one_of(st.sampled_from(edges(opt)), st.integers(lo - 1000, hi + 1000)))
    return spec, opt, number


@settings(max_examples=400, deadline=None)
@given(case=numeric_case())
def test_any_number_is_the_option_or_its_bound_error(
    case: tuple[CommandSpec, OptionSpec, int],
) -> None:
    """Through the registry (the text form, and as Discord sends it): a number inside the
    bounds is the option's value; outside, the bound error names the option and the bound."""
    spec, opt, number = case
    text = command(spec, opt, number, "bare")
    structured = {o.name: filler(o) for o in spec.options if o.required and o is not opt}
    structured[opt.name] = str(number)
    for parse in (lambda: REGISTRY.resolve(text)[1], lambda: REGISTRY.convert(spec, structured)):
        bound = passed_bound(opt, number)
        if bound is None:
            assert parse()[opt.name] == number
            continue
        with pytest.raises(UserError) as raised:
            parse()
        assert raised.value.key in BOUND_KEYS, (text, raised.value)
        params = raised.value.params
        assert params["option"] == opt.shown  # NAME for a positional, as its syntax shows it
        assert {params.get("min"), params.get("max")} - {None} <= {opt.min_value, opt.max_value}
        for lang in i18n.LANGS:
            message = i18n.t(lang, raised.value.key, **params)
            assert "None" not in message
            assert str(bound) in message
