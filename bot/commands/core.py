"""/help and /lang."""

from __future__ import annotations

from bot import i18n
from bot.commands.context import Context
from bot.commands.models import Reply, bold, code, plain
from bot.commands.spec import CommandSpec, OptionSpec
from bot.storage import settings as settings_repo
from rules_core.errors import UserError


async def help_(ctx: Context) -> Reply:
    registry = ctx.app.registry
    name = ctx.opts["command"]
    if name:
        spec = registry.get(name.lstrip("/"))
        if spec is None:
            members = [s for s in registry if s.path[0] == name.lstrip("/").lower()]
            if not members:
                raise UserError("help.unknown", name=name[:40])
            return Reply(
                title=ctx.t("help.group_title", group="/" + members[0].path[0]),
                blocks=[[code(s.usage()), plain(" — " + ctx.t(s.key + ".desc"))] for s in members],
            )
        blocks = [[code(spec.usage())], [plain(ctx.t(spec.key + ".desc"))]]
        for opt in spec.options:
            text = ctx.t(f"{spec.key}.opt.{opt.name}")
            alias = f" ({', '.join(opt.aliases)})" if opt.aliases else ""
            blocks.append([bold(opt.name + alias), plain(": " + text)])
        blocks.extend([[plain(ctx.t("help.example") + " "), code(ex)] for ex in spec.examples])
        return Reply(title="/" + spec.name, blocks=blocks)
    blocks = [[plain(ctx.t("help.intro"))]]
    for group, specs in registry.groups().items():
        visible = [s for s in specs if not s.hidden]
        if not visible:
            continue
        desc = ctx.t(f"help.groups.{group}") if i18n.has(f"help.groups.{group}") else ""
        subs = sorted({" ".join(s.path[1:]) for s in visible if len(s.path) > 1})
        line = [bold("/" + group)]
        if desc:
            line.append(plain(" — " + desc))
        if subs:
            line.append(plain(" (" + ", ".join(subs) + ")"))
        blocks.append(line)
    blocks.append([plain(ctx.t("help.more"))])
    return Reply(title=ctx.t("help.title"), blocks=blocks)


async def lang(ctx: Context) -> Reply:
    choice = ctx.opts["language"]
    if choice is None:
        return Reply(blocks=[[plain(ctx.t("lang.current", lang=ctx.lang))]])
    new = i18n.normalize_lang(choice)
    if new is None:
        raise UserError("lang.unknown")
    await settings_repo.set_chat_lang(ctx.conn, ctx.request.chat_key, new, ctx.now)
    ctx.lang = new
    return Reply(blocks=[[plain(ctx.t("lang.set"))]], data={"lang": new})


SPECS = [
    CommandSpec(
        path=("help",),
        handler=help_,
        readonly=True,
        aliases=("aiuto",),
        options=(OptionSpec("command", positional=True, type="text", max_length=60),),
        examples=("/help roll",),
    ),
    CommandSpec(
        path=("lang",),
        handler=lang,
        admin_only=True,
        aliases=("lingua",),
        options=(
            OptionSpec("language", positional=True, choices=("it", "en"), aliases=("lingua",)),
        ),
        examples=("/lang it",),
    ),
]
