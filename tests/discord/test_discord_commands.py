"""The application commands generated from the registry, checked against Discord's limits."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.adapters import discord_commands
from bot.adapters.discord_commands import CommandTreeError, build, resolve
from bot.commands import build_registry, discord_names
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Reply
from rules_core.errors import UserError
from tests.discord.fake_discord import MAX_COMMAND_SIZE, command_problems

SUB, GROUP, STRING, INTEGER, BOOLEAN, USER = 1, 2, 3, 4, 5, 6
REGISTRY = build_registry()


def validate(commands: list[dict[str, Any]]) -> list[str]:
    """Discord's own rules (what the fake Discord refuses) plus the project's: at most 25
    top-level commands; every command, subcommand, option and choice named and described in
    Italian; choices labelled with words, never their codes; descriptions never a missing key."""
    problems = command_problems(commands)
    if not 0 < len(commands) <= 25:
        problems.append(f"{len(commands)} top-level commands")

    def check(entry: dict[str, Any], where: str, choice: bool = False) -> None:
        if "it" not in (entry.get("name_localizations") or {}):
            problems.append(f"{where}: no Italian name")
        if choice:
            if entry["name"] == entry["value"]:
                problems.append(f"{where}: label {entry['name']!r} is its code")
            return
        if "it" not in (entry.get("description_localizations") or {}):
            problems.append(f"{where}: no Italian description")
        texts = [entry["description"], *(entry.get("description_localizations") or {}).values()]
        if any(t.startswith(("cmd.", "help.", "discord.")) for t in texts):
            problems.append(f"{where}: description is a missing catalogue key")
        for opt in entry.get("options") or []:
            check(opt, f"{where} {opt['name']}")
        for c in entry.get("choices") or []:
            check(c, f"{where}={c['value']}", choice=True)

    for cmd in commands:
        check(cmd, "/" + cmd["name"])
    return problems


def published(commands: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every command and subcommand by its Discord path: `rolls show`, `aos attack`."""
    out: dict[str, dict[str, Any]] = {}

    def walk(entry: dict[str, Any], prefix: str) -> None:
        path = f"{prefix} {entry['name']}".strip()
        out[path] = entry
        for opt in entry.get("options") or []:
            if opt["type"] in (SUB, GROUP):
                walk(opt, path)

    for cmd in commands:
        walk(cmd, "")
    return out


# Characters each group keeps free under Discord's 8,000 a command, so that a new option (about
# 40-50 characters with its Italian name and description) never breaks the registration.
MARGINS = {"inf": 400, "c5": 400, "aos": 400, "wm": 400}


def test_generated_commands_pass_discords_limits() -> None:
    commands = build(REGISTRY)
    sizes: dict[str, int] = {}
    assert validate(commands) == [] and command_problems(commands, sizes) == []
    margins = {name: MAX_COMMAND_SIZE - size for name, size in sizes.items()}
    report = ", ".join(f"/{n} {MAX_COMMAND_SIZE - m} ({m} free)" for n, m in margins.items())
    print(f"Discord command sizes of {MAX_COMMAND_SIZE}: {report}")  # shown with -s or -rP
    for name, least in MARGINS.items():
        assert margins[name] >= least, f"/{name}: {margins[name]} characters free; {report}"
    assert len(commands) <= 25
    names = {c["name"] for c in commands}
    assert {"roll", "rolls", "odds", "rule", "rules", "game", "aos", "c5", "c5-phase"} <= names
    # No flat `/group-sub` commands are left: every dash is a folder of its own.
    assert [n for n in names if "-" in n] == ["c5-phase"]


def test_the_tree_puts_subcommands_under_their_group() -> None:
    paths = published(build(REGISTRY))
    for path in (
        "aos attack",
        "aos odds",
        "wm attack",
        "c5 melee",
        "c5-phase mana",
        "game new",
        "turn show",
        "turn end",
        "score show",
        "res show",
        "rolls show",
        "rolls history",
    ):
        assert paths[path]["type"] == SUB, path
    assert paths["roll"]["type"] == 1 and paths["roll"]["options"][0]["name"] == "expression"
    assert "roll show" not in paths and "turn" in paths and paths["turn"]["type"] == 1


