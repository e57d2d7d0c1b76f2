"""/roll, /roll show, /roll history and /odds: the generic dice commands."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any

from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.registry import closest
from bot.commands.spec import DICE, CommandSpec, OptionSpec, flag_opt
from bot.i18n import fmt_num
from bot.protocol import Attachment, Block, Button, Reply, Span, Style, bold, code, italic, plain
from bot.storage import private_rolls as private_repo
from bot.storage import rolls as rolls_repo
from bot.workers import is_light
from rules_core.dice import (
    DROPPED,
    EXPLODED,
    FAILURE,
    KEPT,
    REROLLED,
    SUCCESS,
    DiceSource,
    RollResult,
    parse,
    roll_command,
)
from rules_core.dice.ast import Compare
from rules_core.dice.odds import charge_odds
from rules_core.errors import UserError
from rules_core.rules.text import fold

if TYPE_CHECKING:
    from bot.commands.odds_view import TableFormat

HISTORY_DEFAULT = 10
# A label that asks for a hidden roll (`/tira 2d6 privato`): refused, never rolled in public.
PRIVATE_WORDS = frozenset(
    [
        "privato",
        "privata",
        "segreto",
        "segreta",
        "nascosto",
        "nascosta",
        "private",
        "secret",
        "hidden",
    ]
)
HISTORY_MAX = 50

EXPR = OptionSpec("expression", type="text", positional=True, required=True, max_length=300)
ROLL_ID = OptionSpec("id", type="int", positional=True, required=True, min_value=1)


class RollArgs(Args):
    expression: Annotated[str, EXPR]
    dice: Annotated[list[int] | None, DICE] = None


class RollIdArgs(Args):
    """A roll of the log by its number (/roll show, /roll reveal)."""

    id: Annotated[int, ROLL_ID]


class RollHistoryArgs(Args):
    n: Annotated[
        int,
        OptionSpec(
            "n",
            type="int",
            positional=True,
            min_value=1,
            max_value=HISTORY_MAX,
            default=HISTORY_DEFAULT,
        ),
    ] = HISTORY_DEFAULT


class OddsArgs(Args):
    expression: Annotated[str, EXPR]
    full: Annotated[bool, flag_opt("full", "completa")] = False


def face_spans(result: RollResult) -> list[Span]:
    """The expression with every die shown: dropped and rerolled faces struck through,
    successes in bold, exploding faces marked with '!'. Plain text between styled faces is one
    span, and spans are shared (they are immutable): a 2,000-dice roll builds a few dozen
    spans, not 4,000 (issue 19: it held the event loop for tens of ms)."""
    out: list[Span] = []
    run: list[str] = []  # plain text not yet emitted
    for text, flags in result.marked():
        if flags >= 0:
            if flags & EXPLODED:
                text += "!"
            style = _FACE_STYLE[flags & _STYLE_BITS]
            if style != "plain":
                if run:
                    out.append(_span("".join(run), "plain"))
                    run = []
                out.append(_span(text, style))
                continue
        run.append(text)
    if run:
        out.append(_span("".join(run), "plain"))
    return out


def _span(text: str, style: Style) -> Span:
    """A face or a short run is shared (faces repeat); a long run of plain faces is not kept."""
    return _shared_span(text, style) if len(text) <= 24 else Span(text=text, style=style)


@lru_cache(maxsize=4096)
def _shared_span(text: str, style: Style) -> Span:
    return Span(text=text, style=style)


def _face_style(flags: int) -> Style:
    if flags & (REROLLED | DROPPED) or not flags & KEPT:
        return "strike"
    if flags & SUCCESS:
        return "bold"
    if flags & FAILURE:
        return "italic"
    return "plain"


_STYLE_BITS = KEPT | REROLLED | DROPPED | SUCCESS | FAILURE
_FACE_STYLE = [_face_style(f) for f in range(_STYLE_BITS + 1)]


def result_block(ctx: Context, result: RollResult, index: int | None) -> Block:
    line: Block = [plain(f"{index}. ")] if index is not None else []
    line.extend(face_spans(result))
    line.append(plain(" = "))
    line.append(bold(str(result.total)))
    if _is_comparison(result.expression):
        line.append(plain(" ✓" if result.total else " ✗"))  # a comparison of totals: 1 or 0
    elif result.successes is not None:
        one = abs(result.successes) == 1
        line.append(plain(" " + ctx.t("roll.success" if one else "roll.successes")))
    if result.truncated:
        line.append(plain(" " + ctx.t("roll.truncated")))
    return line


def _is_comparison(expression: str) -> bool:
    """Whether a roll's canonical text compares totals (`2d6 + 3 >= 10`)."""
    try:
        rolls = parse(expression).rolls
    except UserError:
        return False
    return len(rolls) == 1 and isinstance(rolls[0].expr, Compare)


