"""/aos priority, hero and command: the battle round's priority roll, the hero phase's command
points and the command abilities, kept in the game state by rules_core.systems.aos.turns."""

from __future__ import annotations

from typing import Any

from bot.commands.aos.args import CommandArgs, PriorityArgs
from bot.commands.aos.common import (
    GAME,
    SETTINGS,
    SYSTEM,
    finish_dice,
    phase_names,
    roll_expression,
)
from bot.commands.context import Context
from bot.commands.system_kit import log_roll, resolution
from bot.protocol import Block, Reply, bold, plain
from bot.session import apply_change, find_player, name_of, require_player
from bot.storage.games import StoredGame
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState
from rules_core.systems.aos import battlefield, checks, turns
from rules_core.systems.aos import transitions as aos_tr


async def priority(ctx: Context) -> Reply:
    a = ctx.args(PriorityArgs)
    game = await ctx.active_game()
    in_game = game is not None and game.state.system == SYSTEM and len(game.state.order) == 2
    if a.apply and not in_game:
        if game is None:
            raise UserError("game.none")
        if game.state.system != SYSTEM:
            raise UserError("aos.not_aos_game", system=game.state.system)
        raise UserError("aos.two_players", n=len(game.state.order))
    state = game.state if (in_game and game is not None) else None
    if a.apply and state is not None and game is not None:
        pending = aos_tr.pending_priority(state)
        if pending is not None:  # rolled already: its winner now chooses
            data = {"system": SYSTEM, "winner": pending}
            return await choose_order(ctx, game, pending, a.goes, data)
    names = ["1", "2"]
    tie_index: int | None = None
    if state is not None:
        players = turns.two_players(state)
        names = [name_of(state, u) for u in players]
        deployed = find_player(state, a.deployed).user_id if a.deployed else None
        tie = find_player(state, a.tie).user_id if a.tie else None
        state, tie_index = aos_tr.priority_tie(state, deployed, tie)
    elif a.tie:
        tie_index = {"1": 0, "2": 1}.get(a.tie.strip())
        if tie_index is None:
            raise UserError("aos.bad_tie")
    source = ctx.dice(a.dice)
    first_round = state.round <= 1 if state is not None else True
    check = checks.priority(source, tie_index, first_round)
    finish_dice(source, a.dice)
    out = check.outcome
    rolls = out["rolls"]
    blocks: list[Block] = [
        [bold(names[0]), plain(f": [{rolls[0]}]  "), bold(names[1]), plain(f": [{rolls[1]}]")]
    ]
    winner = out["winner"]
    if out["tie"]:
        rule = "aos.tie_deployed" if first_round else "aos.tie_previous"
        blocks.append([plain(ctx.t(rule))])
    if winner is None:
        blocks.append([bold(ctx.t("aos.tie_unknown"))])
    else:
        blocks.append([bold(ctx.t("aos.priority_to", name=names[winner]))])
    winner_name = names[winner] if winner is not None else None
    data = resolution(SYSTEM, check.steps, {**out, "winner_name": winner_name})
    await log_roll(ctx, source, rolls[0], data, expression=roll_expression(ctx))
    if a.apply and state is not None and game is not None:
        if winner is None:
            raise UserError("aos.tie_unknown")
        require_player(ctx, game.state)
        chooser = turns.two_players(state)[winner]
        if ctx.request.user_id == chooser:
            chosen = await choose_order(ctx, game, chooser, a.goes, data, state)
            return Reply(title=chosen.title, blocks=blocks + chosen.blocks, data=chosen.data)
        # Someone else applied the roll: it is kept, and only its winner chooses.
        await apply_change(ctx, aos_tr.priority_rolled(state, chooser), "aos_priority", game=game)
        blocks.append([plain(ctx.t("aos.priority_choose", name=names[winner]))])
        data["chooser"] = chooser
    elif state is not None and winner is not None:  # a game's roll not recorded: say how
        dice = ",".join(str(r) for r in rolls)
        blocks.append([plain(ctx.t("aos.priority_record", name=names[winner], dice=dice))])
    return Reply(title=ctx.t("aos.priority_title"), blocks=blocks, data=data)


GOES = {"first": True, "primo": True, "prima": True, "second": False, "secondo": False}
GOES.update({"seconda": False, "1": True, "2": False})


def goes_first_choice(text: str | None) -> bool:
    """goes=first|second (va=primo|secondo): whether the priority winner takes the first turn."""
    if text is None:
        return True
    value = GOES.get(text.strip().lower())
    if value is None:
        raise UserError("aos.bad_goes", value=text[:20])
    return value


