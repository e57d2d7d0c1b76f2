"""Reminders claimed with a lease (bot/storage/campaigns.py, bot/scheduler.py), on both backends.

In one process: two schedulers never claim the same reminder; a claim keeps the others off
until its lease runs out; a reminder given back or left by a dead claimer is sent later.

Across processes: three bot processes run their schedulers on the same database at once and
one of them is killed (SIGKILL) right after delivering a reminder and before recording it,
while holding more claimed reminders. Every reminder is delivered; exactly one is delivered
twice (that one, which its process delivered and could not record: the documented case);
the killed process's other claims are delivered once, by the others, after their lease.

Run as a script, this file is one of those processes:
`python test_reminder_leases.py DB OUT NOW ROLE`, ROLE "survivor" or "victim". Each delivery
appends the reminder's id to OUT. A survivor prints "ready", waits for "go" on stdin, sends
all it can claim at NOW, prints "idle", waits for "later" and sends all it can claim once the
leases have run out (NOW plus the lease and a minute), then prints "done". The victim, after
"go", delivers two reminders and then prints "stuck ID" (ID the second, delivered and not
recorded) and waits forever: the test kills it there.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.app import App
from bot.protocol import Reply
from bot.scheduler import Scheduler
from bot.storage import campaigns
from bot.storage.campaigns import Member
from tests.reliability.test_concurrency_processes import wait_for_line

ROOT = Path(__file__).resolve().parents[2]
START = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
NOW = START + timedelta(hours=2)  # every reminder below is due by then
LEASE = timedelta(minutes=5)
CHATS = 20
BATCH = 4
TIMEOUT = 120.0


async def plan_reminders(app: App, chats: int = CHATS) -> set[int]:
    """`chats` running campaigns with a one-hour deadline and reminders at 25/50/75%: four
    reminders each (three points and the expiry), all due by NOW. Their ids."""
    async with app.db.transaction() as conn:
        for i in range(chats):
            chat = f"telegram:{i}"
            c = await campaigns.create(conn, chat, f"C{i}", Member(user_id="o", name="Org"), START)
            c = c.model_copy(update={"deadline": timedelta(hours=1), "points": (0.25, 0.5, 0.75)})
            await campaigns.save(conn, c)
            await campaigns.schedule_turn(conn, c)
        rows = await conn.fetch_all("SELECT id FROM reminders")
    return {int(r[0]) for r in rows}


async def unsent(app: App) -> set[int]:
    async with app.db.transaction(write=False) as conn:
        rows = await conn.fetch_all("SELECT id FROM reminders WHERE sent_at IS NULL")
    return {int(r[0]) for r in rows}


class Outbox:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def __call__(self, chat_key: str, reply: Reply) -> None:
        self.sent.append(chat_key)


async def test_two_schedulers_share_the_due_reminders_without_overlap(app: App) -> None:
    every = await plan_reminders(app, chats=5)
    a, b = Scheduler(app, Outbox(), batch=3), Scheduler(app, Outbox(), batch=3)
    async with app.db.transaction() as conn:
        first = await campaigns.claim_due(conn, NOW, a.owner, limit=3)
    async with app.db.transaction() as conn:
        second = await campaigns.claim_due(conn, NOW, b.owner, limit=3)
    taken_a, taken_b = {r.id for r, _ in first}, {r.id for r, _ in second}
    assert len(taken_a) == len(taken_b) == 3 and not taken_a & taken_b
    # Their claims stay theirs: a third sends everything else, and not them, until the
    # lease ends; then it takes them over (a and b never came back).
    c = Scheduler(app, Outbox(), batch=3)
    assert await c.run_due(NOW) == len(every) - 6
    assert await unsent(app) == taken_a | taken_b
    assert await c.run_due(NOW + LEASE - timedelta(seconds=1)) == 0
    assert await c.run_due(NOW + LEASE) == 6
    assert await unsent(app) == set()
    async with app.db.transaction() as conn:  # too late for a: recorded by c already
        assert not await campaigns.mark_sent(conn, next(iter(taken_a)), a.owner, NOW)


async def test_a_reminder_given_back_goes_out_on_the_next_pass(app: App) -> None:
    await plan_reminders(app, chats=1)
    failing = Outbox()

    async def down(chat_key: str, reply: Reply) -> None:
        raise ConnectionError("platform down")

    assert await Scheduler(app, down).run_due(NOW) == 0
    assert len(await unsent(app)) == 4
    assert await Scheduler(app, failing).run_due(NOW) == 4 and len(failing.sent) == 4


async def test_three_processes_one_killed_lose_no_reminder(
    app: App, db_target: Path | str, tmp_path: Path
) -> None:
    every = await plan_reminders(app)
    roles = ["victim", "survivor", "survivor"]
    outs = [tmp_path / f"out{i}.txt" for i in range(len(roles))]
    for out in outs:  # a survivor may deliver nothing (the other took every claim): still a file
        out.touch()
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, str(db_target), str(out), NOW.isoformat(), role],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for role, out in zip(roles, outs, strict=True)
    ]
    victim, survivors = procs[0], procs[1:]
    try:
        deadline = time.monotonic() + TIMEOUT
        for proc in procs:
            assert proc.stdout is not None
            line = wait_for_line(proc.stdout, deadline)
            assert line.strip() == "ready", (line, proc.stderr.read() if not line else "")

        def tell(proc: subprocess.Popen[str], word: str) -> None:
            assert proc.stdin is not None
            proc.stdin.write(word + "\n")
            proc.stdin.flush()

        tell(victim, "go")  # first, so it surely holds claims when it dies
        assert victim.stdout is not None
        stuck = wait_for_line(victim.stdout, deadline).split()
        assert stuck[:1] == ["stuck"], stuck
        for proc in survivors:
            tell(proc, "go")
        victim.kill()  # SIGKILL while the survivors are sending
        victim.wait(timeout=30)
        for proc in survivors:
            assert proc.stdout is not None
            assert wait_for_line(proc.stdout, deadline).strip() == "idle"
        left = await unsent(app)
        assert len(left) == BATCH - 1  # the victim's claims but the one it recorded wait
        assert int(stuck[1]) in left
        for proc in survivors:
            tell(proc, "later")
        for proc in survivors:
            assert proc.stdout is not None
            assert wait_for_line(proc.stdout, deadline).strip() == "done"
            proc.wait(timeout=30)
            assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    delivered = Counter(int(x) for out in outs for x in out.read_text().split())
    assert set(delivered) == every  # none lost
    twice = {rid for rid, n in delivered.items() if n > 1}
    assert twice == {int(stuck[1])}  # only the one delivered and never recorded
    assert max(delivered.values()) == 2
    assert await unsent(app) == set()
    victims = [int(x) for x in outs[0].read_text().split()]
    assert len(victims) == 2 and victims[1] == int(stuck[1])


async def child(db: str, out: Path, now: datetime, role: str) -> None:
    app = App(db)
    await app.start()
    lines = sys.stdin
    stuck = asyncio.Event()
    try:
        sent = 0

        async def deliver(chat_key: str, reply: Reply) -> None:
            nonlocal sent
            rid = current[-1]  # the reminder being delivered (see `message` below)
            with out.open("a") as fh:
                fh.write(f"{rid}\n")
                fh.flush()
            sent += 1
            if role == "victim" and sent == 2:
                print(f"stuck {rid}", flush=True)
                await stuck.wait()  # never set: delivered, not recorded, and then killed

        current: list[int] = []
        scheduler = Scheduler(app, deliver, lease=LEASE, batch=BATCH)
        original = scheduler.message

        async def message(reminder: campaigns.Reminder, campaign: campaigns.Campaign) -> Reply:
            current.append(reminder.id)
            return await original(reminder, campaign)

        scheduler.message = message  # type: ignore[method-assign]
        print("ready", flush=True)
        lines.readline()
        await scheduler.run_due(now)
        if role == "victim":
            return
        while await scheduler.run_due(now):  # whatever others gave back meanwhile
            pass
        print("idle", flush=True)
        lines.readline()
        later = now + LEASE + timedelta(minutes=1)
        while await scheduler.run_due(later):
            pass
        print("done", flush=True)
    finally:
        await app.stop()


if __name__ == "__main__":
    target, out_file, at, which = sys.argv[1:5]
    asyncio.run(child(target, Path(out_file), datetime.fromisoformat(at), which))
