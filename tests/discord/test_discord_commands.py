"""The application commands generated from the registry, checked against Discord's limits."""

from __future__ import annotations

import contextlib
import unicodedata
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.adapters import discord_commands
from bot.adapters.discord_commands import CommandTreeError, build, resolve
from bot.commands import build_registry
from bot.commands.models import Reply
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec, OptionSpec
from rules_core.errors import UserError

SUB, GROUP, STRING, INTEGER, BOOLEAN, USER = 1, 2, 3, 4, 5, 6


def discord_name_ok(name: str) -> bool:
    """Discord's `^[-_\\p{L}\\p{N}]{1,32}$`, lowercase where the letter has a lowercase."""
    return (
        1 <= len(name) <= 32
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
        and name == name.lower()
    )


def validate(commands: list[dict[str, Any]]) -> list[str]:
    """Every limit Discord enforces on a bulk overwrite of chat-input commands."""
    problems: list[str] = []
    if not 0 < len(commands) <= 100:
        problems.append(f"{len(commands)} top-level commands")

    def names(entries: list[dict[str, Any]], where: str) -> None:
        seen: set[str] = set()
        for entry in entries:
            for name in (entry["name"], *entry.get("name_localizations", {}).values()):
                if not discord_name_ok(name):
                    problems.append(f"{where}: bad name {name!r}")
            it = entry.get("name_localizations", {}).get("it")
            for name in {entry["name"], it} - {None}:
                if name in seen:
                    problems.append(f"{where}: name {name!r} used twice")
                seen.add(name)

    def described(entry: dict[str, Any], where: str) -> None:
        texts = [entry["description"], *entry.get("description_localizations", {}).values()]
        for text in texts:
            if not 1 <= len(text) <= 100:
                problems.append(f"{where}: description length {len(text)}")
            if text.startswith(("cmd.", "help.")):
                problems.append(f"{where}: description is a missing catalogue key {text}")
        if set(entry.get("description_localizations", {})) != {"it"}:
            problems.append(f"{where}: no Italian description")

    def option(opt: dict[str, Any], where: str) -> None:
        described(opt, where)
        if opt["type"] not in (STRING, INTEGER, BOOLEAN, USER):
            problems.append(f"{where}: type {opt['type']}")
        choices = opt.get("choices", [])
        if len(choices) > 25:
            problems.append(f"{where}: {len(choices)} choices")
        if choices and opt.get("autocomplete"):
            problems.append(f"{where}: choices and autocomplete together")
        if (choices or opt.get("autocomplete")) and opt["type"] not in (STRING, INTEGER):
            problems.append(f"{where}: choices on a non-string option")
        for choice in choices:
            if not 1 <= len(choice["name"]) <= 100 or len(str(choice["value"])) > 100:
                problems.append(f"{where}: choice {choice}")
        if "max_length" in opt and not 1 <= opt["max_length"] <= 6000:
            problems.append(f"{where}: max_length {opt['max_length']}")
        if "min_value" in opt and "max_value" in opt and opt["min_value"] > opt["max_value"]:
            problems.append(f"{where}: min above max")

    def leaf_options(options: list[dict[str, Any]], where: str) -> None:
        if len(options) > 25:
            problems.append(f"{where}: {len(options)} options")
        names(options, where)
        required = [o.get("required", False) for o in options]
        if required != sorted(required, reverse=True):
            problems.append(f"{where}: an optional option before a required one")
        for opt in options:
            option(opt, f"{where}.{opt['name']}")

    def size(entry: dict[str, Any]) -> int:
        """Discord's 4000-character budget: names, descriptions, choice names and values,
        counting the longest localization of each field."""
        total = max(len(n) for n in (entry["name"], *entry.get("name_localizations", {}).values()))
        descriptions = (
            entry.get("description", ""),
            *entry.get("description_localizations", {}).values(),
        )
        total += max(len(d) for d in descriptions)
        total += sum(len(c["name"]) + len(str(c["value"])) for c in entry.get("choices", []))
        return total + sum(size(o) for o in entry.get("options", []))

    names(commands, "/")
    for cmd in commands:
        where = "/" + cmd["name"]
        described(cmd, where)
        if size(cmd) > 4000:
            problems.append(f"{where}: {size(cmd)} characters")
        options = cmd.get("options", [])
        subs = [o for o in options if o["type"] in (SUB, GROUP)]
        if subs and len(subs) != len(options):
            problems.append(f"{where}: subcommands mixed with options")
        if not subs:
            leaf_options(options, where)
            continue
        if len(subs) > 25:
            problems.append(f"{where}: {len(subs)} subcommands")
        names(subs, where)
        for sub in subs:
            described(sub, f"{where} {sub['name']}")
            if sub["type"] == GROUP:
                problems.append(f"{where}: subcommand groups are not generated")
            leaf_options(sub.get("options", []), f"{where} {sub['name']}")
    return problems


