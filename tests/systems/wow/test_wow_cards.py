"""Action Cards, exhaustion and readying, Battleground respawns, the 102.2 standings, kill
scoring and /wow settings, played through the registry (a scripted game per test)."""

from __future__ import annotations

from typing import Any

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from tests.helpers import say

CHAT = "console:wowcards"
NAMES = {"A": "Ann", "B": "Bob", "C": "Cid"}


async def as_(app: App, player: str, text: str, **kw: Any) -> Reply:
    return await say(app, text, user=player, name=NAMES.get(player, player), chat=CHAT, **kw)


async def ok(app: App, player: str, text: str, **kw: Any) -> Reply:
    reply = await as_(app, player, text, **kw)
    assert reply.error is None, (text, reply.error)
    return reply


async def data(app: App, player: str, text: str, **kw: Any) -> dict[str, Any]:
    return (await ok(app, player, text, **kw)).data or {}


async def refused(app: App, player: str, text: str, code: str, **kw: Any) -> str:
    reply = await as_(app, player, text, **kw)
    assert reply.error is not None and reply.error.code == code, (text, reply.error)
    return plain.render(reply)


async def two_player_game(app: App) -> None:
    await ok(app, "A", "/game new wow Skirmish")
    await ok(app, "B", "/game join")
    await ok(app, "A", "/unit add Jaina health=6 armor=1 resist=2 honor=10")
    await ok(app, "B", "/unit add Thrall health=5 armor=2 resist=1 honor=10")


