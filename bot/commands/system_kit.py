"""What the game-system command modules (/aos, /wm, /wow, /c5, /inf) share: reading the chat's
game and its named units with each system's own error keys, per-chat settings and their
`/<system> settings` command, the roll log, and how dice, modifiers and chances are printed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from bot.commands.args import option_value
from bot.commands.context import Context
from bot.commands.local_names import choice_word, option_names
from bot.protocol import Block, Reply, Span, bold, code, plain
from bot.session import is_manager, load_game
from bot.storage import rolls
from bot.storage import settings as settings_repo
from bot.storage.games import StoredGame
from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit


def option_named(ctx: Context, option: str) -> Any:
    """An option the shared helpers read for whichever command they serve (`target=`, `apply`,
    a setting, /compare's `attacker=`), from the command's typed options; None when it has no
    such option."""
    cls = ctx.spec.args
    return None if cls is None else option_value(ctx.args(cls), option)


def _name(ctx: Context, option: str) -> str | None:
    value = option_named(ctx, option)
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class SystemGame:
    """How every game system reads the chat's game and its named units, with its own error keys."""

    system: str
    not_this_system: str  # error key: the chat's game belongs to another system
    apply_needs_target: str  # error key: `apply` without `target=`

    async def load(self, ctx: Context) -> StoredGame:
        """The chat's active game, refused when it is another system's."""
        game = await load_game(ctx)
        if game.state.system != self.system:
            raise UserError(self.not_this_system, system=game.state.system)
        return game

    async def target(
        self, ctx: Context, find: Callable[[GameState, str], Unit] = tr.find_unit
    ) -> tuple[StoredGame, Unit] | None:
        """The game and its `target=` unit (found by `find`); None when no target is named."""
        name = _name(ctx, "target")
        if not name:
            if option_named(ctx, "apply"):
                raise UserError(self.apply_needs_target)
            return None
        game = await self.load(ctx)
        return game, find(game.state, name)

    async def units(self, ctx: Context) -> tuple[StoredGame | None, Unit | None, Unit | None]:
        """The game and the `attacker=` / `target=` units, when named."""
        attacker_name = _name(ctx, "attacker")
        target_name = _name(ctx, "target")
        if option_named(ctx, "apply") and not target_name:
            raise UserError(self.apply_needs_target)
        if not attacker_name and not target_name:
            return None, None, None
        game = await self.load(ctx)
        attacker = tr.find_unit(game.state, attacker_name) if attacker_name else None
        target = tr.find_unit(game.state, target_name) if target_name else None
        return game, attacker, target


M = TypeVar("M", bound=BaseModel)
# After a settings change is saved: the context, the chat's game, the new settings, the changes.
SettingsHook = Callable[[Context, StoredGame | None, M, dict[str, str]], Awaitable[None]]


@dataclass(frozen=True)
class SystemSettings(Generic[M]):
    """A system's per-chat settings and `/<system> settings`, stored and shown one way for all."""

    system: str
    model: type[M]
    names: tuple[str, ...]  # the options of /<system> settings, in the order changes apply
    update: Callable[[M, dict[str, str]], M]
    refusal: str  # error key: a change by someone neither chat admin nor organiser
    # How the reply reads. True (aos, wow): a text per value, "(default)" on the default, the
    # changed names in `data`. False (wm, c5, inf): "saved" first after a change, a text per
    # setting, the default shown where the value differs.
    per_value: bool
    on_change: SettingsHook[M] | None = None  # after a saved change (e.g. copy it into the game)

    def key(self, ctx: Context) -> str:
        """The chat's key in the kv store (not in the game: /undo leaves settings alone)."""
        return f"settings:{self.system}:{ctx.request.chat_key}"

    async def load(self, ctx: Context) -> M:
        """The chat's settings, or the defaults when none (or no longer valid ones) are stored."""
        return await settings_repo.kv_model(ctx.conn, self.key(ctx), self.model)

    async def command(self, ctx: Context) -> Reply:
        """`/<system> settings [name=value…]`: a chat admin or the organiser changes, all see."""
        current = await self.load(ctx)
        given = {k: option_named(ctx, k) for k in self.names}
        changes = {k: str(v) for k, v in given.items() if v is not None}
        if changes:
            game = await ctx.active_game()
            if not (ctx.request.admin or (game is not None and is_manager(ctx, game.state))):
                raise UserError(self.refusal)
            current = self.update(current, changes)
            await settings_repo.kv_set(ctx.conn, self.key(ctx), current.model_dump_json())
            if self.on_change is not None:
                await self.on_change(ctx, game, current, changes)
        values = current.model_dump()
        blocks = [self.line(ctx, name, value) for name, value in values.items()]
        data: dict[str, Any] = {"system": self.system, "settings": values}
        if self.per_value:
            data["changed"] = sorted(changes)
        elif changes:
            blocks.insert(0, [bold(ctx.t(f"{self.system}.settings_saved"))])
        return Reply(title=ctx.t(f"{self.system}.settings_title"), blocks=blocks, data=data)

    def line(self, ctx: Context, name: str, value: Any) -> Block:
        """One setting's line: `name=value`, what it means, and its default (see per_value)."""
        default = self.model.model_fields[name].default
        line: Block = [code(self.typed(ctx, name, value))]
        if self.per_value:
            mark = " " + ctx.t(f"{self.system}.setting_default") if value == default else ""
            line += [plain(" · " + ctx.t(f"{self.system}.setting.{name}.{value}")), plain(mark)]
            return line
        line.append(plain(" · " + ctx.t(f"{self.system}.setting.{name}")))
        if value != default:
            shown = self.typed(ctx, name, default).partition("=")[2]
            line.append(plain(" " + ctx.t(f"{self.system}.setting_default", default=shown)))
        return line

    def typed(self, ctx: Context, name: str, value: Any) -> str:
        """`name=value` as the reader types it to change it: `iniziativa=confronto`."""
        spec = ctx.app.registry.get(f"{self.system} settings")
        opt = spec.option(name) if spec is not None else None
        if spec is None or opt is None:
            return f"{name}={value}"
        word = choice_word(opt, str(value), ctx.lang) if str(value) in opt.choices else value
        return f"{option_names(spec, ctx.lang)[opt.name]}={word}"


async def log_roll(
    ctx: Context,
    source: DiceSource,
    total: int,
    data: dict[str, Any],
    *,
    expression: str | None = None,
) -> int:
    """A system's dice go to the roll log like any roll (/roll show, campaign journals)."""
    return await rolls.add(
        ctx.conn,
        chat_key=ctx.request.chat_key,
        user_id=ctx.request.user_id,
        user_name=ctx.request.user_name,
        expression=expression or ctx.request.text or "/" + ctx.spec.name,
        faces=list(source.consumed),
        seed=source.seed,
        result=[{"total": total, **data}],
        now=ctx.now,
    )


def resolution(system: str, steps: Iterable[BaseModel], outcome: dict[str, Any]) -> dict[str, Any]:
    """A resolved roll's `data`, alike in every system: its steps and its outcome."""
    return {"system": system, "steps": [s.model_dump() for s in steps], "outcome": outcome}


def option_or_stat(value: int | None, unit: Unit | None, stat: str) -> int | None:
    """An option's value, else the named unit's stat (None when neither is there)."""
    if value is None and unit is not None:
        value = unit.stats.get(stat)
    return None if value is None else int(value)


def signed(value: int) -> str:
    """A modifier as the game systems print it: `+2`, `+0`, `−1` (a true minus sign)."""
    return f"+{value}" if value >= 0 else f"−{-value}"


def dice_text(dice: Iterable[int]) -> str:
    """Rolled faces as the game systems print them: `[3, 5, 6]`."""
    return "[" + ", ".join(str(f) for f in dice) + "]"


def dice_spans(shown: list[Span]) -> list[Span]:
    """Styled faces (a struck-out reroll, its bold replacement) the same way: `[3, 5, 6]`."""
    out: list[Span] = [plain("[")]
    for i, span in enumerate(shown):
        if i:
            out.append(plain(", "))
        out.append(span)
    out.append(plain("]"))
    return out
