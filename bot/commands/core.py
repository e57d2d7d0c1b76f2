"""/start, /help and /settings (the chat's language, pictures on or off; `/lang` is the text
form's short way to /settings lang)."""

from __future__ import annotations

from typing import Annotated, Literal

from bot import i18n
from bot.commands import discord_names, local_names
from bot.commands.args import Args
from bot.commands.context import Context, need_admin
from bot.commands.registry import Registry, UnknownCommand
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Block, Reply, bold, code, plain
from bot.storage import settings as settings_repo
from rules_core.errors import UserError
from rules_core.rules.text import fold
from rules_core.systems import SYSTEMS

# The attack command the welcome shows for the chat's game (Age of Sigmar when there is none).
ATTACKS = {
    "aos": "aos attack",
    "wm": "wm attack",
    "wow": "wow attack",
    "inf": "inf attack",
    "c5": "c5 melee",
}
DEFAULT_ATTACK = "aos"


class HelpArgs(Args):
    command: Annotated[
        str | None, OptionSpec("command", positional=True, type="text", max_length=60)
    ] = None


class LangArgs(Args):
    language: Annotated[
        Literal["it", "en"] | None,
        OptionSpec("language", positional=True, choices=("it", "en"), aliases=("lingua",)),
    ] = None


class ImagesArgs(Args):
    state: Annotated[
        Literal["on", "off"] | None,
        OptionSpec("state", positional=True, choices=("on", "off"), aliases=("stato",)),
    ] = None


def shown_names(ctx: Context) -> dict[tuple[str, ...], str]:
    """Each command's name as the user sees it: on Discord the published tree's (`/rolls show`,
    in the language of the user's Discord client, which is what its command picker shows);
    elsewhere as typed in the chat's language (`/partita nuova`).
    A command missing here is not offered on this platform (/start on Discord)."""
    registry = ctx.app.registry
    if ctx.request.platform != "discord":
        return local_names.text_names(registry, ctx.lang)  # `/partita nuova` in Italian
    return discord_names.names(registry, i18n.normalize_lang(ctx.request.locale) or ctx.lang)


def usage_lang(ctx: Context) -> i18n.Lang:
    """The language of the names a syntax line shows: Discord's picker follows the client."""
    if ctx.request.platform == "discord":
        return i18n.normalize_lang(ctx.request.locale) or ctx.lang
    return ctx.lang


def shown_example(
    registry: Registry,
    names: dict[tuple[str, ...], str],
    spec: CommandSpec,
    example: str,
    lang: i18n.Lang,
) -> str:
    """An example in the text form, under the command's shown name (`/rolls show 12`), its
    words as a reader of `lang` writes them (`/unita aggiungi Guardie modelli=5 ferite=1`)."""
    text_name = "/" + spec.name
    if (example + " ").startswith(text_name + " "):
        rest = example[len(text_name) :].strip()
        rest = local_names.example_words(registry, spec, rest, lang)
        return " ".join(filter(None, [names.get(spec.path, text_name), rest]))
    return example


async def start(ctx: Context) -> Reply:
    """The welcome: what the bot does and five first steps, each a command that works as is."""
    registry = ctx.app.registry
    names = shown_names(ctx)
    game = await ctx.active_game()
    system = game.state.system if game is not None else DEFAULT_ATTACK
    attack = registry.get(ATTACKS.get(system, ATTACKS[DEFAULT_ATTACK]))
    new_game = registry.get("game new")
    assert attack is not None and new_game is not None  # declared in this package
    choices = new_game.option("system")
    systems = ", ".join(choices.choices) if choices is not None else ""
    steps = [
        (ctx.t("start.step_game", systems=systems), new_game, "/game new aos"),
        (ctx.t("start.step_roll"), registry.get("roll"), "/roll 2d6+3"),
        (ctx.t("start.step_attack"), attack, attack.examples[0]),
        (ctx.t("start.step_rule"), registry.get("rule"), "/rule " + ctx.t("start.rule_example")),
        (ctx.t("start.step_help"), registry.get("help"), "/help"),
    ]
    shown = [
        shown_example(registry, names, spec, ex, ctx.lang) if spec else ex for _, spec, ex in steps
    ]
    blocks: list[Block] = [[plain(ctx.t("start.intro"))]]
    for number, ((what, _, _), example) in enumerate(zip(steps, shown, strict=True), start=1):
        blocks.append([plain(f"{number}. {what} "), code(example)])
    return Reply(title=ctx.t("start.title"), blocks=blocks, data={"steps": shown})


