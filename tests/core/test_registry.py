from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import i18n
from bot.commands import all_specs, build_registry
from bot.commands.registry import (
    MAX_SUGGESTIONS,
    Registry,
    UnknownCommand,
    closest,
    fold,
    tokenize,
)
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Reply
from rules_core.errors import UserError


async def _noop(ctx: object) -> Reply:
    return Reply()


def registry() -> Registry:
    return Registry(
        [
            CommandSpec(
                path=("roll",),
                handler=_noop,
                aliases=("tira",),
                options=(
                    OptionSpec("expression", type="text", positional=True, required=True),
                    OptionSpec("dice", type="faces", aliases=("dadi",)),
                ),
            ),
            CommandSpec(
                path=("roll", "show"),
                handler=_noop,
                aliases=("mostra",),
                options=(
                    OptionSpec("id", type="int", positional=True, required=True, min_value=1),
                ),
            ),
            CommandSpec(
                path=("game", "new"),
                handler=_noop,
                options=(
                    OptionSpec("system", positional=True, required=True, choices=("gen", "aos")),
                    OptionSpec("name", positional=True),
                    OptionSpec("hidden", type="flag"),
                    OptionSpec("mod", type="signed", min_value=-3, max_value=3),
                ),
            ),
        ]
    )


def test_text_option_keeps_spacing_and_label() -> None:
    spec, opts = registry().resolve("/roll 2d6 + 3  fire  damage")
    assert spec.path == ("roll",)
    assert opts == {"expression": "2d6 + 3  fire  damage", "dice": None}


def test_bot_suffix_and_alias_and_faces() -> None:
    spec, opts = registry().resolve("/tira@WargameBot 2d6 dadi=3,4")
    assert spec.path == ("roll",)
    assert opts["dice"] == [3, 4]
    assert opts["expression"] == "2d6"


def test_dice_expression_with_equals_is_not_an_option() -> None:
    _, opts = registry().resolve("/roll 4d6r=1")
    assert opts["expression"] == "4d6r=1"


def test_subcommand_and_alias_of_subcommand() -> None:
    assert registry().resolve("/roll show 12")[1] == {"id": 12}
    assert registry().resolve("/tira mostra 3")[1] == {"id": 3}


def test_positional_choice_flag_signed_and_quotes() -> None:
    spec, opts = registry().resolve('/game new AOS "Spring league" hidden mod=-2')
    assert spec.path == ("game", "new")
    assert opts == {"system": "aos", "name": "Spring league", "hidden": True, "mod": -2}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("/nope", "cmd.unknown"),
        ("/game", "cmd.unknown_sub"),
        ("/roll show", "cmd.missing_option"),
        ("/roll show x", "cmd.bad_int"),
        ("/roll show 0", "cmd.int_min"),  # no upper bound: "at least 1", not "1 and None"
        ("/game new chess", "cmd.bad_choice"),
        ("/game new gen a b", "cmd.unquoted_name"),  # a name of two words wants quotes
        ('/game new gen "a" b', "cmd.unexpected"),
        ("/game new gen mod=9", "cmd.int_range"),
        ("/game new gen mod=1 mod=2", "cmd.duplicate_option"),
        ("/roll d6 dice=3,x", "cmd.bad_faces"),
        ("/", "cmd.empty"),
    ],
)
def test_errors_are_user_errors_with_keys(text: str, key: str) -> None:
    with pytest.raises(UserError) as info:
        registry().resolve(text)
    assert info.value.key == key


def test_structured_options_use_the_same_conversion() -> None:
    reg = registry()
    spec = reg.get("game new")
    assert spec is not None
    assert reg.convert(spec, {"system": "Gen", "mod": 2}) == {
        "system": "gen",
        "name": None,
        "hidden": False,
        "mod": 2,
    }
    with pytest.raises(UserError) as info:
        reg.convert(spec, {"sistema": "gen"})
    assert info.value.key == "cmd.unknown_option"


def test_fold_ignores_case_and_accents() -> None:
    assert fold("Città") == fold("CITTA")


def test_tokenize_quotes() -> None:
    assert [t.text for t in tokenize('a "b c" “d e”')] == ["a", "b c", "d e"]


def test_every_declared_command_is_reachable_by_its_own_text() -> None:
    reg = build_registry()
    for spec in all_specs():
        assert reg.get(spec.name) is spec


REGISTRY = build_registry()


