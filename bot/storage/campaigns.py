"""Campaigns, the games they contain, their reminders and their journal.

Reminders are rows keyed by (campaign, turn, kind): scheduling the same turn twice inserts
nothing new. A scheduler claims due reminders with a lease (`claim_due`), sends them, and
records each as sent (`mark_sent`): a restart, or a process killed among several, loses none
(see `claim_due` for the one case where a reminder is sent twice).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.storage import events
from bot.storage.conn import Connection, Row
from bot.storage.util import fetch_all, fetch_one, iso, parse_iso
from rules_core.errors import UserError
from rules_core.game import diff
from rules_core.game.campaign import schedule
from rules_core.game.models import GameState


class Member(BaseModel):
    # Validators are built on first use, not at import: most processes use few models.
    model_config = ConfigDict(defer_build=True)
    user_id: str
    name: str


class Campaign(BaseModel):
    model_config = ConfigDict(defer_build=True)
    id: int
    chat_key: str
    name: str
    organiser: str
    status: str
    players: list[Member]
    turn_no: int
    deadline: timedelta | None
    points: tuple[float, ...]
    turn_started_at: datetime
    paused_at: datetime | None
    created_at: datetime

    @property
    def current(self) -> Member | None:
        return self.players[self.turn_no % len(self.players)] if self.players else None

    def member(self, user_id: str) -> Member | None:
        return next((m for m in self.players if m.user_id == user_id), None)


class Reminder(BaseModel):
    model_config = ConfigDict(defer_build=True)
    id: int
    campaign_id: int
    turn_no: int
    kind: str
    user_id: str
    due_at: datetime


class JournalEntry(BaseModel):
    """One line of the journal: a state change (`kind` is the event kind, `changes` what it
    did, as catalogue lines) or a roll (`kind` "roll", `detail` its totals and dice)."""

    model_config = ConfigDict(defer_build=True)

    at: datetime
    who: str
    what: str
    detail: str | None = None
    kind: str = "event"
    game_id: int | None = None
    round: int | None = None
    changes: list[tuple[str, dict[str, Any]]] = []
    undone: bool = False


_COLUMNS = (
    "id, chat_key, name, organiser, status, players, turn_no, deadline_s, points, "
    "turn_started_at, paused_at, created_at"
)


def _campaign(row: Row | tuple[object, ...]) -> Campaign:
    return Campaign(
        id=int(str(row[0])),
        chat_key=str(row[1]),
        name=str(row[2]),
        organiser=str(row[3]),
        status=str(row[4]),
        players=[Member(**m) for m in json.loads(str(row[5]))],
        turn_no=int(str(row[6])),
        deadline=timedelta(seconds=int(str(row[7]))) if row[7] is not None else None,
        points=tuple(float(p) for p in str(row[8]).split(",") if p),
        turn_started_at=parse_iso(str(row[9])),
        paused_at=parse_iso(str(row[10])) if row[10] else None,
        created_at=parse_iso(str(row[11])),
    )


async def active(conn: Connection, chat_key: str) -> Campaign | None:
    row = await fetch_one(
        conn,
        f"SELECT {_COLUMNS} FROM campaigns WHERE chat_key = ? AND status != 'ended'",
        (chat_key,),
    )
    return _campaign(row) if row else None


async def in_chat(conn: Connection, chat_key: str, campaign_id: int) -> Campaign | None:
    """One of the chat's campaigns, ended ones included (never another chat's)."""
    row = await fetch_one(
        conn,
        f"SELECT {_COLUMNS} FROM campaigns WHERE chat_key = ? AND id = ?",
        (chat_key, campaign_id),
    )
    return _campaign(row) if row else None


async def create(
    conn: Connection, chat_key: str, name: str, organiser: Member, now: datetime
) -> Campaign:
    if await active(conn, chat_key) is not None:
        raise UserError("campaign.already_active")
    players = json.dumps([organiser.model_dump()])
    await conn.execute(
        "INSERT INTO campaigns (chat_key, name, organiser, players, turn_started_at, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (chat_key, name, organiser.user_id, players, iso(now), iso(now)),
    )
    found = await active(conn, chat_key)
    assert found is not None
    return found


async def save(conn: Connection, c: Campaign) -> None:
    await conn.execute(
        "UPDATE campaigns SET status = ?, players = ?, turn_no = ?, deadline_s = ?, points = ?, "
        "turn_started_at = ?, paused_at = ? WHERE id = ?",
        (
            c.status,
            json.dumps([m.model_dump() for m in c.players]),
            c.turn_no,
            int(c.deadline.total_seconds()) if c.deadline else None,
            ",".join(f"{p:.2f}" for p in c.points),
            iso(c.turn_started_at),
            iso(c.paused_at) if c.paused_at else None,
            c.id,
        ),
    )


async def link_game(conn: Connection, campaign_id: int, game_id: int) -> None:
    await conn.execute(
        "INSERT INTO campaign_games (campaign_id, game_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (campaign_id, game_id),
    )


async def games_of(conn: Connection, campaign_id: int) -> list[tuple[int, GameState]]:
    rows = await fetch_all(
        conn,
        "SELECT g.id, g.state FROM games g JOIN campaign_games cg ON cg.game_id = g.id "
        "WHERE cg.campaign_id = ? ORDER BY g.id",
        (campaign_id,),
    )
    return [(int(r[0]), GameState.model_validate_json(r[1])) for r in rows]


async def schedule_turn(conn: Connection, c: Campaign) -> None:
    """(Re)plan the reminders of the current turn; earlier turns' unsent ones are dropped."""
    await conn.execute(
        "DELETE FROM reminders WHERE campaign_id = ? AND sent_at IS NULL AND turn_no != ?",
        (c.id, c.turn_no),
    )
    current = c.current
    if c.deadline is None or current is None:
        return
    for due in schedule(c.turn_started_at, c.deadline, c.points):
        await conn.execute(
            "INSERT INTO reminders (campaign_id, turn_no, kind, user_id, due_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (campaign_id, turn_no, kind) DO UPDATE SET "
            "due_at = excluded.due_at, user_id = excluded.user_id WHERE reminders.sent_at IS NULL",
            (c.id, c.turn_no, due.kind, current.user_id, iso(due.due_at)),
        )
    kinds = [d.kind for d in schedule(c.turn_started_at, c.deadline, c.points)]
    marks = ",".join("?" * len(kinds))
    await conn.execute(
        f"DELETE FROM reminders WHERE campaign_id = ? AND turn_no = ? AND sent_at IS NULL "
        f"AND kind NOT IN ({marks})",
        (c.id, c.turn_no, *kinds),
    )


