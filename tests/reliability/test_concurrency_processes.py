"""The guarantee of test_concurrency.py across separate OS processes: 200 state-changing commands
from 20 users on one game, sent by four bot processes at once (on SQLite and on PostgreSQL),
and then by a hundred processes at once (two commands each, SQLite), each with its own App on
the same database (so only SQLite's file locks and the writers' retries, or PostgreSQL's
per-chat advisory lock, order them). Nothing is lost, nobody sees "database is
locked" or "busy", the file stays intact, and the final state is exactly what a serial
application of the same commands, in the order they were committed, produces.

Run as a script, this file is the child: `python test_concurrency_processes.py DB SLICE OUT`
opens an App on DB (a SQLite file or a postgresql:// URL), prints "ready", waits for one line
on stdin, sends every command of the JSON file SLICE at once, and writes
[{"ok": ..., "text": ...}, ...] to OUT.
`python test_concurrency_processes.py --fork DB SLICES OUTDIR` imports the bot once and forks
one writer process per slice of the JSON list SLICES (so a hundred writers start in a moment,
not a hundred interpreters' worth of imports); each opens its own App, and once all are ready
(it prints "ready") one line on stdin releases them together; each writes OUTDIR/outN.json."""

from __future__ import annotations

import asyncio
import json
import os
import select
import sqlite3
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import IO

import pytest

from bot.app import App
from bot.render import plain
from tests.helpers import say
from tests.pg import new_target
from tests.reliability.test_concurrency import (
    CHAT,
    SEED,
    check_serial_replay,
    check_totals,
    last_event,
    setup,
    state_of,
    workload,
)

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 4
WRITERS = 100
READY_TIMEOUT = 60.0  # seconds for every child to import the bot and open the database
RUN_TIMEOUT = 120.0  # seconds for every child to finish once started


async def child(db: str, slice_file: Path, out: Path) -> None:
    commands = [(str(u), bool(a), str(t)) for u, a, t in json.loads(slice_file.read_text())]
    app = App(db)
    await app.start()
    try:
        print("ready", flush=True)
        sys.stdin.readline()  # the start signal: every child is ready by then
        replies = await asyncio.gather(
            *(
                say(app, text, user=user, name=user.upper(), chat=CHAT, admin=admin, seed=SEED)
                for user, admin, text in commands
            )
        )
    finally:
        await app.stop()
    out.write_text(json.dumps([{"ok": r.ok, "text": plain.render(r)} for r in replies]))


async def forked_writer(
    db: Path, commands: list[list[object]], out: Path, ready: int, go: int
) -> None:
    app = App(db)
    await app.start()
    try:
        os.write(ready, b"r")
        os.read(go, 1)  # blocks this process only: every writer is released at once
        replies = await asyncio.gather(
            *(
                say(
                    app,
                    str(t),
                    user=str(u),
                    name=str(u).upper(),
                    chat=CHAT,
                    admin=bool(a),
                    seed=SEED,
                )
                for u, a, t in commands
            )
        )
    finally:
        await app.stop()
    out.write_text(json.dumps([{"ok": r.ok, "text": plain.render(r)} for r in replies]))


def fork_writers(db: Path, slices_file: Path, out_dir: Path) -> int:
    slices = json.loads(slices_file.read_text())
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    pids = []
    for i, part in enumerate(slices):
        pid = os.fork()
        if pid == 0:  # a writer: no event loop or connection was inherited, it makes its own
            code = 1
            try:
                os.close(ready_r)
                os.close(go_w)
                asyncio.run(forked_writer(db, part, out_dir / f"out{i}.json", ready_w, go_r))
                code = 0
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(code)
        pids.append(pid)
    os.close(ready_w)
    os.close(go_r)
    ready = 0
    while ready < len(slices):
        chunk = os.read(ready_r, 4096)
        if not chunk:  # every writer has exited, some before being ready
            break
        ready += len(chunk)
    print("ready" if ready == len(slices) else f"only {ready} ready", flush=True)
    sys.stdin.readline()
    os.write(go_w, b"g" * len(slices))
    failed = 0
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        failed += os.waitstatus_to_exitcode(status) != 0
    return 1 if failed else 0


def wait_for_line(stream: IO[str], deadline: float) -> str:
    """One line from a child's stdout, or "" if it closed or the deadline passed."""
    ready, _, _ = select.select([stream], [], [], max(0.0, deadline - time.monotonic()))
    return stream.readline() if ready else ""