def group_help(
    ctx: Context, names: dict[tuple[str, ...], str], members: list[CommandSpec]
) -> Reply:
    """`/help aos`: every subcommand with its description and one example."""
    blocks: list[Block] = []
    # in the order of the names the reader sees (`/partita entra` before `/partita esci`)
    for spec in sorted(members, key=lambda s: fold(names[s.path])):
        blocks.append([bold(names[spec.path]), plain(" — " + ctx.t(spec.key + ".desc"))])
        if spec.examples:
            example = shown_example(
                ctx.app.registry, names, spec, spec.examples[0], usage_lang(ctx)
            )
            blocks.append([plain("   " + ctx.t("help.eg") + " "), code(example)])
    group = names[members[0].path].split()[0]
    return Reply(title=ctx.t("help.group_title", group=group), blocks=blocks)


def command_help(ctx: Context, names: dict[tuple[str, ...], str], spec: CommandSpec) -> Reply:
    """`/help roll`: syntax, description, options, examples, and the group's other commands."""
    usage = local_names.usage(names[spec.path], spec, usage_lang(ctx))
    # a command with nothing to add (`/turn`) has its title for a syntax line: shown once
    blocks: list[Block] = [[code(usage)]] if usage != names[spec.path] else []
    blocks.append([plain(ctx.t(spec.key + ".desc"))])
    local = local_names.option_names(spec, usage_lang(ctx))
    for opt in spec.options:
        # its name in the reader's language, with the short forms that abbreviate it (`a` for
        # attacks and attacchi, `r` for raffica): the other names it answers to are mostly the
        # other language's words (`colonna`, `attacchi`; `model` of `modello`), which have no
        # place on this screen
        text = ctx.t(f"{spec.key}.opt.{opt.name}")
        name = local[opt.name]
        short = [a for a in opt.aliases if len(a) < len(name) and name.startswith(a)]
        shown = i18n.readable(usage_lang(ctx), name)  # `quantità`
        shown += f" ({', '.join(short)})" if short else ""
        blocks.append([bold(shown), plain(": " + text)])
    if any(opt.type == "pairs" for opt in spec.options):  # /unit add, /unit set: stat names
        blocks.append([plain(ctx.t("help.stats"))])
        for system in SYSTEMS.values():
            codes = ["models", *(s.name for s in system.stats if not s.derived)]
            known = local_names.stat_pairs(system.id, codes, ctx.lang)
            blocks.append([bold(system.id + ": "), plain(known)])
    for example in spec.examples:
        blocks.append(
            [
                plain(ctx.t("help.example") + " "),
                code(shown_example(ctx.app.registry, names, spec, example, usage_lang(ctx))),
            ]
        )
    if len(spec.path) == 1:  # a command that is also a group: /roll with /roll show, /roll history
        group = ctx.app.registry.groups()[spec.path[0]]
        subs = [s for s in group if s is not spec and s.path in names]
        if subs:
            line: Block = [plain(ctx.t("help.also") + " ")]
            for i, sub in enumerate(subs):
                line += [plain(", ")] if i else []
                line.append(code(names[sub.path]))
            blocks.append(line)
    return Reply(title=names[spec.path], blocks=blocks)


def overview(ctx: Context, names: dict[tuple[str, ...], str]) -> Reply:
    """`/help`: every top-level command with its one-line description."""
    # Discord has no text commands: its picker asks for each option in a field of its own.
    intro = "help.intro_discord" if ctx.request.platform == "discord" else "help.intro"
    lines: list[tuple[str, Block]] = []
    for group, specs in ctx.app.registry.groups().items():
        visible = [s for s in specs if not s.hidden and s.path in names]
        if not visible:
            continue
        shown = [names[s.path].split() for s in visible]
        tops = sorted({words[0] for words in shown}, key=lambda w: (len(w), w))  # `/roll, /rolls`
        subs = sorted({" ".join(words[1:]) for words in shown if len(words) > 1})
        line: Block = [bold(", ".join(tops)), plain(" — " + ctx.t(f"help.groups.{group}"))]
        if subs:
            line.append(plain(" (" + ", ".join(subs) + ")"))
        lines.append((fold(tops[0]), line))
    # in the order of the names the reader sees: /tira after /statistiche, not where /roll is
    blocks: list[Block] = [
        [plain(ctx.t(intro))],
        *(line for _, line in sorted(lines, key=lambda x: x[0])),
    ]
    blocks.append([plain(ctx.t("help.more"))])
    return Reply(title=ctx.t("help.title"), blocks=blocks)


