"""/help and /lang."""

from __future__ import annotations

from bot import i18n
from bot.commands import discord_names
from bot.commands.context import Context
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Reply, bold, code, plain
from bot.storage import settings as settings_repo
from rules_core.errors import UserError


def shown_names(ctx: Context) -> dict[tuple[str, ...], str]:
    """Each command's name as the user sees it: on Discord the published tree's (`/rolls show`,
    in the language of the user's Discord client, which is what its command picker shows)."""
    registry = ctx.app.registry
    if ctx.request.platform != "discord":
        return {s.path: "/" + s.name for s in registry}
    return discord_names.names(registry, i18n.normalize_lang(ctx.request.locale) or ctx.lang)


async def help_(ctx: Context) -> Reply:
    registry = ctx.app.registry
    names = shown_names(ctx)
    name = ctx.opts["command"]
    if name:
        spec = registry.get(name.lstrip("/"))
        if spec is None:  # a name as shown on Discord: `/help rolls show`
            wanted = "/" + " ".join(name.lstrip("/").lower().split())
            spec = next((s for s in registry if names[s.path] == wanted), None)
        if spec is None:
            members = [s for s in registry if s.path[0] == name.lstrip("/").lower()]
            if not members:
                raise UserError("help.unknown", name=name[:40])
            return Reply(
                title=ctx.t("help.group_title", group="/" + members[0].path[0]),
                blocks=[
                    [
                        code(discord_names.usage(names[s.path], s)),
                        plain(" — " + ctx.t(s.key + ".desc")),
                    ]
                    for s in members
                ],
            )
        blocks = [
            [code(discord_names.usage(names[spec.path], spec))],
            [plain(ctx.t(spec.key + ".desc"))],
        ]
        for opt in spec.options:
            text = ctx.t(f"{spec.key}.opt.{opt.name}")
            alias = f" ({', '.join(opt.aliases)})" if opt.aliases else ""
            blocks.append([bold(opt.name + alias), plain(": " + text)])
        text_name = "/" + spec.name
        examples = [
            names[spec.path] + ex[len(text_name) :]
            if (ex + " ").startswith(text_name + " ")
            else ex
            for ex in spec.examples
        ]
        blocks.extend([[plain(ctx.t("help.example") + " "), code(ex)] for ex in examples])
        return Reply(title=names[spec.path], blocks=blocks)
    blocks = [[plain(ctx.t("help.intro"))]]
    for group, specs in registry.groups().items():
        visible = [s for s in specs if not s.hidden]
        if not visible:
            continue
        desc = ctx.t(f"help.groups.{group}") if i18n.has(f"help.groups.{group}") else ""
        shown = [names[s.path].split() for s in visible]
        tops = sorted({words[0] for words in shown}, key=lambda w: (len(w), w))  # `/roll, /rolls`
        subs = sorted({" ".join(words[1:]) for words in shown if len(words) > 1})
        line = [bold(", ".join(tops))]
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
