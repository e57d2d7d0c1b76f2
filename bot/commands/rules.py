"""/rule (look up a rule, ability, condition...) and /rules (a group's own imported rulebook)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Protocol

from bot import i18n
from bot.clean_text import shorten
from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.spec import CommandSpec, OptionSpec
from bot.protocol import Attachment, Block, Button, Reply, bold, code, italic, plain
from bot.rules_data import rule_index
from bot.rules_import import extract, read_local
from bot.storage import rulebooks
from rules_core.errors import UserError
from rules_core.rules.lookup import CANDIDATES, Answer, lookup
from rules_core.rules.models import SYSTEMS, BookRef, RuleEntry

PASSAGE_CHARS = 1000
NAMED = ("name", "number", "prefix", "phrase")  # matches by a name or a number of the entry
LOCAL_PLATFORMS = ("console", "ask")

SYSTEM = OptionSpec("system", choices=SYSTEMS, aliases=("sistema", "gioco"), autocomplete="systems")


class RuleArgs(Args):
    query: Annotated[
        str,
        OptionSpec(
            "query", type="text", positional=True, required=True, max_length=200,
            autocomplete="rules",
        ),
    ]  # fmt: skip
    system: Annotated[str | None, SYSTEM] = None


class RulesSearchArgs(Args):
    text: Annotated[
        str, OptionSpec("text", type="text", positional=True, required=True, max_length=200)
    ]
    system: Annotated[str | None, SYSTEM] = None


class RulesImportArgs(Args):
    system: Annotated[
        str, OptionSpec("system", required=True, choices=SYSTEMS, aliases=("sistema", "gioco"))
    ]
    file: Annotated[str | None, OptionSpec("file", type="attachment", max_length=500)] = None


class RulesRemoveArgs(Args):
    id: Annotated[int, OptionSpec("id", type="int", positional=True, required=True, min_value=1)]


class Speaker(Protocol):
    """What rendering an entry needs of a Context: the language and its catalogue."""

    lang: i18n.Lang

    def t(self, key: str, /, **params: Any) -> str: ...


def system_name(ctx: Speaker, system: str) -> str:
    return ctx.t(f"systems.{system}")


async def default_system(ctx: Context) -> str | None:
    """The system of this chat's active game, when it is one of the five rulebooks."""
    game = await ctx.active_game()
    return game.state.system if game is not None and game.state.system in SYSTEMS else None


def rule_button(ctx: Speaker, entry: RuleEntry, with_game: bool = False) -> Button:
    name = entry.names.title(ctx.lang)
    label = f"{name} · {short_game(ctx, entry.system)}" if with_game else name
    return Button(label=label[:60], command=f'/rule "{name}" system={entry.system}')


def short_game(ctx: Speaker, system: str) -> str:
    """'WARMACHINE Mk II' -> 'WARMACHINE': a button has little room."""
    return system_name(ctx, system).split(" ")[0] if system != "aos" else "AoS"


def numbers(values: list[str] | list[int]) -> str:
    """[46, 47] -> '46–47'; [41, 63] -> '41, 63'; rule numbers as they are."""
    if values and all(isinstance(v, int) for v in values):
        ints = [int(v) for v in values]
        runs: list[list[int]] = []
        for value in ints:
            if runs and value == runs[-1][-1] + 1:
                runs[-1].append(value)
            else:
                runs.append([value])
        return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs[:3])
    return ", ".join(str(v) for v in values[:3])


def ref_text(ctx: Speaker, ref: BookRef | None) -> str:
    """Where the printed book has it: 'p. 43, “Linea di vista”', 'section 13.3, “Sequenza
    d'attacco”', 'rule 301.2', '“Ferire un avversario”, Confrontation 3 p. 21'."""
    if ref is None:
        return ""
    parts = []
    for key, values in (("page", ref.pages), ("section", ref.sections), ("rule", ref.rules)):
        if values:
            form = f"rule.ref_{key}s" if len(values) > 1 else f"rule.ref_{key}"
            parts.append(ctx.t(form, n=numbers(values)))
    parts += [ctx.t("rule.quote", text=title) for title in ref.titles[:2]]
    if ref.c3_pages:
        parts.append(ctx.t("rule.ref_c3_pages", n=numbers(ref.c3_pages)))
    if ref.c3:
        parts.append(ctx.t("rule.ref_c3_book"))
    return ", ".join(parts)


