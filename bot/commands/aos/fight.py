"""/aos fight (it /aos combatti): a unit picked to fight in the combat phase, recorded in the
game by rules_core.systems.aos.fights (its attacks, if any, follow with /aos attack … apply)."""

from __future__ import annotations

from bot.commands.aos.args import FightArgs
from bot.commands.aos.common import GAME, SYSTEM
from bot.commands.aos.fight_view import fought_names, pick_blocks
from bot.commands.context import Context
from bot.protocol import Block, Reply, bold
from bot.session import apply_change, require_unit_rights
from rules_core.game import transitions as tr
from rules_core.systems.aos import fights
from rules_core.systems.aos import transitions as aos_tr


async def fight(ctx: Context) -> Reply:
    a = ctx.args(FightArgs)
    game = await GAME.load(ctx)
    state = game.state
    unit = aos_tr.live(tr.find_unit(state, a.unit))
    require_unit_rights(ctx, state, unit, attack=False)  # the player picks a unit of their own
    new = fights.record_fight(state, unit, a.again)
    await apply_change(ctx, new, "aos_fight", game=game)
    key = "aos.fight_picked_again" if a.again else "aos.fight_picked"
    blocks: list[Block] = [[bold(ctx.t(key, unit=unit.name))], *pick_blocks(ctx, new)]
    pick = fights.next_pick(new)
    return Reply(
        title=ctx.t("aos.fight_title"),
        blocks=blocks,
        data={
            "system": SYSTEM,
            "unit": unit.name,
            "fought": fought_names(new),
            "next": pick.player if pick is not None else None,
        },
    )