async def test_cards_exhaust_when_played_and_ready_at_the_end_of_tick_ten(app: App) -> None:
    await two_player_game(app)
    added = await data(
        app,
        "A",
        "/wow card add Jaina card=Fireball cost=3 power=4 type=magical range=5 crit=damage:1",
    )
    assert added["cards"][0] == {
        "name": "Fireball",
        "cost": 3,
        "power": 4,
        "type": "magical",
        "range": 5,
        "crit": "damage:1",
        "exhausted": False,
    }
    await refused(app, "B", "/wow card add Jaina card=Frostbolt cost=2", "perm.not_your_unit")
    await ok(app, "A", "/wow carta add Jaina carta=Blink costo=1 tipo=other")
    await refused(app, "A", "/wow card add Jaina card=blink cost=1", "wow.duplicate_card")
    full = await refused(app, "A", "/wow card add Jaina card=Nova cost=2", "wow.too_many_cards")
    assert "2 cards per character" in full
    await refused(app, "A", "/wow card add Jaina card=Nova", "wow.card_needs_cost")
    await ok(app, "B", "/wow card add Thrall card=Cleave cost=2 power=3 type=physical")
    shown = plain.render(await ok(app, "A", "/unit show Jaina"))
    assert "✔ Fireball: cost 3 · power 4 · magical attack · range 5 · crit damage 1" in shown
    assert "✔ Blink: cost 1 · other" in shown  # no power on a card that rolls nothing

    # Tick 1: Jaina casts Fireball at Thrall (Resist 1: one defence die). 4 dice, 3 hit.
    hit = await ok(
        app, "A", "/wow attack attacker=Jaina card=Fireball target=Thrall apply dice=4,5,6,1,2"
    )
    assert hit.data is not None
    assert hit.data["outcome"]["damage"] == 3 and hit.data["card"] == {
        "name": "Fireball",
        "clock": [1, 4],
    }
    text = plain.render(hit)
    assert "Jaina plays Fireball (cost 3)" in text and "Personal Clock 1 → 4" in text
    assert "✔ Cleave" in text  # the target's line and Action Bar follow
    clock = await data(app, "A", "/wow clock")
    assert clock["turn"] == "Jaina" and clock["ready"] == []
    busy = await refused(app, "B", "/wow act Thrall cost=2", "wow.turn_in_progress")
    assert "/wow act Jaina" in busy
    await refused(app, "B", "/wow tick", "wow.turn_in_progress")
    closing = await ok(app, "A", "/wow act Jaina")  # nothing more to pay: the turn ends
    assert "Jaina's turn ends; Personal Clock 4." in plain.render(closing)
    ended = closing.data or {}
    assert ended["clocks"]["Jaina"] == 4 and ended["chooser"] == "B" and ended["turn"] is None
    jaina = await data(app, "A", "/wow card list Jaina")
    assert [c["exhausted"] for c in jaina["cards"]] == [True, False]

    await ok(app, "B", "/wow act Thrall cost=2")  # Thrall -> 3
    await ok(app, "B", "/wow tick")  # -> MC 2
    await ok(app, "B", "/wow tick")  # -> MC 3
    await ok(app, "B", "/wow moved Thrall")  # -> 4
    await ok(app, "B", "/wow tick")  # -> MC 4: Jaina and Thrall; B acted last, so A picks
    again = await refused(app, "A", "/wow act Jaina card=Fireball", "wow.card_exhausted")
    assert "end of tick 10" in again
    both = await data(app, "A", "/wow act Jaina card=Blink cost=0")
    assert both["clocks"]["Jaina"] == 5
    await ok(app, "B", "/wow act Thrall cost=6")  # -> 10
    await ok(app, "A", "/wow tick")  # -> MC 5: Jaina
    await ok(app, "A", "/wow act Jaina cost=6")  # 5 + 6 = 11 -> 1, six ahead
    for _ in range(5):  # ends ticks 5..9
        await ok(app, "A", "/wow tick")
    cleave = await ok(app, "B", "/wow act Thrall card=Cleave")  # at MC 10: 10 + 2 -> 2
    assert "Thrall exhausts Cleave" in plain.render(cleave)
    last = await data(app, "B", "/wow tick")  # tick 10 ends: every card ready, round 2
    assert last["cards_ready"] and last["new_round"] and last["master"] == 1
    assert sorted(last["readied"]) == ["Jaina: Blink", "Jaina: Fireball", "Thrall: Cleave"]
    jaina = await data(app, "A", "/wow card list Jaina")
    assert [c["exhausted"] for c in jaina["cards"]] == [False, False]
    replay = await data(app, "A", "/wow act Jaina card=Fireball")
    assert replay["clocks"]["Jaina"] == 4
    await ok(app, "A", "/undo")  # the card is ready and the clock back at 1
    jaina = await data(app, "A", "/wow card list Jaina")
    assert jaina["cards"][0]["exhausted"] is False
    assert (await data(app, "A", "/wow clock"))["clocks"]["Jaina"] == 1
    removed = await ok(app, "A", "/wow card remove Jaina card=blink")
    assert "Blink removed" in plain.render(removed)
    assert [c["name"] for c in (removed.data or {})["cards"]] == ["Fireball"]


async def test_undo_of_an_applied_card_attack_restores_health_card_and_clock(app: App) -> None:
    await two_player_game(app)
    await ok(app, "A", "/wow card add Jaina card=Fireball cost=3 power=2 type=magical")
    await ok(app, "A", "/wow attack attacker=Jaina card=Fireball target=Thrall apply dice=9,9,1")
    assert "3/5" in plain.render(await ok(app, "A", "/unit show Thrall"))
    await ok(app, "A", "/undo")
    assert "5/5" in plain.render(await ok(app, "A", "/unit show Thrall"))
    clock = await data(app, "A", "/wow clock")
    assert clock["clocks"]["Jaina"] == 1 and clock["turn"] is None
    cards = await data(app, "A", "/wow card list Jaina")
    assert cards["cards"][0]["exhausted"] is False


