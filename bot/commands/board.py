"""`/game board` (`/partita tabellone`): the chat's live board. The reply is the board (what
`/game status` shows) marked `live_board`, with the board card as its picture when the chat has
pictures on: Discord and Telegram post it as a message of its own and the bot keeps that message
up to date (bot/commands/board_live.py); the console and `ask` just show it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import i18n
from bot.commands.context import Context
from bot.commands.game_view import board
from bot.commands.spec import CommandSpec
from bot.protocol import Reply, italic
from bot.session import load_game
from bot.storage.games import StoredGame

LIVE_PLATFORMS = frozenset({"discord", "telegram"})  # where a posted message can be edited
CARD = "board.png"


@dataclass(frozen=True)
class Words:
    """A reader outside any command (`game_view.Reader`): the live board's language."""

    lang: i18n.Lang

    def t(self, key: str, /, **params: Any) -> str:
        return i18n.t(self.lang, key, **params)


def board_reply(lang: i18n.Lang, game: StoredGame, *, live: bool) -> Reply:
    """The board of `game` as its own message: the same facts as `/game status`, and, when the
    bot keeps it up to date, a line saying so."""
    words = Words(lang)
    blocks = board(words, game.state)
    if live:
        key = "board.live" if game.state.status == "active" else "board.final"
        blocks.append([italic(words.t(key))])
    return Reply(
        title=game.state.name,
        blocks=blocks,
        live_board=live,
        data={"game": game.number, "live": live, "lang": lang},
    )


async def game_board(ctx: Context) -> Reply:
    from bot.images.board_card import board_facts, render_board_card
    from bot.images.render import attach

    game = await load_game(ctx)
    reply = board_reply(ctx.lang, game, live=ctx.request.platform in LIVE_PLATFORMS)
    # The board card (bot/images/board_card.py) when the chat has pictures on.
    return await attach(ctx, reply, render_board_card, board_facts(game.state, ctx.lang), CARD)


SPECS = [
    CommandSpec(
        path=("game", "board"),
        handler=game_board,
        readonly=True,
        aliases=("tabellone",),
        examples=("/game board",),
    ),
]
