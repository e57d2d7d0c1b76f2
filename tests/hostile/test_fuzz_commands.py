"""Every command, every option, generated from the registry: any text (and any structured
option set, as Discord sends them) ends as a reply or one localized error sentence, never an
internal error or a traceback; a refused state-changing command leaves the database untouched.

Each command runs in a chat with a game of its own system (units with real profiles, three
players, a spectator), as the organiser, another player, a spectator or a chat admin."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import i18n
from bot.app import App
from bot.commands import build_registry
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Reply, Request
from bot.render import discord_md, plain, telegram_html
from rules_core.systems import SYSTEMS

REGISTRY = build_registry()
SPECS = {spec.name: spec for spec in REGISTRY}
PROFILES = {
    "gen": "wounds=5",
    "aos": "wounds=3 save=4 bravery=7 move=5",
    "wm": "spd=5 str=6 mat=6 rat=4 def=13 arm=15 cmd=8 boxes=5",
    "wow": "health=5 armor=2 resist=1 speed=5 range=6",
    "c5": "mov=10 ini=3 att=4 str=5 def=3 res=5 aim=3 cou=5 dis=3 pow=2",
    "inf": "cc=14 bs=12 ph=10 wip=13 arm=1 bts=0 w=1 mov1=4 mov2=4",
}
CATALOGUES = {lang: i18n.catalogue(lang) for lang in i18n.LANGS}
UNITS = ("Alpha", "Beta", "Gamma")
USERS = ("u1", "u2", "u3", "u4")  # organiser, player, player, spectator
NAMES = {"u1": "Ann", "u2": "Bob", "u3": "Cid", "u4": "Dee"}


def system_of(spec: CommandSpec) -> str:
    return spec.path[0] if spec.path[0] in SYSTEMS else "gen"


def chat_of(system: str) -> str:
    return f"console:fuzz-{system}"


async def setup_game(app: App, system: str) -> None:
    chat = chat_of(system)

    async def run(text: str, user: str) -> Reply:
        return await app.handle(
            Request(
                platform="console", chat_key=chat, user_id=user, user_name=NAMES[user], text=text
            )
        )

    assert (await run(f"/game new {system} Fuzz", "u1")).ok
    for user in ("u2", "u3"):
        assert (await run("/game join", user)).ok
    for unit, owner in zip(UNITS, ("u1", "u2", "u3"), strict=True):
        added = await run(f"/unit add {unit} {PROFILES[system]}", owner)
        assert added.ok, plain.render(added)
    assert (await run("/roll 2d6 warmup", "u1")).ok
    assert (await run("/campaign new Fuzzers", "u1")).ok


@pytest.fixture
async def fuzz_app(tmp_path: Path) -> AsyncIterator[App]:
    app = App(tmp_path / "fuzz.sqlite3")
    await app.start()
    try:
        yield app
    finally:
        await app.stop()


# --- strategies -----------------------------------------------------------------------------

JUNK = st.text(max_size=24)  # any code point but surrogates: controls, RTL, zero-width...
WORD = st.one_of(
    st.sampled_from([*UNITS, "alp", "Ann", "bob", "<@u2>", "@Cid", "all", "-", "0", "first"]),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-+,.:;/'\"=<>@&*`|~#", max_size=12),
    JUNK,
)


def numbers(opt: OptionSpec) -> st.SearchStrategy[str]:
    lo = opt.min_value if opt.min_value is not None else -50
    hi = opt.max_value if opt.max_value is not None else 50
    return st.one_of(
        st.integers(lo, hi).map(str),
        st.integers(lo - 3, hi + 3).map(lambda n: f"+{n}" if n >= 0 else str(n)),
        st.sampled_from(["9999999999", "-0", "1e3", "½", "٣", " 3", ""]),
    )


def value(opt: OptionSpec) -> st.SearchStrategy[str]:
    if opt.choices:
        return st.one_of(
            st.sampled_from(opt.choices), st.sampled_from(opt.choices).map(str.upper), WORD
        )
    if opt.type in ("int", "signed"):
        return numbers(opt)
    if opt.type == "faces":
        return st.one_of(
            st.lists(st.integers(0, 25), min_size=1, max_size=12).map(
                lambda fs: ",".join(map(str, fs))
            ),
            WORD,
        )
    if opt.type == "flag":
        return st.sampled_from(["", "yes", "no", "0", "maybe"])
    if opt.type == "pairs":
        return st.sampled_from(["wounds=2", "save=9", "x=1", "boxes=0", "health=3 armor=1"])
    if opt.type == "text":
        return st.one_of(
            WORD,
            st.lists(WORD, max_size=5).map(" ".join),
            st.sampled_from(["2d6+3", "d20 fire", "(((d6)))", "4d6kh3", "Alpha", "pinned"]),
        )
    return WORD


def quoted(text: str) -> str:
    return f'"{text}"' if (" " in text or not text) and '"' not in text else text


@st.composite
def command_text(draw: st.DrawFn, spec: CommandSpec) -> str:
    words = ["/" + " ".join(spec.path)]
    for opt in (o for o in spec.options if o.positional):
        if not draw(st.booleans()) and not opt.required:
            break
        words.append(quoted(draw(value(opt))) if opt.type != "text" else draw(value(opt)))
    named = [o for o in spec.options if not o.positional]
    for opt in draw(st.lists(st.sampled_from(named), max_size=6, unique=True)) if named else []:
        if opt.type == "flag" and draw(st.booleans()):
            words.append(draw(st.sampled_from([opt.name, *opt.aliases])))
        elif opt.type == "pairs":
            words.append(draw(value(opt)))
        else:
            key = draw(st.sampled_from([opt.name, opt.name.upper(), *opt.aliases]))
            words.append(f"{key}={quoted(draw(value(opt)))}")
    if draw(st.integers(0, 4)) == 0:
        words.insert(draw(st.integers(1, len(words))), draw(WORD))
    return " ".join(words)


@st.composite
def structured(draw: st.DrawFn, spec: CommandSpec) -> dict[str, Any]:
    """Options as Discord delivers them: a name -> typed value map (ints as ints)."""
    out: dict[str, Any] = {}
    for opt in spec.options:
        if opt.required or draw(st.booleans()):
            raw = draw(value(opt))
            if opt.type in ("int", "signed") and raw.lstrip("+-").isdigit() and len(raw) < 10:
                out[opt.name] = int(raw)
            elif opt.type == "flag":
                out[opt.name] = draw(st.booleans())
            else:
                out[opt.name] = raw
    if draw(st.integers(0, 5)) == 0:
        out[draw(st.sampled_from(["bogus", "x", "n"]))] = draw(WORD)
    return out


# --- the property ---------------------------------------------------------------------------


async def snapshot(app: App) -> list[Any]:
    """Everything a command could have written."""
    out: list[Any] = []
    async with app.db.transaction(write=False) as conn:
        tables = [
            r[0]
            for r in await conn.fetch_all(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
                "ORDER BY name"
            )
        ]
        for table in tables:
            out.append((table, sorted(await conn.fetch_all(f"SELECT * FROM {table}"), key=repr)))
    return out


class Internal(logging.Handler):
    """Collects the internal errors the dispatcher logs (with their tracebacks)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def check_reply(reply: Reply, lang: i18n.Lang, said: str) -> None:
    for text in (plain.render(reply), telegram_html.render(reply), discord_md.render(reply)):
        assert "Traceback" not in text, said
    if reply.error is None:
        return
    assert reply.error.code != "internal", f"{said}: {reply.error.message}"
    message = reply.error.message
    assert message and message != reply.error.code, f"no string for {reply.error.code}: {said}"
    code = reply.error.code
    for each in CATALOGUES.values():  # a key of both languages' catalogues, or a plural table
        assert code in each or f"{code}.other" in each, f"{code} not in every catalogue: {said}"
    template = CATALOGUES[lang].get(code) or CATALOGUES[lang][f"{code}.other"]
    assert "\n" not in template.strip()  # one sentence (user text it quotes may hold newlines)