async def test_200_commands_from_4_processes_equal_a_serial_application(
    db_target: Path | str, backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    app = App(db_target)
    await app.start()
    try:
        await setup(app)
        first_event = await last_event(app)
    finally:
        await app.stop()

    commands = workload()
    slices = [commands[i::PROCESSES] for i in range(PROCESSES)]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    procs: list[subprocess.Popen[str]] = []
    outs: list[Path] = []
    try:
        for i, part in enumerate(slices):
            slice_file, out = tmp_path / f"slice{i}.json", tmp_path / f"out{i}.json"
            slice_file.write_text(json.dumps(part))
            outs.append(out)
            procs.append(
                subprocess.Popen(
                    [sys.executable, __file__, str(db_target), str(slice_file), str(out)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                    cwd=ROOT,
                    env=env,
                )
            )
        deadline = time.monotonic() + READY_TIMEOUT
        for proc in procs:
            assert proc.stdout is not None
            line = wait_for_line(proc.stdout, deadline)
            if line.strip() != "ready":
                proc.kill()
                _, err = proc.communicate(timeout=RUN_TIMEOUT)
                raise AssertionError(f"child not ready ({line!r}): {err}")
        for proc in procs:  # all four are waiting: release them together
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        results = []
        for proc in procs:
            _, err = proc.communicate(timeout=RUN_TIMEOUT)
            results.append((proc.returncode, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert [code for code, _ in results] == [0] * PROCESSES, results

    replies = [json.loads(out.read_text()) for out in outs]
    assert [len(r) for r in replies] == [len(part) for part in slices]
    sent = [c for part in slices for c in part]
    got = [r for part in replies for r in part]
    failed = [(c, r["text"]) for c, r in zip(sent, got, strict=True) if not r["ok"]]
    assert failed == []
    assert not any("locked" in r["text"].lower() or "busy" in r["text"].lower() for r in got)

    if backend == "sqlite":
        with sqlite3.connect(db_target) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
    app = App(db_target)
    await app.start()
    try:
        async with app.db.transaction(write=False) as db:
            found = await db.fetch_one("SELECT COUNT(*) FROM events WHERE id > ?", (first_event,))
        assert found is not None and found[0] == len(commands) == 200
        final = await state_of(app)
        check_totals(final, sent)
        serial = await new_target(backend, request, tmp_path / "serial.sqlite3")
        await check_serial_replay(app, first_event, final, serial)
    finally:
        await app.stop()


async def test_100_writer_processes_at_once_all_commit_and_nobody_sees_busy(
    tmp_path: Path,
) -> None:
    """Many more writers than cores: each waits its turn (retrying with backoff, see
    bot/storage/db.py) instead of being told the database is busy."""
    path = tmp_path / "shared.sqlite3"
    app = App(path)
    await app.start()
    try:
        await setup(app)
    finally:
        await app.stop()
    with sqlite3.connect(path) as conn:
        first_event = conn.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0]
    conn.close()
    commands = workload()
    slices = [commands[i::WRITERS] for i in range(WRITERS)]
    slices_file = tmp_path / "slices.json"
    slices_file.write_text(json.dumps(slices))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.pop("WARGAME_BOT_BUSY_SECONDS", None)  # the default deadline, as deployed
    proc = subprocess.Popen(
        [sys.executable, __file__, "--fork", str(path), str(slices_file), str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        line = wait_for_line(proc.stdout, time.monotonic() + READY_TIMEOUT)
        assert line.strip() == "ready", (line, proc.stderr.read() if line else "")
        proc.stdin.write("go\n")
        proc.stdin.flush()
        _, err = proc.communicate(timeout=RUN_TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    got = [r for i in range(WRITERS) for r in json.loads((tmp_path / f"out{i}.json").read_text())]
    sent = [c for part in slices for c in part]
    failed = [(c, r["text"]) for c, r in zip(sent, got, strict=True) if not r["ok"]]
    assert failed == []
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        new_events = conn.execute(
            "SELECT COUNT(*) FROM events WHERE id > ?", (first_event,)
        ).fetchone()[0]
    conn.close()
    assert new_events == len(commands) == 200
    app = App(path)
    await app.start()
    try:
        final = await state_of(app)
    finally:
        await app.stop()
    check_totals(final, sent)


if __name__ == "__main__":
    if sys.argv[1] == "--fork":
        sys.exit(fork_writers(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])))
    asyncio.run(child(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])))