CLAIM_BATCH = 20  # reminders one scheduler claims at a time
LEASE = timedelta(minutes=5)  # how long a claim keeps other schedulers off a reminder


async def claim_due(
    conn: Connection,
    now: datetime,
    owner: str,
    *,
    lease: timedelta = LEASE,
    owns: Callable[[str], bool] | None = None,
    limit: int = CLAIM_BATCH,
) -> list[tuple[Reminder, Campaign]]:
    """Claim up to `limit` reminders due by `now` for running campaigns in chats we can reach
    (`owns`), unsent and not claimed by anyone whose lease still runs: each gets `owner` and a
    lease until `now + lease`. Send each, then `mark_sent` it (or `give_back` it).

    Several schedulers (processes, machines) may claim at once: on PostgreSQL the candidates
    are locked `FOR UPDATE SKIP LOCKED`, so two never take the same row and neither waits; on
    SQLite the write transaction already excludes every other writer. A scheduler that dies
    keeps its reminders only until their lease runs out; then anyone claims them again. So
    none is lost, and one is sent twice only if its scheduler died (or lost the database)
    after sending it and before `mark_sent`, or took longer than the lease to send it."""
    skip_locked = " FOR UPDATE OF r SKIP LOCKED" if conn.dialect == "postgresql" else ""
    columns = ", ".join(f"c.{c}" for c in _COLUMNS.split(", "))
    rows = await fetch_all(
        conn,
        f"SELECT r.id, r.campaign_id, r.turn_no, r.kind, r.user_id, r.due_at, {columns} "
        "FROM reminders r JOIN campaigns c ON c.id = r.campaign_id "
        "WHERE r.sent_at IS NULL AND r.due_at <= ? AND c.status = 'active' "
        "AND (r.lease_until IS NULL OR r.lease_until <= ?) "
        f"ORDER BY r.due_at, r.id{skip_locked}",
        (iso(now), iso(now)),
    )
    out = []
    for r in rows:
        campaign = _campaign(r[6:])
        if owns is not None and not owns(campaign.chat_key):
            continue  # left for whoever can deliver it
        reminder = Reminder(
            id=r[0], campaign_id=r[1], turn_no=r[2], kind=r[3], user_id=r[4], due_at=parse_iso(r[5])
        )
        out.append((reminder, campaign))
        if len(out) == limit:
            break
    if out:
        await conn.executemany(
            "UPDATE reminders SET claimed_by = ?, lease_until = ? WHERE id = ?",
            [(owner, iso(now + lease), reminder.id) for reminder, _ in out],
        )
    return out


