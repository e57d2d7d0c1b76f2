"""/campaign and /done: a play-by-post campaign over weeks in one chat.

Players take turns in order; `/done` passes the turn and pings the next player. With a
deadline, the player whose turn it is gets reminders (by default at half and at 90% of the
time) and the organiser is told when it runs out; the scheduler (bot/scheduler.py) sends them.
Every game started in the chat while the campaign runs belongs to it, and its journal,
export and standings cover all of them (games shown by their number in the chat).

A reply that says whose turn it is carries a "Done" button for that turn; pressed after the
turn passed, it answers "this turn has already ended" and changes nothing (`game.turn_over`).
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Annotated

from bot.clean_text import shorten
from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.game_view import turn_over
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import (
    Attachment,
    Block,
    Button,
    Reply,
    bold,
    code,
    italic,
    mention,
    plain,
    pre,
)
from bot.session import TURN_GUARD, sent_guard, turn_token
from bot.storage import campaigns as store
from bot.storage import games as games_store
from bot.storage.campaigns import Campaign, JournalEntry, Member
from rules_core.errors import UserError
from rules_core.game.campaign import parse_duration, parse_points, standings
from rules_core.game.models import GameState
from rules_core.rules.text import fold

CAMPAIGN_GUARD = "campaign"  # hidden option of /campaign export: one of the chat's campaigns by id
JOURNAL_DEFAULT = 20


class NewArgs(Args):
    name: Annotated[
        str, OptionSpec("name", type="text", positional=True, required=True, max_length=60)
    ]


class OrderArgs(Args):
    players: Annotated[
        str, OptionSpec("players", type="text", positional=True, required=True, max_length=300)
    ]


class DeadlineArgs(Args):
    # text: `2 giorni` is two words
    duration: Annotated[
        str, OptionSpec("duration", type="text", positional=True, required=True, max_length=20)
    ]
    remind: Annotated[str | None, OptionSpec("remind", max_length=20, aliases=("promemoria",))] = (
        None
    )


class JournalArgs(Args):
    n: Annotated[
        int,
        OptionSpec(
            "n", type="int", positional=True, min_value=1, max_value=100, default=JOURNAL_DEFAULT
        ),
    ] = JOURNAL_DEFAULT


_MENTION = re.compile(r"^<@!?(\d+)>$")


async def load(ctx: Context) -> Campaign:
    found = await store.active(ctx.conn, ctx.request.chat_key)
    if found is None:
        raise UserError("campaign.none")
    return found


def is_manager(ctx: Context, c: Campaign) -> bool:
    return ctx.request.admin or ctx.request.user_id == c.organiser


def require_manager(ctx: Context, c: Campaign) -> None:
    if not is_manager(ctx, c):
        raise UserError("perm.campaign_organiser_only")


def find_member(c: Campaign, text: str) -> Member:
    m = _MENTION.match(text.strip())
    if m and c.member(m.group(1)):
        found = c.member(m.group(1))
        assert found is not None
        return found
    key = fold(text.strip().lstrip("@"))
    matches = [p for p in c.players if fold(p.name) == key] or [
        p for p in c.players if fold(p.name).startswith(key)
    ]
    if len(matches) != 1:
        raise UserError("campaign.no_player", name=text[:40])
    return matches[0]


def left(ctx: Context, c: Campaign) -> str | None:
    if c.deadline is None:
        return None
    remaining = c.turn_started_at + c.deadline - ctx.now
    if remaining <= timedelta(0):
        return ctx.t("campaign.overdue")
    return ctx.t("campaign.time_left", duration=span(ctx, remaining))


def span(ctx: Context, delta: timedelta) -> str:
    """`1 d 2 h`, `1 h 30 min`, `45 min` (whole minutes, at most two units)."""
    minutes = int(delta.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [
        ctx.t(key, n=n)
        for key, n in (
            ("campaign.days", days),
            ("campaign.hours", hours),
            ("campaign.minutes", mins),
        )
        if n
    ]
    return " ".join(parts[:2]) or ctx.t("campaign.minutes", n=0)


def campaign_turn(c: Campaign) -> str:
    """The mark of the campaign's current turn that its "Done" button carries: the count of
    turns and whose it is (a join or a new order can change whose turn a count is)."""
    return turn_token("campaign", c.id, c.turn_no, c.current.user_id if c.current else None)


def done_buttons(ctx: Context, c: Campaign) -> list[Button]:
    if c.current is None or c.status != "active":
        return []
    command = f"/done {TURN_GUARD}={campaign_turn(c)}"
    return [Button(label=ctx.t("campaign.done_button"), command=command)]


def turn_blocks(ctx: Context, c: Campaign, key: str) -> tuple[list[Block], list[str]]:
    current = c.current
    if current is None:
        return [[plain(ctx.t("campaign.no_players"))]], []
    line: Block = [plain(ctx.t(key) + " "), mention(current.user_id, current.name)]
    remaining = left(ctx, c)
    if remaining:
        line.append(plain(" · " + remaining))
    return [line], [current.user_id]


async def new(ctx: Context) -> Reply:
    me = Member(user_id=ctx.request.user_id, name=ctx.request.user_name)
    name = " ".join(ctx.args(NewArgs).name.split())[:60]
    c = await store.create(ctx.conn, ctx.request.chat_key, name, me, ctx.now)
    game = await ctx.active_game()
    if game is not None:
        await store.link_game(ctx.conn, c.id, game.id)
    await store.record(ctx.conn, c, me.user_id, me.name, ctx.request.text, "campaign_new", ctx.now)
    return Reply(title=name, blocks=[[plain(ctx.t("campaign.created"))]], data={"campaign": c.id})


async def persist(ctx: Context, c: Campaign, kind: str, *, reschedule: Campaign | None) -> None:
    """Save the campaign, plan its reminders again from `reschedule` (None: keep them), and
    write the command to its journal."""
    await store.save(ctx.conn, c)
    if reschedule is not None:
        await store.schedule_turn(ctx.conn, reschedule)
    text = ctx.request.text or "/" + " ".join(ctx.spec.path)  # buttons carry no text
    await store.record(ctx.conn, c, ctx.request.user_id, ctx.request.user_name, text, kind, ctx.now)


async def join(ctx: Context) -> Reply:
    c = await load(ctx)
    if c.member(ctx.request.user_id):
        raise UserError("campaign.already_joined")
    if len(c.players) >= 16:
        raise UserError("campaign.full", limit=16)
    c.players.append(Member(user_id=ctx.request.user_id, name=ctx.request.user_name))
    await persist(ctx, c, "campaign_join", reschedule=c)
    return Reply(blocks=[[plain(ctx.t("campaign.joined", name=ctx.request.user_name))]])


async def status(ctx: Context) -> Reply:
    c = await load(ctx)
    order = " → ".join(
        ("▶ " if c.current and m.user_id == c.current.user_id else "") + m.name for m in c.players
    )
    blocks: list[Block] = [[plain(ctx.t(f"campaign.status_{c.status}"))], [plain(order)]]
    turn, _ = turn_blocks(ctx, c, "campaign.turn_of")
    blocks += turn
    if c.deadline:
        points = ", ".join(f"{round(p * 100)}%" for p in c.points)
        text = ctx.t("campaign.deadline_is", duration=span(ctx, c.deadline), points=points)
        blocks.append([plain(text)])
    linked = await store.games_of(ctx.conn, c.id)
    blocks.append([plain(ctx.t("campaign.games_count", n=len(linked)))])
    return Reply(
        title=c.name,
        blocks=blocks,
        data={
            "campaign": c.id,
            "status": c.status,
            "turn": c.turn_no,
            "current": c.current.user_id if c.current else None,
            "players": [m.user_id for m in c.players],
        },
    )


async def order(ctx: Context) -> Reply:
    c = await load(ctx)
    require_manager(ctx, c)
    members = [find_member(c, t) for t in ctx.args(OrderArgs).players.split()]
    if sorted(m.user_id for m in members) != sorted(m.user_id for m in c.players):
        raise UserError("campaign.bad_order")
    c.players = members
    c.turn_no += (len(members) - c.turn_no % len(members)) % len(members)  # first one's turn
    c.turn_started_at = ctx.now
    await persist(ctx, c, "campaign_order", reschedule=c)
    blocks, mentions = turn_blocks(ctx, c, "campaign.your_turn")
    return Reply(
        blocks=[[plain(" → ".join(m.name for m in members))], *blocks],
        mentions=mentions,
        buttons=done_buttons(ctx, c),
    )


async def done(ctx: Context) -> Reply:
    c = await load(ctx)
    stale = turn_over(ctx, campaign_turn(c))
    if stale is not None:
        return stale
    if c.status != "active":
        raise UserError("campaign.paused")
    current = c.current
    if current is None:
        raise UserError("campaign.no_players")
    if current.user_id != ctx.request.user_id and not is_manager(ctx, c):
        raise UserError("perm.campaign_not_your_turn", name=current.name)
    c.turn_no += 1
    c.turn_started_at = ctx.now
    await persist(ctx, c, "campaign_done", reschedule=c)
    blocks, mentions = turn_blocks(ctx, c, "campaign.your_turn")
    return Reply(
        blocks=blocks,
        mentions=mentions,
        buttons=done_buttons(ctx, c),
        data={"turn": c.turn_no, "current": c.current.user_id if c.current else None},
    )


async def pause(ctx: Context) -> Reply:
    c = await load(ctx)
    require_manager(ctx, c)
    if c.status == "paused":
        raise UserError("campaign.already_paused")
    c.status, c.paused_at = "paused", ctx.now
    await persist(ctx, c, "campaign_pause", reschedule=None)
    return Reply(blocks=[[plain(ctx.t("campaign.paused_now"))]])


async def resume(ctx: Context) -> Reply:
    c = await load(ctx)
    require_manager(ctx, c)
    if c.status != "paused" or c.paused_at is None:
        raise UserError("campaign.not_paused")
    # The clock of the current turn stood still while paused.
    c.turn_started_at += ctx.now - c.paused_at
    c.status, c.paused_at = "active", None
    await persist(ctx, c, "campaign_resume", reschedule=c)
    blocks, mentions = turn_blocks(ctx, c, "campaign.your_turn")
    return Reply(
        blocks=[[plain(ctx.t("campaign.resumed"))], *blocks],
        mentions=mentions,
        buttons=done_buttons(ctx, c),
    )


async def deadline(ctx: Context) -> Reply:
    c = await load(ctx)
    require_manager(ctx, c)
    a = ctx.args(DeadlineArgs)
    text = a.duration.strip().lower()
    c.deadline = None if text in ("off", "none", "no") else parse_duration(text)
    c.points = parse_points(a.remind)
    await persist(ctx, c, "campaign_deadline", reschedule=c)
    if c.deadline is None:
        return Reply(blocks=[[plain(ctx.t("campaign.deadline_off"))]])
    points = ", ".join(f"{round(p * 100)}%" for p in c.points)
    text = ctx.t("campaign.deadline_is", duration=span(ctx, c.deadline), points=points)
    return Reply(
        blocks=[[plain(text)]],
        data={"deadline_s": int(c.deadline.total_seconds()), "points": list(c.points)},
    )


def numbered(entries: list[JournalEntry], numbers: dict[int, int]) -> list[JournalEntry]:
    """The entries with each game's number in the chat instead of its internal id."""
    return [
        e.model_copy(update={"game_id": numbers.get(e.game_id)}) if e.game_id is not None else e
        for e in entries
    ]


