"""What an Italian game screen still showed in English (#24 item 6, found walking a game as a
new player): the turn button's hidden option (`/turno fine turn=…`) and Age of Sigmar's
command points as `cp 0`, Infinity's orders as `orders2 0`. Now `/turno fine turno=…` (and it
still runs), `PC 0`, `ordini gruppo 2 0`."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say


async def test_the_turn_button_is_typed_in_italian_and_runs(app: App) -> None:
    chat = "console:guard-it"
    await say(app, "/partita nuova aos", chat=chat, lang="it", user="u1", name="Marco")
    reply = await say(app, "/fase prossima", chat=chat, lang="it", user="u1", name="Marco")
    [button] = [b for b in reply.buttons if b.command.startswith("/turno fine")]
    assert " turno=" in button.command and " turn=" not in button.command
    assert " turn=" not in plain.render(reply)
    pressed = await say(app, button.command, chat=chat, lang="it", user="u1", name="Marco")
    assert pressed.error is None, pressed.error
    english = await say(app, "/turn end", chat="console:guard-en", lang="en")
    assert all(" turno=" not in b.command for b in english.buttons)


async def test_command_points_by_their_name_in_each_language(app: App) -> None:
    for lang, shown, other in (("it", "PC 0", "cp 0"), ("en", "CP 0", "PC 0")):
        chat = f"console:pools-{lang}"
        await say(app, "/game new aos", chat=chat, lang=lang, user="u1", name="Marco")
        await say(app, "/turn end", chat=chat, lang=lang, user="u1")  # round 2: its pools
        text = plain.render(await say(app, "/game status", chat=chat, lang=lang, user="u1"))
        assert shown in text and other not in text, text


async def test_infinity_orders_by_their_name(app: App) -> None:
    """The game screen read `lt 0, orders 2, orders2 0, orders3 0` on an Italian chat."""
    chat = "console:pools-inf"
    await say(app, "/partita nuova inf", chat=chat, lang="it", user="u1", name="Marco")
    await say(app, "/unita aggiungi Angus cc=15 cd=12 fis=10 vol=13 arm=1 pb=3 f=1", chat=chat,
              lang="it", user="u1")  # fmt: skip
    await say(app, "/turno fine", chat=chat, lang="it", user="u1")
    text = plain.render(await say(app, "/partita stato", chat=chat, lang="it", user="u1"))
    assert "ordini 2" in text and "orders" not in text, text
