"""Age of Sigmar's Save and Ward as the warscroll prints them: a dice target (`4+`) or `-` (none;
a Save of "-" needs 7+, L962-964). Found walking as an Italian player: `/unita aggiungi Grots
salvezza=6+` and `salvezza=-` were "not a stat=number pair", `/armata aggiungi ... salvezza=-`
was "not a whole number", and a unit with no save was drawn "salvezza 7"."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say


async def start(app: App) -> None:
    assert (await say(app, "/partita nuova aos", lang="it")).ok


async def test_save_and_ward_are_typed_and_drawn_as_printed(app: App) -> None:
    await start(app)
    added = await say(
        app, "/unita aggiungi Grots modelli=10 ferite=1 salvezza=6+ protezione=5+", lang="it"
    )
    assert added.ok, added.error
    shown = plain.render(await say(app, "/unita mostra Grots", lang="it"))
    assert "salvezza 6+" in shown and "protezione=5+" in shown and "salvezza=6+" in shown
    none = await say(app, "/unita aggiungi Trolls modelli=3 ferite=4 salvezza=-", lang="it")
    assert none.ok, none.error
    board = plain.render(await say(app, "/partita stato", lang="it"))
    assert "Trolls" in board and "salvezza -" in board and "salvezza 7" not in board
    english = plain.render(await say(app, "/unit show Trolls", lang="en"))
    assert "save -" in english and "ward=-" in english


async def test_a_unit_without_a_typed_save_has_none_and_is_drawn_so(app: App) -> None:
    await start(app)
    assert (await say(app, "/unita aggiungi Orruks modelli=5 ferite=2", lang="it")).ok
    shown = plain.render(await say(app, "/unita mostra Orruks", lang="it"))
    assert "salvezza -" in shown and "salvezza=-" in shown and "protezione=-" in shown
    attack = await say(
        app, "/aos attacco bersaglio=Orruks attacchi=1 colpire=3 ferire=3 dadi=6,6", lang="it"
    )
    assert attack.ok, attack.error
    assert "contro Salvezza -" in plain.render(attack)


async def test_set_and_roster_take_the_printed_forms(app: App) -> None:
    await start(app)
    assert (await say(app, "/unita aggiungi Grots ferite=1 salvezza=6", lang="it")).ok
    assert (await say(app, "/unita imposta Grots salvezza=- protezione=6+", lang="it")).ok
    shown = plain.render(await say(app, "/unita mostra Grots", lang="it"))
    assert "salvezza=-" in shown and "protezione=6+" in shown
    roster = await say(app, "/armata aggiungi 3x Trolls salvezza=- ferite=4", lang="it")
    assert roster.ok, roster.error
    assert "salvezza -" in plain.render(await say(app, "/unita mostra Trolls", lang="it"))


async def test_a_dash_where_it_stands_for_nothing_is_one_clear_sentence(app: App) -> None:
    await start(app)
    refused = await say(app, "/unita aggiungi Grots ferite=- salvezza=6+", lang="it")
    assert not refused.ok and refused.error is not None
    assert refused.error.code == "game.bad_stat_value"
    assert refused.error.message.startswith("ferite non può essere '-'")
    english = await say(app, "/unit add Grots wounds=- save=6+", lang="en")
    assert english.error is not None and english.error.message.startswith("wounds can't be '-'")