def where(e: JournalEntry) -> str:
    """`#3 R2 ` for an entry of the chat's game 3 in its second round, nothing outside games."""
    if e.game_id is None:
        return ""
    return f"#{e.game_id} R{e.round} " if e.round else f"#{e.game_id} "


def changes_text(ctx: Context, e: JournalEntry) -> str:
    return "; ".join(ctx.t(key, **params) for key, params in e.changes)


async def journal(ctx: Context) -> Reply:
    c = await load(ctx)
    numbers = await games_store.numbers(ctx.conn, c.chat_key)
    entries = numbered(await store.journal(ctx.conn, c), numbers)[-ctx.args(JournalArgs).n :]
    blocks: list[Block] = []
    for e in entries:
        line: Block = [
            plain(f"{where(e)}{e.at:%m-%d %H:%M} "),
            bold(e.who),
            plain(" "),
            code(shorten(e.what, 80)),
        ]
        if e.kind == "roll" and e.detail:
            line.append(plain(" " + e.detail))
        if e.undone:
            line.append(plain(" " + ctx.t("game.undone_mark")))
        what = changes_text(ctx, e)
        if what:
            line += [plain(" → "), italic(what)]
        blocks.append(line)
    return Reply(
        title=ctx.t("campaign.journal_title", name=c.name),
        blocks=blocks or [[plain("-")]],
        data={"entries": [e.model_dump(mode="json") for e in entries]},
    )


