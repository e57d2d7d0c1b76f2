"""/rule (look up a rule, ability, condition...) and /rules (a group's own imported rulebook)."""

from __future__ import annotations

from pathlib import Path

from bot.commands.context import Context
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Attachment, Block, Button, Reply, bold, code, italic, plain
from bot.rules_data import rule_index
from bot.rules_import import extract, read_local
from bot.storage import rulebooks
from rules_core.errors import UserError
from rules_core.rules.index import Hit
from rules_core.rules.models import SYSTEMS, RuleEntry

PASSAGE_CHARS = 1000
LOCAL_PLATFORMS = ("console", "ask")


def system_name(ctx: Context, system: str) -> str:
    return ctx.t(f"systems.{system}")


async def default_system(ctx: Context) -> str | None:
    """The system of this chat's active game, when it is one of the five rulebooks."""
    game = await ctx.active_game()
    return game.state.system if game is not None and game.state.system in SYSTEMS else None


def rule_button(ctx: Context, entry: RuleEntry) -> Button:
    name = entry.names.title(ctx.lang)
    return Button(label=name[:40], command=f'/rule "{name}" system={entry.system}')


def entry_blocks(ctx: Context, entry: RuleEntry) -> list[Block]:
    other = "en" if ctx.lang == "it" else "it"
    names = entry.names.it if other == "it" else entry.names.en
    aka = [*names[:2], *entry.names.abbr[:2]]
    blocks: list[Block] = []
    if aka:
        blocks.append([italic(" · ".join(aka))])
    blocks.append([plain(entry.summary.get(ctx.lang))])
    if entry.details is not None:
        blocks.append([plain(entry.details.get(ctx.lang))])
    blocks.append([plain("📖 "), plain(entry.ref)])
    return blocks


def passage_blocks(ctx: Context, hit: rulebooks.PassageHit) -> list[Block]:
    where = ctx.t(
        "rules.location_line" if hit.unit == "line" else "rules.location_offset",
        n=hit.location,
    )
    if hit.page is not None:
        where += ", " + ctx.t("rules.page", n=hit.page)
    body = hit.body if len(hit.body) <= PASSAGE_CHARS else hit.body[:PASSAGE_CHARS].rstrip() + "…"
    header: Block = [bold(hit.title)]
    if hit.heading:
        header += [plain(" › "), plain(hit.heading)]
    header.append(plain(f" ({where})"))
    return [header, [plain(body)]]


def passage_data(hit: rulebooks.PassageHit) -> dict[str, object]:
    return {
        "rulebook": hit.rulebook_id,
        "heading": hit.heading,
        "location": hit.location,
        "unit": hit.unit,
        "number": hit.number,
        "page": hit.page,
    }


async def rule(ctx: Context) -> Reply:
    query: str = ctx.opts["query"]
    system = ctx.opts["system"] or await default_system(ctx)
    hits: list[Hit] = rule_index().search(query, system=system, limit=4)
    passages = await rulebooks.search(ctx.conn, ctx.request.chat_key, query, system, limit=1)
    if not hits and not passages:
        where = system_name(ctx, system) if system else ctx.t("rules.all_games")
        raise UserError("rule.not_found", query=query[:60], where=where)
    blocks: list[Block] = []
    buttons: list[Button] = []
    data: dict[str, object] = {"query": query, "system": system}
    title = None
    if hits:
        best = hits[0].entry
        title = f"{best.names.title(ctx.lang)} — {system_name(ctx, best.system)}"
        blocks += entry_blocks(ctx, best)
        index = rule_index()
        buttons += [rule_button(ctx, index.entries[i]) for i in best.see_also if i in index.entries]
        alternatives = hits[1:4]
        if alternatives:
            blocks.append([plain(ctx.t("rule.did_you_mean"))])
            buttons += [rule_button(ctx, h.entry) for h in alternatives]
        data.update(
            id=best.id,
            names=best.names.model_dump(),
            ref=best.ref,
            kind=best.kind,
            alternatives=[h.entry.id for h in alternatives],
        )
    if passages:
        blocks.append([bold(ctx.t("rules.from_your_book"))])
        blocks += passage_blocks(ctx, passages[0])
        data["passage"] = passage_data(passages[0])
    else:
        data["passage"] = None
    # An entry both linked by the best one and among the alternatives gets one button.
    unique = list({b.command: b for b in buttons}.values())  # first place, same button
    return Reply(title=title, blocks=blocks, buttons=unique[:8], data=data)


