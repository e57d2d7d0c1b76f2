"""Commands in Italian (#24 item 4): what an Italian Discord user sees in the command picker
can also be typed as text, on every platform: the group's Italian name (`/partita nuova`,
`/unita danno`, `/fase prossima`) and each option's Italian name (`quantita=3`)."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.commands import build_registry, lazy_registry
from bot.commands.discord_names import MOVED, SEPARATE, tree
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec
from tests.helpers import say

REGISTRY = build_registry()
TREE = tree(REGISTRY)
GAME_CODES = {"aos", "c5", "inf", "wm", "wow"}  # the games' own codes, the same in Italian
SAME_IN_BOTH = {"macro"}  # an Italian word too (/macro salva, /macro esegui)
# Groups whose subcommands still lack the Italian alias Discord shows, and whose they are.
PENDING: dict[str, str] = {}


def typed_paths() -> list[tuple[CommandSpec, str]]:
    """Each command whose Discord place is its registry path, with its Italian Discord words."""
    out = []
    for path, node in TREE.by_spec.items():
        if (
            path in MOVED
            or path[0] in SEPARATE
            or node.path != path
            or {path[0], node.path[0]} & set(PENDING)
        ):
            continue  # a Discord-only place (`/turn phase`, `/rolls show`, `/turn show`)
        words = [TREE.roots[path[0]].local["it"]]
        if len(path) == 2:
            words.append(TREE.roots[path[0]].children[path[1]].local["it"])
        out.append((node.spec, "/" + " ".join(words)))  # type: ignore[arg-type]
    return out


@pytest.mark.parametrize("registry", [REGISTRY, lazy_registry()], ids=["full", "lazy"])
def test_every_italian_discord_name_can_be_typed(registry: Registry) -> None:
    wrong = {}
    for spec, text in typed_paths():
        try:
            found = registry.find(text).spec.path
        except Exception as exc:
            found = type(exc).__name__
        if found != spec.path:
            wrong[text] = found
    assert wrong == {}


def test_every_group_has_an_italian_name() -> None:
    untranslated = [
        name
        for name, node in TREE.roots.items()
        if node.local["it"] == name and name not in GAME_CODES | SAME_IN_BOTH
    ]
    assert untranslated == []


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("/partita nuova aos", ("game", "new")),
        ("/unita danno Guardie 3", ("unit", "damage")),
        ("/fase prossima", ("phase", "next")),
        # found walking: "/fase avanti" was "no subcommand 'avanti'"; next, as Italians say it
        ("/fase avanti", ("phase", "next")),
        ("/fase successiva", ("phase", "next")),
        ("/round avanti", ("round", "next")),
        ("/campagna stato", ("campaign", "status")),
        ("/regole cerca carica", ("rules", "search")),
        ("/armata elenco", ("army", "list")),
        # found walking: "/punteggio" was "did you mean /punti?"; the table is the score
        ("/punteggio", ("score",)),
        ("/punteggio aggiungi 3", ("score", "add")),
    ],
)
def test_top_level_italian_aliases(text: str, path: tuple[str, ...]) -> None:
    assert lazy_registry().find(text).spec.path == path


def test_discord_only_italian_option_names_are_accepted_in_text() -> None:
    from bot.commands.local_names import option_names

    refused = [
        f"/{spec.name} {local}="
        for spec in REGISTRY
        for name, local in option_names(spec, "it").items()
        if spec.option(local) is None or spec.option(local).name != name  # type: ignore[union-attr]
    ]
    assert refused == []


def test_an_italian_option_name_typed_in_text_sets_the_option() -> None:
    found = REGISTRY.find("/unita danno Guardie quantita=3 colonna=2")
    assert found.options() == {"name": "Guardie", "amount": 3, "column": 2, "model": None}


def test_italian_choice_values_are_accepted_in_text() -> None:
    cond = REGISTRY.find("/unita condizione Guardie aggiungi bloccato fino=fine-round")
    assert cond.options()["action"] == "add"
    removed = REGISTRY.find("/unita condizione Guardie rimuovi bloccato")
    assert removed.options()["action"] == "remove"
    settings = REGISTRY.find("/partita impostazioni punti=nel_turno")
    assert settings.options()["score"] == "own_on_turn"


@pytest.mark.parametrize(
    ("typed", "until", "rounds"),
    [
        ("fine-turno", "end-of-turn", None),
        ("fine-round", "end-of-round", None),
        ("permanente", "permanent", None),
        ("round:2", "rounds", 2),
        ("rounds:3", "rounds", 3),
    ],
)
def test_italian_durations(typed: str, until: str, rounds: int | None) -> None:
    from rules_core.game.transitions import parse_until

    assert parse_until(typed) == (until, rounds)


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        ("it", "/unita danno Guardie 5000", "QUANTITÀ deve essere tra 0 e 999."),
        ("en", "/unit damage Guards 5000", "AMOUNT must be between 0 and 999."),
        (
            "it",
            "/unita condizione Guardie boh bloccato",
            "AZIONE deve essere uno tra: aggiungi, rimuovi.",
        ),
        (
            "it",
            "/partita impostazioni punti=boh",
            "punti deve essere uno tra: organizzatore, nel_turno, sempre.",
        ),
    ],
)
async def test_option_errors_name_the_option_in_the_readers_language(
    app: App, lang: str, text: str, expected: str
) -> None:
    await say(app, "/game new gen", lang=lang)
    await say(app, "/unit add Guards wounds=2", lang=lang)
    reply = await say(app, text, lang=lang)
    assert reply.error is not None and reply.error.message == expected


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("/macro salva fuoco /tira 2d6+3 fuoco", ("macro", "save")),
        ("/macro lista", ("macro", "list")),
        ("/macro elenco", ("macro", "list")),
        ("/macro esegui fuoco", ("macro", "run")),
        ("/macro elimina fuoco", ("macro", "delete")),
        ("/salva fuoco /tira 2d6", ("save",)),
        ("/serie", ("batch",)),
        ("/tira privato 2d6 schieramento", ("roll", "private")),
        ("/tira rivela 12", ("roll", "reveal")),
        ("/tira ritira 12 dadi=2,5", ("roll", "reroll")),
    ],
)
def test_macro_batch_and_private_roll_italian_subcommands(text: str, path: tuple[str, ...]) -> None:
    assert lazy_registry().find(text).spec.path == path


def test_the_macro_folder_keeps_its_name_in_italian_and_batch_sits_in_it() -> None:
    """/batch moved beside the macros named the whole Discord folder "serie", so the Italian
    picker showed /serie salva for /macro save; the folder is /macro, /batch its /macro serie."""
    macro = TREE.roots["macro"]
    assert macro.local["it"] == "macro"
    words = {name: node.local["it"] for name, node in macro.children.items()}
    assert words == {
        "batch": "serie",
        "delete": "elimina",
        "list": "elenco",
        "run": "esegui",
        "save": "salva",
    }
