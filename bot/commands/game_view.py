"""How a chat's game looks in a reply: unit lines with health bars, the board, what a logged
change did, a system's notes. Pure rendering to blocks: no storage, no rule decisions."""

from __future__ import annotations

from typing import Any, Protocol

from bot import commands, i18n
from bot.commands import local_names
from bot.commands.context import Context
from bot.protocol import Block, ErrorInfo, Reply, bold, italic, plain, pre
from bot.session import name_of, stale_turn
from rules_core.game import diff
from rules_core.game.models import GameState, Unit, unit_key
from rules_core.rules.text import fold
from rules_core.systems import get_system
from rules_core.systems.base import Note

BAR = 10


class Reader(Protocol):
    """What drawing the board needs of a command's context (`Context` has it): the reader's
    language and its catalogue. The live board (bot/commands/board_live.py) draws it outside
    any command."""

    @property
    def lang(self) -> i18n.Lang: ...
    def t(self, key: str, /, **params: Any) -> str: ...


def health_bar(left: int, most: int) -> str:
    filled = max(0, min(BAR, round(BAR * left / most))) if most > 0 else 0
    return "█" * filled + "░" * (BAR - filled)


def stat_name(ctx: Reader, system: str, stat: str) -> str:
    return stat_label(ctx.lang, system, stat)


def stat_label(lang: i18n.Lang, system: str, stat: str) -> str:
    """A stat as `lang` names it (`local_names.stat_word`: `game.stat.<system>.<name>`)."""
    return local_names.stat_word(system, stat, lang)


def stats_text(ctx: Reader, system: str, stats: dict[str, int]) -> str:
    """`ferite=2  salvezza=4+`: a unit's stats as the reader types them (and as the game's
    cards print them: `GameSystem.stat_text`), in the order the game declares them (its
    cards': SPD STR MAT RAT DEF ARM), any other stat after them by name."""
    spec = get_system(system)
    order = {s.name: i for i, s in enumerate(spec.stats)}
    names = {k: stat_name(ctx, system, k) for k in stats}  # each looked up once
    keys = sorted(stats, key=lambda k: (order.get(k, len(order)), names[k]))
    return "  ".join(f"{names[k]}={spec.stat_text(k, stats[k])}" for k in keys)


def unit_line(ctx: Reader, unit: Unit, system: str | None = None) -> Block:
    """Name, health bar and numbers, models left, conditions; with `system`, its health
    numbers and the stats it wants on the board."""
    spec = get_system(system) if system else None
    left, most = spec.health(unit) if spec else (unit.wounds_left, unit.max_wounds)
    line: Block = [bold(unit.name), plain(f" {health_bar(left, most)} {left}/{most}")]
    if spec and spec.board_stats:
        shown = [
            f"{stat_name(ctx, spec.id, k)} {spec.stat_text(k, unit.stats[k])}"
            for k in spec.board_stats
            if k in unit.stats
        ]
        if shown:
            line.append(plain(" · " + " ".join(shown)))
    if unit.models > 1:
        line.append(plain(" · " + ctx.t("game.models_left", n=unit.models_left, of=unit.models)))
    if unit.destroyed:
        line.append(plain(" · " + ctx.t("game.destroyed")))
    elif spec and (status := spec.unit_status(unit)):
        line.append(plain(" · " + ctx.t(status)))
    for cond in unit.conditions:
        line.append(plain(" · "))
        text = condition_label(ctx.lang, cond.name, cond.until, cond.rounds_left, system)
        line.append(italic(text))
    return line


def condition_label(
    lang: i18n.Lang, name: str, until: str, rounds: int | None, system: str | None = None
) -> str:
    """A condition with how long it lasts: `Stordito (questo round)`. One the game knows is
    stored under its canonical name (`charged`) and shown as the reader's book names it
    (`conditions.<system>.<name>`); any other as the player typed it."""
    key = f"conditions.{system}.{name}"
    if system and i18n.has(key, lang):
        name = i18n.t(lang, key)
    if until == "permanent":
        return name
    if until == "rounds":
        return i18n.t(lang, "game.cond_rounds", name=name, n=rounds)
    return i18n.t(lang, f"game.cond_{until.replace('-', '_')}", name=name)