async def mark_sent(conn: Connection, reminder_id: int, owner: str, now: datetime) -> bool:
    """Record a claimed reminder as sent; False if the claim was no longer ours (its lease ran
    out and another scheduler took it: it may then be sent twice)."""
    changed = await conn.execute(
        "UPDATE reminders SET sent_at = ?, lease_until = NULL "
        "WHERE id = ? AND claimed_by = ? AND sent_at IS NULL",
        (iso(now), reminder_id, owner),
    )
    return changed == 1


async def give_back(conn: Connection, reminder_id: int, owner: str) -> None:
    """A claimed reminder that could not be delivered is free again (the next pass retries)."""
    await conn.execute(
        "UPDATE reminders SET claimed_by = NULL, lease_until = NULL "
        "WHERE id = ? AND claimed_by = ? AND sent_at IS NULL",
        (reminder_id, owner),
    )


async def journal(conn: Connection, c: Campaign) -> list[JournalEntry]:
    """Every change and roll in the campaign's chat since it began (until it ended), in the
    order they happened: each roll sits right after the last event logged before it (see migration
    0006), and carries the game and round it was rolled in."""
    since = iso(c.created_at)
    keyed: list[tuple[tuple[int, int, int], JournalEntry]] = []
    end: int | None = None  # an ended campaign's journal stops at its `campaign_end` event
    for ev in await events.of_chat(conn, c.chat_key, c.created_at):
        if end is not None:
            break
        if c.status == "ended" and ev.kind == "campaign_end":
            end = ev.id  # a chat runs one campaign at a time: the first end after it began
        old, new = ev.before, ev.after
        rnd = old.round if old is not None else new.round if new is not None else None
        entry = JournalEntry(
            at=ev.created_at,
            who=ev.user_name,
            what=ev.command or ev.kind,
            detail="undone" if ev.undone else None,
            kind=ev.kind,
            game_id=ev.game_id,
            round=rnd,
            changes=diff.describe(old, new) if ev.kind != "undo" else [],
            undone=ev.undone,
        )
        keyed.append(((ev.id, 0, 0), entry))
    rows = await fetch_all(
        conn,
        "SELECT r.id, r.created_at, r.user_name, r.expression, r.faces, r.result, r.game_id, "
        "r.round, COALESCE(r.after_event, (SELECT MAX(e.id) FROM events e "
        "WHERE e.chat_key = r.chat_key AND e.created_at <= r.created_at), 0) "
        "FROM rolls r WHERE r.chat_key = ? AND r.created_at >= ? ORDER BY r.id",
        (c.chat_key, since),
    )
    for (
        roll_id,
        at,
        who,
        expression,
        faces,
        result,
        game_id,
        rnd,
        anchor,
    ) in rows:
        totals = ", ".join(str(r.get("total")) for r in json.loads(result))
        dice = ", ".join(str(f) for f in json.loads(faces))
        entry = JournalEntry(
            at=parse_iso(at),
            who=who,
            what=expression,
            detail=f"= {totals} [{dice}]",
            kind="roll",
            game_id=game_id,
            round=rnd,
        )
        if end is not None and int(anchor) >= end:
            continue  # rolled after the campaign ended
        keyed.append(((int(anchor), 1, int(roll_id)), entry))
    keyed.sort(key=lambda pair: pair[0])
    return [entry for _, entry in keyed]


async def record(
    conn: Connection,
    c: Campaign,
    user_id: str,
    user_name: str,
    command: str,
    kind: str,
    now: datetime,
) -> None:
    """A campaign step (a turn passed, a pause...) in the chat's event log and journal."""
    await events.add(
        conn,
        chat_key=c.chat_key,
        game_id=None,
        user_id=user_id,
        user_name=user_name,
        command=command,
        kind=kind,
        now=now,
    )
