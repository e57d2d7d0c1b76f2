"""A C5 turn through the registry: strategic phase (fear, rally), activation with the pass rule
(@16499), combat, mystic phase mana recovery (@130449) and the printed-above-15 exception
(@2104, Red Troll @4728), each change one event /undo reverts."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say

CHAT = "console:c5turn"


async def setup(app: App) -> None:
    assert (await say(app, "/game new c5 Turn", user="ann", chat=CHAT)).ok
    assert (await say(app, "/game join", user="bob", chat=CHAT)).ok
    for user, text in (
        ("ann", "/unit add Abel att=5 str=7 def=4 res=6 cou=4 dis=3 size=2 warrior=1"),
        ("ann", "/unit add Enoch att=2 str=3 def=2 res=5 pow=4 rank=2"),
        ("bob", "/unit add Troll att=4 str=16 def=3 res=16 size=3"),
        ("bob", "/unit add Shaman pow=6 rank=3 res=5"),
        ("bob", "/unit add Archer aim=4 wstr=6 res=5"),
    ):
        reply = await say(app, text, user=user, chat=CHAT)
        assert reply.ok, reply.error


async def status(app: App) -> str:
    return plain.render(await say(app, "/game status", user="ann", chat=CHAT))


async def test_pass_rule_in_the_activation_phase(app: App) -> None:
    await setup(app)
    early = await say(app, "/c5 pass mine=2 theirs=4 apply", user="ann", chat=CHAT)
    assert early.error is not None and early.error.code == "c5.pass_not_activation"
    assert (await say(app, "/phase next", user="ann", chat=CHAT)).ok  # -> activation
    refused = await say(app, "/c5 pass mine=4 theirs=4 apply", user="ann", chat=CHAT)
    assert refused.error is not None and refused.error.code == "c5.pass_refused"  # G02
    ok = await say(app, "/c5 pass mine=3 theirs=4 apply", user="ann", chat=CHAT)  # G01
    assert ok.ok, ok.error
    assert ok.data is not None and ok.data["applied"] == {"lead": "bob"}
    assert "bob has the lead" in plain.render(ok)
    turn = await say(app, "/turn", user="ann", chat=CHAT)
    assert turn.data is not None and turn.data["current"] == "bob"
    assert turn.data["phase"] == 1  # the lead passes inside the activation phase
    # not ann's lead any more: only the organiser/admin could pass for bob
    other = await say(app, "/c5 pass mine=1 theirs=4 apply", user="ann", chat="console:x")
    assert other.error is not None  # no game there
    assert (await say(app, "/undo", user="ann", chat=CHAT, admin=True)).ok
    turn = await say(app, "/turn", user="ann", chat=CHAT)
    assert turn.data is not None and turn.data["current"] == "ann"


async def test_mystic_phase_mana_for_each_mage(app: App) -> None:
    await setup(app)
    # ann's only mage: Enoch, Adepto POW 4, die 5 -> 5 gems (G19)
    mine = await say(app, "/c5 mystic apply dice=5", user="ann", chat=CHAT)
    assert mine.ok, mine.error
    assert mine.data is not None and mine.data["outcome"]["gems"] == {"Enoch": 5}
    assert mine.data["applied"] == {"mana": {"Enoch": 5}}
    # every mage (organiser): Enoch die 1 -> 0 (G21), Shaman Maestro POW 6 die 5 -> 7 (G20)
    both = await say(app, "/c5 mystic all apply dice=1,5", user="ann", chat=CHAT)
    assert both.data is not None and both.data["outcome"]["gems"] == {"Enoch": 0, "Shaman": 7}
    assert both.data["applied"] == {"mana": {"Enoch": 5, "Shaman": 7}}
    assert (await say(app, "/undo", user="ann", chat=CHAT)).ok
    again = await say(app, "/c5 mystic all dice=2,2", user="ann", chat=CHAT)
    assert again.data is not None and "applied" not in again.data
    refused = await say(app, "/c5 mystic all dice=2,2", user="bob", chat=CHAT)
    assert refused.error is not None and refused.error.code == "perm.organiser_only"
    nobody = await say(app, "/c5 mystic", user="carl", chat=CHAT)
    assert nobody.error is not None and nobody.error.code == "c5.no_mages"
    few = await say(app, "/c5 mystic all dice=3", user="ann", chat=CHAT)
    assert few.error is not None and few.error.code.startswith("dice.not_enough")


async def test_fear_routs_and_rally_restores(app: App) -> None:
    await setup(app)
    # Abel COU 4 vs FEAR 8: die 3 -> 7, failed: routed
    fear = await say(app, "/c5 fear target=Abel fear=8 apply dice=3", user="ann", chat=CHAT)
    assert fear.ok, fear.error
    assert fear.data is not None and fear.data["applied"] == {"unit": "Abel", "routed": True}
    assert "routed" in (await status(app)).lower()
    odds = await say(app, "/c5 rally target=Abel odds", user="ann", chat=CHAT)
    assert odds.data is not None and odds.data["p_success_exact"] == "7/15"  # as 5 vs 9
    # rally with the better of COU 4 and DIS 3: die 4 -> 8, rallied
    rally = await say(app, "/c5 rally target=Abel apply dice=4", user="ann", chat=CHAT)
    assert rally.ok and "no longer routed" in plain.render(rally)
    assert "routed" not in (await status(app)).lower()
    assert (await say(app, "/undo", user="ann", chat=CHAT)).ok
    assert "routed" in (await status(app)).lower()
    passed = await say(app, "/c5 fear target=Abel fear=8 apply dice=6,2", user="ann", chat=CHAT)
    assert passed.data is not None and "applied" not in passed.data


async def test_printed_above_fifteen_and_weapon_strength(app: App) -> None:
    await setup(app)
    # the Troll's printed STR 16 counts as 16 (C04), its RES 16 too; a plain 16 is capped (C01)
    troll = await say(app, "/c5 wound attacker=Troll target=Abel dice=2,3", chat=CHAT)
    assert troll.data is not None and troll.data["outcome"]["str_used"] == 16
    plain16 = await say(app, "/c5 wound str=16 res=6 dice=2,3")
    assert plain16.data is not None and plain16.data["outcome"]["str_used"] == 15
    printed = await say(app, "/c5 wound str=16 printed=16 res=6 dice=2,3")
    assert printed.data is not None and printed.data["outcome"]["str_used"] == 16
    hit = await say(app, "/c5 wound attacker=Abel target=Troll dice=2,3", chat=CHAT)
    assert hit.data is not None and hit.data["outcome"]["res_used"] == 16
    # wounded Troll: the Light wound is taken from its 16 (C06: 15)
    wound = await say(
        app,
        "/c5 wound str=12 res=10 target=Troll apply dice=1,3",
        user="ann",
        chat=CHAT,
        admin=True,
    )
    assert wound.data is not None and wound.data["outcome"]["wounds"] == 1
    weak = await say(app, "/c5 wound attacker=Troll target=Abel dice=2,3", chat=CHAT)
    assert weak.data is not None and weak.data["outcome"]["str_used"] == 15
    # a shot uses the weapon's STR (wstr), not the fighter's
    shot = await say(app, "/c5 shoot attacker=Archer target=Abel dice=4,2,3", chat=CHAT)
    assert shot.data is not None
    assert shot.data["steps"][1]["modifiers"][0] == {"name": "str", "value": 6}


async def test_health_penalties_and_healing(app: App) -> None:
    await setup(app)
    add = await say(app, "/unit add Possessed att=4 res=5 posseduto=1", user="ann", chat=CHAT)
    assert add.ok, add.error
    # H10: an unwounded fighter can't be healed
    heal = await say(app, "/unit heal Abel 1", user="ann", chat=CHAT)
    assert heal.error is not None and heal.error.code == "c5.heal_unhurt"
    # H01: two wounds: Ferita Grave, -2
    hit = await say(app, "/unit damage Abel 2", user="ann", chat=CHAT)
    assert hit.ok, hit.error
    assert "Abel: Serious Wound, penalty -2." in plain.render(hit)  # English words (#24)
    assert "-2 INI ATT DEF AIM" in await status(app)
    # H09: healing two levels on a fighter with 2 wounds: unwounded, never above capacity
    assert (await say(app, "/unit heal Abel 3", user="ann", chat=CHAT)).ok
    assert "Abel" in await status(app) and "5/5" in await status(app)
    # H07: Posseduto with 2 wounds is at -1; its ATT test takes it
    assert (await say(app, "/unit damage Possessed 2", user="ann", chat=CHAT)).ok
    test = await say(app, "/c5 test target=Possessed stat=att dice=3", user="ann", chat=CHAT)
    assert test.data is not None and test.data["outcome"]["total"] == 4 + 3 - 1
    assert "C5:" in plain.render(test) and "C3:" in plain.render(test)  # where each rule is from


async def test_temporary_faith_and_pieta_across_rounds(app: App) -> None:
    await setup(app)
    add = await say(app, "/unit add Priest aspects=3 rank=1 pieta=2", user="ann", chat=CHAT)
    assert add.ok, add.error
    # G26: Devoto, Aspects 3 + 7 followers (1 per incomplete 3: 3) = 6
    ft = await say(app, "/c5 faith target=Priest followers=7 apply", user="ann", chat=CHAT)
    assert ft.data is not None and ft.data["outcome"]["ft"] == 6
    assert ft.data["applied"] == {"unit": "Priest", "ft": 6}
    # a new round: the faith is there to spend in its activations (a code audit: it was cut to
    # Pietà at the round's start, so generated faith was never usable, @96260)
    new_round = await say(app, "/round next", user="ann", chat=CHAT)
    assert new_round.ok, new_round.error
    assert "FT 6" in await status(app)
    # the next computation keeps what Pietà/2 allows of the unspent faith
    again = await say(app, "/c5 faith target=Priest apply", user="ann", chat=CHAT)
    assert again.data is not None and again.data["outcome"]["kept"] == 2
    assert again.data["outcome"]["ft"] == 3 + 2
    assert "FT 5" in await status(app)
    assert (await say(app, "/undo", user="ann", chat=CHAT)).ok
    assert "FT 6" in await status(app)


async def test_maintenance_regeneration_and_effimero(app: App) -> None:
    await setup(app)
    # the Troll (5 wounds) takes 2, then regenerates: 4 then 6 -> heals 2 (H12)
    assert (await say(app, "/unit damage Troll 2", user="bob", chat=CHAT)).ok
    regen = await say(
        app,
        "/c5 maintenance ability=rigenerazione x=4 target=Troll apply dice=4,6",
        user="bob",
        chat=CHAT,
    )
    assert regen.ok, regen.error
    assert regen.data is not None and regen.data["applied"]["healed"] == 2
    assert "5/5" in await status(app)
    assert (await say(app, "/undo", user="bob", chat=CHAT)).ok
    assert "3/5" in await status(app)
    # nothing to heal on an unwounded fighter
    whole = await say(app, "/c5 maintenance x=4 target=Abel dice=6", user="ann", chat=CHAT)
    assert whole.error is not None and whole.error.code == "c5.nothing_to_heal"
    # Effimero/5: 5 then 1 -> loses 1 wound (H13)
    eff = await say(
        app,
        "/c5 mantenimento abilita=effimero x=5 target=Abel apply dadi=5,1",
        user="ann",
        chat=CHAT,
    )
    assert eff.ok, eff.error
    assert eff.data is not None and eff.data["applied"]["lost"] == 1
    assert "Abel: Light Wound, penalty -1." in plain.render(eff)
    assert "-1 INI ATT DEF AIM" in await status(app)
    few = await say(app, "/c5 maintenance x=4 wounds=2 dice=5", user="ann", chat=CHAT)
    assert few.error is not None and few.error.code.startswith("dice.not_enough")
