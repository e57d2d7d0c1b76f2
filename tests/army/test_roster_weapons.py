"""An imported roster's weapons drive Infinity's and World of Warcraft's attacks at once, as if
the player had typed `/inf weapon add` + `/inf loadout` or `/wow card add`: the fixtures of
tests/army/fixtures imported through the real command path, then attacked with."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from rules_core.game import roster as rs
from rules_core.game.models import GameState, Player
from tests.army.battlescribe_files import ros
from tests.helpers import say

CHAT = "telegram:-701"
ANN = Player(user_id="1", name="Ann")


async def ann(app: App, text: str, **kw: Any) -> Reply:
    return await say(app, text, user="1", name="Ann", chat=CHAT, **kw)


async def bob(app: App, text: str, **kw: Any) -> Reply:
    return await say(app, text, user="2", name="Bob", chat=CHAT, **kw)


def ok(reply: Reply) -> Reply:
    assert reply.error is None, plain.render(reply)
    return reply


async def imported(app: App, tmp_path: Path, game: str, **kw: Any) -> Reply:
    path = tmp_path / f"{game}.ros"
    path.write_bytes(ros(game))
    ok(await ann(app, f"/game new {game}"))
    ok(await bob(app, "/game join"))
    return ok(await ann(app, f"/army import file={path}", **kw))


async def units(app: App) -> dict[str, Any]:
    status = ok(await ann(app, "/game status"))
    assert status.data is not None
    return {u["name"]: u for u in status.data["state"]["units"]}


# --- Infinity -----------------------------------------------------------------------------------


async def test_an_imported_trooper_shoots_with_its_roster_weapon(app: App, tmp_path: Path) -> None:
    reply = await imported(app, tmp_path, "inf", lang="en")
    text = plain.render(reply)
    # Pistol and Spitfire have no range bands in the roster: said, with how to give them.
    assert "Pistol" in text and "no range bands" in text
    found = await units(app)
    assert found["Fusilier Lieutenant"]["extra"]["weapons"] == ["Combi Rifle", "Pistol"]
    assert found["Bolt"]["extra"]["weapons"] == ["Spitfire"]
    ok(await bob(app, "/unit add Zhanshi bs=11 arm=1 w=1"))
    # No weapon=: the first of the loadout, the Combi Rifle, DAM 13, B 3, N, with its bands
    # from the roster's Range (0-20 +3): BS 12 + 3.
    shot = ok(
        await ann(
            app,
            '/inf attack attacker="Fusilier Lieutenant" target=Zhanshi distance=10 '
            "dice=1,2,3,20,20,20",
        )
    )
    shown = plain.render(shot)
    assert shot.data is not None
    assert "Weapon Combi Rifle: DAM 13, B3." in shown and "Range 10 cm: +3 BS." in shown
    assert shot.title == "Attack: target 15, B3, DAM 13 N (Normal)"
    active, *saves = shot.data["steps"]
    assert len(active["dice"]) == 3 and active["detail"]["attr"] == 12  # Burst 3, BS 12
    assert active["modifiers"] == [{"name": "range", "value": 3}] and active["target"] == 15
    assert [s["target"] for s in saves] == [13, 13, 13]  # DAM 13 each
    # weapon= takes the other one: the Pistol's Damage 11, Burst 2, rolled as a CC weapon
    # (no bands known), the Bolt's Spitfire DAM 14 B 4.
    pistol = ok(
        await ann(app, '/inf attack attacker="Fusilier Lieutenant" weapon=pistol dice=1,2,20,20')
    )
    assert pistol.data is not None and pistol.title == "Attack: target 13, B2, DAM 11 N (Normal)"
    assert pistol.data["steps"][0]["detail"]["attr"] == 13  # CC 13: no bands, a CC weapon
    odds = ok(await ann(app, "/inf odds attacker=Bolt target=Zhanshi"))
    assert "Weapon Spitfire: DAM 14, B4." in plain.render(odds)
    direct = ok(await ann(app, "/inf odds attr=15 burst=4 dam=14 ammo=N target=Zhanshi"))
    assert odds.data is not None and direct.data is not None
    assert odds.data["distribution"] == direct.data["distribution"]
    listed = ok(await ann(app, "/inf weapon list"))
    assert listed.data is not None
    names = {w["name"]: w for w in listed.data["weapons"]}
    assert names["Spitfire"]["dam"] == 14 and names["Spitfire"]["burst"] == 4
    assert list(names["Combi Rifle"]["bands"]) == [{"upto": 20, "mod": 3}, {"upto": 40, "mod": 0}]
    # The note's command, as written, gives the Pistol its bands: then it shoots with BS.
    line = next(x for x in text.splitlines() if x.startswith("Fusilier Lieutenant: Pistol"))
    command = line[line.index("/inf weapon add") : line.index(" (its own bands)")]
    assert command == '/inf weapon add name="Pistol" dam=11 burst=2 bands=20:0,40:+3'
    ok(await ann(app, command))
    shot = ok(
        await ann(
            app,
            '/inf attack attacker="Fusilier Lieutenant" weapon=Pistol distance=30 dice=1,2,20,20',
        )
    )
    assert shot.title == "Attack: target 15, B2, DAM 11 N (Normal)"  # BS 12 +3 at 30 cm


async def test_a_weapon_name_the_game_has_with_other_values_is_refused(
    app: App, tmp_path: Path
) -> None:
    ok(await ann(app, "/game new inf"))
    ok(await ann(app, "/inf weapon add name=Spitfire dam=15 burst=5 bands=20:0,60:+3"))
    path = tmp_path / "inf.ros"
    path.write_bytes(ros("inf"))
    reply = ok(await ann(app, f"/army import file={path}", lang="it"))
    text = plain.render(reply)
    assert "Bolt: Spitfire" in text and "altri valori" in text, text
    found = await units(app)
    assert found["Bolt"]["extra"].get("weapons", []) == []  # not silently the other one
    listed = ok(await ann(app, "/inf weapon list"))
    assert listed.data is not None
    spitfire = next(w for w in listed.data["weapons"] if w["name"] == "Spitfire")
    assert (spitfire["dam"], spitfire["burst"]) == (15, 5)  # never overwritten
    # The same roster again (the same values): shared, no conflict.
    again = ok(await ann(app, f"/army import file={path}"))
    assert "Combi Rifle" not in plain.render(again) or "other values" not in plain.render(again)
    found = await units(app)
    assert found["Fusilier Lieutenant 2"]["extra"]["weapons"] == ["Combi Rifle", "Pistol"]


def _game(system: str) -> GameState:
    return GameState(system=system, name="t", organiser="1", players=[ANN], order=["1"])


def test_two_imported_weapons_of_one_name_keep_the_first() -> None:
    roster = rs.parse_text(
        "Fusilier bs=12 w=1 | Combi Rifle: dam=13 burst=3\n"
        "Hacker bs=11 w=1 | Combi Rifle: dam=14 burst=3\n"
        "Sniper bs=13 w=1 | Rifle | CC Weapon",
        "inf",
    )
    state, notes = rs.add_roster(_game("inf"), roster, ANN, strict=False)
    fusilier, hacker, sniper = state.units
    assert fusilier.extra["weapons"] == ["Combi Rifle"]
    assert hacker.extra.get("weapons", []) == []
    assert ("inf.roster_weapon_conflict", {"unit": "Hacker", "weapon": "Combi Rifle"}) in [
        (k, {p: v for p, v in params.items() if p in ("unit", "weapon")}) for k, params in notes
    ]
    assert state.extra["inf"]["weapons"]["combi rifle"]["dam"] == 13
    assert sniper.extra["weapons"] == ["Rifle", "CC Weapon"]  # the book's, by name
    assert "rifle" not in state.extra["inf"]["weapons"]


def test_an_unusable_infinity_weapon_is_a_note_unless_strict() -> None:
    text = "Fusilier bs=12 w=1 | Combi Rifle: dam=13 burst=3 | Odd: dam=X burst=1"
    roster = rs.parse_text(text, "inf")
    state, notes = rs.add_roster(_game("inf"), roster, ANN, strict=False)
    assert state.units[0].extra["weapons"] == ["Combi Rifle"]
    reason = ("inf.bad_damage", {"dam": "X"})
    assert (
        "army.weapon_not_usable",
        {"unit": "Fusilier", "weapon": "Odd", "reason": reason},
    ) in notes
    try:
        rs.add_roster(_game("inf"), roster, ANN, strict=True)
    except rs.LineError as err:
        assert err.key == "inf.bad_damage" and err.unit == "Fusilier"
    else:
        raise AssertionError("strict must refuse the weapon")


async def test_save_gives_back_what_was_imported(app: App, tmp_path: Path) -> None:
    for game in ("inf", "wow"):
        path = tmp_path / f"{game}.ros"
        path.write_bytes(ros(game))
        ok(await ann(app, f"/game new {game}"))
        ok(await ann(app, f"/army import file={path} save=Got{game}"))
        status = ok(await ann(app, "/game status"))
        assert status.data is not None
        game_state = GameState.model_validate(status.data["state"])
        state = await units(app)
        ok(await ann(app, f"/army save Back{game}"))
        got = ok(await ann(app, f"/army show Got{game}"))
        back = ok(await ann(app, f"/army show Back{game}"))
        # the weapons as imported, each unit's (the stats leave out the game's defaults)
        weapons = [line.split(" | ", 1)[1:] for line in plain.render(got).splitlines()[1:]]
        assert weapons == [line.split(" | ", 1)[1:] for line in plain.render(back).splitlines()[1:]]
        assert any(weapons)
        for unit in state.values():
            again = rs.from_unit(_unit(unit), game_state)
            stored = unit["extra"]["roster"]["weapons"]
            assert [w.model_dump() for w in again.weapons] == stored
        ok(await ann(app, "/game end"))


def _unit(data: dict[str, Any]) -> Any:
    from rules_core.game.models import Unit

    return Unit.model_validate(data)


# --- World of Warcraft --------------------------------------------------------------------------


async def test_an_imported_character_attacks_with_its_roster_card(app: App, tmp_path: Path) -> None:
    reply = await imported(app, tmp_path, "wow", lang="en")
    text = plain.render(reply)
    # The Grunt's Axe has no Cost: no Action Card can be made of it, and the import says so.
    assert "Grunt: the weapon Axe" in text and "needs its tick cost: cost=N." in text, text
    found = await units(app)
    cards = found["Thrall"]["extra"]["wow"]["cards"]
    assert cards == [
        {
            "name": "Chain Lightning",
            "cost": 2,
            "power": 4,
            "type": "magical",
            "range": 4,
            "crit": "",
            "exhausted": False,
        }
    ]
    assert "wow" not in found["Grunt"]["extra"] or not found["Grunt"]["extra"]["wow"].get("cards")
    ok(await bob(app, "/unit add Jaina health=6 armor=1 resist=2 honor=10"))
    shot = ok(
        await ann(
            app,
            "/wow attack attacker=Thrall card=chain target=Jaina apply dice=4,5,6,1,2,3",
            lang="en",
        )
    )
    assert shot.data is not None
    assert shot.data["card"] == {"name": "Chain Lightning", "clock": [1, 3]}  # cost 2
    shown = plain.render(shot)
    assert "Thrall plays Chain Lightning (cost 2)" in shown, shown
    odds = ok(await ann(app, "/wow odds attacker=Thrall card=Chain target=Jaina"))
    direct = ok(await ann(app, "/wow odds power=4 type=magical defense=2"))
    assert odds.data is not None and direct.data is not None
    assert odds.data["distribution"] == direct.data["distribution"]


def test_a_wow_attack_without_its_cost_is_a_note_unless_strict() -> None:
    roster = rs.parse_text(
        "Thrall health=12 | Chain Lightning: power=4 range=4 type=magico cost=2 | Axe: power=3",
        "wow",
    )
    state, notes = rs.add_roster(_game("wow"), roster, ANN, strict=False)
    cards = state.units[0].extra["wow"]["cards"]
    assert [(c["name"], c["cost"], c["power"], c["type"], c["range"]) for c in cards] == [
        ("Chain Lightning", 2, 4, "magical", 4)
    ]
    why = {"unit": "Thrall", "weapon": "Axe", "reason": ("wow.card_needs_cost", {})}
    assert ("army.weapon_not_usable", why) in notes
    try:
        rs.add_roster(_game("wow"), roster, ANN, strict=True)
    except rs.LineError as err:
        assert err.key == "wow.card_needs_cost" and err.unit == "Thrall"
    else:
        raise AssertionError("strict must refuse the card")


async def test_an_imported_bar_follows_the_chats_card_limit(app: App) -> None:
    chat = "console:roster-cards"
    three = (
        "/army add Thrall health=12 | Bolt: cost=1 power=2 | Shock: cost=1 power=2 | Wave: cost=2"
    )

    async def ann_here(text: str) -> Reply:
        return await say(app, text, user="1", name="Ann", chat=chat, admin=True)

    ok(await ann_here("/game new wow"))
    refused = await ann_here(three)  # the default limit, 2 cards (100.2): the line is refused
    assert refused.error is not None and refused.error.code == "army.bad_line"
    assert "2" in refused.error.message
    ok(await ann_here("/game end"))
    ok(await ann_here("/wow settings card_limit=any"))  # no game yet: the chat's setting alone
    ok(await ann_here("/game new wow"))
    ok(await ann_here(three))
    listed = ok(await ann_here("/wow card list Thrall"))
    assert listed.data is not None
    assert [c["name"] for c in listed.data["cards"]] == ["Bolt", "Shock", "Wave"]


def test_rosters_saved_before_cost_was_a_field_and_italian_names_still_arm() -> None:
    # a WoW roster saved when BattleScribe's Cost was kept, not read
    old = rs.Roster(
        system="wow",
        units=[
            rs.RosterUnit(
                name="Thrall",
                stats={"health": 12},
                weapons=[
                    rs.Weapon(
                        name="Chain Lightning",
                        values={"power": "4", "range": "4", "type": "magical"},
                        kept={"Cost": "2"},
                    )
                ],
            )
        ],
    )
    state, notes = rs.add_roster(_game("wow"), old, ANN, strict=False)
    (card,) = state.units[0].extra["wow"]["cards"]
    assert (card["cost"], card["power"], card["range"], card["type"]) == (2, 4, 4, "magical")
    assert notes == []
    # Infinity in Italian: the book's Fucile by its name, fasce= for the bands
    roster = rs.parse_text(
        "Fuciliere cd=12 f=1 | Fucile | Combi: danno=13 raffica=3 munizioni=N fasce=20:+3,40:0",
        "inf",
    )
    state, notes = rs.add_roster(_game("inf"), roster, ANN)
    assert state.units[0].extra["weapons"] == ["Fucile", "Combi"]
    combi = state.extra["inf"]["weapons"]["combi"]
    assert [(b["upto"], b["mod"]) for b in combi["bands"]] == [(20, 3), (40, 0)]
    assert notes == []
