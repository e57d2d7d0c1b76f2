"""/army (/armata): a player's whole army in one message, saved rosters, BattleScribe import.

- `/army add LIST` adds every unit of a plain-text list (rules_core.game.roster's format, one
  unit per line) to the chat's game, owned by the caller: one command, one event, all or none.
- `/army save NAME [LIST]` keeps a roster under a name: the list given, else the caller's units
  in the chat's game (their profiles: stats, models, weapons; not their damage).
- `/army list`, `/army show NAME` (pasteable lines), `/army delete NAME`.
- `/army load NAME` adds a saved roster's units to the chat's game like `add`. In a campaign
  each player loads the same roster into each of its games.
- `/army import [save=NAME]` reads a BattleScribe `.ros`/`.rosz` attached to the message (the
  Discord `file` option; a path in the console), adds its units to the game and reports, per
  unit, the fields kept, unreadable or missing. Without a game in the chat it only saves.

Rosters are the caller's own, per platform (bot.storage.rosters): nothing of one player's is
visible to another. `/undo` takes back a whole `add`, `load` or `import` at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Annotated

from bot.clean_text import shorten
from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.game_view import unit_line
from bot.commands.local_names import (
    error_params,
    option_names,
    stat_word,
    system_letter,
    value_word,
)
from bot.commands.registry import MAX_COMMAND_TEXT
from bot.commands.spec import CommandSpec, OptionSpec
from bot.commands.wow import common as wow_common
from bot.protocol import Attachment, Block, Reply, bold, italic, plain, pre
from bot.roster_import import read_local, read_roster_async
from bot.session import apply_change, load_game, require_player
from bot.storage import rosters
from bot.storage.games import StoredGame
from rules_core.errors import UserError
from rules_core.game import battlescribe as bs
from rules_core.game import roster as rs
from rules_core.game import stat_names
from rules_core.game.models import GameState, Player
from rules_core.systems import SYSTEMS
from rules_core.systems.base import Note

LOCAL_PLATFORMS = ("console", "ask")
SHOWN_UNITS = 30  # unit lines in one reply; the rest is counted
SHOWN_LINE = 40  # a failing roster line's head, as the error echoes it


def explain(ctx: Context, err: rs.LineError) -> UserError:
    """A roster's failing unit as one sentence: where, which unit, and why (translated)."""
    # worded as any error is (a stat's name and the valid ones in the reader's words)
    reason = ctx.t(err.cause.key, **error_params(None, err.cause.params, ctx.lang))
    unit = shorten(err.unit, SHOWN_LINE) if err.unit else "-"
    if err.line is not None:
        return UserError("army.bad_line", line=err.line, unit=unit, reason=reason)
    return UserError("army.bad_unit", unit=unit, reason=reason)


def owner(ctx: Context) -> str:
    return rosters.owner_key(ctx.request.chat_key, ctx.request.user_id)


def parse(ctx: Context, text: str, system: str) -> rs.Roster:
    if system not in stat_names.STATS and not SYSTEMS[system].free_stats:
        raise UserError("army.no_rosters_for", system=system)
    try:
        return rs.parse_text(text, system)
    except rs.LineError as err:
        raise explain(ctx, err) from None


def note_blocks(ctx: Context, notes: list[Note]) -> list[Block]:
    """Each note as a line; a `reason` (a refusal's key and parameters, as a roster note
    carries why a weapon can't be used) is translated into it."""
    out: list[Block] = []
    for key, params in notes:
        said = dict(params)
        if isinstance(said.get("reason"), tuple):
            why_key, why = said["reason"]
            said["reason"] = ctx.t(why_key, **why)
        out.append([plain(ctx.t(key, **said))])
    return out


# The games whose roster weapons follow a chat setting kept in the game (WoW's card limit):
# the chat's settings are copied in first, as the game's own commands do.
SETTINGS_COPIERS: dict[str, Callable[[Context], Awaitable[Callable[[GameState], GameState]]]] = {
    "wow": wow_common.settings_copier,
}