async def test_cards_feed_attack_heal_and_odds(app: App) -> None:
    await two_player_game(app)
    await ok(app, "A", "/wow card add Jaina card=Fireball cost=3 power=4 type=magical crit=effect")
    await ok(app, "A", "/wow card add Jaina card=Renew cost=1 power=2 type=heal crit=heal:1")
    read = await data(app, "A", "/wow odds attacker=Jaina card=Fireball target=Thrall")
    direct = await data(app, "A", "/wow odds power=4 type=magical defense=1")
    assert read["distribution"] == direct["distribution"]
    # Without apply nothing is paid or exhausted.
    shot = await data(app, "A", "/wow attack attacker=Jaina card=Fireball defense=0 dice=10,1,1,1")
    assert shot["outcome"]["crit_effect"] is True and "applied" not in shot
    heal = await data(app, "A", "/wow heal healer=Jaina card=Renew dice=10,2")
    assert heal["outcome"]["healed"] == 2  # one success + the crit's heal:1
    await refused(app, "A", "/wow heal healer=Jaina card=Fireball", "wow.card_not_heal")
    await refused(app, "A", "/wow attack attacker=Jaina card=Renew", "wow.card_not_attack")
    await refused(app, "A", "/wow attack card=Fireball", "wow.card_needs_actor")
    await refused(app, "A", "/wow attack defense=2", "wow.power_needed")
    await refused(app, "A", "/wow attack attacker=Jaina card=Frost", "wow.no_card")
    cards = await data(app, "A", "/wow card list Jaina")
    assert [c["exhausted"] for c in cards["cards"]] == [False, False]
    it = await as_(app, "A", "/wow attacco attaccante=Jaina carta=Renew", lang="it")
    assert it.error is not None and "non un attacco" in it.error.message


async def test_pets_have_no_action_bar(app: App) -> None:
    await ok(app, "A", "/game new wow")
    await ok(app, "A", "/unit add Wolf health=2 pet=1")
    await refused(app, "A", "/wow card add Wolf card=Bite cost=1", "wow.pet_no_cards")


async def test_battleground_respawn_before_the_next_turn(app: App) -> None:
    await two_player_game(app)
    await refused(app, "B", "/wow settings battleground=yes", "wow.settings_admin")
    changed = await data(app, "A", "/wow settings battleground=yes")
    assert changed["settings"]["battleground"] == "yes" and changed["changed"] == ["battleground"]
    # Tick 1: Jaina's primary attack (power 5, magical) kills Thrall: 5 hits, Resist die 1.
    kill = await ok(
        app,
        "A",
        "/wow attack attacker=Jaina power=5 type=magical target=Thrall apply dice=9,9,9,9,9,1",
    )
    text = plain.render(kill)
    assert "4 VP to Ann" in text
    assert "Personal Clock moves 2 ahead (1 → 3)" in text and "403.2b" in text
    await ok(app, "A", "/wow act Jaina cost=2")  # Jaina -> 3
    clock = await data(app, "A", "/wow clock")
    assert clock["respawn"] == ["Thrall"] and clock["clocks"]["Thrall"] == 3
    await ok(app, "A", "/wow tick")
    tick3 = await ok(app, "A", "/wow tick")
    assert tick3.data is not None and sorted(tick3.data["ready"]) == ["Jaina", "Thrall"]
    assert "respawns before its turn" in plain.render(tick3)
    assert tick3.data["chooser"] == "B"  # A was the active player: B picks
    back = await ok(app, "B", "/wow act Thrall cost=2")
    assert "Thrall respawns" in plain.render(back) and "403.1" in plain.render(back)
    assert back.data is not None and back.data["clocks"]["Thrall"] == 5
    assert "5/5" in plain.render(await ok(app, "B", "/unit show Thrall"))
    assert (await data(app, "B", "/wow clock"))["respawn"] == []
    # 501.2: Bob is the active player now, for /game status and /unit damage alike.
    assert "Turn: Bob" in plain.render(await ok(app, "A", "/game status"))
    assert (await data(app, "A", "/score"))["score"] == {"A": 4, "B": 0}


async def test_without_battleground_the_dead_leave_the_clocks(app: App) -> None:
    await two_player_game(app)
    await ok(app, "A", "/wow settings battleground=no")  # 403.1: a scenario without respawn
    await ok(app, "A", "/unit damage Thrall 5")
    clock = await data(app, "A", "/wow clock")
    assert "Thrall" not in clock["clocks"] and clock["respawn"] == []


