"""The WoW clocks in a channel's game: the digest's illustration of rules 500-502 played
through the registry, tick limits, permissions and undo."""

from __future__ import annotations

from typing import Any

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from tests.helpers import say

CHAT = "console:wow"
NAMES = {"A": "Ann", "B": "Bob"}


async def as_(app: App, player: str, text: str, **kw: Any) -> Reply:
    return await say(app, text, user=player, name=NAMES.get(player, player), chat=CHAT, **kw)


async def ok(app: App, player: str, text: str) -> dict[str, Any]:
    reply = await as_(app, player, text)
    assert reply.error is None, reply.error
    return reply.data or {}


async def setup(app: App) -> None:
    await ok(app, "A", "/game new wow Skirmish")
    await ok(app, "B", "/game join")
    for player, unit in (("A", "A1"), ("A", "A2"), ("B", "B1"), ("B", "B2")):
        await ok(app, player, f"/unit add {unit} health=10 armor=2 honor=10")


async def test_the_illustrated_tick_one(app: App) -> None:
    """Digest section 4, 'Illustration': four characters on tick 1, chooser alternating."""
    await setup(app)
    start = await ok(app, "A", "/wow clock")
    assert start["master"] == 1 and sorted(start["ready"]) == ["A1", "A2", "B1", "B2"]
    assert start["chooser"] == "A"  # 101.4: the first player picks first

    after = await ok(app, "A", "/wow act A1 cost=3")
    assert after["clocks"]["A1"] == 4 and after["chooser"] == "B"  # B is left of active A
    after = await ok(app, "B", "/wow act B1 cost=2")
    assert after["clocks"]["B1"] == 3 and after["chooser"] == "A"
    after = await ok(app, "A", "/wow act A2 cost=4")
    assert after["clocks"]["A2"] == 5 and after["ready"] == ["B2"] and after["chooser"] == "B"
    after = await ok(app, "B", "/wow moved B2")  # only moved: 501.3b, one tick
    assert after["clocks"]["B2"] == 2 and after["ready"] == [] and after["chooser"] is None

    ended = await ok(app, "B", "/wow tick")
    assert (ended["ended"], ended["master"], ended["ready"]) == (1, 2, ["B2"])
    assert not ended["vp_locations"] and not ended["new_round"]
    await ok(app, "B", "/wow moved B2")
    ended = await ok(app, "A", "/wow tick")
    assert ended["master"] == 3 and sorted(ended["ready"]) == ["B1", "B2"]


async def test_turns_are_refused_when_it_is_not_your_tick_or_character(app: App) -> None:
    await setup(app)
    await ok(app, "A", "/wow act A1 cost=3")
    again = await as_(app, "A", "/wow act A1 cost=1")
    assert again.error is not None and "Master Clock at 1" in again.error.message
    theirs = await as_(app, "B", "/wow act A2 cost=1")  # B is not the organiser
    assert theirs.error is not None and theirs.error.code == "perm.not_your_unit"
    too_far = await as_(app, "B", "/wow act B1 cost=10")
    assert too_far.error is not None and too_far.error.code == "cmd.int_range"
    early = await as_(app, "B", "/wow tick")
    assert early.error is not None and "A2" in early.error.message
    clock = await ok(app, "B", "/wow clock")
    assert clock["clocks"] == {"A1": 4, "A2": 1, "B1": 1, "B2": 1}  # refusals changed nothing


async def test_ticks_five_and_ten_and_the_new_round(app: App) -> None:
    await ok(app, "A", "/game new wow")
    await ok(app, "A", "/unit add Thrall health=12 legendary=1")
    seen = []
    for _ in range(10):
        await ok(app, "A", "/wow act Thrall cost=1")
        seen.append(await ok(app, "A", "/wow tick"))
    assert [s["vp_locations"] for s in seen] == [t in (5, 10) for t in range(1, 11)]
    assert [s["cards_ready"] for s in seen] == [t == 10 for t in range(1, 11)]
    assert (seen[-1]["master"], seen[-1]["round"], seen[-1]["new_round"]) == (1, 2, True)
    reply = await as_(app, "A", "/wow clock")
    assert "Master Clock 1 · round 2" in plain.render(reply)


async def test_undo_restores_the_clock(app: App) -> None:
    await setup(app)
    await ok(app, "A", "/wow act A1 cost=3")
    await ok(app, "A", "/undo")
    clock = await ok(app, "A", "/wow clock")
    assert clock["clocks"]["A1"] == 1 and clock["chooser"] == "A"