async def choose_order(
    ctx: Context,
    game: StoredGame,
    winner: str,
    goes: str | None,
    data: dict[str, Any],
    state: GameState | None = None,
) -> Reply:
    """The winner of the priority roll sets the round's order and its command points."""
    base = state if state is not None else game.state
    if ctx.request.user_id != winner:
        raise UserError("aos.priority_not_yours", name=name_of(base, winner))
    goes_first = goes_first_choice(goes)
    new = aos_tr.choose_order(base, ctx.request.user_id, winner, goes_first)
    await apply_change(ctx, new, "aos_priority", game=game)
    first, second = new.order
    names = {"first": name_of(new, first), "second": name_of(new, second)}
    blocks: list[Block] = [
        [plain(ctx.t("aos.round_order", round=new.round, **names))],
        [plain(ctx.t("aos.round_cp", **names))],
    ]
    data = {
        **data,
        "order": new.order,
        "cp": {u: new.resources.get(f"player:{u}", {}).get("cp", 0) for u in new.order},
    }
    return Reply(title=ctx.t("aos.priority_title"), blocks=blocks, data=data)


async def hero(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    require_player(ctx, game.state)
    settings = await SETTINGS.load(ctx)
    new, granted = turns.grant_hero_cp(game.state, settings.hero_cp)
    await apply_change(ctx, new, "aos_hero_cp", game=game)
    blocks: list[Block] = []
    for user, amount in granted.items():
        have = new.resources.get(f"player:{user}", {}).get("cp", 0)
        key = "aos.hero_cp_gained" if amount else "aos.hero_cp_no_general"
        blocks.append([bold(name_of(new, user)), plain(": " + ctx.t(key, n=amount, total=have))])
    return Reply(
        title=ctx.t("aos.hero_title"),
        blocks=blocks,
        data={"system": SYSTEM, "granted": granted, "mode": settings.hero_cp},
    )


def command_list(ctx: Context) -> Reply:
    blocks: list[Block] = []
    for ability in turns.command_abilities().values():
        name = ability.it if ctx.lang == "it" else ability.en
        phases = ctx.t("aos.in_phase", phases=phase_names(ctx, ",".join(ability.phases)))
        blocks.append(
            [
                bold(name),
                plain(f" · {ability.cost} {ctx.t('aos.cp_short')} · {phases} · "),
                plain(ctx.t(f"aos.cmd_effect.{ability.id}")),
            ]
        )
    return Reply(
        title=ctx.t("aos.commands_title"),
        blocks=blocks,
        data={
            "system": SYSTEM,
            "commands": [a.model_dump() for a in turns.command_abilities().values()],
        },
    )


async def command(ctx: Context) -> Reply:
    a = ctx.args(CommandArgs)
    if not a.name:
        return command_list(ctx)
    ability = turns.find_command(a.name)
    game = await GAME.load(ctx)
    state = game.state
    require_player(ctx, state)
    # Whose units may issue and receive it is the rule's (turns.use_command: the user's own,
    # even for the organiser, as the CP are the user's), not the usual rights to a unit.
    unit_name = aos_tr.live(tr.find_unit(state, a.unit)).name if a.unit else None
    by = aos_tr.live(tr.find_unit(state, a.by)) if a.by else None
    issuer = by.name if by is not None else None
    settings = await SETTINGS.load(ctx)
    new, left = turns.use_command(
        state, ctx.request.user_id, ability, unit_name, settings.command_limit, issuer, a.free
    )
    await apply_change(ctx, new, "aos_command", game=game)
    name = ability.it if ctx.lang == "it" else ability.en
    line: Block = [
        bold(name),
        plain(
            " · "
            + (
                ctx.t("aos.command_free", left=left)
                if a.free
                else ctx.t("aos.command_spent", cost=ability.cost, left=left)
            )
        ),
    ]
    if unit_name:
        line.append(plain(" · " + ctx.t("aos.command_unit", unit=unit_name)))
    if issuer:
        line.append(plain(" · " + ctx.t("aos.command_issuer", unit=issuer)))
    blocks: list[Block] = [line, [plain(ctx.t(f"aos.cmd_effect.{ability.id}"))]]
    move = tr.find_unit(new, unit_name).stats.get("move") if unit_name else None
    if ability.id == "at_the_double" and move is not None:
        doubled = battlefield.at_the_double_move(move)
        blocks.append(
            [bold(ctx.t("aos.at_the_double_move", unit=unit_name, move=doubled, base=move))]
        )
    # The distances the bot can't measure: stated, never refused (the players check them).
    table = turns.table_checks(ability, by, unit_name, a.free)
    if table:
        checks_text = "; ".join(ctx.t(key, **params) for key, params in table)
        blocks.append([plain(ctx.t("aos.table_title") + " " + checks_text + ".")])
    return Reply(
        blocks=blocks,
        data={
            "system": SYSTEM,
            "command": ability.id,
            "cost": 0 if a.free else ability.cost,
            "cp": left,
            "table_checks": [key for key, _ in table],
        },
    )