def roll_data(number: int, seed: int | None, results: list[RollResult]) -> dict[str, Any]:
    """The public `data` of /roll: the first roll at top level, every roll under `rolls`.
    `id` is the roll's number in its chat (what `/roll show` takes)."""
    items = [
        {
            "expression": r.expression,
            "label": r.label,
            "total": r.total,
            "successes": r.successes,
            "dice": r.dice_data(),
        }
        for r in results
    ]
    first = items[0]
    return {
        "id": number,
        "expression": first["expression"],
        "total": first["total"],
        "successes": first["successes"],
        "dice": first["dice"],
        "seed": seed,
        "rolls": items,
    }


def results_reply(ctx: Context, number: int, who: str, results: list[RollResult]) -> list[Block]:
    """Who rolled (and what for, when there is one label), then one line per roll."""
    labels = {r.label for r in results}
    header: Block = [bold(who), plain(" 🎲")]
    single_label = len(labels) == 1 and None not in labels
    if single_label:
        header.append(plain(" " + str(results[0].label)))
    blocks = [header]
    numbered = len(results) > 1
    last_label: str | None = None
    for i, result in enumerate(results, start=1):
        if not single_label and result.label and result.label != last_label:
            blocks.append([italic(result.label)])
        last_label = result.label
        blocks.append(result_block(ctx, result, i if numbered else None))
    blocks.append([plain(ctx.t("roll.ref", id=number))])
    return blocks


async def roll_cmd(ctx: Context) -> Reply:
    a = ctx.args(RollArgs)
    text = a.expression
    command = parse(text)
    for spec in command.rolls:
        if spec.label is not None and fold(spec.label) in PRIVATE_WORDS:
            # `/tira 2d6 privato` would show the whole chat what the player meant to hide
            raise UserError("roll.label_is_private", expression=spec.text, given=spec.label)
    source = ctx.dice(a.dice)
    results = roll_command(command, source)
    source.check_exhausted()  # a face given and not used is a mistake: say so, as attacks do
    # The log keeps the faces (replayed by /roll show) and each roll's summary, not every
    # face's breakdown again: that JSON was most of a 2,000-dice roll's time on the loop.
    data = [r.summary() for r in results]
    number = await rolls_repo.add(
        ctx.conn,
        chat_key=ctx.request.chat_key,
        user_id=ctx.request.user_id,
        user_name=ctx.request.user_name,
        expression=text,
        faces=list(source.consumed),
        seed=source.seed,
        result=data,
        now=ctx.now,
    )
    return Reply(
        blocks=results_reply(ctx, number, ctx.request.user_name, results),
        buttons=[Button(label=ctx.t("roll.again"), command=f"/roll {text}")],
        data=roll_data(number, source.seed, results),
    )


async def roll_show(ctx: Context) -> Reply:
    number = ctx.args(RollIdArgs).id
    record = await rolls_repo.get(ctx.conn, ctx.request.chat_key, number)
    if record is None:
        raise UserError("roll.not_found", id=number)
    if record.expression == private_repo.HIDDEN:  # a private roll not yet revealed
        blocks: list[Block] = [
            [bold(record.user_name), plain(" 🎲 " + ctx.t("roll.hidden", id=number))],
            [plain(ctx.t("roll.when", when=record.created_at.strftime("%Y-%m-%d %H:%M")))],
        ]
        return Reply(blocks=blocks, data={"id": number, "private": True})
    results = replay(record)
    if results is None:
        blocks, data = command_roll(ctx, record)
    else:
        blocks = results_reply(ctx, record.number, record.user_name, results)
        data = roll_data(record.number, record.seed, results)
    blocks.append([plain(ctx.t("roll.when", when=record.created_at.strftime("%Y-%m-%d %H:%M")))])
    if record.seed is None:
        blocks.append([plain(ctx.t("roll.given_dice"))])
    return Reply(blocks=blocks, data=data)


def replay(record: rolls_repo.RollRecord) -> list[RollResult] | None:
    """A /roll's exact result, rebuilt by replaying its logged faces through its expression;
    None for the dice of a game command (`/aos attack ...`), which are no dice expression."""
    if record.expression.startswith("/"):
        return None
    try:
        return roll_command(parse(record.expression), DiceSource.given(record.faces))
    except UserError:  # a command logged by name on Discord (`wow attack`)
        return None


def command_roll(ctx: Context, record: rolls_repo.RollRecord) -> tuple[list[Block], dict[str, Any]]:
    """A roll logged by a game command: its text, its dice in rolling order and its total (the
    command's own reply showed the steps; the log keeps what is needed to check them)."""
    total = record.result[0].get("total") if record.result else None
    blocks: list[Block] = [
        [bold(record.user_name), plain(" 🎲 "), code(record.expression[:300])],
        [plain(ctx.t("roll.dice_logged", faces=", ".join(map(str, record.faces))))],
        [plain(ctx.t("roll.ref", id=record.number))],
    ]
    if total is not None:
        blocks[1] += [plain(" = "), bold(str(total))]
    data = {
        "id": record.number,
        "expression": record.expression,
        "total": total,
        "faces": record.faces,
        "seed": record.seed,
    }
    return blocks, data