async def into_game(
    ctx: Context,
    game: StoredGame,
    roster: rs.Roster,
    who: Player,
    kind: str,
    *,
    strict: bool,
) -> tuple[list[Block], list[str]]:
    """Add the roster's units for `who` as ONE change (one event: /undo takes it all back)."""
    notes: list[Note] = []
    prepare = SETTINGS_COPIERS.get(game.state.system)
    copy = await prepare(ctx) if prepare is not None else None

    def mutate(state: GameState) -> GameState:
        notes.clear()  # runs again after a conflict: keep one run's notes
        new, said = rs.add_roster(copy(state) if copy else state, roster, who, strict=strict)
        notes.extend(said)
        return new

    try:
        change = await apply_change(ctx, mutate, kind, game=game)
    except rs.LineError as err:
        raise explain(ctx, err) from None
    added = change.after.units[len(change.before.units) :]
    blocks: list[Block] = [[plain(ctx.t("army.added", n=len(added), owner=who.name))]]
    for unit in added[:SHOWN_UNITS]:
        line = unit_line(ctx, unit, change.after.system)
        weapons = len((unit.extra.get(rs.ROSTER_KEY) or {}).get("weapons", []))
        if weapons:
            line.append(plain(" · " + ctx.t("army.weapons", n=weapons)))
        blocks.append(line)
    if len(added) > SHOWN_UNITS:
        blocks.append([plain(ctx.t("army.more_units", n=len(added) - SHOWN_UNITS))])
    return blocks + note_blocks(ctx, notes), [u.name for u in added]


# --- options ---------------------------------------------------------------------------------

LIST = OptionSpec(
    "list", type="lines", positional=True, max_length=MAX_COMMAND_TEXT, aliases=("lista",)
)
NAME = OptionSpec(
    "name", type="text", positional=True, required=True, max_length=40, aliases=("nome",)
)
SYSTEM = OptionSpec("system", choices=tuple(stat_names.STATS), aliases=("sistema", "gioco"))


class AddArgs(Args):
    list: Annotated[str, replace(LIST, required=True)]


class RosterArgs(Args):
    """/army show, delete, load: a saved roster by its name."""

    name: Annotated[str, NAME]


class SaveArgs(Args):
    name: Annotated[str, NAME]
    list: Annotated[str | None, LIST] = None
    system: Annotated[str | None, SYSTEM] = None


class ImportArgs(Args):
    save: Annotated[str | None, OptionSpec("save", max_length=40, aliases=("salva",))] = None
    system: Annotated[str | None, SYSTEM] = None
    file: Annotated[str | None, OptionSpec("file", type="attachment", max_length=500)] = None


# --- handlers --------------------------------------------------------------------------------


async def add(ctx: Context) -> Reply:
    game = await load_game(ctx)
    who = require_player(ctx, game.state)
    roster = parse(ctx, ctx.args(AddArgs).list, game.state.system)
    blocks, names = await into_game(ctx, game, roster, who, "army_add", strict=True)
    return Reply(blocks=blocks, data={"system": roster.system, "units": names})


async def save(ctx: Context) -> Reply:
    a = ctx.args(SaveArgs)
    name = rosters.clean(a.name)
    game = await ctx.active_game()
    if a.list:
        system = a.system or (game.state.system if game else None)
        if system is None:
            raise UserError("army.need_system")
        roster = parse(ctx, a.list, system)
    else:
        if game is None:
            raise UserError("army.save_needs_list")
        mine = [u for u in game.state.units if u.owner == ctx.request.user_id]
        if not mine:
            raise UserError("army.no_units_of_yours")
        roster = rs.Roster(
            system=game.state.system, units=[rs.from_unit(u, game.state) for u in mine]
        )
    replaced = await rosters.save(ctx.conn, owner(ctx), name, roster, ctx.now)
    key = "army.replaced" if replaced else "army.saved"
    system_name = ctx.t(f"systems.{roster.system}")
    return Reply(
        blocks=[[plain(ctx.t(key, name=name, n=len(roster.units), system=system_name))]],
        data={"roster": name, "system": roster.system, "units": len(roster.units)},
    )


async def listing(ctx: Context) -> Reply:
    found = await rosters.listing(ctx.conn, owner(ctx))
    if not found:
        return Reply(blocks=[[plain(ctx.t("army.none"))]], data={"rosters": []})
    blocks: list[Block] = [
        [
            bold(r.name),
            plain(" · " + ctx.t(f"systems.{r.system}") + " · "),
            plain(ctx.t("army.units", n=len(r.roster.units))),
        ]
        for r in found
    ]
    return Reply(
        title=ctx.t("army.list_title"),
        blocks=blocks,
        data={
            "rosters": [
                {"name": r.name, "system": r.system, "units": len(r.roster.units)} for r in found
            ]
        },
    )