def md(text: str) -> str:
    """User text inside Markdown: no accidental emphasis, code or headings."""
    return "".join("\\" + ch if ch in "\\`*_[]#|<>" else ch for ch in text)


def report_line(ctx: Context, e: JournalEntry) -> str:
    what = e.what.replace("`", "'")
    line = f"- {e.at:%Y-%m-%d %H:%M} **{md(e.who)}**: `{what}`"
    if e.kind == "roll" and e.detail:
        line += f" {e.detail}"
    if e.undone:
        line += " " + ctx.t("game.undone_mark")
    changes = changes_text(ctx, e)
    return line + (f" → {md(changes)}" if changes else "")


def final_state(ctx: Context, state: GameState) -> list[str]:
    lines: list[str] = []
    scores = state.score()
    for player in state.players:
        lines.append(
            f"- **{md(player.name)}**: {ctx.t('game.points', n=scores.get(player.user_id, 0))}"
        )
        pools = state.resources.get(f"player:{player.user_id}", {})
        if pools:
            lines[-1] += " · " + md(", ".join(f"{k} {v}" for k, v in sorted(pools.items())))
        for unit in (u for u in state.units if u.owner == player.user_id):
            conds = ", ".join(cd.name for cd in unit.conditions)
            dead = f" — {ctx.t('game.destroyed')}" if unit.destroyed else ""
            lines.append(
                f"  - {md(unit.name)}: {unit.wounds_left}/{unit.max_wounds}"
                + (f" ({md(conds)})" if conds else "")
                + dead
            )
    return lines


