"""A play-by-post campaign driven by a fake clock: deadlines, reminders across a restart,
pause, the journal, the Markdown export and the standings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from bot.scheduler import Scheduler
from tests.helpers import say

CHAT = "telegram:-700"
START = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def at(self, hours: float) -> datetime:
        self.now = START + timedelta(hours=hours)
        return self.now


class Outbox:
    def __init__(self) -> None:
        self.sent: list[tuple[str, Reply]] = []

    async def __call__(self, chat: str, reply: Reply) -> None:
        self.sent.append((chat, reply))


async def as_user(app: App, user: str, text: str, **kw: object) -> Reply:
    names = {"1": "Ann", "2": "Bob"}
    reply = await say(app, text, user=user, name=names.get(user, user), chat=CHAT, **kw)  # type: ignore[arg-type]
    return reply


def ok(reply: Reply) -> Reply:
    assert reply.error is None, reply.error
    return reply


async def test_reminders_at_the_right_times_across_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "camp.sqlite3"
    app = App(path, clock=clock)
    await app.start()
    ok(await as_user(app, "1", "/campaign new Autumn league"))
    ok(await as_user(app, "2", "/campaign join"))
    ok(await as_user(app, "1", "/campaign deadline 24h"))
    outbox = Outbox()
    scheduler = Scheduler(app, outbox)

    assert await scheduler.run_due(clock.at(11.9)) == 0
    assert await scheduler.run_due(clock.at(12)) == 1  # half of Ann's 24 hours
    chat, reply = outbox.sent[0]
    assert chat == CHAT and reply.mentions == ["1"] and "50%" in plain.render(reply)
    assert await scheduler.run_due(clock.at(12.5)) == 0  # never twice
    await app.stop()

    restarted = App(path, clock=clock)  # a restart in the middle
    await restarted.start()
    try:
        again = Scheduler(restarted, outbox)
        assert await again.run_due(clock.at(13)) == 0
        assert await again.run_due(clock.at(21.6)) == 1  # 90%
        assert await again.run_due(clock.at(24)) == 1  # expired: the organiser is told
        assert outbox.sent[2][1].mentions == ["1"] and "deadline" in plain.render(outbox.sent[2][1])
        assert await again.run_due(clock.at(48)) == 0

        # Ann plays at hour 30: Bob's turn starts then, with his own reminders.
        clock.at(30)
        done = ok(await as_user(restarted, "1", "/done"))
        assert done.mentions == ["2"]
        assert await again.run_due(clock.at(30 + 11.9)) == 0
        assert await again.run_due(clock.at(30 + 12)) == 1
        assert outbox.sent[3][1].mentions == ["2"]
    finally:
        await restarted.stop()


async def test_pause_stops_the_clock(tmp_path: Path) -> None:
    clock = Clock()
    app = App(tmp_path / "p.sqlite3", clock=clock)
    await app.start()
    try:
        ok(await as_user(app, "1", "/campaign new Winter"))
        ok(await as_user(app, "1", "/campaign deadline 10h remind=50"))
        outbox = Outbox()
        scheduler = Scheduler(app, outbox)
        clock.at(2)
        ok(await as_user(app, "1", "/campaign pause"))
        assert await scheduler.run_due(clock.at(6)) == 0  # paused: nothing goes out
        clock.at(8)
        ok(await as_user(app, "1", "/campaign resume"))  # 6 hours paused
        assert await scheduler.run_due(clock.at(10.9)) == 0
        assert await scheduler.run_due(clock.at(11)) == 1  # 5h of play + 6h paused
        status = ok(await as_user(app, "1", "/campaign status"))
        assert "Ann" in plain.render(status) and "h" in plain.render(status)
    finally:
        await app.stop()


async def test_permissions_of_the_campaign(tmp_path: Path) -> None:
    app = App(tmp_path / "perm.sqlite3", clock=Clock())
    await app.start()
    try:
        ok(await as_user(app, "1", "/campaign new Spring"))
        ok(await as_user(app, "2", "/campaign join"))
        for command in (
            "/campaign deadline 24h",
            "/campaign pause",
            "/campaign order @Bob @Ann",
            "/campaign end",
            "/done",
        ):
            refused = await as_user(app, "2", command)
            assert refused.error is not None and refused.error.code.startswith("perm."), command
        ok(await as_user(app, "2", "/campaign order @Bob @Ann", admin=True))  # a chat admin
        assert (await as_user(app, "2", "/done")).mentions == ["1"]  # Bob's turn now
        spectator = await as_user(app, "7", "/done")
        assert spectator.error is not None and spectator.error.code.startswith("perm.")
        bad = await as_user(app, "1", "/campaign deadline tomorrow")
        assert bad.error is not None and bad.error.code == "campaign.bad_duration"
        short = ok(await as_user(app, "1", "/campaign deadline 90m"))
        assert "1 h 30 min" in plain.render(short)
        long = ok(await as_user(app, "1", "/campaign deadline 3d", lang="it"))
        assert "3 g;" in plain.render(long) and "50%, 90%" in plain.render(long)
        status = ok(await as_user(app, "2", "/campaign status"))
        assert "3 d left" in plain.render(status)
    finally:
        await app.stop()


async def test_journal_export_and_standings(tmp_path: Path) -> None:
    clock = Clock()
    app = App(tmp_path / "j.sqlite3", clock=clock)
    await app.start()
    try:
        ok(await as_user(app, "1", "/campaign new Grand tour"))
        ok(await as_user(app, "2", "/campaign join"))
        for winner in ("Ann", "Bob", "Ann", None):
            clock.now += timedelta(hours=1)
            ok(await as_user(app, "1", '/game new gen "Battle"'))
            ok(await as_user(app, "2", "/game join"))
            ok(await as_user(app, "1", "/unit add Knights models=3 wounds=2"))
            ok(await as_user(app, "1", "/roll 2d6 charge dice=5,6"))
            ok(await as_user(app, "1", "/unit damage Knights 3"))
            ok(await as_user(app, "1", "/score add 4"))
            ok(await as_user(app, "1", f"/game end {winner}" if winner else "/game end"))
        journal = ok(await as_user(app, "2", "/campaign journal 100"))
        texts = [e["what"] for e in journal.data["entries"]]  # type: ignore[index]
        assert "2d6 charge" in texts and texts.index('/game new gen "Battle"') < texts.index(
            "2d6 charge"
        )
        table = ok(await as_user(app, "2", "/campaign standings"))
        rows = {s["name"]: s for s in table.data["standings"]}  # type: ignore[index]
        assert (rows["Ann"]["wins"], rows["Ann"]["losses"], rows["Ann"]["draws"]) == (2, 1, 1)
        assert (rows["Bob"]["wins"], rows["Bob"]["losses"], rows["Bob"]["draws"]) == (1, 2, 1)
        assert rows["Ann"]["vp"] == 16 and rows["Bob"]["vp"] == 0
        export = ok(await as_user(app, "2", "/campaign export"))
        (file,) = export.attachments
        report = file.content.decode()
        assert file.filename == "campaign-grand-tour.md"
        assert report.startswith("# Grand tour")
        assert report.count("## Game #") == 4 and "won by Ann" in report
        assert "Knights: 3/6" in report
        assert "`2d6 charge` = 11 [5, 6]" in report
        assert "| Ann | 2 | 1 | 1 | 16 |" in report
        # Game by game, round by round: each action in order, with its dice and its effect.
        first = report.split("## Game #")[1]
        assert "### Round 1" in first and "### Final state" in first
        add = first.index("`/unit add Knights models=3 wounds=2`")
        roll = first.index("`2d6 charge` = 11 [5, 6]")
        hit = first.index("`/unit damage Knights 3` → Knights: 3 damage, 3/6 left")
        assert add < roll < hit < first.index("### Final state")
        journal_lines = plain.render(journal)
        assert "#1 R1" in journal_lines and "Knights: 3 damage, 3/6 left" in journal_lines
    finally:
        await app.stop()


async def test_reminders_due_while_the_bot_was_down_go_out_once_after_restart(
    tmp_path: Path,
) -> None:
    clock = Clock()
    path = tmp_path / "down.sqlite3"
    app = App(path, clock=clock)
    await app.start()
    ok(await as_user(app, "1", "/campaign new Long night"))
    ok(await as_user(app, "2", "/campaign join"))
    ok(await as_user(app, "1", "/campaign order @Bob @Ann"))  # Bob plays first
    ok(await as_user(app, "1", "/campaign deadline 10h remind=25,50,75"))
    outbox = Outbox()
    assert await Scheduler(app, outbox).run_due(clock.at(2.6)) == 1  # 25%
    await app.stop()  # down from hour 2.6 to hour 11

    later = App(path, clock=clock)
    await later.start()
    try:
        scheduler = Scheduler(later, outbox)
        assert await scheduler.run_due(clock.at(11)) == 3  # 50%, 75% and the expiry
        assert await scheduler.run_due(clock.at(12)) == 0
        kinds = [plain.render(reply) for _, reply in outbox.sent]
        assert ["25%" in kinds[0], "50%" in kinds[1], "75%" in kinds[2]] == [True] * 3
        assert [reply.mentions for _, reply in outbox.sent] == [["2"], ["2"], ["2"], ["1"]]
        assert "Bob" in plain.render(outbox.sent[3][1])  # Ann, the organiser, hears of it
    finally:
        await later.stop()


async def test_reminders_wait_for_the_adapter_that_owns_the_chat(tmp_path: Path) -> None:
    """A console on the same file leaves other chats' reminders alone; a failed delivery is
    retried on the next pass, and nothing is sent twice."""
    clock = Clock()
    app = App(tmp_path / "own.sqlite3", clock=clock)
    await app.start()
    try:
        ok(await as_user(app, "1", "/campaign new Relay"))
        ok(await as_user(app, "1", "/campaign deadline 10h remind=50"))
        outbox = Outbox()
        console = Scheduler(app, outbox, owns=lambda key: key == "console:local")
        assert await console.run_due(clock.at(6)) == 0 and outbox.sent == []

        failures = [RuntimeError("telegram is down")]

        async def flaky(chat: str, reply: Reply) -> None:
            if failures:
                raise failures.pop()
            await outbox(chat, reply)

        telegram = Scheduler(app, flaky, owns=lambda key: key.startswith("telegram:"))
        assert await telegram.run_due(clock.at(6)) == 0  # delivery failed: given back
        assert await telegram.run_due(clock.at(6.1)) == 1 and outbox.sent[0][0] == CHAT
        assert await telegram.run_due(clock.at(11)) == 1  # the expiry
        assert await telegram.run_due(clock.at(12)) == 0 and len(outbox.sent) == 2
    finally:
        await app.stop()


CAMPAIGN_ROLES = {
    "organiser": ("1", False),
    "admin": ("9", True),
    "on-turn": ("2", False),
    "other": ("3", False),
    "spectator": ("4", False),
}
MANAGERS = {"organiser", "admin"}
CAMPAIGN_MATRIX = [
    (None, "/done", MANAGERS | {"on-turn"}),
    (None, "/campaign deadline 24h", MANAGERS),
    (None, "/campaign pause", MANAGERS),
    ("/campaign pause", "/campaign resume", MANAGERS),
    (None, "/campaign order @Ann @Bob @Cat", MANAGERS),
    (None, "/campaign end", MANAGERS),
    (None, "/campaign join", set(CAMPAIGN_ROLES)),  # anyone may join (members are told no)
]


@pytest.mark.parametrize(("before", "command", "allowed"), CAMPAIGN_MATRIX)
async def test_campaign_permission_matrix(
    tmp_path: Path, before: str | None, command: str, allowed: set[str]
) -> None:
    names = {"1": "Ann", "2": "Bob", "3": "Cat", "4": "Dan", "9": "Zed"}
    for role, (user, admin) in CAMPAIGN_ROLES.items():
        app = App(tmp_path / f"{role}.sqlite3", clock=Clock())
        await app.start()
        try:
            for who, text in (("1", "/campaign new Matrix"), ("2", "/campaign join")):
                ok(await say(app, text, user=who, name=names[who], chat=CHAT))
            ok(await say(app, "/campaign join", user="3", name="Cat", chat=CHAT))
            ok(await say(app, "/campaign order @Bob @Ann @Cat", user="1", chat=CHAT))
            if before:
                ok(await say(app, before, user="1", chat=CHAT))
            reply = await say(app, command, user=user, name=names[user], admin=admin, chat=CHAT)
            if role in allowed:
                assert reply.error is None or not reply.error.code.startswith("perm."), (
                    role,
                    command,
                    reply.error,
                )
            else:
                assert reply.error is not None and reply.error.code.startswith("perm."), (
                    role,
                    command,
                )
                assert reply.error.message.count(".") == 1  # one sentence
        finally:
            await app.stop()


async def test_reminders_wait_quietly_while_the_database_is_read_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A bot on a read-only volume still reads; its scheduler neither fails each pass nor claims
    (it could not record a claim): one warning, and the reminders go out once writable."""
    clock = Clock()
    app = App(tmp_path / "ro.sqlite3", clock=clock)
    await app.start()
    try:
        ok(await as_user(app, "1", "/campaign new Quiet"))
        ok(await as_user(app, "2", "/campaign join"))
        ok(await as_user(app, "1", "/campaign deadline 24h"))
        outbox = Outbox()
        scheduler = Scheduler(app, outbox)
        app.db.read_only = (
            True  # as the open finds a read-only file (tests/reliability covers that)
        )
        with caplog.at_level("WARNING", logger="bot.scheduler"):
            assert await scheduler.run_due(clock.at(13)) == 0
            assert await scheduler.run_due(clock.at(14)) == 0
        warnings = [r for r in caplog.records if r.name == "bot.scheduler"]
        assert len(warnings) == 1 and "read-only" in warnings[0].getMessage()
        assert all(r.exc_info is None for r in warnings) and outbox.sent == []
        app.db.read_only = False
        assert await scheduler.run_due(clock.at(14)) == 1  # the 50% reminder, now
    finally:
        await app.stop()