# A roster weapon's values that are words, and the catalogue table naming their codes.
VALUE_TABLES = {
    ("inf", "template"): "values.template",
    ("inf", "ammo"): "values.ammo",
    ("wow", "type"): "wow.type",
}


def reader_words(ctx: Context, system: str) -> rs.Words:
    """A roster line's codes as the reader types them (`ferite=`, `griglia=`,
    `tipo_modello=truppa`, a weapon's `attacchi=`): the stat names of the screens, `/unit add`'s
    option names, the model types of `values.kind`, the weapon fields of `army.field`."""
    unit_add = ctx.app.registry.get("unit add")
    options = option_names(unit_add, ctx.lang) if unit_add is not None else {}

    def word(what: str, code: str) -> str:
        if what == "stat":
            return stat_word(system, code, ctx.lang)
        if what == "option":
            return options.get(code, code)
        if what == "kind":
            return value_word("values.kind", code, ctx.lang)
        if what == "letter" or what == "value.loc":
            return system_letter(ctx.lang, code)
        if what.startswith("value."):
            return value_words(system, what.removeprefix("value."), code)
        return value_word(f"army.field.{system}", code, ctx.lang)

    def value_words(system: str, field: str, code: str) -> str:
        table = VALUE_TABLES.get((system, field))
        if (system, field) == ("inf", "dam") and code.upper().startswith("PH"):  # FIS+1
            return stat_word(system, "ph", ctx.lang) + code[2:]
        word = value_word(table, code, ctx.lang) if table else code
        return (
            word.lower() if system == "wow" else word
        )  # the catalogue's `Fisico` is typed `fisico`

    return word


async def show(ctx: Context) -> Reply:
    found = await rosters.get(ctx.conn, owner(ctx), ctx.args(RosterArgs).name)
    words = reader_words(ctx, found.system)
    lines = "\n".join(rs.to_text(u, words) for u in found.roster.units)
    blocks: list[Block] = [[plain(ctx.t(f"systems.{found.system}"))], [pre(lines)]]
    for unit in found.roster.units:
        if unit.kept:
            kept = ", ".join(f"{k} {v}" for k, v in unit.kept.items())
            blocks.append([bold(unit.name), plain(" · " + ctx.t("army.kept") + " "), italic(kept)])
    return Reply(
        title=found.name,
        blocks=blocks,
        data={"roster": found.name, **found.roster.model_dump()},
    )


async def delete(ctx: Context) -> Reply:
    name = await rosters.delete(ctx.conn, owner(ctx), ctx.args(RosterArgs).name)
    return Reply(blocks=[[plain(ctx.t("army.deleted", name=name))]], data={"roster": name})


async def load_roster(ctx: Context) -> Reply:
    game = await load_game(ctx)
    who = require_player(ctx, game.state)
    found = await rosters.get(ctx.conn, owner(ctx), ctx.args(RosterArgs).name)
    if found.system != game.state.system:
        raise UserError(
            "army.wrong_system",
            roster=ctx.t(f"systems.{found.system}"),
            game=ctx.t(f"systems.{game.state.system}"),
        )
    blocks, names = await into_game(ctx, game, found.roster, who, "army_load", strict=False)
    return Reply(
        title=found.name,
        blocks=blocks,
        data={"roster": found.name, "system": found.system, "units": names},
    )


def uploaded(ctx: Context) -> Attachment:
    """The roster file: attached to the message, or (console, `ask`) a path on this computer."""
    if ctx.request.files:
        return ctx.request.files[0]
    path = ctx.args(ImportArgs).file
    if path is None:
        raise UserError("army.attach_file")
    if ctx.request.platform not in LOCAL_PLATFORMS:
        raise UserError("army.file_option_local")  # never read the server's disk for a chat
    return Attachment(filename=Path(path).name, content=read_local(Path(path)))