def test_choices_show_words_with_italian_labels_and_keep_their_codes() -> None:
    paths = published(build(REGISTRY))

    def choices(path: str, option: str) -> list[tuple[str, str, str]]:
        opt = next(o for o in paths[path]["options"] if o["name"] == option)
        return [(c["value"], c["name"], c["name_localizations"]["it"]) for c in opt["choices"]]

    assert choices("wm attack", "type") == [
        ("melee", "Melee", "Mischia"),
        ("ranged", "Ranged", "Distanza"),
        ("magic", "Magic", "Magia"),
    ]
    assert choices("settings lang", "language") == [
        ("it", "Italian", "Italiano"),
        ("en", "English", "Inglese"),
    ]
    assert ("aos", "Age of Sigmar 3", "Age of Sigmar 3") in choices("game new", "system")
    assert ("yes", "Yes", "Sì") in choices("inf settings", "mono_cover")
    # `ferita` is `wound` in Italian: the picker offers each roll once.
    assert [c[0] for c in choices("c5 odds", "kind")] == ["wound", "test", "melee", "shoot"]


def test_names_and_options_have_italian_names() -> None:
    paths = published(build(REGISTRY))

    def it(path: str) -> str:
        return str(paths[path]["name_localizations"]["it"])

    assert [it(p) for p in ("roll", "rolls", "rolls show", "game", "game new", "turn")] == [
        "tira",
        "tiri",
        "mostra",
        "partita",
        "nuova",
        "turno",
    ]
    assert it("turn show") == "mostra" and it("c5-phase") == "c5-fase" and it("unit") == "unita"
    options = {o["name"]: o["name_localizations"]["it"] for o in paths["roll"]["options"]}
    assert options == {"expression": "espressione", "dice": "dadi"}
    shoot = {o["name"]: o["name_localizations"]["it"] for o in paths["c5 shoot"]["options"]}
    # `aim`'s aliases are `tir`, `tiro`; `mira` is another option's Italian name, never reused.
    assert shoot["aim"] == "tir" and shoot["bullseye"] == "mira"


def test_a_choice_without_a_label_fails_loudly() -> None:
    registry = Registry([spec(("pick",), OptionSpec("colour", choices=("red", "blue")))])
    with pytest.raises(CommandTreeError, match="no label"):
        build(registry)


def test_the_validator_catches_each_kind_of_mistake() -> None:
    good = build(REGISTRY)
    roll = next(c for c in good if c["name"] == "roll")
    settings = next(c for c in good if c["name"] == "settings")
    lang = next(o for o in settings["options"] if o["name"] == "lang")
    many = [{"name": "a", "value": "a"}] * 26
    coded = {**lang["options"][0], "choices": [{"name": "it", "value": "it"}]}
    broken: list[dict[str, Any]] = [
        {**roll, "name": "Roll"},
        {**roll, "name": "roll two"},
        {**roll, "name": "x" * 33},
        {**roll, "name": "roll", "description": "x" * 101},
        {**roll, "name": "r2", "options": list(reversed(roll["options"]))},
        {**roll, "name": "r3", "options": [{**roll["options"][0], "choices": many}]},
        {**roll, "name": "r4", "name_localizations": {"it": "Tira"}},
        {**roll, "name": "r5", "name_localizations": {}},
        {**lang, "name": "r6", "options": [coded]},
        {**roll, "name": "r7", "name_localizations": {"xx": "tira"}},
        {**roll, "name": "r8", "options": [{**roll["options"][0], "description": "cmd.x.opt.y"}]},
    ]
    problems = validate(broken)
    needles = ("'Roll'", "'roll two'", "'xxx", "'xxxxxx", "optional option", "26 choices")
    needles += ("'Tira'", "name used twice", "/r5: no Italian name", "is its code", "'xx'")
    for needle in (*needles, "missing catalogue key"):
        assert any(needle in p for p in problems), needle
    leaves = [{"name": f"p{i}", "type": STRING, "description": "z" * 100} for i in range(25)]
    subs = [{"name": f"o{i}", "type": SUB, "description": "y", "options": leaves} for i in range(4)]
    huge = {**roll, "name": "huge", "options": subs}  # 4 x 25 x 102 characters
    assert any("characters (Discord allows 8000)" in p for p in command_problems([huge]))