async def roll_history(ctx: Context) -> Reply:
    records = await rolls_repo.recent(ctx.conn, ctx.request.chat_key, ctx.args(RollHistoryArgs).n)
    if not records:
        return Reply(blocks=[[plain(ctx.t("roll.no_history"))]], data={"rolls": []})
    blocks: list[Block] = []
    for rec in records:
        line: Block = [plain(f"#{rec.number} {rec.created_at:%H:%M} "), bold(rec.user_name)]
        if rec.expression == private_repo.HIDDEN:
            line.append(plain(" " + ctx.t("roll.hidden", id=rec.number)))
        else:
            totals = ", ".join(str(r["total"]) for r in rec.result)
            line += [plain(" "), code(rec.expression[:60]), plain(f" = {totals}")]
        blocks.append(line)
    return Reply(
        title=ctx.t("roll.history_title"),
        blocks=blocks,
        data={"rolls": [{"id": r.number, "expression": r.expression} for r in records]},
    )


async def odds_cmd(ctx: Context) -> Reply:
    # The odds view and the chart are loaded here, not by every process that rolls.
    from bot.commands.odds_view import odds_views, view_blocks, view_data
    from bot.images import odds_chart, render

    a = ctx.args(OddsArgs)
    text = a.expression
    command = parse(text)
    for spec in command.rolls:
        _refuse_flag_typo(ctx.spec, text, spec.label)
    # The whole message is charged before any part is computed; then all of it runs at once,
    # in a worker unless it is tiny.
    costs = charge_odds(command, ctx.budget)
    light = is_light(sum(c.operations for c in costs), sum(c.values for c in costs))
    table = _table_format(ctx) if a.full else None
    views = await ctx.offload(odds_views, text, table, light=light)
    blocks: list[Block] = []
    payload = []
    labels = []
    files: list[Attachment] = []
    for index, (spec, view) in enumerate(zip(command.rolls, views, strict=True), start=1):
        label = spec.text + (f" [{spec.label}]" if spec.label else "")
        if spec.repeat > 1:
            label = f"{spec.repeat}# {label}"
        labels.append(label)
        blocks.extend(view_blocks(ctx, view, [code(label)]))
        if spec.repeat > 1:
            blocks.append([plain(ctx.t("odds.each_repeat", n=spec.repeat))])
        payload.append({"expression": spec.text, **view_data(view)})
        if view.table is not None:
            name = ctx.t("odds.file_name") + (f"-{index}" if len(views) > 1 else "") + ".csv"
            files.append(Attachment(filename=name, content=view.table, mime="text/csv"))
            blocks.append([plain(ctx.t("odds.file_attached", name=name))])
    data = dict(payload[0])
    data["rolls"] = payload
    reply = Reply(title=ctx.t("odds.title"), blocks=blocks, data=data, attachments=files)
    chart = odds_chart.facts(list(zip(views, labels, strict=True)))
    return await render.attach(ctx, reply, odds_chart.render, chart, "odds.png")


def _refuse_flag_typo(command: CommandSpec, text: str, label: str | None) -> None:
    """`/odds 2d6 ful`: a label whose first word is close to one of the command's flags (full,
    completa) was meant as the flag; taking it as a label would silently drop the file the
    player asked for. Said with the flag in the reader's word; a label in brackets
    (`/odds 2d6 [ful]`) or with other words is a label, as documented."""
    if not label or re.search(r"\[\s*" + re.escape(label), text):
        return
    first = fold(label.split()[0])
    if len(first) < 3:
        return
    names = {
        fold(n): o.name for o in command.options if o.type == "flag" for n in (o.name, *o.aliases)
    }
    near = closest(first, names)
    if near and first not in names:
        raise UserError("odds.flag_typo", given=label.split()[0][:40], like=names[near[0]])


def _table_format(ctx: Context) -> TableFormat:
    """`/odds … full`'s columns in the reader's language and decimal mark."""
    from bot.commands.odds_view import TableFormat

    mark = fmt_num(ctx.lang, 0.5, 1)[1]  # "0.5" or "0,5"
    separator = ";" if mark == "," else ","
    return TableFormat(ctx.t("odds.file_header", sep=separator), separator, mark)


SPECS = [
    CommandSpec(
        path=("roll",),
        handler=roll_cmd,
        aliases=("tira",),
        args=RollArgs,
        examples=("/roll 2d6+3 fire damage", "/roll 10d6>=4", "/roll 4d6kh3", "/roll 1d20+5 adv"),
    ),
    CommandSpec(
        path=("roll", "show"),
        handler=roll_show,
        readonly=True,
        aliases=("mostra",),
        args=RollIdArgs,
        examples=("/roll show 12",),
    ),
    CommandSpec(
        path=("roll", "history"),
        handler=roll_history,
        readonly=True,
        aliases=("storico",),
        args=RollHistoryArgs,
        examples=("/roll history 5",),
    ),
    CommandSpec(
        path=("odds",),
        handler=odds_cmd,
        readonly=True,
        aliases=("probabilita", "prob"),
        args=OddsArgs,
        examples=("/odds 2d6+3>=10", "/odds 10d6>=4", "/odds 4d6kh3", "/odds 3d6 full"),
    ),
]