def render(spec: CommandSpec, opts: dict[str, Any]) -> str:
    """The text form of a parsed command: its name, positional values in order, then
    `name=value` options and flags (what a button or a macro stores)."""
    words = ["/" + spec.name]
    named: list[str] = []
    for opt in spec.options:
        value = opts.get(opt.name)
        if value is None or value is False or value == {}:
            continue
        if opt.type == "flag":
            named.append(opt.name)
        elif opt.type == "faces":
            named.append(f"{opt.name}=" + ",".join(map(str, value)))
        elif opt.type == "pairs":
            named += [f"{k}={v}" for k, v in value.items()]
        elif opt.positional and opt.type in ("text", "lines"):
            words.append(str(value))  # the rest of the line, as typed
        else:
            text = str(value)
            if " " in text or not text:
                text = f"«{text}»" if '"' in text else f'"{text}"'
            words.append(text if opt.positional else f"{opt.name}={text}")
    return " ".join([*words[:1], *named, *words[1:]])


def check_user_error(err: UserError) -> None:
    """A user error is one sentence of the catalogues, in both languages, its parameters
    filled (never the bare key, never a `{placeholder}` left)."""
    for lang in i18n.LANGS:
        template = i18n.catalogue(lang).get(err.key)
        assert template is not None, (lang, err.key)
        assert i18n.placeholders(template) <= set(err.params), (lang, err.key, err.params)


def check_text(text: str) -> None:
    """Parse -> render -> parse gives the same command and options; a refusal is a user
    error of the catalogues."""
    try:
        spec, opts = REGISTRY.resolve(text)
    except UserError as err:
        check_user_error(err)
        return
    again = render(spec, opts)
    assert REGISTRY.resolve(again) == (spec, opts), (text, again)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_any_text_is_a_command_or_a_user_error(text: str) -> None:
    check_text(text)


COMMAND_WORDS = sorted({"/" + spec.path[0] for spec in REGISTRY} | {"/tira", "/partita"})
SUB_WORDS = sorted({spec.path[1] for spec in REGISTRY if len(spec.path) > 1})
OPTION_WORDS = sorted(
    {f"{o.name}=" for spec in REGISTRY for o in spec.options if o.type != "flag"}
    | {o.name for spec in REGISTRY for o in spec.options if o.type == "flag"}
)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(COMMAND_WORDS),
    st.lists(
        st.sampled_from(SUB_WORDS)
        | st.sampled_from(OPTION_WORDS)
        | st.sampled_from(OPTION_WORDS).map(lambda w: w + "3" if w.endswith("=") else w)
        | st.sampled_from(["2d6", "x=1", "dice=1,2", '"a b"', "@", "=", "-1", "99", "Alpha"])
        | st.text(max_size=10),
        max_size=6,
    ),
)
def test_token_soup_is_a_command_or_a_user_error(head: str, words: list[str]) -> None:
    check_text(" ".join([head, *words]))


@pytest.mark.parametrize(
    ("text", "key", "suggested"),
    [
        ("/rol 2d6", "cmd.unknown_hint", ["/roll"]),
        ("/rolll", "cmd.unknown_hint", ["/roll"]),
        ("/tria 2d6", "cmd.unknown_hint", ["/tira"]),  # an Italian typo gets the Italian name
        ("/hlep", "cmd.unknown_hint", ["/help"]),
        ("/gam new aos", "cmd.unknown_hint", ["/game new"]),
        ("/gam", "cmd.unknown_hint", ["/game"]),
        ("/game nwe wm", "cmd.unknown_sub_hint", ["/game new"]),
        ("/unit ad Guards", "cmd.unknown_sub_hint", ["/unit add"]),
        ("/aos atack attacks=2", "cmd.unknown_sub_hint", ["/aos attack"]),
        ("/turno fien", "cmd.unknown_sub_hint", ["/turno fine"]),  # /turn is a command too
    ],
)
def test_unknown_command_suggests_the_closest(text: str, key: str, suggested: list[str]) -> None:
    with pytest.raises(UnknownCommand) as info:
        build_registry().resolve(text)
    assert info.value.key == key
    assert [s.text for s in info.value.suggestions] == suggested
    assert info.value.params["names"] == ", ".join(suggested)
    assert all(s.spec is not None or s.words == ("game",) for s in info.value.suggestions)


@pytest.mark.parametrize(
    ("text", "key"),
    [("/ban Bob", "cmd.unknown"), ("/aos xyz", "cmd.no_such_sub")],
)
def test_nothing_close_is_a_plain_error(text: str, key: str) -> None:
    with pytest.raises(UserError) as info:
        build_registry().find(text)
    assert not isinstance(info.value, UnknownCommand)
    assert info.value.key == key


