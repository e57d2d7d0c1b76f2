"""/batch (/serie): several commands in one message, one per line, run as one transaction.

In the text form any message with several command lines is a batch already (bot/batch.py);
`/batch` names it, which Discord needs: there it opens a box to type the lines in (a slash
command's options are one line each). The dispatcher runs the lines itself (`App.handle`): this
handler only answers a `/batch` without any line, with how to use it.
"""

from __future__ import annotations

from typing import Annotated

from bot import batch
from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Reply, code, plain


class BatchArgs(Args):
    # the lines, read by the dispatcher, which runs them (bot.app)
    commands: Annotated[
        str | None,
        OptionSpec(
            "commands",
            type="lines",
            positional=True,
            max_length=batch.MAX_BYTES,
            aliases=("comandi",),
        ),
    ] = None


async def explain(ctx: Context) -> Reply:
    return Reply(
        blocks=[
            [plain(ctx.t("batch.explain", lines=batch.MAX_LINES, kb=batch.MAX_BYTES // 1024))],
            [code("/game new aos\n/unit add Liberators save=4 wounds=2\n/roll 2d6")],
        ]
    )


SPECS = [
    CommandSpec(
        path=("batch",),
        handler=explain,
        readonly=True,
        aliases=("serie",),
        args=BatchArgs,
        examples=("/batch (a command per line below)",),
    ),
]
