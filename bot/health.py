"""Liveness for `wargame-bot health` (the container's HEALTHCHECK).

`run` writes a heartbeat file beside the database: for every adapter it started, the last time
(wall clock, so another process can read it) that the adapter was seen alive, refreshed every
HEARTBEAT_EVERY seconds. `health` is healthy only when the database opens read-only at this
bot's schema, the process that wrote the heartbeat still exists, and every adapter's beat is
younger than STALE_AFTER. A file, not a table: the check never writes to the database and a
wedged event loop (which would also stop the beats) cannot hold it up."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ValidationError

from bot.storage.db import schema_version

log = logging.getLogger(__name__)

HEARTBEAT_EVERY = 15.0
STALE_AFTER = 60.0


class Beating(Protocol):
    name: str

    def alive(self) -> bool: ...


class Heartbeat(BaseModel):
    pid: int
    adapters: dict[str, float]  # adapter name -> last time (epoch seconds) it was seen alive


def heartbeat_path(db: Path | str) -> Path:
    """`data.sqlite3` -> `data.sqlite3-heartbeat.json`, on the same volume as the database. A
    PostgreSQL database is shared by several processes: each keeps its heartbeat in its own
    temporary folder (a container's `health` runs beside its `run`), named after the URL."""
    if isinstance(db, str):
        digest = hashlib.blake2s(db.encode(), digest_size=6).hexdigest()
        return Path(tempfile.gettempdir()) / f"wargame-bot-{digest}-heartbeat.json"
    return db.with_name(db.name + "-heartbeat.json")


def write_heartbeat(path: Path, beat: Heartbeat) -> None:
    """Replace the file atomically, so `health` never reads half of it."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(beat.model_dump_json(), encoding="utf-8")
    os.replace(tmp, path)


class HeartbeatWriter:
    """Writes the heartbeat of `run`'s started adapters: `beat()` once, then `run(stop)` every
    `every` seconds until `stop`, which removes the file. An adapter that is not alive keeps
    its last beat, which goes stale: `health` then fails."""

    def __init__(
        self,
        path: Path,
        adapters: Sequence[Beating],
        every: float = HEARTBEAT_EVERY,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self.adapters = adapters
        self.every = every
        self.clock = clock
        self.state = Heartbeat(pid=os.getpid(), adapters={})

    def beat(self) -> None:
        now = self.clock()
        for adapter in self.adapters:
            if adapter.alive():
                self.state.adapters[adapter.name] = now
            else:
                self.state.adapters.setdefault(adapter.name, 0.0)
        try:
            write_heartbeat(self.path, self.state)
        except OSError as exc:  # a full or read-only volume: `health` will say so
            log.warning("cannot write the heartbeat %s: %s", self.path, exc)

    async def run(self, stop: asyncio.Event) -> None:
        try:
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), self.every)
                if not stop.is_set():
                    self.beat()
        finally:
            with contextlib.suppress(OSError):
                self.path.unlink(missing_ok=True)


def database_problem(db: Path | str) -> str | None:
    """Why the database cannot serve this bot, or None. Opened read-only: never created or
    migrated here (that is `run`'s job, and a check must not change what it checks)."""
    if isinstance(db, str):
        from bot.storage.postgres import schema_problem

        return asyncio.run(schema_problem(db))
    if not db.is_file():
        return f"no database at {db}"
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return f"{db} cannot be opened as a database: {exc}"
    latest = schema_version()
    if version != latest:
        return f"{db} is at schema version {version}, this bot needs {latest}"
    return None


def process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    return True


def heartbeat_problems(path: Path, now: float) -> tuple[list[str], dict[str, float]]:
    """(problems, each adapter's beat age in seconds)."""
    try:
        beat = Heartbeat.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return [f"no heartbeat at {path}: `wargame-bot run` is not serving any platform"], {}
    except (OSError, ValueError, ValidationError) as exc:
        return [f"unreadable heartbeat {path}: {type(exc).__name__}"], {}
    if not process_exists(beat.pid):
        return [f"the process that wrote {path} (pid {beat.pid}) is gone"], {}
    if not beat.adapters:
        return [f"{path} names no adapter"], {}
    ages = {name: now - last for name, last in sorted(beat.adapters.items())}
    problems = [
        f"{name} heartbeat is {age:.0f} s old (limit {STALE_AFTER:.0f} s)"
        for name, age in ages.items()
        if not -5 < age < STALE_AFTER  # a beat from the future: a clock jumped, don't trust it
    ]
    return problems, ages


def check(db: Path | str, now: float | None = None) -> tuple[list[str], str]:
    """(problems, one-line summary): healthy when there are no problems."""
    now = time.time() if now is None else now
    problems = []
    if (db_problem := database_problem(db)) is not None:
        problems.append(db_problem)
    beat_problems, ages = heartbeat_problems(heartbeat_path(db), now)
    problems += beat_problems
    beats = ", ".join(f"{name} beat {max(age, 0):.0f} s ago" for name, age in ages.items())
    where: Path | str = db
    if isinstance(db, str):
        from bot.storage.postgres import redact

        where = redact(db)
    return problems, f"healthy: {where} at schema version {schema_version()}; {beats}"
