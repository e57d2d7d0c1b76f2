"""Every command of the registry with each numeric option at its bounds and one past them, in a
chat with a game of its system: always a result or a clear user error (a message key, never
"internal"). Exhaustive rather than random: the edges are few and a miss here is a crash in
chat (`/inf attack arm=25` passed the option check, then failed the rules model)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

import pytest

from bot.app import App
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Request
from bot.render import plain
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


def cases() -> Iterator[tuple[str, str]]:
    for spec in REGISTRY:
        for opt in spec.options:
            if opt.type not in ("int", "signed"):
                continue
            for number in edges(opt):
                for shape in ("bare", "units"):
                    yield system_of(spec), command(spec, opt, number, shape)
                if not opt.positional:
                    for example in spec.examples:
                        yield system_of(spec), with_option(example, opt, number)


CASES = sorted(set(cases()))


def test_the_cases_cover_every_numeric_option() -> None:
    numeric = [(s.name, o.name) for s in REGISTRY for o in s.options if o.type in ("int", "signed")]
    assert len(numeric) > 100
    assert len(CASES) >= 2 * len(numeric)


async def test_every_numeric_option_at_and_past_its_bounds(
    fuzz_app: App,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    for system in sorted({system for system, _ in CASES}):
        await setup_game(fuzz_app, system)
    failures: list[str] = []
    caplog.set_level(logging.ERROR)
    for system, text in CASES:
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
        if reply.error is not None and reply.error.code == "internal":
            failures.append(f"{text}  ->  {plain.render(reply)[:120]}")
    assert not failures, "\n".join(failures)
