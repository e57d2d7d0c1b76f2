"""/aos through the registry on a real SQLite file: replies, data shapes, the roll log,
settings, and a scripted game (priority, command points, commands, attacks applied, undo)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import App
from bot.render import plain
from tests.helpers import say


async def test_attack_with_the_players_dice(app: App) -> None:
    # 3 attacks 3+/3+ rend -1 vs 4+: hits 1,3,6 (1 fails); wounds 2,5; save 5 (-1 -> 4) holds.
    reply = await say(
        app,
        "/aos attack attacks=3 hit=3 wound=3 rend=-1 damage=2 save=4 "
        "models=2 wounds_per_model=3 dice=1,3,6,2,5,5",
    )
    assert reply.ok, reply.error
    assert reply.data is not None and reply.data["system"] == "aos"
    out = reply.data["outcome"]
    assert (out["attacks"], out["hits"], out["wounds"], out["unsaved"]) == (3, 2, 1, 0)
    assert (out["damage"], out["models_slain"], out["ward_saved"]) == (0, 0, 0)
    assert [s["name"] for s in reply.data["steps"]] == ["hit", "wound", "save", "allocate"]
    text = plain.render(reply)
    assert "Hit 3+: [1, 3, 6] → 2 hits" in text and "Save 4+ (-1): [5] → 0 unsaved" in text
    history = await say(app, "/roll history 1")
    assert history.data is not None
    assert history.data["rolls"][0]["expression"].startswith("/aos attack")


async def test_attack_chain_with_rerolls_wards_and_slain(app: App) -> None:
    reply = await say(
        app,
        "/aos attack attacks=D3 hit=4 wound=4 damage=D3 save=- ward=5 reroll_hit=failed "
        "hit_mod=+2 wounds_per_model=2 models=3 dice=6,2,5,6,6,4,5,6,1,1,3,5,1,6,2",
    )
    assert reply.ok, reply.error
    assert reply.data is not None
    out = reply.data["outcome"]
    # D3 from a 6 = 3 attacks; hits 2 (fails even at +1, re-rolled: 6), 5, 6; wounds 4, 5, 6;
    # Save "-" can't be rolled; D3 damage from 1, 1, 3 = 1+1+2; wards 5,1,6,2 negate 2 of 4;
    # 2 wounds on 2-wound models slay 1.
    assert out["attacks"] == 3 and out["hits"] == 3 and out["wounds"] == 3
    assert out["unsaved"] == 3 and out["ward_saved"] == 2 and out["damage"] == 2
    assert out["models_slain"] == 1
    text = plain.render(reply)
    assert "(+2 → +1)" in text and "no roll can save" in text


async def test_italian_reply_and_aliases(app: App) -> None:
    reply = await say(
        app,
        "/aos attacco attacchi=2 colpire=3 ferire=4 impatto=-2 danni=1 salvezza=3 dadi=4,5,4,6,2,6",
        lang="it",
    )
    assert reply.ok, reply.error
    text = plain.render(reply)
    assert "Per Colpire 3+: [4, 5] → 2 colpi" in text
    assert "Salvezza 3+ (-2): [2, 6] → 1 non salvata" in text
    assert reply.data is not None and reply.data["outcome"]["damage"] == 1


async def test_odds_shape_and_models_slain(app: App) -> None:
    reply = await say(
        app, "/aos odds attacks=10 hit=3 wound=3 rend=-1 save=4 models=5 wounds_per_model=1"
    )
    assert reply.ok and reply.data is not None
    assert reply.data["system"] == "aos"
    probs = dict(reply.data["distribution"])
    assert sum(probs.values()) == pytest.approx(1.0)
    assert reply.data["mean"] == pytest.approx(10 * 8 / 27)  # R50
    slain = dict(reply.data["models_slain_distribution"])
    assert slain[5] == pytest.approx(sum(p for v, p in probs.items() if v >= 5))
    unknown = await say(app, "/aos odds attacks=3 hit=3 wound=3")
    assert unknown.data is not None and unknown.data["models_slain_distribution"] is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("/aos attack hit=3 wound=3", "aos.missing_option"),
        ("/aos attack attacks=3D6 hit=3 wound=3", "aos.bad_dice_value"),
        ("/aos attack attacks=2 hit=9 wound=3", "aos.bad_target"),
        ("/aos attack attacks=2 hit=3 wound=3 reroll_hit=sixes", "aos.bad_reroll"),
        ("/aos attack attacks=2 hit=3 wound=3 on6_hit=rend:2", "aos.bad_on6"),
        ("/aos attack attacks=2 hit=3 wound=3 dice=6,6", "dice.not_enough_dice"),
        ("/aos attack attacks=1 hit=3 wound=3 dice=1,1", "dice.unused_dice"),
        ("/aos attack attacks=2 hit=3 wound=3 apply", "aos.apply_needs_target"),
        ("/aos attack attacks=2 hit=3 wound=3 target=Foo", "game.none"),
        ("/aos battleshock slain=2", "aos.missing_value"),
        ("/aos unbind", "cmd.missing_option"),
        ("/aos charge distance=far", "aos.bad_number"),
        ("/aos settings save_cap=bonus_only", "aos.settings_admin"),
    ],
)
async def test_bad_input_is_one_clear_sentence(app: App, text: str, key: str) -> None:
    reply = await say(app, text)
    assert not reply.ok and reply.error is not None
    assert reply.error.code == key
    assert "Traceback" not in reply.error.message


async def test_tests_battleshock_cast_unbind_pray_charge_run(app: App) -> None:
    shock = await say(app, "/aos battleshock bravery=5 slain=2 dice=3")  # E1, L635
    assert shock.data is not None and shock.data["outcome"]["fled"] == 0
    assert "5 is not above 5" in plain.render(shock)
    cast = await say(app, "/aos cast value=7 mod=+1 dice=1,1,5")  # R35: miscast anyway
    assert cast.data is not None
    assert cast.data["outcome"] == {
        "total": 3,
        "cast": False,
        "miscast": True,
        "mortal_wounds": 3,
        "double": True,
    }
    unbind = await say(app, "/aos unbind roll=7 dice=3,4")  # R36: must beat it
    assert unbind.data is not None and unbind.data["outcome"]["unbound"] is False
    pray = await say(app, "/aos pray value=4 dice=1")  # R38: divine wrath
    assert pray.data is not None and pray.data["outcome"]["wrath"] is True
    charge = await say(app, "/aos charge distance=7.4 dice=3,4")  # R33
    assert charge.data is not None and charge.data["outcome"]["reaches"] is True
    run = await say(app, "/aos run move=5 dice=4")  # R31
    assert run.data is not None and run.data["outcome"]["move"] == 9
    prio = await say(app, "/aos priority tie=2 dice=3,3")
    assert prio.data is not None and prio.data["outcome"]["winner"] == 1


async def test_settings_change_the_save_cap(app: App) -> None:
    line = "/aos attack attacks=1 hit=3 wound=3 rend=-1 save=4 save_mod=2 dice=6,6,3"
    literal = await say(app, line)
    assert literal.data is not None and literal.data["outcome"]["unsaved"] == 0  # R10
    changed = await say(app, "/aos settings save_cap=bonus_only", admin=True)
    assert changed.ok and changed.data is not None
    assert changed.data["settings"]["save_cap"] == "bonus_only"
    other = await say(app, line)
    assert other.data is not None and other.data["outcome"]["unsaved"] == 1
    elsewhere = await say(app, line, chat="console:other")
    assert elsewhere.data is not None and elsewhere.data["outcome"]["unsaved"] == 0


async def test_scripted_game(app: App) -> None:
    ann, bob = {"user": "ann", "name": "Ann"}, {"user": "bob", "name": "Bob"}
    assert (await say(app, "/game new aos Test", **ann)).ok
    assert (await say(app, "/game join", **bob)).ok
    assert (await say(app, "/unit add Vindictors models=5 wounds=2 save=4 bravery=7", **ann)).ok
    assert (await say(app, "/unit add Lord wounds=6 save=3 bravery=8 general=1", **ann)).ok
    assert (await say(app, "/unit add Gutrippaz models=10 wounds=2 save=5 bravery=5", **bob)).ok
    weapon = await say(
        app,
        "/aos weapon Vindictors Stormspear range=2 attacks=2 hit=3 wound=3 rend=-1 damage=1",
        **ann,
    )
    assert weapon.ok and 'Stormspear  2"  A2  3+  3+  -1  D1' in plain.render(weapon)
    # Someone else's card is not yours to change.
    denied = await say(app, "/aos weapon Vindictors Club attacks=1 hit=4 wound=4", **bob)
    assert denied.error is not None and denied.error.code == "perm.not_your_unit"

    # Round 1: a tie goes to who finished deploying first (L239): Bob, who lets Ann go first.
    prio = await say(app, "/aos priority deployed=Bob apply dice=4,4", **ann)
    assert prio.ok, prio.error
    assert prio.data is not None and prio.data["outcome"]["winner_name"] == "Bob"
    # Only the winner chooses the order (4.1, L237): Bob lets Ann go first.
    prio = await say(app, "/aos priority goes=second apply", **bob)
    assert prio.ok, prio.error
    assert prio.data is not None
    assert prio.data["order"] == ["ann", "bob"] and prio.data["cp"] == {"ann": 1, "bob": 2}
    again = await say(app, "/aos priority apply dice=5,1", **ann)
    assert again.error is not None and again.error.code == "aos.priority_done"

    hero = await say(app, "/aos hero", **ann)  # literal reading: both players get 1
    assert hero.data is not None and hero.data["granted"] == {"ann": 1, "bob": 1}
    assert (await say(app, "/aos hero", **ann)).error is not None

    # Shooting phase isn't All-out Attack's only phase; in the hero phase it is refused.
    wrong = await say(app, "/aos command all-out attack unit=Vindictors", **ann)
    assert wrong.error is not None and wrong.error.code == "aos.wrong_phase"
    for _ in range(4):  # hero -> movement -> shooting -> charge -> combat
        assert (await say(app, "/phase next", **ann)).ok
    used = await say(app, "/aos command attacco totale unit=Vindictors", **ann)
    assert used.ok, used.error
    assert used.data is not None and used.data["cp"] == 1
    twice = await say(app, "/aos command all-out attack unit=Lord", **ann)
    assert twice.error is not None and twice.error.code == "aos.command_used"

    # The attack reads the weapon and the 5 models, and the target's save; apply writes it.
    attack = await say(
        app,
        "/aos attack attacker=Vindictors target=Gutrippaz hit_mod=+1 apply "
        "dice=6,6,6,6,6,6,1,1,1,1,6,6,6,6,6,6,1,1,2,2,3,3",
        **ann,
    )
    assert attack.ok, attack.error
    assert attack.data is not None and attack.data["applied"] is True
    out = attack.data["outcome"]
    assert out["attacks"] == 10 and out["hits"] == 6 and out["wounds"] == 6
    assert out["unsaved"] == 6 and out["damage"] == 6 and out["models_slain"] == 3
    status = await say(app, "/game status")
    assert status.data is not None
    units = {u["name"]: u for u in status.data["state"]["units"]}
    assert units["Gutrippaz"]["damage"] == 6

    # Battleshock reads Bravery 5: 4 + 3 slain = 7 -> 2 flee, removed with apply.
    shock = await say(app, "/aos battleshock target=Gutrippaz slain=3 apply dice=4", **bob)
    assert shock.data is not None and shock.data["outcome"]["fled"] == 2
    status = await say(app, "/game status")
    assert status.data is not None
    units = {u["name"]: u for u in status.data["state"]["units"]}
    assert units["Gutrippaz"]["damage"] == 10

    # /undo reverts the battleshock as one event.
    undo = await say(app, "/undo", **bob)
    assert undo.ok, undo.error
    status = await say(app, "/game status")
    assert status.data is not None
    units = {u["name"]: u for u in status.data["state"]["units"]}
    assert units["Gutrippaz"]["damage"] == 6

    # The round ends: unused command points are lost (L631), the next round asks for priority.
    ran = await say(app, "/unit cond Vindictors add corso", **ann)  # "ran": until end of turn
    assert ran.ok, ran.error
    bobs_turn = await say(app, "/turn end", **ann)
    assert bobs_turn.ok and "/aos hero" in plain.render(bobs_turn)
    status = await say(app, "/game status")
    assert status.data is not None
    units = {u["name"]: u for u in status.data["state"]["units"]}
    assert units["Vindictors"]["conditions"] == []
    end = await say(app, "/turn end", **bob)
    assert end.ok and "/aos priority apply" in plain.render(end)
    res = await say(app, "/res")
    assert res.data is not None
    assert res.data["resources"]["player:ann"]["cp"] == 0
    assert res.data["resources"]["player:bob"]["cp"] == 0
    # Round 2 tie: priority to the player who went first in round 1 (Ann).
    prio = await say(app, "/aos priority apply dice=2,2", **bob)
    assert prio.data is not None and prio.data["outcome"]["winner_name"] == "Ann"


async def test_damage_table_follows_wounds_taken(app: App) -> None:
    ann = {"user": "ann", "name": "Ann"}
    await say(app, "/game new aos T", **ann)
    await say(app, "/unit add Drake wounds=16 save=3 bravery=9", **ann)
    table = await say(
        app,
        '/aos table Drake "0:move=12,claws=6 5:move=11,claws=5 9:move=10,claws=4 '
        '13:move=8,claws=3"',
        **ann,
    )
    assert table.ok, table.error
    await say(app, "/aos weapon Drake Claws attacks=@claws hit=3 wound=3 rend=-2 damage=2", **ann)
    first = await say(app, "/aos odds attacker=Drake attacks=6 hit=3 wound=3")
    assert first.data is not None
    await say(app, "/unit damage Drake 9", **ann)
    shown = await say(app, "/unit show Drake")
    assert "[9+] move=10 claws=4" in plain.render(shown)
    attack = await say(app, "/aos attack attacker=Drake save=7 dice=1,1,1,1")
    assert attack.data is not None and attack.data["outcome"]["attacks"] == 4


options = st.fixed_dictionaries(
    {},
    optional={
        "attacks": st.sampled_from(["3", "D3", "2d6", "0", "x", "D6+1", "", "999"]),
        "hit": st.sampled_from(["3", "3+", "7", "1", "-"]),
        "wound": st.sampled_from(["4", "2+", "0"]),
        "rend": st.sampled_from(["-1", "2", "-", "x", "-9"]),
        "damage": st.sampled_from(["1", "D3", "D6", "2d6", "30"]),
        "save": st.sampled_from(["4", "-", "7", "1", "8"]),
        "ward": st.sampled_from(["6", "5+", "1", "-"]),
        "hit_mod": st.sampled_from(["+1", "-2", "x", "+12"]),
        "reroll_save": st.sampled_from(["ones", "failed", "twice"]),
        "on6_hit": st.sampled_from(["extra_hit", "auto_wound", "mortal:2", "mortal", "rend:1"]),
        "on6_wound": st.sampled_from(["mortal:1", "rend:2", "rend:9", "extra_hit"]),
        "models": st.sampled_from(["1", "5", "0", "101"]),
        "wounds_per_model": st.sampled_from(["1", "3", "0"]),
    },
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(opts=options, odds=st.booleans())
async def test_random_options_give_a_result_or_a_user_error(
    app: App, opts: dict[str, str], odds: bool
) -> None:
    line = (
        "/aos " + ("odds " if odds else "attack ") + " ".join(f"{k}={v}" for k, v in opts.items())
    )
    reply = await say(app, line, seed=3)
    if reply.error is not None:
        assert not reply.error.code.startswith("internal"), reply.error
    else:
        assert reply.data is not None and reply.data["system"] == "aos"


async def test_miscast_mortal_wounds_are_warded_and_undone(app: App) -> None:
    await say(app, "/game new aos T")
    await say(app, "/unit add Wizard wounds=5 save=4 ward=5")
    # Miscast (1,1), D3 from a 6 = 3 mortal wounds; wards 5, 2, 6 negate 2 (L591, L601).
    cast = await say(app, "/aos cast value=6 target=Wizard apply dice=1,1,6,5,2,6")
    assert cast.ok, cast.error
    assert cast.data is not None
    assert cast.data["outcome"]["mortal_wounds"] == 3
    assert cast.data["outcome"]["ward_saved"] == 2 and cast.data["outcome"]["damage"] == 1
    assert "Ward 5+: [5, 2, 6] → 2 negated" in plain.render(cast)
    status = await say(app, "/game status")
    assert status.data is not None and status.data["state"]["units"][0]["damage"] == 1
    assert (await say(app, "/undo")).ok
    status = await say(app, "/game status")
    assert status.data is not None and status.data["state"]["units"][0]["damage"] == 0


async def test_other_checks_and_healing(app: App) -> None:
    await say(app, "/game new aos T")
    await say(app, "/unit add Lord wounds=6 save=3 bravery=7 hero=1")
    await say(app, "/unit add Guards models=5 wounds=1 save=5 bravery=6")
    await say(app, "/unit damage Lord 4")
    await say(app, "/unit damage Guards 4")
    # R26 (L301): 6 < Bravery 7 -> heal D3 (a 5 -> 3).
    rec = await say(app, "/aos check recovery target=Lord apply dice=3,3,5")
    assert rec.data is not None and rec.data["outcome"]["healed"] == 3
    # R27 (L309): 4 slain, dice 6,2,6,5 -> 2 return, to the unit that received Rally.
    assert (await say(app, "/res add cp 1")).ok
    assert (await say(app, "/aos command rally unit=Guards")).ok
    rally = await say(app, "/aos prova raccolta target=Guards apply dice=6,2,6,5")
    assert rally.data is not None and rally.data["outcome"]["returned"] == 2
    status = await say(app, "/game status")
    assert status.data is not None
    damage = {u["name"]: u["damage"] for u in status.data["state"]["units"]}
    assert damage == {"Lord": 1, "Guards": 2}
    dispel = await say(app, "/aos check dispel value=6 dice=3,3")  # R37 (L809)
    assert dispel.data is not None and dispel.data["outcome"]["dispelled"] is False
    banish = await say(app, "/aos check banish value=4 dice=5")  # R40 (L887)
    assert banish.data is not None and banish.data["outcome"]["banished"] is True
    lead = await say(app, "/aos check leadership general_slain dice=2")  # R24 (L289)
    assert lead.data is not None and lead.data["outcome"]["cp"] == 1
    bad = await say(app, "/aos check sing")
    assert bad.error is not None and bad.error.code == "aos.bad_check"


async def test_fighting_back_in_the_enemy_turn(app: App) -> None:
    ann, bob = {"user": "ann", "name": "Ann"}, {"user": "bob", "name": "Bob"}
    await say(app, "/game new aos T", **ann)
    await say(app, "/game join", **bob)
    await say(app, "/unit add Vindictors models=10 wounds=2 save=4", **ann)
    await say(app, "/unit add Gutrippaz models=10 wounds=2 save=5", **bob)
    await say(app, "/aos weapon Gutrippaz Spear attacks=1 hit=4 wound=4 damage=1", **bob)
    # It is Ann's turn; Bob's unit fights back in the combat phase and Bob applies it.
    faces = ["6"] * 20 + ["1"] * 10  # 10 hits, 10 wounds, 10 failed saves
    line = "/aos attack attacker=Gutrippaz target=Vindictors apply dice=" + ",".join(faces)
    back = await say(app, line, **bob)
    assert back.ok, back.error
    assert back.data is not None and back.data["outcome"]["damage"] == 10
    # Without an attacker of his own, Bob can't write damage to Ann's unit on her turn.
    denied = await say(
        app, "/aos attack attacks=1 hit=3 wound=3 target=Vindictors apply dice=6,6,1", **bob
    )
    assert denied.error is not None and denied.error.code == "perm.not_your_turn"


async def test_a_d3_shows_each_d6_face_and_what_it_counts_for(app: App) -> None:
    """Text and data agree (#21 item 9): a D3 is a D6 halved (rounding up), so the reply shows
    `5→3`, never a bare 5 for a D3 that came out 3."""
    seen = 0
    for seed in range(1, 8):
        reply = await say(app, "/aos attack attacks=D3 hit=2 wound=2 damage=D3 save=6", seed=seed)
        text = plain.render(reply)
        for line in text.splitlines():
            if line.startswith(("Attacks D3:", "Damage D3:")):
                shown = line.split("[", 1)[1].split("]", 1)[0].split(", ")
                for face in shown:
                    d6, d3 = (int(x) for x in face.split("→"))
                    assert 1 <= d6 <= 6 and d3 == (d6 + 1) // 2, line
                    seen += 1
    assert seen >= 7  # every attack shows its D3 attacks, and most their D3 damage


async def test_a_missing_value_hints_at_attacker_only_for_an_attack(app: App) -> None:
    """Found walking as a new player: `/aos weapon Knights Sword attacks=2` (and battleshock
    without bravery=) answered "hit= is needed (for an attack, attacker= with a weapon on its
    card also works)", an option /aos weapon doesn't have."""
    await say(app, "/game new aos", chat="console:hint")
    await say(app, "/unit add Knights models=5 wounds=2 save=4", chat="console:hint")
    for text in ("/aos weapon Knights Sword attacks=2", "/aos battleshock slain=2"):
        reply = await say(app, text, chat="console:hint")
        assert reply.error is not None and "attacker=" not in reply.error.message, text
    italian = await say(app, "/aos arma Knights Spada attacchi=2", chat="console:hint", lang="it")
    assert italian.error is not None and "attaccante=" not in italian.error.message
    assert italian.error.message.startswith("Serve colpire=")
    attack = await say(app, "/aos attack hit=3 wound=3")
    assert attack.error is not None and "attacker=" in attack.error.message