def entry_blocks(ctx: Speaker, entry: RuleEntry) -> list[Block]:
    # The entry's other names in the reader's language only (`LdV · linea di tiro` under
    # "Linea di Vista"; `LOS · sight line` under "Line of Sight"), then its abbreviations.
    names = entry.names.it if ctx.lang == "it" else entry.names.en
    title = names[0].casefold()
    aka = list(
        dict.fromkeys(n for n in [*names[1:3], *entry.names.abbr[:2]] if n.casefold() != title)
    )
    blocks: list[Block] = []
    if aka:
        blocks.append([italic(" · ".join(aka))])
    blocks.append([plain(entry.summary.get(ctx.lang))])
    if entry.details is not None:
        blocks.append([plain(entry.details.get(ctx.lang))])
    where = ref_text(ctx, entry.ref)
    if where:
        blocks.append([plain("📖 "), plain(where)])
    return blocks


def passage_blocks(ctx: Context, hit: rulebooks.PassageHit) -> list[Block]:
    where = ctx.t(
        "rules.location_line" if hit.unit == "line" else "rules.location_offset",
        n=hit.location,
    )
    if hit.page is not None:
        where += ", " + ctx.t("rules.page", n=hit.page)
    body = shorten(hit.body, PASSAGE_CHARS + 1)
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
    a = ctx.args(RuleArgs)
    query = a.query
    chat_system = await default_system(ctx)
    answer = lookup(rule_index(), query, system=a.system, chat_system=chat_system)
    passages = await rulebooks.search(
        ctx.conn, ctx.request.chat_key, answer.query, answer.system, limit=1
    )
    if not answer.hits and not passages:
        system = answer.system
        where = system_name(ctx, system) if system else ctx.t("rules.all_games")
        raise UserError("rule.not_found", query=answer.query[:60], where=where)
    data: dict[str, object] = {"query": answer.query, "system": answer.system}
    if answer.games:
        title, blocks, buttons = games_reply(ctx, answer)
    elif answer.hits and not answer.confident:
        title, blocks, buttons = not_sure_reply(ctx, answer, chat_system)
    elif answer.hits:
        title, blocks, buttons = answer_reply(ctx, answer)
    else:
        title, blocks, buttons = None, [], []
    best = answer.best.entry if answer.best else None
    data.update(
        confident=answer.confident,
        id=best.id if best else None,
        names=best.names.model_dump() if best else None,
        ref=ref_text(ctx, best.ref) if best else None,
        kind=best.kind if best else None,
        alternatives=[h.entry.id for h in answer.hits[1:]],
        games=[
            {"system": h.entry.system, "id": h.entry.id, "ref": ref_text(ctx, h.entry.ref)}
            for h in answer.games
        ],
    )
    if passages:
        blocks.append([bold(ctx.t("rules.from_your_book"))])
        blocks += passage_blocks(ctx, passages[0])
        data["passage"] = passage_data(passages[0])
    else:
        data["passage"] = None
    # An entry both linked by the answer and among the alternatives gets one button.
    unique = list({b.command: b for b in buttons}.values())  # first place, same button
    return Reply(title=title, blocks=blocks, buttons=unique[:8], data=data)


def entry_reply(ctx: Speaker, entry: RuleEntry) -> tuple[str, list[Block], list[Button]]:
    """One entry as the answer: its names, summary, where the book has it, its see-also links."""
    title = f"{entry.names.title(ctx.lang)} — {system_name(ctx, entry.system)}"
    index = rule_index()
    links = [rule_button(ctx, index.entries[i]) for i in entry.see_also if i in index.entries]
    return title, entry_blocks(ctx, entry), links