async def test_an_ended_campaign_s_journal_stops_at_its_end(tmp_path: Path) -> None:
    """The journal had no end: an ended campaign's report went on with whatever the chat did
    next, the next campaign's first steps and rolls included."""
    clock = Clock()
    app = App(tmp_path / "end.sqlite3", clock=clock)
    await app.start()
    try:
        first = ok(await as_user(app, "1", "/campaign new First"))
        ok(await as_user(app, "1", "/roll 1d6 before-the-end dice=4"))
        ok(await as_user(app, "1", "/campaign end"))
        ok(await as_user(app, "1", "/roll 1d6 after-the-end dice=2"))
        clock.at(24)
        ok(await as_user(app, "1", "/campaign new Second"))
        ok(await as_user(app, "1", "/roll 1d6 in-the-second dice=3"))
        old = first.data["campaign"]  # type: ignore[index]
        report = ok(await as_user(app, "1", f"/campaign export campaign={old}"))
        text = report.attachments[0].content.decode()
        assert "before-the-end" in text and "/campaign end" in text
        assert "after-the-end" not in text and "in-the-second" not in text
        assert "/campaign new Second" not in text
        current = ok(await as_user(app, "1", "/campaign journal 100"))
        texts = [e["what"] for e in current.data["entries"]]  # type: ignore[index]
        assert "1d6 in-the-second" in texts and "1d6 before-the-end" not in texts
    finally:
        await app.stop()