async def test_standings_apply_the_102_2_tie_breakers(app: App) -> None:
    await ok(app, "A", "/game new wow")
    await ok(app, "B", "/game join")
    await ok(app, "A", "/unit add Jaina health=6 honor=20")
    await ok(app, "B", "/unit add Thrall health=5 honor=18")
    none = await ok(app, "A", "/wow standings")
    assert none.data is not None and none.data["reason"] == "none"
    # D14: both reach together; A is 2 above 20, B 3 above 18: B wins on the margin.
    await ok(app, "A", "/score add 22")
    await ok(app, "A", "/score add 21 Bob")  # the organiser scores for Bob (location VP)
    margin = await ok(app, "B", "/wow standings")
    assert margin.data is not None
    assert (margin.data["winner"], margin.data["reason"]) == ("B", "margin")
    assert "Bob is furthest above" in plain.render(margin)
    # D14b: both 2 above; Honor 20 beats 18.
    await ok(app, "A", "/score add -1 Bob")
    honor = await data(app, "B", "/wow standings")
    assert (honor["winner"], honor["reason"]) == ("A", "honor")
    # D14c: equal margin and equal Honor: play continues.
    await ok(app, "A", "/unit set Thrall honor=20")
    await ok(app, "A", "/score add 2 Bob")
    tied = await ok(app, "B", "/wow standings")
    assert tied.data is not None and tied.data["reason"] == "continue"
    assert tied.data["tied"] == ["A", "B"] and tied.data["winner"] is None
    assert "play continues" in plain.render(tied)
    it = plain.render(await as_(app, "B", "/wow classifica", lang="it"))
    assert "si continua a giocare" in it


async def test_kill_scorer_setting_and_settings_reach_the_game(app: App) -> None:
    # Chosen before the game exists: copied in by the game's first /wow change.
    await ok(app, "C", "/wow settings kill_scorer=last_active", admin=True)
    await two_player_game(app)
    await ok(app, "B", "/wow act Thrall cost=1")  # B's character took the last turn
    kill = await ok(app, "A", "/unit damage Thrall 5")  # no attacker: the setting decides
    assert "for whoever destroyed it" in plain.render(kill)
    assert (await data(app, "A", "/score"))["score"] == {"A": 0, "B": 0}
    await ok(app, "A", "/undo")
    await ok(app, "A", "/wow settings kill_scorer=opponent")  # the organiser
    kill = await ok(app, "A", "/unit damage Thrall 5")
    assert "4 VP to Ann" in plain.render(kill)
    shown = await data(app, "B", "/wow settings")
    assert shown["settings"] == {
        "kill_scorer": "opponent",
        "battleground": "yes",
        "card_limit": "2",
        "pet_limit": "player",
        "forced_reroll": "keep_crits",
    }
    await refused(app, "A", "/wow settings card_limit=7", "cmd.bad_choice")


async def test_settings_text_and_three_card_limit(app: App) -> None:
    reply = await ok(app, "A", "/wow settings")
    text = plain.render(reply)
    assert "kill_scorer=opponent" in text and "(default)" in text
    assert "battleground=yes" in text and "card_limit=2" in text
    await ok(app, "A", "/game new wow")
    await ok(app, "A", "/wow settings card_limit=3")
    await ok(app, "A", "/unit add Jaina health=6")
    for name in ("One", "Two", "Three"):
        await ok(app, "A", f"/wow card add Jaina card={name} cost=1")
    await refused(app, "A", "/wow card add Jaina card=Four cost=1", "wow.too_many_cards")
    it = plain.render(await as_(app, "A", "/wow impostazioni", lang="it"))
    assert "limite_carte=3" in it and "modalità classica" in it  # issue 24: the book's words