GROUPS = {system: [spec for spec in REGISTRY if system_of(spec) == system] for system in PROFILES}


def test_every_command_is_fuzzed() -> None:
    assert sum(len(specs) for specs in GROUPS.values()) == len(SPECS) > 80


@pytest.mark.parametrize("system", sorted(GROUPS))
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_any_input_is_a_reply_or_one_sentence(fuzz_app: App, system: str, data: Any) -> None:
    """One example runs one random input through every command of the group."""
    chat = chat_of(system)
    if not getattr(fuzz_app, "_fuzz_ready", False):
        await setup_game(fuzz_app, system)
        fuzz_app._fuzz_ready = True  # type: ignore[attr-defined]
    for spec in GROUPS[system]:
        await run_one(fuzz_app, spec, chat, data)


async def run_one(app: App, spec: CommandSpec, chat: str, data: Any) -> None:
    user = data.draw(st.sampled_from(USERS))
    admin = data.draw(st.booleans())
    lang: i18n.Lang = data.draw(st.sampled_from(i18n.LANGS))
    if data.draw(st.integers(0, 3)) == 0:
        fields: dict[str, Any] = {"command": spec.name, "options": data.draw(structured(spec))}
    else:
        fields = {"text": data.draw(command_text(spec))}
    request = Request(
        platform="console",
        chat_key=chat,
        user_id=user,
        user_name=NAMES[user],
        admin=admin,
        lang=lang,
        seed=data.draw(st.integers(0, 99)),
        **fields,
    )
    said = f"{user} admin={admin} lang={lang} {fields}"
    before = await snapshot(app)
    internal = Internal()
    logging.getLogger("bot.app").addHandler(internal)
    try:
        reply = await app.handle(request)
    finally:
        logging.getLogger("bot.app").removeHandler(internal)
    assert not internal.records, f"{said}\n{internal.format(internal.records[0])}"
    check_reply(reply, lang, said)
    if reply.error is not None:
        assert await snapshot(app) == before, f"a refused command changed the database: {said}"