def test_generated_commands_pass_discords_limits() -> None:
    commands = build(build_registry())
    assert validate(commands) == []
    names = {c["name"] for c in commands}
    assert {"roll", "roll-show", "roll-history", "odds", "rule", "rules", "game"} <= names


def test_a_group_over_discords_size_budget_is_published_flat() -> None:
    def options() -> tuple[OptionSpec, ...]:  # 3 x 25 choices x 40 characters: 3000 per command
        return tuple(
            OptionSpec(f"o{i}", choices=tuple(f"{i}-{c}".ljust(20, "x") for c in range(25)))
            for i in range(3)
        )

    registry = Registry(
        [spec(("big", "one"), *options()), spec(("big", "two"), *options()), spec(("small", "x"))]
    )
    commands = {c["name"]: c for c in build(registry)}
    assert set(commands) == {"big-one", "big-two", "small"}
    problems = validate(list(commands.values()))
    assert [p for p in problems if "catalogue" not in p] == []  # test specs have no strings
    assert resolve("big-two", []) == ("big two", [])


def test_the_validator_catches_each_kind_of_mistake() -> None:
    good = build(build_registry())
    roll = next(c for c in good if c["name"] == "roll")
    many = [{"name": "a", "value": "a"}] * 26
    broken: list[dict[str, Any]] = [
        {**roll, "name": "Roll"},
        {**roll, "name": "roll two"},
        {**roll, "name": "x" * 33},
        {**roll, "name": "roll", "description": "x" * 101},
        {**roll, "name": "r2", "options": list(reversed(roll["options"]))},
        {**roll, "name": "r3", "options": [{**roll["options"][0], "choices": many}]},
        {**roll, "name": "r4", "name_localizations": {"it": "Tira"}},
    ]
    problems = validate(broken)
    needles = ("'Roll'", "'roll two'", "'xxx", "length 101", "optional option", "26 choices")
    for needle in (*needles, "'Tira'", "used twice"):  # "roll" is there twice
        assert any(needle in p for p in problems), needle


def test_every_registry_command_is_reachable_and_resolves_back() -> None:
    registry = build_registry()
    reachable = set()
    for cmd in build(registry):
        subs = [o for o in cmd.get("options", []) if o["type"] == SUB]
        for sub in subs or [None]:
            opts = [{"name": sub["name"], "type": SUB, "options": []}] if sub else []
            path, _ = resolve(cmd["name"], opts)
            assert registry.get(path) is not None, path
            reachable.add(path)
    assert reachable == {s.name for s in registry}


def test_root_with_subcommands_maps_to_dashed_top_level_commands_with_italian_names() -> None:
    commands = {c["name"]: c for c in build(build_registry())}
    assert commands["roll"]["name_localizations"] == {"it": "tira"}
    assert commands["roll-show"]["name_localizations"] == {"it": "tira-mostra"}
    game = {s["name"]: s for s in commands["game"]["options"]}
    assert game["new"]["name_localizations"] == {"it": "nuova"}
    assert game["new"]["description_localizations"]["it"] != game["new"]["description"]
    leaf = [{"name": "id", "type": INTEGER, "value": 3}]
    assert resolve("roll-show", leaf) == ("roll show", leaf)
    assert resolve("game", [{"name": "new", "type": SUB, "options": leaf}]) == ("game new", leaf)


async def _noop(ctx: Any) -> Reply:
    return Reply()


def spec(path: tuple[str, ...], *options: OptionSpec, **kw: Any) -> CommandSpec:
    return CommandSpec(path=path, handler=_noop, options=options, **kw)