def report_blocks(ctx: Context, imported: bs.Imported, system: str) -> list[Block]:
    """Per unit, what the import kept, could not read, or missed: the file's own names as
    printed (`Move`), the game's stats (a missing one, one out of bounds) in the reader's."""
    blocks: list[Block] = []

    def named(key: str) -> str:
        return stat_word(system, key, ctx.lang)

    for report in imported.reports:
        parts: list[str] = []
        if report.kept:
            kept = ", ".join(f"{k} {v}" for k, v in report.kept.items())
            parts.append(ctx.t("army.report_kept", fields=kept))
        if report.unreadable:
            bad = ", ".join(f"{named(k)} {v}" for k, v in report.unreadable.items())
            parts.append(ctx.t("army.report_unreadable", fields=bad))
        if report.missing:
            missing = ", ".join(named(k) for k in report.missing)
            parts.append(ctx.t("army.report_missing", fields=missing))
        parts += [ctx.t(key, unit=report.unit) for key in report.notes]
        if parts:
            blocks.append([bold(report.unit), plain(": " + "; ".join(parts))])
    if imported.skipped:
        blocks.append([plain(ctx.t("army.report_skipped", names=", ".join(imported.skipped)))])
    return blocks


async def import_(ctx: Context) -> Reply:
    a = ctx.args(ImportArgs)
    file = uploaded(ctx)
    parsed = await read_roster_async(file.content, file.filename)
    game = await ctx.active_game()
    system = a.system or (
        game.state.system if game is not None else bs.detect_system(parsed.game_system)
    )
    if system is None:
        raise UserError("army.need_system")
    if game is not None and system != game.state.system:
        raise UserError(
            "army.wrong_system",
            roster=ctx.t(f"systems.{system}"),
            game=ctx.t(f"systems.{game.state.system}"),
        )
    if system not in stat_names.STATS:
        raise UserError("army.no_rosters_for", system=system)
    try:
        imported = bs.to_roster(parsed, system)
    except UserError as err:
        if err.key == "army.other_game":
            raise UserError(
                "army.other_game",
                roster=ctx.t(f"systems.{err.params['roster']}"),
                game=ctx.t(f"systems.{system}"),
            ) from None
        raise
    blocks: list[Block] = []
    names: list[str] = []
    if game is not None:
        who = require_player(ctx, game.state)
        blocks, names = await into_game(
            ctx, game, imported.roster, who, "army_import", strict=False
        )
    elif not a.save:
        raise UserError("army.import_needs_game")
    saved = None
    if a.save:
        saved = rosters.clean(a.save)
        await rosters.save(ctx.conn, owner(ctx), saved, imported.roster, ctx.now)
        n = len(imported.roster.units)
        system_name = ctx.t(f"systems.{system}")
        blocks.append([plain(ctx.t("army.saved", name=saved, n=n, system=system_name))])
    blocks += report_blocks(ctx, imported, system)
    return Reply(
        title=(parsed.name or file.filename)[:80],
        blocks=blocks,
        data={
            "system": system,
            "units": names or [u.name for u in imported.roster.units],
            "added": bool(names),
            "saved": saved,
            "reports": [r.model_dump() for r in imported.reports],
            "skipped": imported.skipped,
        },
    )


# --- declarations ------------------------------------------------------------------------------

SPECS = [
    CommandSpec(
        path=("army", "add"),
        handler=add,
        aliases=("aggiungi",),
        group_aliases=("armata",),
        args=AddArgs,
        examples=(
            "/army add 5x Liberators move=5 save=4 wounds=2 bravery=6 "
            "| Warhammer: attacks=2 hit=3+ wound=3+ damage=1",
        ),
    ),
    CommandSpec(
        path=("army", "save"),
        handler=save,
        aliases=("salva",),
        args=SaveArgs,
        examples=("/army save Stormcast", "/army save Cygnar system=wm (a unit per line below)"),
    ),
    CommandSpec(
        path=("army", "list"),
        handler=listing,
        readonly=True,
        aliases=("elenco",),
        examples=("/army list",),
    ),
    CommandSpec(
        path=("army", "show"),
        handler=show,
        readonly=True,
        aliases=("mostra",),
        args=RosterArgs,
        examples=("/army show Stormcast",),
    ),
    CommandSpec(
        path=("army", "delete"),
        handler=delete,
        aliases=("elimina", "cancella"),
        args=RosterArgs,
        examples=("/army delete Stormcast",),
    ),
    CommandSpec(
        path=("army", "load"),
        handler=load_roster,
        aliases=("carica",),
        args=RosterArgs,
        examples=("/army load Stormcast",),
    ),
    CommandSpec(
        path=("army", "import"),
        handler=import_,
        slow=True,
        aliases=("importa",),
        args=ImportArgs,
        examples=(
            "/army import (with a .ros or .rosz file attached)",
            "/army import save=Stormcast",
        ),
    ),
]
