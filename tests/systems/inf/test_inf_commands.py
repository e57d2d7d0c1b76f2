"""/inf through the registry with a real SQLite file: the chains and their JSON outcome names,
the odds twin, bad input, settings and a scripted game (units, weapons, Orders, attacks applied
to a target and undone, Loss of Lieutenant, Retreat!). Rulebook lines as in test_inf_rules."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import App
from bot.render import plain
from rules_core.systems.inf.models import AttackRequest, InfSettings, Side
from rules_core.systems.inf.odds import attack_odds
from tests.helpers import say


async def test_roll_and_ftf_chains(app: App) -> None:
    roll = await say(app, "/inf roll attr=12 mod=-3 dice=9")  # G-05, L407-409
    assert roll.ok, roll.error
    assert roll.data is not None and roll.data["system"] == "inf"
    assert roll.data["outcome"] == {"successes": 1, "criticals": 1, "target": 9}
    ftf = await say(app, "/inf ftf attr=11 burst=2 vs=12 vs_mod=3 dice=7,15,13")  # G-09
    assert ftf.data is not None
    assert ftf.data["outcome"] == {
        "active_hits": 0,
        "active_criticals": 0,
        "reactive_hits": 1,
        "reactive_criticals": 0,
    }
    assert [s["dice"] for s in ftf.data["steps"]] == [[7, 15], [13]]
    text = plain.render(ftf)
    assert "[7✓ 15✗]" in text and "12 +3 MOD" in text
    history = await say(app, "/roll history 1")
    assert history.data is not None and history.data["rolls"][0]["expression"].startswith("/inf")


async def test_attack_chain_in_cover_with_return_fire(app: App) -> None:
    # Combat example C1-C2 (L1485-1511): Angus, in cover, shoots back at 30 cm (12 +3 = 15);
    # Wen Liu 11 +3 -3 (Angus's cover) = 11 rolls 9 and wins; Angus saves DAM 13 with
    # ARM 1 + cover 3 on a 17.
    reply = await say(
        app,
        "/inf attack attr=12 mod=3 burst=3 dam=13 vs=11 vs_mod=3 vs_dam=13 my_arm=1 my_cover "
        "arm=1 dice=16,19,7,9,17",
    )
    assert reply.ok, reply.error
    assert reply.data is not None
    out = reply.data["outcome"]
    assert (out["active_hits"], out["reactive_hits"], out["active_wounds"]) == (0, 1, 0)
    assert out["target_wounds"] == 0 and out["target_state"] == "ok"
    assert out["active_state"] == "ok" and out["active_guts_roll"] is True  # C3
    steps = reply.data["steps"]
    assert [s["name"] for s in steps] == ["active", "reactive", "arm_save"]
    assert (steps[0]["target"], steps[1]["target"]) == (15, 11)
    assert steps[2]["total"] == 17 + 1 + 3
    assert "11 +3 MOD −3 cover" in plain.render(reply)


async def test_cover_and_range_are_listed_in_the_chain(app: App) -> None:
    reply = await say(
        app, "/inf attack attr=12 weapon=rifle burst=1 distance=35 arm=1 cover dice=9,13"
    )
    assert reply.ok, reply.error
    text = plain.render(reply)
    assert "12 +3 range −3 cover" in text  # L2862 +3 at 20-40 cm, L897-904 cover
    assert "+1 ARM +3 cover = 17" in text
    assert reply.data is not None and reply.data["outcome"]["target_wounds"] == 0


async def test_odds_twin_matches_the_rules_core(app: App) -> None:
    reply = await say(app, "/inf odds attr=13 burst=2 dam=13 ammo=DA vs=11 arm=2 w=1")
    assert reply.ok, reply.error
    assert reply.data is not None and reply.data["system"] == "inf"
    dist = dict(reply.data["distribution"])
    assert abs(sum(dist.values()) - 1) < 1e-12
    exact = attack_odds(
        AttackRequest(
            active=Side(attr=13, burst=2, dam=13, ammo="DA"), target=Side(attr=11, arm=2, w=1)
        ),
        InfSettings(),
    )
    for wounds, p in exact.target.wounds.items():
        assert abs(dist.get(wounds, 0) - float(p)) < 1e-12
    assert abs(reply.data["p_target_hit"] - float(exact.target.p_hit)) < 1e-12
    assert abs(reply.data["p_active_hit"] - float(exact.active.p_hit)) < 1e-12
    assert reply.data["p_active_hit"] > 0  # the reactive dodge can win
    hits = await say(app, "/inf odds attr=12 mod=-3 burst=2")
    assert hits.data is not None and hits.data["kind"] == "hits"
    assert abs(dict(hits.data["distribution"])[2] - 81 / 400) < 1e-12  # 9/20 squared
    assert abs(hits.data["mean"] - float(Fraction(2 * 9, 20))) < 1e-12


async def test_bad_input_is_one_sentence_with_the_syntax(app: App) -> None:
    cases = {
        "/inf attack dam=13": "attr",
        "/inf attack attr=12 dam=13 ammo=LASER": "LASER",
        "/inf attack attr=12 dam=13 dice=5": "dice",
        "/inf attack attr=12 distance=30": "weapon",
        "/inf range weapon=Rifle distance=121": "120",
        "/inf weapon add name=HMG bands=40:0,20:3 dam=15 burst=4": "bands",
        "/inf ftf attr=12": "vs",
    }
    for text, word in cases.items():
        reply = await say(app, text)
        assert not reply.ok, text
        message = plain.render(reply)
        assert ("Traceback" not in message and "\n" not in message.strip()) or (
            "Syntax:" in message
        ), text
        assert word.lower() in message.lower(), (text, message)
    it = await say(app, "/inf attacco attributo=12 danno=13 munizione=LASER", lang="it")
    assert not it.ok and "Sintassi" in plain.render(it)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    words=st.lists(
        st.sampled_from(
            [
                "attr=",
                "attr=12",
                "mod=-40",
                "mod=+3",
                "burst=7",
                "burst=3",
                "vs=11",
                "dam=13",
                "ammo=DA",
                "ammo=xx",
                "arm=1",
                "bts=-3",
                "cover",
                "w=0",
                "vs_dam=13",
                "vs_ammo=EXP",
                "my_arm=2",
                "weapon=rifle",
                "weapon=nope",
                "distance=999",
                "distance=30",
                "cc",
                "target=Nobody",
                "apply",
                "dice=1,2,3",
                "dice=x",
                "ph=10",
                "=",
                "€",
                "attr=12=3",
            ]
        ),
        max_size=8,
    ),
    verb=st.sampled_from(["attack", "odds", "roll", "ftf", "range", "initiative"]),
)
async def test_any_option_mix_gives_a_reply_or_one_error(
    app: App, words: list[str], verb: str
) -> None:
    reply = await say(app, f"/inf {verb} " + " ".join(words), seed=1)
    text = plain.render(reply)
    assert "Traceback" not in text
    if not reply.ok:
        assert reply.error is not None and reply.error.message.strip()


async def game(app: App) -> None:
    steps = [
        ("alice", "/game new inf"),
        ("bob", "/game join"),
        ("alice", "/unit add Angus bs=12 cc=13 ph=10 wip=12 arm=1 w=1 pts=10 lt=1"),
        ("alice", "/unit add Silva bs=12 cc=13 ph=10 wip=12 arm=1 w=1 pts=10"),
        ("bob", "/unit add WenLiu bs=11 cc=14 ph=10 wip=13 arm=1 bts=3 w=1 pts=12 lt=1"),
        ("bob", "/unit add JangQi bs=11 cc=14 ph=10 wip=13 arm=1 w=1 pts=12 irr=1"),
    ]
    for user, text in steps:
        reply = await say(app, text, user=user)
        assert reply.ok, (text, reply.error)


async def test_scripted_game(app: App) -> None:
    await game(app)
    # Weapons: a custom HMG for the game, the Rifle built in (L2845-2865).
    hmg = await say(
        app, "/inf weapon add name=HMG bands=20:0,40:+3,60:-3,120:-6 dam=15 burst=4", user="bob"
    )
    assert hmg.ok, hmg.error
    rng = await say(app, "/inf range weapon=hmg distance=15")
    assert rng.data is not None and rng.data["mod"] == 0  # L874
    loadout = await say(app, "/inf loadout Angus weapons=Rifle", user="alice")
    assert loadout.ok and "Rifle" in plain.render(loadout)
    refused = await say(app, "/inf loadout Angus weapons=HMG", user="bob")
    assert not refused.ok

    # Orders: the first turn is counted when first asked (L529-537, L719-734).
    orders = await say(app, "/inf orders", user="alice")
    assert orders.data is not None
    alice = orders.data["players"]["alice"]
    assert alice["groups"]["orders"] == 2 and alice["lt"] == 1
    spend = await say(app, "/inf orders spend unit=Angus lt", user="alice")
    assert spend.data is not None and spend.data["lt"] == 0
    not_yours = await say(app, "/inf orders spend unit=Angus", user="bob")
    assert not not_yours.ok
    # The unit as typed after the action, as /unit damage NAME takes it (found walking: refused)
    typed = await say(app, "/inf ordini spendi Angus", user="alice", lang="it")
    assert typed.ok, typed.error

    # Angus shoots Wen Liu at 30 cm (Rifle +3): one ARM roll failed -> Unconscious (L1368-1389)
    shot = await say(
        app,
        "/inf attack attacker=Angus target=WenLiu distance=30 vs=11 vs_dam=13 apply "
        "dice=5,9,12,10,3",
        user="alice",
    )
    assert shot.ok, shot.error
    assert shot.data is not None
    assert shot.data["outcome"]["target_state"] == "unconscious"
    assert shot.data["steps"][0]["target"] == 15
    status = await say(app, "/game status")
    assert "Unconscious" in plain.render(status)
    undo = await say(app, "/undo", user="alice")
    assert undo.ok
    status = await say(app, "/game status")
    assert "Unconscious" not in plain.render(status)
    # Bob may not apply an attack on his turn-less side against Alice's models.
    sneaky = await say(
        app, "/inf attack attacker=WenLiu target=Angus dam=13 attr=11 apply dice=1,1", user="bob"
    )
    assert not sneaky.ok

    # Three failed saves: more wounds than W -> Dead (L1390-1393); Retreat! reads the points.
    dead = await say(
        app,
        "/inf attack attacker=Angus target=WenLiu distance=30 apply dice=5,9,12,3,1,1",
        user="alice",
    )
    assert dead.data is not None and dead.data["outcome"]["target_state"] == "dead"
    retreat = await say(app, "/inf retreat")
    assert retreat.data is not None
    bob_row = next(r for r in retreat.data["players"] if r["player"] == "bob")
    assert (bob_row["lost"], bob_row["total"], bob_row["retreat"]) == (12, 24, False)

    # Bob's turn starts without his Lieutenant: only 2 Orders (L1460-1471).
    end = await say(app, "/turn end", user="alice")
    assert end.ok, end.error
    text = plain.render(end)
    assert "Loss of Lieutenant" in text
    orders = await say(app, "/inf orders", user="bob")
    assert orders.data is not None
    bob = orders.data["players"]["bob"]
    assert bob["groups"]["orders"] == 2 and bob["lt"] == 0 and bob["irregular"] == {"JangQi": 0}
    # the board names them as what they are, any model's (L1463-1469), not group 1's
    shown = plain.render(orders)
    assert "bob: Loss of Lieutenant reserve: 2 · Lieutenant 0" in shown


async def test_settings_are_for_admins_and_change_the_rule(app: App) -> None:
    refused = await say(app, "/inf settings retreat=gt", user="carl")
    assert not refused.ok
    at_sixty = "/inf retreat lost=180 total=300"  # exactly 60%: L1452-1453 vs L3977-3978
    before = await say(app, at_sixty)
    assert before.data is not None and before.data["players"][0]["retreat"] is True
    changed = await say(app, "/inf settings retreat=gt", admin=True)
    assert changed.ok and changed.data is not None
    assert changed.data["settings"]["retreat"] == "gt"
    after = await say(app, at_sixty)
    assert after.data is not None and after.data["players"][0]["retreat"] is False
    other_chat = await say(app, at_sixty, chat="console:other")
    assert other_chat.data is not None and other_chat.data["players"][0]["retreat"] is True
    initiative = await say(app, "/inf initiative wip=12 vs=12 dice=7,18")  # I-1, L754-766
    assert initiative.data is not None and initiative.data["outcome"]["winner"] == "player"
    await say(app, "/inf settings initiative=sum", admin=True)
    initiative = await say(app, "/inf initiative wip=12 vs=12 dice=7,18")
    assert initiative.data is not None and initiative.data["outcome"]["winner"] == "opponent"


async def test_retreat_from_given_points_names_no_one(app: App) -> None:
    """Found walking as a new player: points given by hand (no player) read `-: lost 3 of 10`."""
    for lang, text, start in (
        ("en", "/inf retreat lost=3 total=10", "Points lost: 3 of 10"),
        ("it", "/inf ritirata persi=3 totale=10", "Punti persi: 3 su 10"),
    ):
        lines = plain.render(await say(app, text, lang=lang)).splitlines()
        assert lines[1].startswith(start), lines


async def test_pb_is_taken_as_the_profile_prints_it(app: App) -> None:
    """Found walking: a profile card prints PB as a negative number (the book's tables: PB 0,
    -3, -6, L1751-1757; the drop capsule's -9, L3749), and `/unita aggiungi ... pb=-3` was
    refused ("PB deve essere tra 0 e 12"), `/armata aggiungi` too. The PB roll uses it as a
    positive value (L1344-1348), and so does a Normal roll on it."""
    await say(app, "/partita nuova inf", user="alice", lang="it")
    await say(app, "/partita entra", user="bob", lang="it")
    added = await say(
        app, "/unita aggiungi Fusilier cd=12 fis=10 vol=13 arm=1 pb=-3 f=1", user="alice", lang="it"
    )
    assert added.ok, added.error
    roster = await say(
        app, "/armata aggiungi Alguacil cd=11 fis=10 arm=1 pb=-6 f=1", user="bob", lang="it"
    )
    assert roster.ok, roster.error
    assert "PB -3" in plain.render(await say(app, "/unita mostra Fusilier", lang="it"))
    # E/M on the Fusilier: its PB roll is the die plus 3, against Damage 13 (9 + 3 = 12 fails)
    em = await say(app, "/inf attack target=Fusilier attr=13 ammo=em dam=13 dice=5,9", user="bob")
    assert em.ok, em.error
    assert em.data is not None
    (save,) = [s for s in em.data["steps"] if s["name"] == "bts_save"]
    assert save["modifiers"] == [{"name": "bts", "value": 3}] and save["total"] == 12
    normal = await say(app, "/inf roll target=Fusilier stat=bts dice=3", user="alice")
    assert normal.ok, normal.error
    assert normal.data is not None and normal.data["outcome"]["target"] == 3


async def test_an_immobilised_model_neither_attacks_nor_reacts(app: App) -> None:
    """A code audit: a model with the IMM marker (after E/M or ADH) still got an opposed shot
    back, a Dodge and attacks. It can make no action that involves movement, shooting or close
    combat (L1412-1420, p. 22)."""
    await say(app, "/game new inf", user="alice")
    await say(app, "/game join", user="bob")
    assert (await say(app, "/unit add Jaguar bs=11 ph=11 arm=1 w=1", user="alice")).ok
    assert (await say(app, "/unit add Hulk bs=12 ph=12 arm=4 w=2 type=3", user="bob")).ok
    assert (await say(app, "/unit cond Hulk add imm", user="bob")).ok
    react = await say(app, "/inf attack target=Hulk attr=11 dam=13 vs=12", user="alice")
    assert react.error is not None and react.error.code == "inf.cannot_react_imm"
    assert "leave out vs=" in react.error.message
    normal = await say(app, "/inf attack target=Hulk attr=11 dam=13 dice=5,15", user="alice")
    assert normal.ok, normal.error
    act = await say(app, "/inf attack attacker=Hulk attr=12 dam=13 vs=11", user="bob")
    assert act.error is not None and act.error.code == "inf.cannot_act_imm"


async def test_a_recount_in_the_turn_refills_nothing(app: App) -> None:  # p. 9, L576-578
    await game(app)
    assert (await say(app, "/inf orders spend Silva n=2", user="alice")).ok
    assert (await say(app, "/unit damage Silva 2", user="alice")).ok  # Dead in an ARO
    again = await say(app, "/inf ordini ricalcola", user="alice", lang="it")
    assert again.ok, again.error
    assert again.data is not None and again.data["groups"]["orders"] == 0
    assert "contati all'inizio del suo turno" in plain.render(again)
    # Bob asking for his count in Alice's turn counts nothing, and Alice's stays spent
    his = await say(app, "/inf orders recount", user="bob")
    assert his.ok and "at the start of their active turn" in plain.render(his)
    more = await say(app, "/inf orders spend Angus", user="alice")
    assert more.error is not None and more.error.code == "inf.not_enough_orders"


async def test_a_new_lieutenant_is_named_for_2_orders(app: App) -> None:  # p. 23, L1460-1477
    await game(app)
    assert (await say(app, "/inf orders", user="alice")).ok  # counted: 2 Orders, Lieutenant 1
    assert (await say(app, "/unit damage Angus 2", user="alice")).ok  # the Lieutenant Dead
    free = await say(app, "/unit set Silva lt=1", user="alice", lang="it")
    assert free.error is not None and free.error.code == "inf.lieutenant_by_hand"
    assert "/inf ordini nomina Silva" in free.error.message
    named = await say(app, "/inf ordini nomina Silva", user="alice", lang="it")
    assert named.ok, named.error
    assert named.data is not None and named.data["lieutenant"] == "Silva"
    assert named.data["groups"]["orders"] == 0 and named.data["lt"] == 0
    assert "Silva è il nuovo Tenente: spesi 2 Ordini" in plain.render(named)
    again = await say(app, "/inf orders lieutenant Silva", user="alice")
    assert again.error is not None and again.error.code == "inf.lieutenant_standing"


async def test_army_save_keeps_the_loadout_changed_after_the_import(app: App) -> None:
    for text in (
        "/game new inf",
        "/army add Fusilier bs=12 w=1 | HMG: dam=15 burst=4 bands=20:0,40:+3",
        "/inf weapon add name=Pistol bands=20:+3,40:0 dam=11 burst=2",
        "/inf equipaggia Fusilier armi=Pistol,Fucile",
    ):
        assert (await say(app, text, user="alice", lang="it")).ok, text
    assert (await say(app, "/armata salva Mia", user="alice", lang="it")).ok
    shown = plain.render(await say(app, "/armata mostra Mia", user="alice", lang="it"))
    assert "| Pistol: danno=11 raffica=2 munizioni=N fasce=20:+3,40:0 | Fucile" in shown
    assert "HMG" not in shown


async def test_a_shot_back_at_an_area_template_is_face_to_face_as_in_attack(app: App) -> None:
    await game(app)  # p. 7, p. 15: WenLiu answers the Light GL with his own shot
    lgl = "/inf weapon add name=LGL bands=20:0,40:+3,60:-3,120:-6 dam=14 burst=1 template=area"
    assert (await say(app, lgl, user="alice")).ok
    shot = await say(
        app,
        "/inf sagoma arma=LGL attributo=12 distanza=30 bersagli=WenLiu,JangQi contro=11 dadi=9,10",
        user="alice",
        lang="it",
    )
    assert shot.ok, shot.error
    assert shot.data is not None
    assert [t["hits"] for t in shot.data["outcome"]["targets"]] == [0, 0]
    assert "WenLiu vince il Lancio a Confronto" in plain.render(shot)
    # the odds are /inf odds's for the same shot and the same shot back
    odds = await say(
        app, "/inf template weapon=LGL attr=12 distance=30 targets=WenLiu vs=11 odds", user="alice"
    )
    duel = await say(
        app,
        "/inf odds attacker=Angus target=WenLiu weapon=LGL distance=30 vs=11 vs_dam=13",
        user="alice",
    )
    assert odds.data is not None and duel.data is not None
    (wen,) = odds.data["targets"]
    assert wen["p_hit"] == duel.data["p_target_hit"]
    assert wen["p_shot_back"] == duel.data["p_active_hit"]
    both = await say(
        app, "/inf template weapon=LGL attr=12 targets=WenLiu dodge=WenLiu vs=11", user="alice"
    )
    assert both.error is not None and both.error.code == "inf.template_vs_or_dodge"


async def test_a_shot_back_that_wins_a_template_roll_is_saved_and_applied_here(app: App) -> None:
    await game(app)  # L407-431, L1332-1341: WenLiu's Combi Rifle (Damage 13) beats the LGL
    lgl = "/inf weapon add name=LGL bands=20:0,40:+3,60:-3,120:-6 dam=14 burst=1 template=area"
    assert (await say(app, lgl, user="alice")).ok
    shot = await say(
        app,
        "/inf sagoma arma=LGL attributo=12 distanza=30 bersagli=WenLiu contro=11 "
        "danno_contro=13 attaccante=Angus dadi=9,10,12 applica",
        user="alice",
        lang="it",
    )
    assert shot.ok, shot.error
    assert shot.data is not None
    assert [s["name"] for s in shot.data["steps"]] == ["attack", "reactive", "arm_save"]
    back = shot.data["outcome"]["targets"][0]["shot_back"]
    assert (back["name"], back["hits"], back["wounds"], back["state"]) == (
        "Angus",
        1,
        1,
        "unconscious",
    )
    assert shot.data["applied"] == ["WenLiu", "Angus"]
    text = plain.render(shot)
    assert "Angus: 1 colpo, 1 ferita" in text and "Incosciente" in text
    angus = await say(app, "/unit show Angus", user="alice")
    assert angus.data is not None and angus.data["unit"]["damage"] == 1
    # the odds: /inf odds's for Angus hit by the same shot back
    odds = await say(
        app,
        "/inf template weapon=LGL attr=12 distance=30 targets=WenLiu vs=11 vs_dam=13 "
        "attacker=Silva odds",
        user="alice",
    )
    duel = await say(
        app,
        "/inf odds attacker=Silva target=WenLiu weapon=LGL distance=30 vs=11 vs_dam=13",
        user="alice",
    )
    assert odds.ok and duel.ok, (odds.error, duel.error)
    assert odds.data is not None and duel.data is not None
    shooter = odds.data["shooter"]
    assert shooter["name"] == "Silva" and shooter["p_hit"] == duel.data["p_active_hit"]
    assert shooter["wounds"] == duel.data["active_wounds"]
    assert shooter["p_unconscious"] == duel.data["p_active_unconscious"]
    assert "Silva: " in plain.render(odds)
    # the shooter named in cover=: -3 to the shot back, +3 to its ARM (L897-908)
    covered = await say(
        app,
        "/inf template weapon=LGL attr=12 distance=30 targets=WenLiu vs=11 vs_dam=13 "
        "attacker=Silva cover=Silva dice=6,7,10",
        user="alice",
    )
    assert covered.ok, covered.error
    assert covered.data is not None
    steps = covered.data["steps"]
    assert steps[1]["target"] == 8 and steps[2]["total"] == 14
    assert covered.data["outcome"]["targets"][0]["shot_back"]["wounds"] == 0


async def test_removing_a_game_weapon_unloads_it_with_the_owners_rights(app: App) -> None:
    await game(app)
    hmg = "/inf weapon add name=HMG bands=20:0,40:+3,60:-3,120:-6 dam=15 burst=4"
    assert (await say(app, hmg, user="bob")).ok
    assert (await say(app, "/inf loadout Angus weapons=HMG,Rifle", user="alice")).ok
    theirs = await say(app, "/inf weapon remove name=HMG", user="bob")
    assert theirs.error is not None and theirs.error.code.startswith("perm.")
    gone = await say(app, "/inf arma rimuovi nome=HMG", user="alice", lang="it")
    assert gone.ok, gone.error
    assert "HMG non è più tra le armi di: Angus." in plain.render(gone)
    shot = await say(app, "/inf attack attacker=Angus target=WenLiu dice=20,20,20", user="alice")
    assert shot.ok, shot.error  # its first weapon now: the Rifle
