"""Play-by-post reminders: every `interval` seconds, take the reminders that are due (they are
marked sent in the same transaction, so none is ever sent twice, even across a restart) and
deliver them to their chat through whichever adapter owns it.

`owns(chat_key)` limits a scheduler to the chats it can reach: a console session on the same
database file leaves the Telegram and Discord chats' reminders to the bot that serves them.
A reminder whose delivery fails is given back and retried on the next pass.

Tests drive it with a fake clock: `await Scheduler(app, send).run_due(now)`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

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
    ) -> None:
        self.app = app
        self.send = send
        self.interval = interval
        self.owns = owns

    async def run_due(self, now: datetime | None = None) -> int:
        """Send everything due by `now`; returns how many reminders were sent."""
        now = now or self.app.clock()
        async with self.app.db.transaction() as conn:
            due = await campaigns.take_due(conn, now, self.owns)
        sent = 0
        for reminder, campaign in due:
            try:
                reply = await self.message(reminder, campaign)
                await self.send(campaign.chat_key, reply)
            except Exception:  # a platform outage must not stop the other reminders
                log.exception("could not deliver reminder %s; retrying later", reminder.id)
                async with self.app.db.transaction() as conn:
                    await campaigns.give_back(conn, reminder.id)
                continue
            sent += 1
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