def phase_name(ctx: Reader, system: str, code: str) -> str:
    """A phase as the game's book names it (`phases.aos.hero`: "fase dell'eroe"), else its code."""
    key = f"phases.{system}.{code}"
    return ctx.t(key) if i18n.has(key) else code


def current_phase(ctx: Reader, state: GameState) -> str:
    phases = get_system(state.system).phases
    if not 0 <= state.phase < len(phases):
        return "-"
    return phase_name(ctx, state.system, phases[state.phase])


def board(ctx: Reader, state: GameState) -> list[Block]:
    phase = current_phase(ctx, state)
    blocks: list[Block] = [
        [plain(ctx.t("game.round_phase", round=state.round, phase=phase))],
    ]
    if state.current:
        blocks.append([plain(ctx.t("game.turn_of") + " "), bold(name_of(state, state.current))])
    blocks += board_extra(ctx, state)
    scores = state.score()
    for player in state.players:
        side = f" ({player.side})" if player.side else ""
        line: Block = [
            bold(player.name + side),
            plain(" · " + points_text(ctx.lang, state.system, scores.get(player.user_id, 0))),
        ]
        pools = state.resources.get(f"player:{player.user_id}", {})
        if pools:
            line.append(plain(" · " + pools_text(ctx, pools)))
        blocks.append(line)
        for u in state.units:
            if u.owner == player.user_id:
                blocks += board_unit(ctx, state, u)
    for u in state.units:
        if not state.player(u.owner):
            blocks += board_unit(ctx, state, u)
    return blocks


def board_extra(ctx: Reader, state: GameState) -> list[Block]:
    """Under the round and turn: what the game's own package shows of the game state in the
    reader's language (`board_extra(ctx, state)` in bot/commands/<system>: Age of Sigmar's
    fights of the combat phase and whose pick is next)."""
    if state.system not in commands.MODULE_NAMES:
        return []
    extra = getattr(commands.module(state.system), "board_extra", None)
    return list(extra(ctx, state)) if extra is not None else []


def points_text(lang: i18n.Lang, system: str, n: int) -> str:
    """A player's victory points as their game's book abbreviates them (`game.points_of.<system>`:
    WoW's Italian book keeps "VP"), else the language's own ("12 PV", "12 VP")."""
    key = f"game.points_of.{system}"
    return i18n.t(lang, key if i18n.has(key, lang) else "game.points", n=n)


def pool_name(lang: i18n.Lang, code: str) -> str:
    """A pool under its name in `lang` (`game.pool.<code>`: Age of Sigmar's command points are
    PC in Italian, CP in English), else as it was named."""
    return i18n.catalogue(lang).get(f"game.pool.{code}", code)


def pools_text(ctx: Reader, pools: dict[str, int]) -> str:
    """`PC 2, focus 3`: each pool under its name in the reader's language."""
    return ", ".join(f"{pool_name(ctx.lang, k)} {v}" for k, v in sorted(pools.items()))


def pool_code(system: str, typed: str) -> str:
    """The pool a player names, by its code or its name in either language (`pc`, `PC`, `cp`
    -> `cp`; `tenente` -> `lt`); a name no pool has is returned as typed."""
    key = fold(typed)
    for spec in get_system(system).resources:
        if key in {fold(spec.name), *(fold(pool_name(lang, spec.name)) for lang in i18n.LANGS)}:
            return spec.name
    return typed


def board_unit(ctx: Reader, state: GameState, unit: Unit) -> list[Block]:
    line: Block = [plain("  "), *unit_line(ctx, unit, state.system)]
    pools = state.resources.get(unit_key(unit.name), {})
    if pools:
        line.append(plain(" · " + pools_text(ctx, pools)))
    return [line, *under_unit(ctx, unit, state.system)]


