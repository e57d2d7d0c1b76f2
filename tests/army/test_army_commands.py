"""/army through the registry on a real SQLite file: a whole army in one message, saved
rosters per player and platform, loading in a campaign, BattleScribe import, bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app import App
from bot.protocol import Reply, Request
from bot.render import plain
from tests.army.battlescribe_files import GAMES, malformed, ros, rosz
from tests.helpers import say

CHAT = "telegram:-700"
TEN_UNITS = """/army add
# Hammers of Sigmar: ten units, one message
Lord-Celestant move=5 save=3 wounds=6 bravery=9 | Runeblade: attacks=4 hit=3+ wound=3+ rend=-1
5x Liberators save=4 wounds=2 bravery=6 | Warhammer: attacks=2 hit=3+ wound=3+ damage=1
5 x Liberatori salvezza=4+ ferite=2 coraggio=6 movimento=5"
Judicators x5 save=4 wounds=2 | Skybolt Bow: range=24 attacks=1 hit=3+ wound=3+ rend=-1 damage=1
3 Prosecutors save=4 wounds=2 move=12
«Knight-Questor» save=3 wounds=5
Retributors models=5 save=4 wounds=3 | Lightning Hammer: attacks=2 hit=3+ wound=3+ rend=-1 damage=2
Sequitors x5 save=4 wounds=2; Castigators x3 save=4 wounds=2
Lord-Arcanum save=4 wounds=5 general=1
"""


async def ann(app: App, text: str, **kw: Any) -> Reply:
    return await say(app, text, user="1", name="Ann", chat=CHAT, **kw)


async def bob(app: App, text: str, **kw: Any) -> Reply:
    return await say(app, text, user="2", name="Bob", chat=CHAT, **kw)


def ok(reply: Reply) -> Reply:
    assert reply.error is None, plain.render(reply)
    return reply


async def snapshot(app: App, chat: str = CHAT) -> tuple[Any, int]:
    """The game's state and how many events it has: what bad input must leave alone."""
    status = await say(app, "/game status", chat=chat)
    log = await say(app, "/log 50", chat=chat)
    assert status.data and log.data
    return status.data["state"], len(log.data["events"])


async def test_ten_units_in_one_message_are_one_change(app: App) -> None:
    ok(await ann(app, "/game new aos"))
    reply = ok(await ann(app, TEN_UNITS))
    assert reply.data is not None and len(reply.data["units"]) == 10
    state, _ = await snapshot(app)
    names = [u["name"] for u in state["units"]]
    assert names[:3] == ["Lord-Celestant", "Liberators", "Liberatori"]
    assert "Knight-Questor" in names and "Castigators" in names
    assert all(u["owner"] == "1" for u in state["units"])
    liberatori = state["units"][2]
    assert liberatori["models"] == 5 and liberatori["stats"]["save"] == 4
    log = ok(await ann(app, "/log"))
    assert log.data is not None
    assert [e["kind"] for e in log.data["events"]].count("army_add") == 1
    # The stored weapon drives the attack: attacker= and weapon= take every value.
    attack = ok(
        await ann(
            app, "/aos attack attacker=Liberators weapon=Warhammer save=4 dice=" + "6," * 29 + "6"
        )
    )
    assert attack.data is not None
    ok(await ann(app, "/undo"))
    state, _ = await snapshot(app)
    assert state["units"] == []  # the whole army goes back at once


async def test_a_failing_line_adds_nothing_and_says_where(app: App) -> None:
    ok(await ann(app, "/game new aos"))
    ok(await ann(app, "/army add Guards save=4"))
    before = await snapshot(app)
    text = "/army add\nLiberators x5 save=4\nJudicators x5 salvezza=tanta\nProsecutors save=4"
    reply = await ann(app, text, lang="it")
    assert reply.error is not None and reply.error.code == "army.bad_line"
    message = plain.render(reply)
    assert "Riga 2 della lista (Judicators x5 salvezza=tanta)" in message
    assert "salvezza deve essere un numero intero" in message and "Sintassi" in message
    assert await snapshot(app) == before