def answer_reply(ctx: Context, answer: Answer) -> tuple[str, list[Block], list[Button]]:
    """A confident answer: the entry, its see-also links and any close alternatives."""
    assert answer.best is not None
    title, blocks, buttons = entry_reply(ctx, answer.best.entry)
    # Alternatives that also match by a name ("Did you mean"), never a typo-distance guess
    # or a stray word of a summary.
    alternatives = [h for h in answer.hits[1:4] if h.how in NAMED]
    if alternatives:
        blocks.append([plain(ctx.t("rule.did_you_mean"))])
        several = len({h.entry.system for h in answer.hits}) > 1
        buttons += [rule_button(ctx, h.entry, with_game=several) for h in alternatives]
    return title, blocks, buttons


def not_sure_reply(
    ctx: Context, answer: Answer, chat_system: str | None
) -> tuple[str, list[Block], list[Button]]:
    """Below the threshold: say so and offer the closest entries, none presented as the rule."""
    candidates = answer.hits[:CANDIDATES]
    several = len({h.entry.system for h in candidates}) > 1 or (
        chat_system is not None and answer.system != chat_system
    )
    if chat_system is not None and answer.system is None:
        line = ctx.t("rule.nothing_here", game=system_name(ctx, chat_system), query=answer.query)
    else:
        where = system_name(ctx, answer.system) if answer.system else ctx.t("rules.all_games")
        line = ctx.t("rule.not_sure", query=answer.query, where=where)
    buttons = [rule_button(ctx, h.entry, with_game=several) for h in candidates]
    return ctx.t("rule.not_sure_title"), [[plain(line)]], buttons


def games_reply(ctx: Context, answer: Answer) -> tuple[str, list[Block], list[Button]]:
    """No game chosen and several games have the rule: one line (and one button) per game."""
    blocks: list[Block] = [[plain(ctx.t("rule.games"))]]
    buttons = []
    for hit in answer.games:
        entry = hit.entry
        name = entry.names.title(ctx.lang)
        line: Block = [bold(system_name(ctx, entry.system)), plain(f": {name}")]
        where = ref_text(ctx, entry.ref)
        if where:
            line.append(plain(f" ({where})"))
        blocks.append(line)
        buttons.append(rule_button(ctx, entry, with_game=True))
    return ctx.t("rule.games_title", query=answer.query), blocks, buttons


async def rules_search(ctx: Context) -> Reply:
    a = ctx.args(RulesSearchArgs)
    query, system = a.text, a.system
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
    path = ctx.args(RulesImportArgs).file
    if path is None:
        raise UserError("rules.attach_file")
    if ctx.request.platform not in LOCAL_PLATFORMS:
        raise UserError("rules.file_option_local")  # never read the server's disk for a chat
    file = Path(path)
    return Attachment(filename=file.name, content=read_local(file))


async def rules_import(ctx: Context) -> Reply:
    system = ctx.args(RulesImportArgs).system
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
                        passages=ctx.t("rules.passages", n=len(split.passages)),
                        headings=ctx.t("rules.headings", n=len(split.headings)),
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
    book = ctx.args(RulesRemoveArgs).id
    if not await rulebooks.remove(ctx.conn, ctx.request.chat_key, book):
        raise UserError("rules.not_yours", id=book)
    return Reply(blocks=[[plain(ctx.t("rules.removed", id=book))]], data={"rulebook": book})


SPECS = [
    CommandSpec(
        path=("rule",),
        handler=rule,
        readonly=True,
        aliases=("regola",),
        args=RuleArgs,
        examples=("/rule stealth", "/rule fire system=inf", "/rule 301.2"),
    ),
    CommandSpec(
        path=("rules", "search"),
        group_aliases=("regole",),
        handler=rules_search,
        readonly=True,
        aliases=("cerca",),
        args=RulesSearchArgs,
        examples=("/rules search charge",),
    ),
    CommandSpec(
        path=("rules", "import"),
        handler=rules_import,
        admin_only=True,
        slow=True,
        aliases=("importa",),
        args=RulesImportArgs,
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
        args=RulesRemoveArgs,
        examples=("/rules remove 3",),
    ),
]
