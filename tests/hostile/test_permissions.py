"""The permission matrix and chat isolation for every state-changing command, generated from
the registry. In a game run by its organiser (whose turn it is), a player who is not on turn and
a spectator, neither a chat admin, try every state-changing command aimed at another player's
unit: that player's units, resources, score and the turn stay exactly as they were. A set of
known changes shows the same commands do work for the organiser (so the refusals are real).
Every command run in another chat never changes, nor shows, this chat's game."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import App
from bot.commands import build_registry
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Reply
from bot.render import discord_md, plain, telegram_html
from rules_core.game.models import GameState
from rules_core.systems import SYSTEMS
from tests.helpers import say
from tests.hostile.test_fuzz_commands import PROFILES

REGISTRY = build_registry()
ORGANISER, OWNER, OTHER, SPECTATOR = "o", "a", "b", "s"
NAMES = {ORGANISER: "Olga", OWNER: "Ann", OTHER: "Bob", SPECTATOR: "Sam"}
UNIT_OPTIONS = {"name", "unit", "jack", "target", "caster", "healer", "attacker"}
KNOWN = {
    "resource": "cp",
    "duration": "2h",
    "condition": "pinned",
    "players": "Bob Ann Olga",
    "expression": "2d6",
    "weapons": "Rifle",
    "player": "Ann",
    "winner": "Ann",
    "points": "3",
    "amount": "2",
}


def system_of(spec: CommandSpec) -> str:
    return spec.path[0] if spec.path[0] in SYSTEMS else "gen"


def victim(system: str) -> str:
    return f"console:victim-{system}"


def elsewhere(system: str) -> str:
    return f"console:elsewhere-{system}"


def value_for(opt: OptionSpec, target: str) -> str:
    if opt.name in UNIT_OPTIONS or opt.autocomplete == "units":
        return target
    if opt.name in KNOWN:
        return KNOWN[opt.name]
    if opt.choices:
        return opt.choices[0]
    if opt.type in ("int", "signed"):
        lo = opt.min_value if opt.min_value is not None else 0
        hi = opt.max_value if opt.max_value is not None else 10
        return str(max(lo, min(hi, 3)))
    if opt.type == "faces":
        return "4,4,4,4,4,4"
    return "x"


def texts_for(spec: CommandSpec, target: str) -> list[str]:
    """The command with its required options filled in, aimed at `target`, and the same with
    `apply` and every unit option naming the target."""
    words = ["/" + " ".join(spec.path)]
    for opt in spec.options:
        if opt.positional and opt.required:
            words.append(value_for(opt, target))
        elif opt.required:
            words.append(f"{opt.name}={value_for(opt, target)}")
    base = " ".join(words)
    extra = [
        f"{o.name}={target}"
        for o in spec.options
        if not o.positional and not o.required and o.name in UNIT_OPTIONS
    ]
    if spec.option("apply") is not None:
        extra.append("apply")
    return [base, " ".join([base, *extra])] if extra else [base]


async def setup(app: App, chat: str, system: str, name: str, units: tuple[str, ...]) -> None:
    async def run(text: str, user: str) -> None:
        reply = await say(app, text, user=user, name=NAMES[user], chat=chat)
        assert reply.ok, plain.render(reply)

    await run(f"/game new {system} {name}", ORGANISER)
    for user in (OWNER, OTHER):
        await run("/game join", user)
    owners = (OWNER, OTHER, ORGANISER, OWNER)
    for unit, owner in zip(units, owners, strict=False):
        await run(f"/unit add {unit} {PROFILES[system]}", owner)
    if system == "gen":  # the game systems have their own fixed resources
        await run("/res add cp 3", OWNER)
        await run("/res add cp 2 unit=Alpha", OWNER)
    await run("/score add 2 Ann", ORGANISER)
    if name == "VictimGame":
        await run("/roll d6 secretlabel", OWNER)


@pytest.fixture
async def papp(tmp_path: Path) -> AsyncIterator[App]:
    app = App(tmp_path / "perm.sqlite3")
    await app.start()
    try:
        yield app
    finally:
        await app.stop()


def owners_stake(state: GameState) -> Any:
    """What no one but the owner (or the organiser, or an admin) may change."""
    return {
        "units": [u.model_dump() for u in state.units if u.owner == OWNER],
        "player": state.player(OWNER),
        "resources": {k: v for k, v in state.resources.items() if k in ("player:a", "unit:alpha")},
        "score": state.score().get(OWNER),
        # Anyone may join or leave; the organiser's and owner's places in the order may not move.
        "turn": (state.round, state.phase, state.current, [u for u in state.order if u in "oa"]),
        "status": (state.status, state.winner),
    }


def game_rows(app: App, chat: str) -> Any:
    with sqlite3.connect(app.db.path) as conn:
        games = conn.execute(
            "SELECT id, version, state, status FROM games WHERE chat_key = ?", (chat,)
        ).fetchall()
        events = conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(undone), 0) FROM events WHERE game_id IN "
            "(SELECT id FROM games WHERE chat_key = ?)",
            (chat,),
        ).fetchone()
        rolls = conn.execute("SELECT COUNT(*) FROM rolls WHERE chat_key = ?", (chat,)).fetchone()
    return games, events, rolls


async def stake(app: App, chat: str) -> Any:
    """The owner's stake in the chat's latest game (active or just ended)."""
    with sqlite3.connect(app.db.path) as conn:
        (state,) = conn.execute(
            "SELECT state FROM games WHERE chat_key = ? ORDER BY id DESC LIMIT 1", (chat,)
        ).fetchone()
    return owners_stake(GameState.model_validate_json(state))


def rendered(reply: Reply) -> str:
    return "\n".join(
        [plain.render(reply), telegram_html.render(reply), discord_md.render(reply)]
        + [a.content.decode("utf-8", "replace") for a in reply.attachments]
    )


GROUPS = {
    system: [s for s in REGISTRY if system_of(s) == system and not s.readonly]
    for system in PROFILES
}


BY_DESIGN = {
    # Marks the start of the hero phase once per turn for the whole table: every player gets
    # the command point the rules give them (a second call in the same turn is refused).
    "aos hero": "shared once-per-turn bookkeeping",
}


def test_every_state_changing_command_is_in_the_matrix() -> None:
    listed = {s.name for specs in GROUPS.values() for s in specs}
    assert listed == {s.name for s in REGISTRY if not s.readonly} and len(listed) > 50


@pytest.mark.parametrize("system", sorted(GROUPS))
async def test_no_one_else_changes_an_owners_units_or_the_turn(papp: App, system: str) -> None:
    chat = victim(system)
    await setup(papp, chat, system, "VictimGame", ("Alpha", "Beta", "Omega"))
    before = await stake(papp, chat)
    tried = 0
    for spec in GROUPS[system]:
        if spec.name in BY_DESIGN:
            continue
        for text in texts_for(spec, "Alpha"):
            for user in (OTHER, SPECTATOR):
                reply = await say(papp, text, user=user, name=NAMES[user], chat=chat, seed=4)
                assert reply.error is None or reply.error.code != "internal", text
                after = await stake(papp, chat)
                assert after == before, f"{NAMES[user]} changed Ann's game with {text!r}"
                tried += 1
    assert tried >= 2 * len(GROUPS[system])


GAME_CHANGES = [
    "/unit damage Alpha 1",
    "/unit set Alpha wounds=4",
    "/unit remove Alpha",
    "/unit cond Alpha add pinned",
    "/res add cp 2 unit=Alpha",
    "/res spend cp 1 unit=Alpha",
    "/score add 1 Ann",
    "/turn end",
    "/round next",
    "/turn order Bob Ann Olga",
    "/game end",
]
ATTACKS = {
    "aos": "/aos attack attacks=10 hit=2 wound=2 damage=1 save=7 target=Alpha apply",
    "wm": "/wm attack skill=20 def=1 pow=20 arm=0 target=Alpha apply",
    "wow": "/wow attack power=10 defense=0 target=Alpha apply",
    "c5": "/c5 wound str=20 res=1 target=Alpha apply",  # melee apply: combat phase only
    "inf": "/inf attack attr=20 burst=3 vs=1 dam=20 target=Alpha apply",
}
CASES = [("gen", t) for t in GAME_CHANGES] + sorted(ATTACKS.items())


@pytest.mark.parametrize(("system", "text"), CASES)
async def test_refused_for_others_done_for_the_organiser(papp: App, system: str, text: str) -> None:
    chat = victim(system)
    await setup(papp, chat, system, "VictimGame", ("Alpha", "Beta", "Omega"))
    before = await stake(papp, chat)
    for user in (OTHER, SPECTATOR):
        refused = await say(papp, text, user=user, name=NAMES[user], chat=chat, seed=4)
        assert refused.error is not None and refused.error.code.startswith("perm."), (
            user,
            plain.render(refused),
        )
        assert await stake(papp, chat) == before
    done = await say(papp, text, user=ORGANISER, name="Olga", chat=chat, seed=4)
    assert done.ok, plain.render(done)
    assert await stake(papp, chat) != before  # the command really changes Ann's stake
    assert (await say(papp, "/undo", user=ORGANISER, chat=chat)).ok
    assert await stake(papp, chat) == before


async def test_undo_of_anothers_change_is_refused(papp: App) -> None:
    chat = victim("gen")
    await setup(papp, chat, "gen", "VictimGame", ("Alpha", "Beta", "Omega"))
    assert (await say(papp, "/res add cp 1", user=OWNER, chat=chat)).ok
    before = await stake(papp, chat)
    for user in (OTHER, SPECTATOR):
        refused = await say(papp, "/undo", user=user, name=NAMES[user], chat=chat)
        assert refused.error is not None and refused.error.code == "perm.undo_not_yours"
    assert await stake(papp, chat) == before


ALL = {system: [s for s in REGISTRY if system_of(s) == system] for system in PROFILES}


@pytest.mark.parametrize("system", sorted(ALL))
async def test_a_command_in_another_chat_never_sees_or_changes_this_game(
    papp: App, system: str
) -> None:
    chat, other = victim(system), elsewhere(system)
    await setup(papp, chat, system, "VictimGame", ("Alpha", "Beta", "Omega", "Zephyrine"))
    await setup(papp, other, system, "OtherGame", ("Alpha", "Beta", "Omega"))
    before = game_rows(papp, chat)
    typed = ""  # what was typed in the other chat so far (e.g. a unit it named Zephyrine itself)
    for spec in ALL[system]:
        for target in ("Alpha", "Zephyrine"):
            for text in texts_for(spec, target):
                typed += text
                reply = await say(papp, text, user=ORGANISER, name="Olga", chat=other, admin=True)
                assert reply.error is None or reply.error.code != "internal", text
                shown = rendered(reply)
                for secret in ("VictimGame", "Zephyrine", "secretlabel"):
                    assert secret not in shown or secret in typed, (text, secret)
                assert game_rows(papp, chat) == before, f"{text!r} in another chat changed it"


SETTINGS = [s for s in REGISTRY if s.path[-1] == "settings" and s.options]


def settings_text(spec: CommandSpec) -> str:
    """Every option of the settings command set to a non-default choice."""
    words = ["/" + " ".join(spec.path)]
    for opt in spec.options:
        if opt.choices:
            words.append(f"{opt.name}={opt.choices[-1]}")
    return " ".join(words)


def stored_settings(app: App) -> Any:
    with sqlite3.connect(app.db.path) as conn:
        return (
            conn.execute("SELECT * FROM kv ORDER BY key").fetchall(),
            conn.execute("SELECT * FROM chat_settings ORDER BY chat_key").fetchall(),
        )


@pytest.mark.parametrize("spec", SETTINGS, ids=[s.name for s in SETTINGS])
async def test_chat_rule_settings_are_for_the_organiser_and_admins(
    papp: App, spec: CommandSpec
) -> None:
    system = system_of(spec)
    chat = victim(system)
    await setup(papp, chat, system, "VictimGame", ("Alpha", "Beta", "Omega"))
    text = settings_text(spec)
    before = stored_settings(papp)
    for user in (OTHER, SPECTATOR):
        refused = await say(papp, text, user=user, name=NAMES[user], chat=chat)
        assert refused.error is not None and "admin" in refused.error.code, plain.render(refused)
        assert stored_settings(papp) == before
    done = await say(papp, text, user=ORGANISER, name="Olga", chat=chat)
    assert done.ok, plain.render(done)
    assert stored_settings(papp) != before  # the refused change is a real one
    admin = await say(papp, text, user=SPECTATOR, name="Sam", chat=elsewhere(system), admin=True)
    assert admin.ok, plain.render(admin)