async def test_only_players_add_and_rosters_need_a_game(app: App) -> None:
    reply = await ann(app, "/army add Guards save=4")
    assert reply.error is not None and reply.error.code == "game.none"
    ok(await ann(app, "/game new aos"))
    reply = await bob(app, "/army add Guards save=4")
    assert reply.error is not None and reply.error.code == "perm.players_only"


async def test_save_list_show_load_delete(app: App) -> None:
    ok(await ann(app, "/game new aos"))
    ok(await ann(app, TEN_UNITS))
    ok(await ann(app, "/army save Hammers"))
    listing = ok(await ann(app, "/army list"))
    assert listing.data == {"rosters": [{"name": "Hammers", "system": "aos", "units": 10}]}
    shown = ok(await ann(app, "/armata mostra hamm"))
    text = plain.render(shown)
    assert "5x Liberators save=4 wounds=2 bravery=6 | Warhammer:" in text
    ok(await ann(app, "/game end"))
    ok(await ann(app, "/game new aos"))
    ok(await bob(app, "/game join"))
    loaded = ok(await ann(app, "/army load Hammers"))
    assert loaded.data is not None and len(loaded.data["units"]) == 10
    state, _ = await snapshot(app)
    assert len(state["units"]) == 10
    assert state["units"][1]["extra"]["aos"]["weapons"][0]["name"] == "Warhammer"
    # Bob has no roster of that name: Ann's rosters are hers alone.
    reply = await bob(app, "/army load Hammers")
    assert reply.error is not None and reply.error.code == "army.no_roster"
    ok(await ann(app, "/army delete Hammers"))
    assert ok(await ann(app, "/army list")).data == {"rosters": []}


async def test_save_a_list_without_a_game_then_load_it_elsewhere(app: App) -> None:
    text = "/army save Cygnar system=wm\nStormblades x6 spd=5 def=12 | Glaive: pow=5 p+s=11"
    ok(await say(app, text, user="42", chat="telegram:111"))
    # Same platform, another chat: the roster follows its owner.
    ok(await say(app, "/game new wm", user="42", chat="telegram:222"))
    ok(await say(app, "/army load cyg", user="42", chat="telegram:222"))
    # The same user id on another platform is another person.
    ok(await say(app, "/game new wm", user="42", chat="discord:333"))
    reply = await say(app, "/army load Cygnar", user="42", chat="discord:333")
    assert reply.error is not None and reply.error.code == "army.no_roster"


async def test_a_roster_for_another_game_is_not_loaded(app: App) -> None:
    ok(await ann(app, "/army save Cygnar system=wm\nStormblades x6 spd=5"))
    ok(await ann(app, "/game new aos"))
    reply = await ann(app, "/army load Cygnar")
    assert reply.error is not None and reply.error.code == "army.wrong_system"


async def test_a_campaign_reuses_each_players_roster_in_every_game(app: App) -> None:
    ok(await ann(app, "/army save Mine system=aos\nGuards x5 save=4 wounds=1"))
    ok(await bob(app, "/army save Mine system=aos\nOrcs x10 save=6 wounds=1"))
    ok(await ann(app, "/campaign new Realmgate"))
    ok(await bob(app, "/campaign join"))
    for _ in range(2):
        ok(await ann(app, "/game new aos"))
        ok(await bob(app, "/game join"))
        ok(await ann(app, "/army load Mine"))
        ok(await bob(app, "/army load Mine"))
        state, _ = await snapshot(app)
        owners = {u["name"]: u["owner"] for u in state["units"]}
        assert owners == {"Guards": "1", "Orcs": "2"}
        ok(await ann(app, "/game end"))
    journal = plain.render(ok(await ann(app, "/campaign journal")))
    assert journal.count("/army load Mine") == 4  # two players, two games


@pytest.mark.parametrize("game", GAMES)
async def test_import_each_game_from_a_file(app: App, tmp_path: Path, game: str) -> None:
    path = tmp_path / f"{game}.rosz"
    path.write_bytes(rosz((f"{game}.ros", ros(game))))
    ok(await ann(app, f"/game new {game}"))
    reply = ok(await ann(app, f"/army import file={path}"))
    assert reply.data is not None and reply.data["added"] and reply.data["units"]
    state, _ = await snapshot(app)
    assert [u["name"] for u in state["units"]] == reply.data["units"]
    first = state["units"][0]
    assert first["extra"]["roster"]["weapons"] or game == "c5"


