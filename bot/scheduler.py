"""Play-by-post reminders: every `interval` seconds, claim the reminders that are due, deliver
each to its chat through whichever adapter owns it, and record it as sent.

Any number of schedulers (bot processes, on one SQLite file or one PostgreSQL database) run at
once: a claim is a lease (`campaigns.claim_due`), so each reminder goes to one of them, and one
that dies (even by SIGKILL) holds its reminders only until the lease runs out, when another
claims and sends them. None is lost. A reminder is sent twice in exactly one case: its
scheduler died, or lost the database, after delivering it and before recording it (or spent
longer than the lease delivering it); the others then deliver it again. Each reminder is
recorded right after its delivery, so that window is one reminder wide.

`owns(chat_key)` limits a scheduler to the chats it can reach: a console session on the same
database file leaves the Telegram and Discord chats' reminders to the bot that serves them.
A reminder whose delivery fails is given back and retried on the next pass.

Tests drive it with a fake clock: `await Scheduler(app, send).run_due(now)`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot import i18n
from bot.app import App
from bot.protocol import Reply, Request, mention, plain
from bot.storage import campaigns
from bot.storage.campaigns import Campaign, Reminder

log = logging.getLogger(__name__)
Send = Callable[[str, Reply], Awaitable[None]]


class Scheduler:
    def __init__(
        self,
        app: App,
        send: Send,
        interval: float = 30.0,
        owns: Callable[[str], bool] | None = None,
        lease: timedelta = campaigns.LEASE,
        batch: int = campaigns.CLAIM_BATCH,
    ) -> None:
        self.app = app
        self.send = send
        self.interval = interval
        self.owns = owns
        self.lease = lease
        self.batch = batch
        # Who holds a claim: readable in the table, unique even for two schedulers in one process.
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.said_read_only = False  # warned once that reminders wait for a writable database

    async def run_due(self, now: datetime | None = None) -> int:
        """Send everything due by `now` that this scheduler can claim, a batch at a time;
        returns how many reminders it sent."""
        now = now or self.app.clock()
        if self.app.db.read_only:  # nothing can be claimed or recorded: wait, don't fail each pass
            if not self.said_read_only:
                log.warning("the database is read-only: campaign reminders wait until it is not")
                self.said_read_only = True
            return 0
        self.said_read_only = False
        sent = 0
        while True:
            async with self.app.db.transaction() as conn:
                due = await campaigns.claim_due(
                    conn, now, self.owner, lease=self.lease, owns=self.owns, limit=self.batch
                )
            failed = False
            for reminder, campaign in due:
                try:
                    reply = await self.message(reminder, campaign)
                    await self.send(campaign.chat_key, reply)
                except Exception:  # a platform outage must not stop the other reminders
                    log.exception("could not deliver reminder %s; retrying later", reminder.id)
                    async with self.app.db.transaction() as conn:
                        await campaigns.give_back(conn, reminder.id, self.owner)
                    failed = True
                    continue
                async with self.app.db.transaction() as conn:
                    if not await campaigns.mark_sent(conn, reminder.id, self.owner, now):
                        log.warning("reminder %s: lease lost while sending it", reminder.id)
                sent += 1
            # A short batch took all there was; after a failure, the next pass retries.
            if failed or len(due) < self.batch:
                return sent

    async def message(self, reminder: Reminder, campaign: Campaign) -> Reply:
        lang = await self.app.lang_for(
            Request(
                platform="console",
                chat_key=campaign.chat_key,
                user_id="scheduler",
                user_name="scheduler",
            )
        )
        member = campaign.member(reminder.user_id)
        name = member.name if member else reminder.user_id
        if reminder.kind == "expired":
            organiser = campaign.member(campaign.organiser)
            text = i18n.t(lang, "campaign.expired", name=name, campaign=campaign.name)
            who = [mention(campaign.organiser, organiser.name if organiser else "organiser")]
            return Reply(blocks=[[*who, plain(" " + text)]], mentions=[campaign.organiser])
        percent = reminder.kind.split(":")[1]
        text = i18n.t(lang, "campaign.reminder", percent=percent, campaign=campaign.name)
        return Reply(
            blocks=[[mention(reminder.user_id, name), plain(" " + text)]],
            mentions=[reminder.user_id],
        )

    async def run_forever(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self.run_due()
            except Exception:
                log.exception("reminder pass failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.interval)
