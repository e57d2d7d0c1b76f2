"""/inf orders and /inf retreat: the Order pools of the chat's game and Retreat!."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot import session
from bot.commands import game_view
from bot.commands.context import Context
from bot.commands.inf.args import OrdersArgs, RetreatArgs
from bot.commands.inf.common import GAME, SETTINGS
from bot.commands.inf.view import pools_blocks
from bot.i18n import fmt_pct, tn
from bot.protocol import Block, Reply, bold, plain
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState
from rules_core.systems.base import Note
from rules_core.systems.inf import transitions as inf_tr
from rules_core.systems.inf.system import needs_recount


def _with_notes(
    notes: list[Note], step: Callable[[GameState], tuple[GameState, list[Note]]]
) -> Callable[[GameState], GameState]:
    """A transition for apply_change that keeps the notes of its last (retried) run."""

    def run(state: GameState) -> GameState:
        new, said = step(state)
        notes[:] = said
        return new

    return run


async def orders_cmd(ctx: Context) -> Reply:
    """Show the Order pools; `recount` counts them when a count is due (the rules say when;
    done by itself at each turn start);
    `spend` spends one (or n) for unit=; `lieutenant` names a new Lieutenant."""
    game = await GAME.load(ctx)
    a = ctx.args(OrdersArgs)
    action = a.action or "show"
    state = game.state
    notes: list[Note] = []
    me = ctx.request.user_id
    title = ctx.t("inf.orders_title")
    if action == "recount":
        player = session.require_player(ctx, state)
        who = player.user_id if state.player(me) else (state.current or me)
        count = _with_notes(notes, lambda s: inf_tr.count_orders(s, who))
        change = await session.apply_change(ctx, count, "inf_orders")
        blocks, data = pools_blocks(ctx, change.after, who)
        return Reply(
            title=title,
            blocks=game_view.notes_blocks(ctx, notes) + blocks,
            data={"system": "inf", **data},
        )
    if action == "spend":
        return await spend(ctx, state, a)
    if action == "coordinate":
        return await coordinate(ctx, state, a.units)
    if action == "lieutenant":
        return await lieutenant(ctx, state, a.unit)
    if needs_recount(state):  # the first turn has no turn start: counted when first shown
        first = _with_notes(notes, inf_tr.count_first_turn)
        state = (await session.apply_change(ctx, first, "inf_orders", game=game)).after
    blocks = game_view.notes_blocks(ctx, notes)
    data_all: dict[str, Any] = {}
    for player in state.players:
        b, d = pools_blocks(ctx, state, player.user_id)
        blocks += b
        data_all[player.user_id] = d
    if not blocks:
        blocks = [[plain(ctx.t("inf.no_players"))]]
    return Reply(title=title, blocks=blocks, data={"system": "inf", "players": data_all})


async def spend(ctx: Context, state: GameState, a: OrdersArgs) -> Reply:
    n = a.n or 1
    unit_name = a.unit
    if not unit_name:
        raise UserError("inf.spend_needs_unit")
    unit = tr.find_unit(state, unit_name)
    # the owner on someone else's turn, or another player's unit: said as such (the rules then
    # refuse, for anyone, a unit whose owner's turn it is not)
    if unit.owner == ctx.request.user_id and state.current not in (None, unit.owner):
        raise UserError("perm.not_your_turn", name=session.name_of(state, state.current))
    session.require_unit_rights(ctx, state, unit, attack=False)
    notes: list[Note] = []
    spent = inf_tr.Spent()

    def run(st: GameState) -> GameState:
        nonlocal spent
        new, spent, said = inf_tr.spend_orders(st, unit.name, n, a.lt)
        notes[:] = said
        return new

    change = await session.apply_change(ctx, run, "inf_order", unit=unit.name)
    blocks, data = pools_blocks(ctx, change.after, unit.owner)
    pools = ", ".join(ctx.t(f"inf.pool_name.{p}") for p in spent.pools)
    orders = tn(ctx.lang, "inf.count.orders", n)
    head = [plain(ctx.t("inf.spent", orders=orders, unit=unit.name, pools=pools))]
    return Reply(
        title=ctx.t("inf.orders_title"),
        blocks=[*game_view.notes_blocks(ctx, notes), head, *blocks],
        data={"system": "inf", "spent": n, "from": spent.pools, **data},
    )


async def retreat_cmd(ctx: Context) -> Reply:
    a = ctx.args(RetreatArgs)
    settings = await SETTINGS.load(ctx)
    lost, total, morat = a.lost, a.total, a.morat
    if lost is not None or total is not None:
        if lost is None or total is None:
            raise UserError("inf.retreat_needs_both")
        rows = [inf_tr.retreat_row(None, lost, total, morat, settings.retreat)]
    else:
        game = await GAME.load(ctx)
        rows = inf_tr.retreat_rows(game.state, morat, settings.retreat)
        first_unit = {
            game.state.player_name(u.owner, "?"): u.name for u in reversed(game.state.units)
        }
    blocks: list[Block] = []
    sign = "≥" if settings.retreat == "ge" else ">"
    for row in rows:
        if row.player and not row.total:  # no points known: no verdict on nothing
            unit = first_unit.get(row.player, "…")
            blocks.append([plain(ctx.t("inf.retreat_no_points", who=row.player, unit=unit))])
            continue
        text = ctx.t(
            "inf.retreat_line" if row.player else "inf.retreat_line_given",  # by hand: no one
            who=row.player,
            lost=row.lost,
            total=row.total,
            share=fmt_pct(ctx.lang, row.share, 0),
            rule=f"{sign} {row.limit}%",
        )
        verdict = ctx.t("inf.retreat_yes" if row.retreat else "inf.retreat_no")
        blocks.append([plain(text + " → "), bold(verdict)])
    return Reply(
        title=ctx.t("inf.retreat_title"),
        blocks=blocks,
        data={"system": "inf", "players": [r.model_dump() for r in rows]},
    )


async def coordinate(ctx: Context, state: GameState, units_text: str | None) -> Reply:
    """A Coordinated Order: 1 Order for each of 2-4 models (rules in transitions)."""
    names = [n.strip() for n in (units_text or "").split(",") if n.strip()]
    if not names:
        raise UserError("inf.coordinate_needs_units")
    units = [tr.find_unit(state, n) for n in names]
    for unit in units:
        session.require_unit_rights(ctx, state, unit, attack=False)
    notes: list[Note] = []
    done = inf_tr.Coordinated(units=[], pools=[])

    def run(st: GameState) -> GameState:
        nonlocal done
        new, done, said = inf_tr.spend_coordinated(st, [u.name for u in units])
        notes[:] = said
        return new

    change = await session.apply_change(ctx, run, "inf_order")
    blocks, data = pools_blocks(ctx, change.after, units[0].owner)
    orders = tn(ctx.lang, "inf.count.orders", len(done.units))
    head: list[Block] = [
        [plain(ctx.t("inf.coordinated", orders=orders, units=", ".join(done.units)))],
        [
            plain(
                ctx.t(
                    "inf.coordinated_rules", b3=done.bursts[3], b4=done.bursts[4], b5=done.bursts[5]
                )
            )
        ],
    ]
    return Reply(
        title=ctx.t("inf.orders_title"),
        blocks=[*game_view.notes_blocks(ctx, notes), *head, *blocks],
        data={"system": "inf", "coordinated": done.units, "from": done.pools, **data},
    )


async def lieutenant(ctx: Context, state: GameState, unit_name: str | None) -> Reply:
    """A new Lieutenant after Loss of Lieutenant, for its Orders (rules in transitions)."""
    if not unit_name:
        raise UserError("inf.lieutenant_needs_unit")
    unit = tr.find_unit(state, unit_name)
    session.require_unit_rights(ctx, state, unit, attack=False)
    notes: list[Note] = []
    named = inf_tr.Named(unit=unit.name, pool="")

    def run(st: GameState) -> GameState:
        nonlocal named
        new, named, said = inf_tr.name_lieutenant(st, unit.name)
        notes[:] = said
        return new

    change = await session.apply_change(ctx, run, "inf_order", unit=unit.name)
    blocks, data = pools_blocks(ctx, change.after, unit.owner)
    orders = tn(ctx.lang, "inf.count.orders", named.orders)
    pool = ctx.t(f"inf.pool_name.{named.pool}")
    if named.payers:  # an army of Irregular models: their own Orders
        said = ctx.t("inf.lieutenant_named_by", unit=named.unit, payers=", ".join(named.payers))
    else:
        said = ctx.t("inf.lieutenant_named", unit=named.unit, orders=orders, pool=pool)
    head: list[Block] = [[plain(said)]]
    if named.replaced:
        head.append([plain(ctx.t("inf.lieutenant_replaced", units=", ".join(named.replaced)))])
    return Reply(
        title=ctx.t("inf.orders_title"),
        blocks=[*game_view.notes_blocks(ctx, notes), *head, *blocks],
        data={
            "system": "inf",
            "lieutenant": named.unit,
            "from": [named.pool],
            "payers": named.payers,
            **data,
        },
    )
