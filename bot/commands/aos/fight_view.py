"""The combat phase's lines, in the reader's words: the units that fought this phase and whose
pick is next (rules_core.systems.aos.fights), after each fight and on the board."""

from __future__ import annotations

from bot.commands.game_view import Reader
from bot.i18n import tn
from bot.protocol import Block, bold, plain
from bot.session import name_of
from rules_core.game.models import GameState
from rules_core.systems.aos import fights, turns


def fought_names(state: GameState) -> list[str]:
    """The units that fought this combat phase, by their names, each once, in order."""
    names: list[str] = []
    for key in fights.fought(state):
        unit = turns.named_unit(state, key)
        name = unit.name if unit is not None else key
        if name not in names:
            names.append(name)
    return names


def pick_blocks(ctx: Reader, state: GameState, rule: bool = True) -> list[Block]:
    """Whose pick it is next in the combat phase (nothing outside it); with `rule`, what a
    player with no eligible unit does, which the players see at the table."""
    pick = fights.next_pick(state)
    if pick is None:
        return []
    if pick.player is None:
        return [[bold(ctx.t("aos.pick_over"))]]
    name = name_of(state, pick.player)
    blocks: list[Block] = []
    if pick.group != fights.NORMAL:
        group = "first" if pick.group == fights.STRIKE_FIRST else "last"
        blocks.append([plain(ctx.t(f"aos.pick_group_{group}"))])
    if pick.passes is not None:
        key = "aos.pick_passes_later" if pick.later else "aos.pick_passes"
        blocks.append([plain(ctx.t(key, passer=name_of(state, pick.passes), name=name))])
    line: Block = [bold(ctx.t("aos.next_pick", name=name))]
    if pick.waiting:
        units = ", ".join(pick.waiting)
        line.append(plain(" " + ctx.t("aos.next_pick_waiting", name=name, units=units)))
    blocks.append(line)
    if rule:
        blocks.append([plain(ctx.t("aos.pick_rule"))])
    return blocks


def board_extra(ctx: Reader, state: GameState) -> list[Block]:
    """On the board, in the combat phase: the units that fought and whose pick is next."""
    names = fought_names(state)
    blocks: list[Block] = []
    if names:
        blocks.append([plain(tn(ctx.lang, "aos.fought_list", len(names), units=", ".join(names)))])
    return blocks + pick_blocks(ctx, state, rule=False)
