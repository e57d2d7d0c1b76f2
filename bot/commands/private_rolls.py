"""/roll private, /roll reveal, /roll reroll: hidden rolls with proof, and re-rolls of dice.

- `/roll private EXPR` (hidden information: deployments, camouflage markers) rolls now; the
  roller alone sees the result (the reply's `private` part: an ephemeral message on Discord, a
  private message on Telegram) and the chat sees "a private roll #N was made" with a SHA-256
  commitment of what was rolled.
- `/roll reveal N` (the roller, or a chat admin) shows it to the chat with the proof: the salt
  and the exact text committed to, whose SHA-256 anyone can check against the commitment shown
  at roll time.
- `/roll reroll N dice=2,5` re-rolls the dice at those positions (1 = the first die shown) of a
  stored roll (re-roll abilities). The result is a new roll of the log, linked to the first:
  the audit keeps both.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.dice import EXPR, ROLL_ID, RollIdArgs, replay, results_reply, roll_data
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Block, Reply, bold, code, plain, pre
from bot.storage import private_rolls as pr
from bot.storage import rolls as rolls_repo
from rules_core.dice import EXPLODED, REROLLED, DiceSource, parse, roll_command
from rules_core.errors import UserError


class PrivateRollArgs(Args):
    expression: Annotated[str, EXPR]


class RerollArgs(Args):
    id: Annotated[int, ROLL_ID]
    dice: Annotated[list[int], OptionSpec("dice", type="faces", required=True, aliases=("dadi",))]


async def private_roll(ctx: Context) -> Reply:
    text = ctx.args(PrivateRollArgs).expression
    results = roll_command(parse(text), source := ctx.dice())
    request = ctx.request
    number = await rolls_repo.add(
        ctx.conn,
        chat_key=request.chat_key,
        user_id=request.user_id,
        user_name=request.user_name,
        expression=pr.HIDDEN,
        faces=[],
        seed=None,
        result=[],
        now=ctx.now,
    )
    content = {
        "chat": request.chat_key,
        "roll": number,
        "user": request.user_id,
        "expression": text,
        "faces": list(source.consumed),
        "seed": source.seed,
    }
    salt = secrets.token_hex(16)
    commitment = await pr.add(
        ctx.conn, request.chat_key, number, request.user_id, pr.canonical(content), salt
    )
    proof: Block = [plain(ctx.t("private.commitment") + " "), code(commitment)]
    secret_blocks = results_reply(ctx, number, request.user_name, results)
    secret_blocks += [[plain(ctx.t("private.only_you", id=number))], proof]
    secret = Reply(
        command="roll private",
        blocks=secret_blocks,
        data={**roll_data(number, source.seed, results), "commitment": commitment},
    )
    return Reply(
        blocks=[[bold(request.user_name), plain(" " + ctx.t("private.made", id=number))], proof],
        data={"id": number, "private": True, "commitment": commitment},
        private=secret,
    )


async def reveal(ctx: Context) -> Reply:
    number = ctx.args(RollIdArgs).id
    found = await pr.get(ctx.conn, ctx.request.chat_key, number)
    if found is None:
        raise UserError("private.not_private", id=number)
    if found.user_id != ctx.request.user_id and not ctx.request.admin:
        raise UserError("private.not_yours", id=number)
    content = found.content()
    # The proof: what is revealed is what was committed to at roll time.
    if pr.commit(found.salt, found.payload) != found.commitment:
        raise UserError("private.tampered", id=number)
    faces = [int(f) for f in content["faces"]]
    results = roll_command(parse(str(content["expression"])), DiceSource.given(faces))
    if not found.revealed:
        await pr.reveal(
            ctx.conn,
            ctx.request.chat_key,
            number,
            expression=str(content["expression"]),
            faces=faces,
            seed=content.get("seed"),
            result=[r.as_json() for r in results],
            now=ctx.now,
        )
    record = await rolls_repo.get(ctx.conn, ctx.request.chat_key, number)
    who = record.user_name if record is not None else ctx.request.user_name
    blocks = results_reply(ctx, number, who, results)
    blocks += [
        [plain(ctx.t("private.revealed", id=number))],
        [plain(ctx.t("private.commitment") + " "), code(found.commitment)],
        [plain(ctx.t("private.salt") + " "), code(found.salt)],
        [plain(ctx.t("private.payload"))],
        [pre(found.payload)],
        [plain(ctx.t("private.check"))],
    ]
    data: dict[str, Any] = roll_data(number, content.get("seed"), results)
    data.update(commitment=found.commitment, salt=found.salt, payload=found.payload, verified=True)
    return Reply(blocks=blocks, data=data)


def die_sides(record: rolls_repo.RollRecord) -> list[int] | None:
    """The sides of each die of a /roll in the order shown, or None when what is shown is not
    what was rolled one for one (explosions and re-roll rules roll more dice than they show)."""
    results = replay(record)
    if results is None:
        return None
    for result in results:
        if any(flags >= 0 and flags & (EXPLODED | REROLLED) for _, flags in result.marked()):
            return None
    sides: list[int] = []
    shown: list[int] = []
    for result in results:
        for group in result.dice_data():
            sides += [int(group["sides"])] * len(group["faces"])
            shown += [int(f) for f in group["faces"]]
    return sides if shown == record.faces else None


async def reroll(ctx: Context) -> Reply:
    a = ctx.args(RerollArgs)
    number, positions = a.id, a.dice
    chat = ctx.request.chat_key
    record = await rolls_repo.get(ctx.conn, chat, number)
    if record is None:
        raise UserError("roll.not_found", id=number)
    if record.user_id != ctx.request.user_id and not ctx.request.admin:
        raise UserError("reroll.not_yours", id=number)
    hidden = await pr.get(ctx.conn, chat, number)
    if hidden is not None and not hidden.revealed:
        raise UserError("reroll.hidden", id=number)
    sides = die_sides(record)
    if sides is None:
        raise UserError("reroll.unsupported", id=number)
    if len(set(positions)) != len(positions) or not all(1 <= p <= len(sides) for p in positions):
        raise UserError("reroll.bad_position", id=number, n=len(sides))
    source = ctx.dice()
    faces = list(record.faces)
    for p in sorted(positions):
        faces[p - 1] = source.roll(sides[p - 1])
    results = roll_command(parse(record.expression), DiceSource.given(faces))
    new_number = await rolls_repo.add(
        ctx.conn,
        chat_key=chat,
        user_id=ctx.request.user_id,
        user_name=ctx.request.user_name,
        expression=record.expression,
        faces=faces,
        seed=source.seed,
        result=[r.as_json() for r in results],
        now=ctx.now,
    )
    await pr.add_reroll(ctx.conn, chat, new_number, number, sorted(positions))
    changes = ", ".join(f"{record.faces[p - 1]} → {faces[p - 1]}" for p in sorted(positions))
    listed = ", ".join(map(str, sorted(positions)))
    head: Block = [plain(ctx.t("reroll.of", id=number, positions=listed) + " "), code(changes)]
    data = roll_data(new_number, source.seed, results)
    data.update(rerolled_from=number, positions=sorted(positions), before=record.faces)
    return Reply(
        blocks=[head, *results_reply(ctx, new_number, ctx.request.user_name, results)], data=data
    )


SPECS = [
    CommandSpec(
        path=("roll", "private"),
        handler=private_roll,
        aliases=("privato", "segreto", "nascosto"),
        group_aliases=("tira",),  # /tira privato: the lazy registry loads this module for it
        args=PrivateRollArgs,
        examples=("/roll private 2d6 deployment", "/roll private d20 marker"),
    ),
    CommandSpec(
        path=("roll", "reveal"),
        handler=reveal,
        aliases=("rivela",),
        args=RollIdArgs,
        examples=("/roll reveal 12",),
    ),
    CommandSpec(
        path=("roll", "reroll"),
        handler=reroll,
        aliases=("ritira",),
        args=RerollArgs,
        examples=("/roll reroll 12 dice=2,5",),
    ),
]