async def test_kill_with_more_players_goes_to_the_last_active_player(app: App) -> None:
    await ok(app, "A", "/game new wow")
    await ok(app, "B", "/game join")
    await ok(app, "C", "/game join")
    await ok(app, "A", "/unit add Jaina health=6")
    await ok(app, "B", "/unit add Thrall health=5")
    await ok(app, "C", "/unit add Grunt health=3")
    await ok(app, "A", "/wow act Jaina cost=1")
    kill = await ok(app, "A", "/unit damage Grunt 3")
    assert "4 VP to Ann" in plain.render(kill)
    await ok(app, "A", "/undo")
    clock = await data(app, "A", "/wow clock")
    assert clock["clocks"] == {"Jaina": 2, "Thrall": 1, "Grunt": 1}
    # A named attacker's player scores, whoever took the last turn (Ann's Jaina).
    kill = await ok(app, "B", "/wow attack attacker=Thrall power=3 target=Grunt apply dice=9,9,9")
    assert "4 VP to Bob" in plain.render(kill)
    assert (await data(app, "A", "/score"))["score"] == {"A": 0, "B": 4, "C": 0}


async def test_settings_are_per_chat_and_undo_does_not_revert_them(app: App) -> None:
    await two_player_game(app)
    await ok(app, "A", "/wow settings battleground=no")
    await ok(app, "A", "/undo")  # takes back the game's copy only
    assert (await data(app, "B", "/wow settings"))["settings"]["battleground"] == "no"
    await ok(app, "A", "/wow act Jaina cost=1")  # any /wow change copies the chat's choice in
    kill = await ok(app, "A", "/unit damage Thrall 5")
    assert "4 VP to Ann" in plain.render(kill)
    assert "respawns with full Health" not in plain.render(kill)
    other = await say(app, "/wow settings", chat="console:elsewhere")
    assert other.data is not None and other.data["settings"]["battleground"] == "yes"


async def test_removing_the_character_mid_turn_does_not_block_the_clocks(app: App) -> None:
    await two_player_game(app)
    await ok(app, "A", "/wow attack attacker=Jaina power=1 target=Thrall apply dice=1,1,1")
    assert (await data(app, "A", "/wow clock"))["turn"] == "Jaina"
    await ok(app, "A", "/unit remove Jaina")
    clock = await data(app, "A", "/wow clock")
    assert clock["turn"] is None and clock["ready"] == ["Thrall"]
    await ok(app, "B", "/wow act Thrall cost=1")


async def test_a_react_card_is_paid_and_exhausted_on_another_characters_turn(app: App) -> None:
    await two_player_game(app)
    await ok(app, "A", "/wow card add Jaina card=Counterspell cost=2 type=other")
    await ok(app, "A", "/wow card add Jaina card=Shield cost=8 type=other")
    await ok(app, "A", "/wow act Jaina cost=2")  # Jaina -> 3; Thrall's turn on tick 1
    react = await data(app, "A", "/wow act Jaina card=Counterspell react")
    assert react["clocks"]["Jaina"] == 5 and react["ready"] == ["Thrall"]  # no turn taken
    assert react["chooser"] == "B"
    # D7 (408.2a): 4 ticks ahead, a React costing 8 would end 12 ahead: refused.
    far = await refused(app, "A", "/wow act Jaina card=Shield react", "wow.too_far_ahead")
    assert "408.2a" in far
    await refused(app, "A", "/wow act Jaina card=Counterspell react", "wow.card_exhausted")
    await refused(app, "A", "/wow act Jaina react", "wow.react_needs_card")
    cards = await data(app, "A", "/wow card list Jaina")
    assert [c["exhausted"] for c in cards["cards"]] == [True, False]


async def test_a_play_that_would_be_refused_is_refused_before_rolling(app: App) -> None:
    await two_player_game(app)
    await ok(app, "A", "/wow card add Jaina card=Fireball cost=3 power=2 type=magical")
    await ok(app, "A", "/wow act Jaina card=Fireball")  # exhausted, Jaina at 4
    early = await as_(app, "A", "/wow attack attacker=Jaina power=2 target=Thrall apply")
    assert early.error is not None and early.error.code == "wow.not_ready"
    theirs = await as_(app, "B", "/wow attack attacker=Jaina power=2 target=Thrall apply")
    assert theirs.error is not None and theirs.error.code == "perm.not_your_unit"
    history = await say(app, "/roll history 5", chat=CHAT)
    assert history.data is not None and history.data["rolls"] == []  # nothing was rolled