async def rules_search(ctx: Context) -> Reply:
    query: str = ctx.opts["text"]
    system = ctx.opts["system"]
    hits = await rulebooks.search(ctx.conn, ctx.request.chat_key, query, system, limit=3)
    if not hits:
        raise UserError("rules.no_passage", query=query[:60])
    blocks: list[Block] = []
    for hit in hits:
        blocks += passage_blocks(ctx, hit)
    return Reply(
        title=ctx.t("rules.search_title"),
        blocks=blocks,
        data={"passages": [passage_data(h) for h in hits]},
    )


def uploaded(ctx: Context) -> Attachment:
    if ctx.request.files:
        return ctx.request.files[0]
    path = ctx.opts["file"]
    if path is None:
        raise UserError("rules.attach_file")
    if ctx.request.platform not in LOCAL_PLATFORMS:
        raise UserError("rules.file_option_local")  # never read the server's disk for a chat
    file = Path(path)
    return Attachment(filename=file.name, content=read_local(file))


async def rules_import(ctx: Context) -> Reply:
    system: str = ctx.opts["system"]
    attachment = uploaded(ctx)
    split = await extract(attachment.content, attachment.filename)
    book = await rulebooks.add(
        ctx.conn,
        scope=ctx.request.chat_key,
        system=system,
        title=attachment.filename[:80],
        split=split,
        imported_by=ctx.request.user_id,
        now=ctx.now,
    )
    return Reply(
        blocks=[
            [
                plain(
                    ctx.t(
                        "rules.imported",
                        title=attachment.filename[:80],
                        passages=len(split.passages),
                        headings=len(split.headings),
                        id=book,
                    )
                )
            ]
        ],
        data={"rulebook": book, "passages": len(split.passages), "headings": len(split.headings)},
    )


async def rules_list(ctx: Context) -> Reply:
    books = await rulebooks.listing(ctx.conn, ctx.request.chat_key)
    if not books:
        return Reply(blocks=[[plain(ctx.t("rules.none"))]], data={"rulebooks": []})
    blocks: list[Block] = [
        [
            code(f"#{b.id}"),
            plain(f" {b.title} · {system_name(ctx, b.system)} · "),
            plain(ctx.t("rules.passages", n=b.passages)),
            plain(" · " + ctx.t("rules.everywhere") if b.scope == rulebooks.EVERY_CHAT else ""),
        ]
        for b in books
    ]
    return Reply(
        title=ctx.t("rules.list_title"),
        blocks=blocks,
        data={"rulebooks": [b.model_dump() for b in books]},
    )


async def rules_remove(ctx: Context) -> Reply:
    book: int = ctx.opts["id"]
    if not await rulebooks.remove(ctx.conn, ctx.request.chat_key, book):
        raise UserError("rules.not_yours", id=book)
    return Reply(blocks=[[plain(ctx.t("rules.removed", id=book))]], data={"rulebook": book})


SYSTEM = OptionSpec("system", choices=SYSTEMS, aliases=("sistema", "gioco"), autocomplete="systems")

SPECS = [
    CommandSpec(
        path=("rule",),
        handler=rule,
        readonly=True,
        aliases=("regola",),
        options=(
            OptionSpec(
                "query",
                type="text",
                positional=True,
                required=True,
                max_length=200,
                autocomplete="rules",
            ),
            SYSTEM,
        ),
        examples=("/rule stealth", "/rule fuoco system=inf", "/rule 301.2"),
    ),
    CommandSpec(
        path=("rules", "search"),
        handler=rules_search,
        readonly=True,
        aliases=("cerca",),
        options=(
            OptionSpec("text", type="text", positional=True, required=True, max_length=200),
            SYSTEM,
        ),
        examples=("/rules search carica",),
    ),
    CommandSpec(
        path=("rules", "import"),
        handler=rules_import,
        admin_only=True,
        slow=True,
        aliases=("importa",),
        options=(
            OptionSpec("system", required=True, choices=SYSTEMS, aliases=("sistema", "gioco")),
            OptionSpec("file", max_length=500),
        ),
        examples=("/rules import system=wow (with the file attached)",),
    ),
    CommandSpec(
        path=("rules", "list"),
        handler=rules_list,
        readonly=True,
        aliases=("elenco",),
        examples=("/rules list",),
    ),
    CommandSpec(
        path=("rules", "remove"),
        handler=rules_remove,
        admin_only=True,
        aliases=("rimuovi",),
        options=(OptionSpec("id", type="int", positional=True, required=True, min_value=1),),
        examples=("/rules remove 3",),
    ),
]