async def help_(ctx: Context) -> Reply:
    registry = ctx.app.registry
    names = shown_names(ctx)
    name = ctx.args(HelpArgs).command
    if not name:
        return overview(ctx, names)
    words = name.lstrip("/").lower().split()
    spec = registry.get(" ".join(words))
    if spec is None:  # a name as shown on Discord: `/help rolls show`
        wanted = "/" + " ".join(words)
        spec = next((s for s in registry if names.get(s.path) == wanted), None)
    if spec is not None and spec.path in names:
        return command_help(ctx, names, spec)
    group = registry.canonical(words[:1])[0] if words else ""
    members = [s for s in registry.groups().get(group, []) if s.path in names]
    if members and len(words) == 1:
        return group_help(ctx, names, members)
    hints = registry.suggest(words) if words else []
    if hints:
        raise UnknownCommand("help.unknown_hint", hints, name=name[:40])
    raise UserError("help.unknown", name=name[:40])


async def lang(ctx: Context) -> Reply:
    choice = ctx.args(LangArgs).language
    if choice is None:  # anyone may ask; only a chat admin changes it
        return Reply(blocks=[[plain(ctx.t("lang.current"))]])
    need_admin(ctx.request)
    new = i18n.normalize_lang(choice)
    if new is None:
        raise UserError("lang.unknown")
    await settings_repo.set_chat_lang(ctx.conn, ctx.request.chat_key, new, ctx.now)
    if ctx.request.private:  # the user's own language, wherever a chat has chosen none
        await settings_repo.set_user_lang(ctx.conn, ctx.request.platform, ctx.request.user_id, new)
    ctx.lang = new
    return Reply(blocks=[[plain(ctx.t("lang.set"))]], data={"lang": new})


async def images(ctx: Context) -> Reply:
    """/settings images on|off: whether replies in this chat carry pictures (charts, cards)."""
    state = ctx.args(ImagesArgs).state
    chat = ctx.request.chat_key
    if state is None:
        on = await settings_repo.chat_images(ctx.conn, chat)
        return Reply(
            blocks=[[plain(ctx.t("settings.images_on" if on else "settings.images_off"))]],
            data={"images": on},
        )
    need_admin(ctx.request)
    on = state == "on"
    await settings_repo.set_chat_images(ctx.conn, chat, on)
    key = "settings.images_set_on" if on else "settings.images_set_off"
    return Reply(blocks=[[plain(ctx.t(key))]], data={"images": on})


SPECS = [
    CommandSpec(
        path=("start",),
        handler=start,
        readonly=True,
        aliases=("inizia",),
        examples=("/start",),
    ),
    CommandSpec(
        path=("help",),
        handler=help_,
        readonly=True,
        aliases=("aiuto",),
        args=HelpArgs,
        examples=("/help roll", "/help aos"),
    ),
    CommandSpec(
        path=("settings", "lang"),
        handler=lang,
        aliases=("lingua",),
        group_aliases=("impostazioni",),
        args=LangArgs,
        examples=("/settings lang it",),
    ),
    CommandSpec(
        path=("settings", "images"),
        handler=images,
        aliases=("immagini",),
        group_aliases=("impostazioni",),
        args=ImagesArgs,
        examples=("/settings images off", "/settings images on"),
    ),
    # The text form's short way to /settings lang (Discord shows only /settings lang).
    CommandSpec(
        path=("lang",),
        handler=lang,
        hidden=True,
        aliases=("lingua",),
        args=LangArgs,
        examples=("/lang it",),
    ),
]