async def export(ctx: Context) -> Reply:
    """A Markdown battle report: each game round by round (every action with its dice and
    what it changed), its final state, the campaign's own steps, and the standings."""
    wanted = sent_guard(ctx, CAMPAIGN_GUARD)  # the campaign page asks for its own, even ended
    if wanted is not None and not wanted.isdecimal():
        raise UserError("campaign.none")
    found = await store.in_chat(ctx.conn, ctx.request.chat_key, int(wanted)) if wanted else None
    if wanted is not None and found is None:
        raise UserError("campaign.none")
    c = found or await load(ctx)
    numbers = await games_store.numbers(ctx.conn, c.chat_key)
    entries = numbered(await store.journal(ctx.conn, c), numbers)
    linked = [(numbers[g], state) for g, state in await store.games_of(ctx.conn, c.id)]
    lines = [
        f"# {md(c.name)}",
        "",
        ctx.t(
            "campaign.export_intro",
            players=md(", ".join(m.name for m in c.players)),
            turns=c.turn_no,
        ),
        "",
    ]
    for game_id, state in linked:
        if state.winner:
            winner = next((p.name for p in state.players if p.user_id == state.winner), "-")
            result = ctx.t("campaign.export_winner", name=md(winner))
        else:
            result = ctx.t(f"game.status_{state.status}")
        lines += [
            f"## {ctx.t('campaign.export_game', id=game_id, name=md(state.name))}",
            "",
            f"{ctx.t('systems.' + state.system)} · "
            f"{ctx.t('campaign.export_round', n=state.round)} · {result}",
            "",
        ]
        current_round: int | None = None
        for e in entries:
            if e.game_id != game_id:
                continue
            if e.round is not None and e.round != current_round:
                current_round = e.round
                if lines[-1]:
                    lines.append("")
                lines += [f"### {ctx.t('campaign.export_round', n=e.round)}", ""]
            lines.append(report_line(ctx, e))
        lines += ["", f"### {ctx.t('campaign.export_final')}", "", *final_state(ctx, state), ""]
    outside = [e for e in entries if e.game_id is None or e.game_id not in dict(linked)]
    if outside:
        lines += [f"## {ctx.t('campaign.export_journal')}", ""]
        lines += [report_line(ctx, e) for e in outside]
    table = standings([s for _, s in linked if s.status == "ended"])
    if table:
        lines += [
            "",
            f"## {ctx.t('campaign.standings_title')}",
            "",
            "| | W | D | L | VP |",
            "|---|---|---|---|---|",
        ]
        lines += [f"| {md(s.name)} | {s.wins} | {s.draws} | {s.losses} | {s.vp} |" for s in table]
    content = ("\n".join(lines) + "\n").encode()
    filename = (
        "campaign-" + (re.sub(r"[^a-z0-9]+", "-", fold(c.name)).strip("-") or "report") + ".md"
    )
    return Reply(
        blocks=[[plain(ctx.t("campaign.exported", n=len(entries)))]],
        attachments=[Attachment(filename=filename, content=content, mime="text/markdown")],
        data={"filename": filename, "entries": len(entries)},
    )


