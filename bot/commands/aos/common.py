"""What the /aos handlers share: the chat's game and settings, dice, the roll log's name for a
roll, and writing wounds to a unit as one game event that /undo reverts."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import get_args

from bot import i18n
from bot.commands.aos.fight_view import pick_blocks
from bot.commands.context import Context
from bot.commands.game_view import unit_blocks
from bot.commands.system_kit import SystemGame, SystemSettings
from bot.protocol import Block, Reply, plain
from bot.session import apply_change, require_unit_rights
from bot.storage.games import StoredGame
from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import Unit
from rules_core.rules.text import fold
from rules_core.systems.aos import transitions as aos_tr
from rules_core.systems.aos import turns
from rules_core.systems.aos.models import Settings

SYSTEM = "aos"
Handler = Callable[[Context], Awaitable[Reply]]

# The settings' Italian option names and values, as typed in an Italian chat.
SETTING_NAMES_IT = {
    "save_cap": "limite_salvezza",
    "hero_cp": "pc_eroi",
    "random_attacks": "attacchi_casuali",
    "command_limit": "limite_comandi",
}
SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    name: get_args(field.annotation) for name, field in Settings.model_fields.items()
}
SETTING_VALUES_IT = {
    "con_impatto": "with_rend",
    "solo_bonus": "bonus_only",
    "ognuno": "each",
    "proprio": "own",
    "propria": "own",
    "per_modello": "per_model",
    "per_unita": "per_unit",
    "per_giocatore": "per_player",
    "condiviso": "shared",
}


def update_settings(current: Settings, changes: dict[str, str]) -> Settings:
    """The settings with the typed changes, English or Italian values; an unknown value is
    refused with the valid ones."""
    fields: dict[str, str] = {}
    for name, text in changes.items():
        typed = fold(text.strip()).replace(" ", "_")
        value = SETTING_VALUES_IT.get(typed, typed)
        allowed = get_args(Settings.model_fields[name].annotation)
        if value not in allowed:
            italian = {v: k for k, v in reversed(SETTING_VALUES_IT.items())}
            valid = " | ".join(f"{a} ({italian[a]})" for a in allowed)
            raise UserError("aos.bad_setting", option=name, value=text[:20], valid=valid)
        fields[name] = value
    return current.model_copy(update=fields)


SETTINGS = SystemSettings(
    SYSTEM,
    Settings,
    tuple(Settings.model_fields),
    update_settings,
    "aos.settings_admin",
    per_value=True,
)

GAME = SystemGame(SYSTEM, "aos.not_aos_game", "aos.apply_needs_target")


def roll_expression(ctx: Context) -> str:
    """What the roll log names an AoS roll by: the command's first 300 characters."""
    return (ctx.request.text or "/" + ctx.spec.name)[:300]


def finish_dice(source: DiceSource, given: list[int] | None) -> None:
    """Faces the players gave must all be used: a left-over die means a mistake."""
    if given:
        source.check_exhausted()


async def optional_unit(ctx: Context) -> tuple[StoredGame | None, Unit | None]:
    """The game and its `target=` unit (not a destroyed one), or (None, None)."""
    found = await GAME.target(ctx, find=lambda st, name: aos_tr.live(tr.find_unit(st, name)))
    return found if found is not None else (None, None)


async def apply_damage(
    ctx: Context,
    game: StoredGame | None,
    unit: Unit | None,
    amount: int,
    kind: str,
    by: Unit | None = None,
    shot: aos_tr.Shot | None = None,
) -> list[Block]:
    """Write `amount` wounds to the unit as one game event (/undo reverts it), with the game's
    usual rights, or those of the player whose own unit `by` inflicted them (who may not
    shoot now, or has shot: see aos_tr.attack_wounds, which counts the `shot`)."""
    if game is None or unit is None:
        raise UserError("aos.apply_needs_target")
    if not aos_tr.own_attack(game.state, by, ctx.request.user_id):
        require_unit_rights(ctx, game.state, unit, attack=True)
    name, shooter = unit.name, (by.name if by is not None else None)
    change = await apply_change(
        ctx, lambda st: aos_tr.attack_wounds(st, name, amount, shooter, shot), kind, game=game
    )
    after = tr.find_unit(change.after, name)
    blocks: list[Block] = [
        [plain(ctx.t("aos.applied", n=amount) + " ")],
        *unit_blocks(ctx, after, change.after.system),
    ]
    if by is not None:  # an attack of a fight: whose pick is next (nothing outside combat)
        blocks += pick_blocks(ctx, change.after)
    return blocks


def counted(ctx: Context, key: str, n: int, **params: object) -> str:
    """A message with a count, in the plural form the language gives `n` (Babel, CLDR)."""
    return i18n.tn(ctx.lang, key, n, **params)


def command_name(ctx: Context, command_id: str) -> str:
    """A command ability by the name the reader's rulebook gives it."""
    ability = turns.command_abilities().get(command_id)
    if ability is None:
        return command_id
    return ability.it if ctx.lang == "it" else ability.en


def phase_names(ctx: Context, ids: str) -> str:
    return i18n.alternatives(ctx.lang, [ctx.t(f"aos.phase.{p}") for p in ids.split(",") if p])


def on6_name(ctx: Context, usage: str) -> str:
    """`mortal:N` -> `mortali:N` in Italian: an unmodified-6 effect as the reader types it."""
    kind, _, amount = usage.partition(":")
    return ctx.t(f"aos.on6.{kind}") + (":" + amount if amount else "")


def localized_error(ctx: Context, err: UserError) -> UserError:
    """rules_core names commands, phases and options by id: the reader's words instead."""
    params = dict(err.params)
    if isinstance(params.get("command"), str):
        params["command"] = command_name(ctx, params["command"])
    for key in ("phase", "phases"):
        if isinstance(params.get(key), str):
            params[key] = phase_names(ctx, params[key])
    if isinstance(params.get("option"), str):
        params["option"] = ctx.t(f"aos.option.{params['option']}")
    if err.key == "aos.bad_on6" and isinstance(params.get("valid"), str):
        params["valid"] = ", ".join(on6_name(ctx, v) for v in params["valid"].split(", "))
    key = err.key
    if key == "aos.unknown_command" and isinstance(params.get("valid"), str):
        params["valid"] = ", ".join(command_name(ctx, c) for c in params["valid"].split(","))
        like = _closest_command(str(params.get("name", "")))
        if like is not None:  # "all-out defense": All-out Defence, in the reader's words
            key, params["like"] = "aos.unknown_command_like", command_name(ctx, like)
    return UserError(key, **params)


def _closest_command(typed: str) -> str | None:
    """The command ability whose English or Italian name is nearest to `typed` (a US spelling,
    a typo), as the bot's other "did you mean" finds it."""
    from bot.commands.registry import closest

    def norm(text: str) -> str:
        return " ".join(fold(text).replace("-", " ").replace("_", " ").replace("'", " ").split())

    names = {
        norm(name): ability.id
        for ability in turns.command_abilities().values()
        for name in (ability.en, ability.it)
    }
    near = closest(norm(typed), names)
    return names[near[0]] if near else None


def localized(handler: Handler) -> Handler:
    """The handler, its errors in the reader's words (see localized_error)."""

    @functools.wraps(handler)
    async def run(ctx: Context) -> Reply:
        try:
            return await handler(ctx)
        except UserError as err:
            if not err.key.startswith("aos."):
                raise
            raise localized_error(ctx, err) from err

    return run