def test_every_registry_command_is_reachable_and_resolves_back() -> None:
    routes = discord_commands.routes(REGISTRY)
    reachable = set()
    for path, entry in published(build(REGISTRY)).items():
        if any(o["type"] in (SUB, GROUP) for o in entry.get("options") or []):
            continue  # a folder
        top, *subs = path.split()
        options: list[dict[str, Any]] = []
        for sub in reversed(subs):
            options = [{"name": sub, "type": SUB, "options": options}]
        found, _ = resolve(top, options, routes)
        spec = REGISTRY.get(found)
        assert spec is not None, path
        reachable.add(spec.name)
    assert reachable == {s.name for s in REGISTRY if s.path not in discord_names.NOT_PUBLISHED}
    leaf = [{"name": "id", "type": INTEGER, "value": 3}]
    assert resolve("rolls", [{"name": "show", "type": SUB, "options": leaf}], routes) == (
        "roll show",
        leaf,
    )
    assert resolve("turn", [{"name": "show", "type": SUB, "options": []}], routes) == ("turn", [])
    # A client that has not refreshed the tree yet may still send the old flat names.
    assert resolve("aos-attack", leaf, routes) == ("aos attack", leaf)


def test_help_names_are_the_discord_names() -> None:
    english, italian = discord_names.names(REGISTRY, "en"), discord_names.names(REGISTRY, "it")
    assert (
        english[("roll", "show")] == "/rolls show" and italian[("roll", "show")] == "/tiri mostra"
    )
    assert english[("turn",)] == "/turn show" and italian[("turn",)] == "/turno mostra"
    assert (
        english[("c5", "mana")] == "/c5-phase mana" and italian[("game", "new")] == "/partita nuova"
    )
    assert english[("roll",)] == "/roll" and italian[("roll",)] == "/tira"
    paths = published(build(REGISTRY))
    for spec in REGISTRY:  # the same names the payload publishes
        if spec.path in discord_names.NOT_PUBLISHED:
            continue
        words = english[spec.path].lstrip("/").split()
        entry = paths[" ".join(words)]
        assert entry["name"] == words[-1]
        assert italian[spec.path].split()[-1].lstrip("/") == entry["name_localizations"]["it"]


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
                OptionSpec("language", choices=("it", "en")),
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
    assert [c["value"] for c in opts["language"]["choices"]] == ["it", "en"]
    assert opts["many"].get("autocomplete") is True and "choices" not in opts["many"]
    assert opts["system"].get("autocomplete") is True
    assert opts["dice"]["type"] == STRING


def test_registries_beyond_discords_limits_fail_loudly() -> None:
    huge = tuple(OptionSpec(f"o{i}") for i in range(25))  # 25 x 25 x ~20 characters
    big = Registry([spec(("huge", f"s{i:02d}"), *huge) for i in range(25)])
    with pytest.raises(CommandTreeError, match="Discord allows 8000"):
        build(big)
    too_many_subs = Registry([spec(("big", f"s{i}")) for i in range(26)])
    with pytest.raises(CommandTreeError, match="subcommands"):
        build(too_many_subs)
    too_many_options = Registry([spec(("wide",), *(OptionSpec(f"o{i}") for i in range(26)))])
    with pytest.raises(CommandTreeError, match="options"):
        build(too_many_options)
    too_many_commands = Registry([spec((f"c{i}",)) for i in range(26)])
    with pytest.raises(CommandTreeError, match="top-level"):
        build(too_many_commands)
    with pytest.raises(CommandTreeError, match="deeper"):
        build(Registry([spec(("a", "b", "c"))]))
    with pytest.raises(CommandTreeError, match="not a valid"):
        build(Registry([spec(("two-words",))]))
    with pytest.raises(CommandTreeError, match="published twice"):  # `/x` would be `/x show`
        build(Registry([spec(("x",)), spec(("x", "show"))]))


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
ROUTES = discord_commands.routes(REGISTRY)
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
    st.sampled_from(["roll", "rolls", "turn", "game", "rule", "odds", "aos-attack"])
    | st.text(max_size=40),
    st.lists(OPTION | st.lists(OPTION, max_size=2) | JSON, max_size=4),
)
def test_resolve_takes_any_interaction_data(name: str, options: list[Any]) -> None:
    path, leaves = resolve(name, options, ROUTES)
    assert isinstance(path, str)
    assert path in ROUTES.values() or path.startswith(name.replace("-", " "))
    assert all(isinstance(o, dict) and isinstance(o["name"], str) for o in leaves)
    if (spec := REGISTRY.get(path)) is not None:  # and the registry takes what comes out
        with contextlib.suppress(UserError):
            REGISTRY.convert(spec, {o["name"]: o.get("value") for o in leaves})