async def test_import_reports_and_saves(app: App, tmp_path: Path) -> None:
    path = tmp_path / "army.ros"
    path.write_bytes(ros("aos"))
    ok(await ann(app, "/game new aos"))
    reply = ok(await ann(app, f"/army import file={path} save=Hammers", lang="it"))
    text = plain.render(reply)
    # the file's own names as printed (Move), the game's stats in the reader's words
    assert "Knight-Incantor: illeggibili: Move *; mancanti: movimento, salvezza" in text
    assert "Liberators: conservati (non usati da questo gioco): Control 1" in text
    assert "Saltate (senza caratteristiche): Celestian Vortex." in text
    assert "Elenco Hammers salvato" in text
    assert ok(await ann(app, "/army list")).data == {
        "rosters": [{"name": "Hammers", "system": "aos", "units": 3}]
    }


async def test_an_imported_warmachine_list_knows_its_model_types(app: App, tmp_path: Path) -> None:
    """A Mk II list as BattleScribe exports it (categories Warcaster, Warjack, Solo, Unit): each
    model's type is shown and saved as if typed with kind=; a stat the data leaves out is named
    as the reader's screens name it (CMD, not cmd)."""
    path = tmp_path / "cygnar.ros"
    path.write_bytes(ros("wm_mk2"))
    ok(await ann(app, "/game new wm"))
    reply = ok(await ann(app, f"/army import file={path} save=Cygnar", lang="it"))
    assert "Lancer: mancanti: CMD" in plain.render(reply)
    for name, kind in (("Lancer", "warjack"), ("Journeyman Warcaster", "solitario")):
        shown = plain.render(ok(await ann(app, f"/unita mostra {name}", lang="it")))
        assert f"Tipo di modello: {kind}" in shown, shown
    lines = plain.render(ok(await ann(app, "/armata mostra Cygnar", lang="it")))
    assert "Journeyman Warcaster VEL=6 FOR=5" in lines and "tipo_modello=solitario" in lines


async def test_import_without_a_game_only_saves(app: App, tmp_path: Path) -> None:
    path = tmp_path / "army.ros"
    path.write_bytes(ros("inf"))
    reply = await ann(app, f"/army import file={path}")
    assert reply.error is not None and reply.error.code == "army.import_needs_game"
    reply = ok(await ann(app, f"/army import file={path} save=Pano"))
    assert reply.data is not None and reply.data["system"] == "inf" and not reply.data["added"]


@pytest.mark.parametrize("case", list(malformed()))
async def test_a_malformed_roster_leaves_the_game_unchanged(
    app: App, tmp_path: Path, case: str
) -> None:
    filename, content, key = malformed()[case]
    path = tmp_path / filename
    path.write_bytes(content)
    ok(await ann(app, "/game new aos"))
    ok(await ann(app, "/army add Guards save=4"))
    before = await snapshot(app)
    reply = await ann(app, f"/army import file={path} save=Broken")
    assert reply.error is not None and reply.error.code == key
    assert "Traceback" not in plain.render(reply)
    assert await snapshot(app) == before
    assert ok(await ann(app, "/army list")).data == {"rosters": []}


async def test_a_chat_cannot_read_the_servers_disk(app: App, tmp_path: Path) -> None:
    path = tmp_path / "army.ros"
    path.write_bytes(ros("aos"))
    ok(await ann(app, "/game new aos"))
    request = Request(
        platform="telegram",
        chat_key=CHAT,
        user_id="1",
        user_name="Ann",
        text=f"/army import file={path}",
    )
    reply = await app.handle(request)
    assert reply.error is not None and reply.error.code == "army.file_option_local"


async def test_discords_one_line_box_separates_units_with_semicolons(app: App) -> None:
    ok(await ann(app, "/game new aos"))
    request = Request(
        platform="discord",
        chat_key=CHAT,
        user_id="1",
        user_name="Ann",
        command="army add",
        options={
            "list": "Guards x5 save=4; «Iron Giant» wounds=12 | Club: attacks=3 hit=4+ wound=3+"
        },
    )
    reply = ok(await app.handle(request))
    assert reply.data is not None and reply.data["units"] == ["Guards", "Iron Giant"]