async def test_clocks_need_a_wow_game_and_speak_italian(app: App) -> None:
    await ok(app, "A", "/game new gen")
    wrong = await as_(app, "A", "/wow clock")
    assert wrong.error is not None and "/game new wow" in wrong.error.message
    await ok(app, "A", "/game end")
    await ok(app, "A", "/game new wow")
    await ok(app, "A", "/unit add Jaina health=8")
    reply = await as_(app, "A", "/wow orologio", lang="it")
    # One character ready takes the next turn (500.3b): nobody chooses (the walk: "Pronti ad
    # agire: Jaina. Sceglie chi va: @A").
    shown = plain.render(reply)
    assert "Master Clock 1" in shown
    assert "Jaina è l'unico personaggio pronto ad agire: prende il prossimo turno." in shown
    assert "Sceglie" not in shown
    await ok(app, "A", "/unit add Thrall health=8")
    both = plain.render(await as_(app, "A", "/wow orologio", lang="it"))
    assert "Pronti ad agire: Jaina, Thrall. Sceglie chi va:" in both


async def test_a_kill_scores_for_the_opponent_and_honor_decides_the_winner(app: App) -> None:
    await ok(app, "A", "/game new wow")
    await ok(app, "B", "/game join")
    await ok(app, "A", "/unit add Thrall health=6 honor=6")
    await ok(app, "B", "/unit add Jaina health=5 honor=10 legendary=1")
    await ok(app, "B", "/unit add Grunt health=3 honor=3")
    await ok(app, "B", "/unit add Wolf health=2 pet=1")

    pet = await as_(app, "A", "/unit damage Wolf 2")
    assert "Pet scores no VP" in plain.render(pet)
    await ok(app, "A", "/unit damage Jaina 4")  # not yet destroyed: nothing scored
    assert (await ok(app, "A", "/score"))["score"] == {"A": 0, "B": 0}
    kill = await as_(app, "A", "/unit damage Jaina 3")  # destroyed: 8 VP, a Legendary
    assert "8 VP to Ann" in plain.render(kill)
    assert "Honor" in plain.render(kill)  # 8 VP >= Thrall's Honor 6: Ann wins
    assert (await ok(app, "A", "/score"))["score"] == {"A": 8, "B": 0}
    await ok(app, "A", "/undo")
    assert (await ok(app, "A", "/score"))["score"] == {"A": 0, "B": 0}
    await ok(app, "A", "/unit damage Grunt 5")  # 4 VP, below Ann's Honor total
    text = plain.render(await as_(app, "A", "/log 1"))
    assert "Grunt" in text
    assert (await ok(app, "A", "/score"))["score"] == {"A": 4, "B": 0}


async def test_attack_reads_the_target_and_apply_is_one_undoable_change(app: App) -> None:
    await ok(app, "A", "/game new wow")
    await ok(app, "B", "/game join")
    await ok(app, "B", "/unit add Jaina health=5 armor=1 resist=2 legendary=1")
    # Physical: Armor 1 gives one defence die. Attack 4,5,10 (3 hits); defence 2 blocks nothing.
    hit = await ok(app, "A", "/wow attack power=3 target=Jaina apply dice=4,5,10,2")
    assert hit["outcome"]["damage"] == 3 and hit["applied"] == {"unit": "Jaina", "damage": 3}
    # Magical: Resist 2 gives two defence dice; the odds twin reads them too.
    odds = await ok(app, "A", "/wow odds power=3 type=magical target=Jaina")
    direct = await ok(app, "A", "/wow odds power=3 type=magical defense=2")
    assert odds["distribution"] == direct["distribution"]
    kill = await as_(app, "A", "/wow attack power=2 target=Jaina apply dice=6,7,1")
    assert "8 VP to Ann" in plain.render(kill)
    assert (await ok(app, "A", "/score"))["score"] == {"A": 8, "B": 0}
    await ok(app, "A", "/undo")
    assert (await ok(app, "A", "/score"))["score"] == {"A": 0, "B": 0}
    healed = await ok(app, "B", "/wow heal power=3 target=Jaina apply dice=9,9,9")
    assert healed["applied"] == {"unit": "Jaina", "healed": 3}
    assert "5/5" in plain.render(await as_(app, "B", "/unit show Jaina"))
    spectator = await as_(app, "C", "/wow attack power=1 target=Jaina apply dice=9,1")
    assert spectator.error is not None and spectator.error.code == "perm.players_only"
    no_target = await as_(app, "A", "/wow attack power=1 apply")
    assert no_target.error is not None and "target=" in no_target.error.message
