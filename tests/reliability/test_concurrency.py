"""200 state-changing commands from 20 users on one game at once, through four App instances
sharing one database (so the backend's own locking is exercised, not only the in-process lock:
SQLite's write lock, or PostgreSQL's per-chat advisory lock): nothing is lost, nobody sees
"database is locked", and the final state is exactly what a serial application of the same
commands, in the order they were committed, produces."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from bot.storage import games
from rules_core.game.models import GameState
from tests.helpers import say
from tests.pg import new_target

CHAT = "console:siege"
PLAYERS = [f"p{i}" for i in range(16)]  # p0 is the organiser; 16 is the player limit
ADMINS = [f"a{i}" for i in range(4)]  # chat admins who are not players
SEED = 7
APPS = 4


def unit(player: str) -> str:
    return "U" + player[1:]


async def setup(app: App) -> None:
    assert (await say(app, "/game new gen Siege", user="p0", name="P0", chat=CHAT)).ok
    # players add their own points below, at any time
    assert (await say(app, "/game settings score=own_any_time", user="p0", chat=CHAT)).ok
    for p in PLAYERS[1:]:
        assert (await say(app, "/game join", user=p, name=p.upper(), chat=CHAT)).ok
    for p in PLAYERS:
        added = await say(app, f"/unit add {unit(p)} wounds=100", user=p, name=p.upper(), chat=CHAT)
        assert added.ok, plain.render(added)


def workload() -> list[tuple[str, bool, str]]:
    """(user, admin, text): ten commands per user, every one allowed whatever the order."""
    rng = random.Random(12)
    out: list[tuple[str, bool, str]] = []
    for p in PLAYERS:
        out += [(p, False, f"/unit damage {unit(p)} 1")] * 4
        out += [(p, False, "/res add cp 2")] * 3
        out += [(p, False, f"/score add 1 {p.upper()} objective")] * 3
    for a in ADMINS:
        victims = rng.sample(PLAYERS, 5)
        out += [(a, True, f"/unit damage {unit(v)} 2") for v in victims[:3]]
        out += [(a, True, f"/score add 1 {v.upper()}") for v in victims[3:]]
        out += [(a, True, "/turn end")] * 3
        out += [(a, True, f"/res add ammo 1 unit={unit(v)}") for v in victims[:2]]
    rng.shuffle(out)
    assert len(out) == 200 and len({u for u, _, _ in out}) == 20
    return out


async def state_of(app: App) -> GameState:
    async with app.db.transaction(write=False) as conn:
        game = await games.active(conn, CHAT)
    assert game is not None
    return game.state


async def last_event(app: App) -> int:
    async with app.db.transaction(write=False) as conn:
        row = await conn.fetch_one("SELECT COALESCE(MAX(id), 0) FROM events")
    assert row is not None
    return int(row[0])


async def test_200_concurrent_commands_equal_a_serial_application(
    db_target: Path | str, backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    apps = [App(db_target) for _ in range(APPS)]
    for app in apps:
        await app.start()
    try:
        await setup(apps[0])
        first_event = await last_event(apps[0])
        commands = workload()

        async def run(i: int, user: str, admin: bool, text: str) -> Reply:
            app = apps[i % APPS]
            return await say(
                app, text, user=user, name=user.upper(), chat=CHAT, admin=admin, seed=SEED
            )

        replies = await asyncio.gather(*(run(i, *c) for i, c in enumerate(commands)))
        failed = [(c, plain.render(r)) for c, r in zip(commands, replies, strict=True) if not r.ok]
        assert failed == []
        assert not any("locked" in plain.render(r).lower() for r in replies)
        final = await state_of(apps[1])
        serial = await new_target(backend, request, tmp_path / "serial.sqlite3")
        await check_serial_replay(apps[1], first_event, final, serial)
    finally:
        for app in apps:
            await app.stop()
    check_totals(final, commands)


def check_totals(final: GameState, commands: list[tuple[str, bool, str]]) -> None:
    """Order-free totals: every acknowledged command is in the state exactly once."""
    for p in PLAYERS:
        hits = sum(1 for u, _, t in commands if t == f"/unit damage {unit(p)} 1")
        hits += sum(2 for u, _, t in commands if t == f"/unit damage {unit(p)} 2")
        assert next(x for x in final.units if x.name == unit(p)).damage == hits
        assert final.resources[f"player:{p}"]["cp"] == 6
        scored = sum(
            1 for _, _, t in commands if t.split()[:4] == ["/score", "add", "1", p.upper()]
        )
        assert final.score()[p] == scored
    ammo = sum(v.get("ammo", 0) for k, v in final.resources.items() if k.startswith("unit:"))
    assert ammo == 8
    assert (final.round, final.turn) == (1, 12)


async def check_serial_replay(
    app: App, first_event: int, final: GameState, serial_target: Path | str
) -> None:
    """The same commands applied one by one, in the order they were committed (the events
    logged after `first_event` in `app`'s database), on a fresh App give the same state."""
    async with app.db.transaction(write=False) as conn:
        logged = await conn.fetch_all(
            "SELECT user_id, command FROM events WHERE id > ? ORDER BY id", (first_event,)
        )
    assert len(logged) == 200
    admins = set(ADMINS)
    serial = App(serial_target)
    await serial.start()
    try:
        await setup(serial)
        for user, text in logged:
            reply = await say(
                serial,
                text,
                user=user,
                name=user.upper(),
                chat=CHAT,
                admin=user in admins,
                seed=SEED,
            )
            assert reply.ok, plain.render(reply)
        assert await state_of(serial) == final
    finally:
        await serial.stop()