async def standings_cmd(ctx: Context) -> Reply:
    c = await load(ctx)
    linked = await store.games_of(ctx.conn, c.id)
    table = standings([s for _, s in linked if s.status == "ended"])
    if not table:
        return Reply(blocks=[[plain(ctx.t("campaign.no_results"))]], data={"standings": []})
    rows = [f"{'':<14} {'W':>3} {'D':>3} {'L':>3} {'VP':>4}"]
    rows += [f"{s.name[:14]:<14} {s.wins:>3} {s.draws:>3} {s.losses:>3} {s.vp:>4}" for s in table]
    return Reply(
        title=ctx.t("campaign.standings_title"),
        blocks=[[pre("\n".join(rows))]],
        data={"standings": [s.model_dump() for s in table]},
    )


async def end(ctx: Context) -> Reply:
    c = await load(ctx)
    require_manager(ctx, c)
    c.status = "ended"
    await persist(ctx, c, "campaign_end", reschedule=c.model_copy(update={"deadline": None}))
    return Reply(blocks=[[plain(ctx.t("campaign.ended", name=c.name))]])


SPECS = [
    CommandSpec(
        path=("campaign", "new"),
        group_aliases=("campagna",),
        handler=new,
        aliases=("nuova",),
        args=NewArgs,
        examples=("/campaign new Autumn league",),
    ),
    CommandSpec(
        path=("campaign", "join"), handler=join, aliases=("entra",), examples=("/campaign join",)
    ),
    CommandSpec(
        path=("campaign", "status"),
        handler=status,
        readonly=True,
        aliases=("stato",),
        examples=("/campaign status",),
    ),
    CommandSpec(
        path=("campaign", "order"),
        handler=order,
        aliases=("ordine",),
        args=OrderArgs,
        examples=("/campaign order @Bob @Ann",),
    ),
    CommandSpec(
        path=("campaign", "pause"), handler=pause, aliases=("pausa",), examples=("/campaign pause",)
    ),
    CommandSpec(
        path=("campaign", "resume"),
        handler=resume,
        aliases=("riprendi",),
        examples=("/campaign resume",),
    ),
    CommandSpec(
        path=("campaign", "deadline"),
        handler=deadline,
        aliases=("scadenza",),
        args=DeadlineArgs,
        examples=("/campaign deadline 24h", "/campaign deadline 3d remind=50,80,95"),
    ),
    CommandSpec(
        path=("campaign", "journal"),
        handler=journal,
        readonly=True,
        aliases=("diario",),
        args=JournalArgs,
        examples=("/campaign journal 5",),
    ),
    CommandSpec(
        path=("campaign", "export"),
        handler=export,
        guard=CAMPAIGN_GUARD,
        readonly=True,
        slow=True,
        aliases=("esporta",),
        examples=("/campaign export",),
    ),
    CommandSpec(
        path=("campaign", "standings"),
        handler=standings_cmd,
        readonly=True,
        aliases=("classifica",),
        examples=("/campaign standings",),
    ),
    CommandSpec(
        path=("campaign", "end"), handler=end, aliases=("fine",), examples=("/campaign end",)
    ),
    CommandSpec(
        path=("done",), handler=done, aliases=("fatto",), guard=TURN_GUARD, examples=("/done",)
    ),
]
