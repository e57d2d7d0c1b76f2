"""Personal macros, Avrae-style: `/save NAME COMMAND` (also `/macro save`), then `/NAME` runs the
command (words after `/NAME` are added to it), as does the "repeat" button under its answer.
`/macro list`, `/macro delete NAME`; `/macro run NAME` is how Discord runs one (its command
picker only offers published commands). Each user's own, in one chat (bot.storage.macros).

Running a macro is the dispatcher's (`App.handle`: an unknown `/NAME` is looked up among the
caller's macros); these handlers only save, list and delete.
"""

from __future__ import annotations

import re
from typing import Annotated

from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Block, Reply, bold, code, plain
from bot.storage import macros as macros_repo
from rules_core.errors import UserError

NAME_RULE = re.compile(r"^[a-z0-9_]{1,32}$")  # what Telegram and Discord take as a command word
MAX_COMMAND = 300
RUN = ("macro", "run")  # run by the dispatcher (bot.app)


class MacroArgs(Args):
    name: Annotated[
        str, OptionSpec("name", positional=True, required=True, max_length=40, aliases=("nome",))
    ]


class SaveArgs(MacroArgs):
    command: Annotated[
        str,
        OptionSpec(
            "command", type="text", positional=True, required=True, max_length=MAX_COMMAND,
            aliases=("comando",),
        ),
    ]  # fmt: skip


class RunArgs(MacroArgs):
    # read by the dispatcher, which runs a macro it finds (bot.app)
    args: Annotated[
        str | None,
        OptionSpec("args", type="text", positional=True, max_length=200, aliases=("argomenti",)),
    ] = None


def macro_name(ctx: Context, raw: str) -> str:
    name = raw.strip().lstrip("/").lower()
    if not NAME_RULE.fullmatch(name):
        raise UserError("macro.bad_name")
    return name


async def save(ctx: Context) -> Reply:
    a = ctx.args(SaveArgs)
    name = macro_name(ctx, a.name)
    registry = ctx.app.registry
    if registry.canonical([name])[0] in registry.groups():
        raise UserError("macro.taken", name=name)
    command = " ".join(a.command.split())
    if not command.startswith("/"):
        command = "/" + command
    if len(command) > MAX_COMMAND:
        raise UserError("macro.too_long", limit=MAX_COMMAND)
    found = registry.find(command)  # an unknown command or a bad option is refused now
    found.options()
    if found.spec.path[0] in ("save", "macro", "batch"):
        raise UserError("macro.not_a_macro")
    replaced = await macros_repo.save(
        ctx.conn, ctx.request.chat_key, ctx.request.user_id, name, command, ctx.now
    )
    key = "macro.replaced" if replaced else "macro.saved"
    return Reply(
        blocks=[[plain(ctx.t(key, name=name) + " "), code(command)]],
        data={"name": name, "command": command, "replaced": replaced},
    )


async def listing(ctx: Context) -> Reply:
    found = await macros_repo.listing(ctx.conn, ctx.request.chat_key, ctx.request.user_id)
    if not found:
        return Reply(blocks=[[plain(ctx.t("macro.none"))]], data={"macros": []})
    blocks: list[Block] = [
        [bold(f"/{name}"), plain(" → "), code(command)] for name, command in found
    ]
    return Reply(
        title=ctx.t("macro.list_title"),
        blocks=blocks,
        data={"macros": [{"name": n, "command": c} for n, c in found]},
    )


async def delete(ctx: Context) -> Reply:
    name = macro_name(ctx, ctx.args(MacroArgs).name)
    if not await macros_repo.delete(ctx.conn, ctx.request.chat_key, ctx.request.user_id, name):
        raise UserError("macro.not_found", name=name)
    return Reply(blocks=[[plain(ctx.t("macro.deleted", name=name))]], data={"name": name})


async def run(ctx: Context) -> Reply:
    """Reached only when the dispatcher found no macro to run (it runs those itself)."""
    raise UserError("macro.not_found", name=macro_name(ctx, ctx.args(RunArgs).name))


SAVE_EXAMPLE = "/save charge /aos attack target=Orcs attacks=3 hit=3 wound=3"

SPECS = [
    CommandSpec(
        path=("save",),
        handler=save,
        aliases=("salva",),
        args=SaveArgs,
        examples=(SAVE_EXAMPLE, "/save fire /roll 2d6+3 fire"),
    ),
    CommandSpec(
        path=("macro", "save"),
        handler=save,
        aliases=("salva",),
        args=SaveArgs,
        examples=("/macro save fire /roll 2d6+3 fire",),
    ),
    CommandSpec(
        path=("macro", "list"),
        handler=listing,
        readonly=True,
        aliases=("elenco", "lista"),
        examples=("/macro list",),
    ),
    CommandSpec(
        path=("macro", "delete"),
        handler=delete,
        aliases=("elimina", "cancella"),
        args=MacroArgs,
        examples=("/macro delete fire",),
    ),
    CommandSpec(
        path=RUN,
        handler=run,
        readonly=True,
        aliases=("esegui",),
        args=RunArgs,
        examples=("/macro run fire",),
    ),
]