def test_a_group_alone_is_its_help() -> None:
    found = build_registry().find("/Impostazioni@WargameBot")
    assert found.spec.path == ("help",) and found.options()["command"] == "settings"


def test_a_command_that_is_also_a_group_keeps_its_own_options() -> None:
    reg = build_registry()
    assert reg.resolve("/roll shw")[1]["expression"] == "shw"  # a label-like text: /roll's own
    assert reg.resolve("/turn end")[0].path == ("turn", "end")


def test_suggestion_carries_the_spec_for_its_syntax() -> None:
    with pytest.raises(UnknownCommand) as info:
        build_registry().find("/game nwe wm")
    assert info.value.key == "cmd.unknown_sub_hint"
    (hint,) = info.value.suggestions
    assert hint.spec is not None and hint.spec.path == ("game", "new")


@pytest.mark.parametrize(
    ("word", "ours"),
    [
        ("roll", True),
        ("tira", True),
        ("rol", True),
        ("roll@WargameBot", True),
        ("ban", False),
        ("kick", False),
        ("warn", False),
    ],
)
def test_recognizes_our_words_and_near_misses_only(word: str, ours: bool) -> None:
    assert build_registry().recognizes(word) is ours


def test_closest_keeps_only_the_nearest() -> None:
    assert closest("rol", ["roll", "log", "rule"]) == ["roll"]
    assert closest("nwe", ["new", "end", "join"]) == ["new"]
    assert closest("zzz", ["roll", "log"]) == []
    assert len(closest("a", [f"a{i}" for i in range(10)])) == MAX_SUGGESTIONS


def test_every_example_runs_its_own_command() -> None:
    """`/help` shows these: each must parse as the command it illustrates."""
    reg = build_registry()
    for spec in all_specs():
        assert spec.examples, f"/{spec.name} has no example"
        for example in spec.examples:
            found = reg.find(example.split(" (", 1)[0])  # "(with the file attached)" is a note
            assert found.spec is spec, example
            found.options()


def test_heads_name_every_module_declaring_a_first_word() -> None:
    """The lazy registry loads modules by first word: HEADS must say exactly which."""
    from bot import commands

    heads: dict[str, set[str]] = {}
    for name in commands.MODULE_NAMES:
        for spec in commands.module(name).SPECS:
            words = {
                spec.path[0],
                *(spec.aliases if len(spec.path) == 1 else ()),
                *spec.group_aliases,
            }
            for word in words:
                heads.setdefault(word, set()).add(name)
    for name in commands.MODULE_NAMES:  # `/partita` loads whatever `/game` loads
        for spec in commands.module(name).SPECS:
            for alias in spec.group_aliases:
                heads[alias] = heads[spec.path[0]]
    assert {k: set(v) for k, v in commands.HEADS.items()} == heads


def test_the_lazy_registry_finds_what_the_full_one_finds() -> None:
    from bot.commands import build_registry, lazy_registry

    full = build_registry()
    for text in ["/roll 2d6", "/tira 2d6", "/game new wm X", "/aos odds attacks=2 hit=3 wound=3",
                 "/rule charge", "/turno", "/help"]:  # fmt: skip
        lazy = lazy_registry()
        assert lazy.find(text).spec is full.find(text).spec
    assert [s.path for s in lazy_registry()] == [s.path for s in full]
    lazy = lazy_registry()
    with pytest.raises(UserError) as err:
        lazy.find("/nosuchcommand")
    assert err.value.key == "cmd.unknown"


def test_ask_roll_does_not_load_platform_clients_or_game_systems(tmp_path: Path) -> None:
    """`wargame-bot ask "/roll 2d6"` starts without discord.py, python-telegram-bot, pypdf,
    the rule index or the game systems (what it loads is checked, not how long it takes)."""
    script = (
        "import sys\n"
        "from bot import cli\n"
        "code = cli.main(['ask', '/roll 2d6'])\n"
        "print('LOADED', ' '.join(sorted(sys.modules)))\n"
        "sys.exit(code)\n"
    )
    db = tmp_path / "bot.sqlite3"
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "WARGAME_BOT_DB": str(db)},
    )
    assert out.returncode == 0, out.stderr
    assert "2d6 (" in out.stdout
    loaded = set(out.stdout.split("LOADED", 1)[1].split())
    for prefix in ("discord", "telegram", "pypdf", "snowballstemmer", "icepool", "d20"):
        assert not {m for m in loaded if m == prefix or m.startswith(prefix + ".")}, prefix
    heavy = {"bot.commands.aos", "bot.commands.wm", "bot.rules_data", "rules_core.rules.index"}
    assert not heavy & loaded