def unit_blocks(ctx: Context, unit: Unit, system: str) -> list[Block]:
    """The unit's line, then what its game shows under it (see `under_unit`)."""
    return [unit_line(ctx, unit, system), *under_unit(ctx, unit, system)]


def under_unit(ctx: Reader, unit: Unit, system: str) -> list[Block]:
    """Under a unit's line: the system's drawing of it (a damage grid, a profile: its codes
    in the reader's words, `local_names.drawn_word`), then
    what the game's own package shows in the reader's language (`unit_extra(ctx, unit)` in
    bot/commands/<system>, e.g. WoW's Action Bar)."""
    drawing = get_system(system).draw_unit(
        unit, lambda code: local_names.drawn_word(system, code, ctx.lang)
    )
    out: list[Block] = [[pre(drawing)]] if drawing else []
    if system in commands.MODULE_NAMES:
        extra = getattr(commands.module(system), "unit_extra", None)
        if extra is not None:
            out += extra(ctx, unit)
    return out


def unit_facts(ctx: Reader, unit: Unit, system: str) -> list[Block]:
    """What `/unit show` says of a unit beyond its line and drawing, in the reader's language:
    the game package's `unit_facts(ctx, unit)` (bot/commands/<system>: WARMACHINE's model
    type)."""
    if system not in commands.MODULE_NAMES:
        return []
    facts = getattr(commands.module(system), "unit_facts", None)
    return list(facts(ctx, unit)) if facts is not None else []


def change_lines(
    ctx: Context, before: GameState | None, after: GameState | None
) -> list[tuple[str, str]]:
    """What a logged change did as (kind, text) pairs: `("damage", "Guards: 3 damage, 7/10
    left")`; a score line carries its reason."""
    reasons = _new_reasons(before, after)
    either = after or before
    system = either.system if either is not None else None
    out = []
    for key, params in diff.describe(before, after):
        if key == "game.diff.phase" and system:  # the book's name, not the code
            params = {**params, "phase": phase_name(ctx, system, str(params["phase"]))}
        if key == "game.diff.stats" and system:  # the stats by the reader's names
            params = {**params, "stats": stats_text(ctx, system, params["changed"])}
        if key == "game.diff.resource":  # `PC 0 → 1`, not the pool's code
            params = {**params, "name": pool_name(ctx.lang, str(params["name"]))}
        text = ctx.t(key, **params)
        kind = key.removeprefix("game.diff.")
        if kind == "score" and reasons:
            text += " " + ctx.t("game.diff.reason", reason=reasons.pop(0))
        out.append((kind, text))
    return out


def _new_reasons(before: GameState | None, after: GameState | None) -> list[str]:
    if before is None or after is None or len(after.score_log) <= len(before.score_log):
        return []
    return [e.reason for e in after.score_log[len(before.score_log) :] if e.reason]


def note_text(ctx: Context, key: str, params: dict[str, Any]) -> str:
    """A note in the reader's language; a counted one (a plural table, `n` in its params)
    takes the language's plural form."""
    if "n" in params and i18n.has(f"{key}.other", ctx.lang):
        return i18n.tn(ctx.lang, key, params["n"], **params)
    return ctx.t(key, **params)


def notes_blocks(ctx: Context, notes: list[Note]) -> list[Block]:
    """What a system's hook did (maintenance, damage on a grid), one line each."""
    return [[plain(note_text(ctx, key, params))] for key, params in notes]


def turn_over(ctx: Context, token: str) -> Reply | None:
    """A button pressed after the turn it was made for (`token`): the answer, changing nothing.
    None when the command came without a guard (typed) or its turn is still on."""
    if not stale_turn(ctx, token):
        return None
    # No syntax hint (as a UserError would get): the user typed nothing wrong.
    message = ctx.t("game.turn_over")
    return Reply(
        blocks=[[plain(message)]],
        ephemeral=True,
        error=ErrorInfo(code="game.turn_over", message=message),
    )