def test_option_types_map_to_discord_types() -> None:
    registry = Registry(
        [
            spec(
                ("probe",),
                OptionSpec("note", type="text", max_length=300),
                OptionSpec("count", type="int", required=True, min_value=1, max_value=50),
                OptionSpec("mod", type="signed", min_value=-5, max_value=5),
                OptionSpec("blast", type="flag"),
                OptionSpec("who", type="user", required=True),
                OptionSpec("kind", choices=("a", "b")),
                OptionSpec("many", choices=tuple(f"c{i}" for i in range(30))),
                OptionSpec("system", autocomplete="systems"),
                OptionSpec("dice", type="faces"),
            )
        ]
    )
    (probe,) = build(registry)
    opts = {o["name"]: o for o in probe["options"]}
    assert [o["name"] for o in probe["options"]][:2] == ["count", "who"]  # required first
    assert opts["count"]["type"] == INTEGER and (
        opts["count"]["min_value"],
        opts["count"]["max_value"],
    ) == (1, 50)
    assert opts["mod"]["type"] == INTEGER and opts["mod"]["min_value"] == -5
    assert opts["blast"]["type"] == BOOLEAN
    assert opts["who"]["type"] == USER
    assert opts["note"]["type"] == STRING and opts["note"]["max_length"] == 300
    assert [c["value"] for c in opts["kind"]["choices"]] == ["a", "b"]
    assert opts["many"].get("autocomplete") is True and "choices" not in opts["many"]
    assert opts["system"].get("autocomplete") is True
    assert opts["dice"]["type"] == STRING


def test_registries_beyond_discords_limits_fail_loudly() -> None:
    huge = tuple(
        OptionSpec(f"o{i}", choices=tuple(f"{i}-{c}" * 50 for c in range(25))) for i in range(3)
    )
    with pytest.raises(CommandTreeError, match="exceeds 4000"):
        build(Registry([spec(("huge",), *huge)]))
    too_many_subs = Registry([spec(("big", f"s{i}")) for i in range(26)])
    with pytest.raises(CommandTreeError, match="subcommands"):
        build(too_many_subs)
    too_many_options = Registry([spec(("wide",), *(OptionSpec(f"o{i}") for i in range(26)))])
    with pytest.raises(CommandTreeError, match="options"):
        build(too_many_options)
    too_many_commands = Registry([spec((f"c{i}",)) for i in range(101)])
    with pytest.raises(CommandTreeError, match="top-level"):
        build(too_many_commands)
    with pytest.raises(CommandTreeError, match="deeper"):
        build(Registry([spec(("a", "b", "c"))]))
    with pytest.raises(CommandTreeError, match="not a valid"):
        build(Registry([spec(("two-words",))]))


def test_digest_changes_with_the_tree() -> None:
    first = build(build_registry())
    assert discord_commands.digest(first) == discord_commands.digest(build(build_registry()))
    first[0]["description"] += "!"
    assert discord_commands.digest(first) != discord_commands.digest(build(build_registry()))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
REGISTRY = build_registry()
NAMES = st.sampled_from(["new", "show", "expression", "system", "id", "dice", "name", "query"])
OPTION = st.fixed_dictionaries(
    {"name": NAMES | st.text(max_size=8) | st.integers(), "type": st.integers(0, 11)},
    optional={
        "value": JSON,
        "options": st.lists(
            st.fixed_dictionaries({"name": NAMES, "type": st.integers(3, 5), "value": JSON})
        )
        | JSON,
        "focused": st.booleans(),
    },
)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["roll", "roll-show", "game", "rule", "odds"]) | st.text(max_size=40),
    st.lists(OPTION | st.lists(OPTION, max_size=2) | JSON, max_size=4),
)
def test_resolve_takes_any_interaction_data(name: str, options: list[Any]) -> None:
    path, leaves = resolve(name, options)
    assert isinstance(path, str) and path.startswith(name.replace("-", " "))
    assert all(isinstance(o, dict) and isinstance(o["name"], str) for o in leaves)
    if (spec := REGISTRY.get(path)) is not None:  # and the registry takes what comes out
        with contextlib.suppress(UserError):
            REGISTRY.convert(spec, {o["name"]: o.get("value") for o in leaves})
