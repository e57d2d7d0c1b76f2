"""/inf template, /inf split, /inf heal, /inf orders coordinate, PH-based weapons and the book's
weapon and ammunition names in the chat's language, through the registry with a real SQLite
file (issue 23; the rules are tested in test_multi_model)."""

from __future__ import annotations

import re

from bot.app import App
from bot.render import plain
from tests.helpers import say


async def setup(app: App) -> None:
    for user, text in [
        ("alice", "/game new inf"),
        ("bob", "/game join"),
        ("alice", "/unit add Angus bs=12 cc=13 ph=10 wip=12 arm=1 w=1 lt=1 pts=20"),
        ("alice", "/unit add Silva bs=12 cc=13 ph=10 wip=13 arm=1 w=1 pts=20"),
        ("alice", "/unit add Doucher bs=12 cc=13 ph=10 wip=12 arm=1 w=1 pts=20"),
        ("bob", "/unit add WenLiu bs=11 cc=14 ph=14 wip=13 arm=1 bts=3 w=2 lt=1 pts=30"),
    ]:
        reply = await say(app, text, user=user)
        assert reply.ok, (text, reply.error)


async def test_range_answers_in_the_chats_language(app: App) -> None:
    it = await say(app, "/inf gittata arma=Fucile distanza=35", lang="it")
    assert it.ok, it.error
    assert "Fucile a 35 cm" in plain.render(it) and "Rifle" not in plain.render(it)
    en = await say(app, "/inf range weapon=Fucile distance=35", lang="en")
    assert "Rifle at 35 cm" in plain.render(en) and "Fucile" not in plain.render(en)
    listed = await say(app, "/inf arma elenca", lang="it")
    text = plain.render(listed)
    assert "Fucile" in text and "Coltello" in text and "N (Normale)" in text
    assert "Danno FIS-2" in text  # the Knife (L3234-3235)


async def test_ammunition_names_in_both_languages(app: App) -> None:
    it = await say(
        app, "/inf attacco attributo=12 danno=13 munizione=doppia_azione dice=5,20,20", lang="it"
    )
    assert not it.ok  # an underscore is no name
    it = await say(
        app, '/inf attacco attributo=12 danno=13 munizione="Doppia Azione" dice=5,20,20', lang="it"
    )
    assert it.ok, it.error
    assert "DA (Doppia Azione)" in (it.title or "")
    en = await say(app, "/inf attack attr=12 dam=13 ammo=DA dice=5,20,20", lang="en")
    assert "DA (Double Action)" in (en.title or "")
    en = await say(app, '/inf attack attr=12 dam=13 ammo="Double Action" dice=5,20,20', lang="en")
    assert en.ok and "DA (Double Action)" in (en.title or "")


async def test_cc_weapon_damage_from_the_attackers_ph(app: App) -> None:  # L3153-3157
    await setup(app)
    hit = await say(app, "/inf attack unit=WenLiu weapon=CCW vs=13 target=Angus dice=9,20,20")
    assert hit.ok, hit.error
    assert hit.data is not None
    # Wen Liu's CC 14 against Angus's 13, Damage = Wen Liu's PH 14
    assert hit.data["steps"][0]["target"] == 14
    assert "DAM 14" in (hit.title or "")
    added = await say(app, "/inf weapon add name=Spada dam=PH+1 burst=1", user="alice")
    assert added.ok, added.error
    assert "DAM PH+1" in plain.render(added)
    cut = await say(app, "/inf attack unit=WenLiu weapon=Spada dice=3,20")
    assert cut.ok and "DAM 15" in (cut.title or "")
    bad = await say(app, "/inf weapon add name=Ascia dam=PHx2 burst=1", user="alice")
    assert not bad.ok and bad.error is not None and bad.error.code == "inf.bad_damage"


async def test_template_rolls_and_applies(app: App) -> None:  # L947-956
    await setup(app)
    reply = await say(
        app,
        "/inf template dam=13 ammo=FIRE targets=Angus,Silva dodge=Silva dice=3,2,20 apply",
        user="alice",
    )
    assert reply.ok, reply.error
    assert reply.data is not None
    # Silva dodges at PH 10-6 = 4 with a 3; Angus burns: 2 (a wound), then 20 (saved)
    names = [s["name"] for s in reply.data["steps"]]
    assert names == ["dodge", "arm_save", "arm_save"]
    angus, silva = reply.data["outcome"]["targets"]
    assert (angus["wounds"], angus["state"], silva["dodged"]) == (1, "unconscious", True)
    assert reply.data["applied"] == ["Angus", "Silva"]
    status = await say(app, "/game status")
    assert "Unconscious" in plain.render(status)
    undone = await say(app, "/undo", user="alice")
    assert undone.ok, undone.error


async def test_template_odds_and_refusals(app: App) -> None:
    odds = await say(app, "/inf template dam=13 arm=1 ph=10 dodge=all odds")
    assert odds.ok, odds.error
    assert odds.data is not None
    (t,) = odds.data["targets"]
    assert t["p_dodge"] == 0.2  # PH 10 - 6 = 4: 4 faces in 20
    assert t["p_hit"] == 0.8 and abs(t["p_unconscious"] - 0.8 * 12 / 20) < 1e-12
    bad = await say(app, "/inf template dam=13 apply")
    assert not bad.ok and bad.error is not None and bad.error.code == "inf.apply_needs_targets"
    bad = await say(app, "/inf template dam=13 dodge=Angus arm=1 ph=10")
    assert not bad.ok and bad.error is not None and bad.error.code == "inf.not_a_target"


async def test_split_with_units_and_odds(app: App) -> None:  # L454-469
    await setup(app)
    reply = await say(
        app,
        "/inf split attacker=Angus targets=WenLiu,Silva shots=2,1 vs=11,- vs_dam=13 dam=13 "
        "burst=3 dice=5,9,20,3,20,20,1",
        user="alice",
    )
    assert reply.ok, reply.error
    assert reply.data is not None
    wl, silva = reply.data["outcome"]["targets"]
    assert (wl["hits"], silva["hits"]) == (2, 1)
    assert (wl["wounds"], silva["wounds"]) == (0, 1)
    text = plain.render(reply)
    assert "against WenLiu:" in text and "against Silva:" in text
    odds = await say(
        app, "/inf split attr=12 burst=4 dam=15 shots=2,2 vs=11,11 vs_dam=13,13 arm=1,1 odds"
    )
    assert odds.ok, odds.error
    assert odds.data is not None and len(odds.data["targets"]) == 2
    first, second = ({k: v for k, v in t.items() if k != "name"} for t in odds.data["targets"])
    assert first == second  # the same two fights
    bad = await say(app, "/inf split attr=12 burst=3 dam=13 shots=2,2")
    assert not bad.ok and bad.error is not None and bad.error.code == "inf.split_too_many"


async def test_heal_medikit_and_doctor(app: App) -> None:  # L3617-3625, L2441-2451
    await setup(app)
    shot = await say(app, "/unit damage Angus 1", user="alice")
    assert shot.ok, shot.error
    healed = await say(app, "/inf cura medikit Angus applica dice=7", user="alice", lang="it")
    assert healed.ok, healed.error
    assert healed.data is not None and healed.data["outcome"]["result"] == "recovered"
    assert "Angus recupera 1 ferita" in plain.render(healed)
    again = await say(app, "/inf heal medikit Angus", user="alice")
    assert not again.ok and again.error is not None
    assert again.error.code == "inf.heal_needs_unconscious"
    await say(app, "/unit damage Angus 1", user="alice")
    odds = await say(app, "/inf heal doctor Angus doctor=Silva odds", user="alice")
    assert odds.ok, odds.error
    assert odds.data is not None and odds.data["odds"] == {"recovered": 0.65, "dead": 0.35}
    died = await say(app, "/inf heal doctor Angus doctor=Silva dice=14 apply", user="alice")
    assert died.ok and died.data is not None and died.data["outcome"]["result"] == "dead"
    status = await say(app, "/game status")
    assert "destroyed" in plain.render(status).lower()


async def test_coordinated_order(app: App) -> None:  # L1265-1311
    await setup(app)
    reply = await say(app, "/inf orders coordinate units=Angus,Silva,Doucher", user="alice")
    assert reply.ok, reply.error
    assert reply.data is not None and reply.data["coordinated"] == ["Angus", "Silva", "Doucher"]
    assert reply.data["groups"]["orders"] == 0  # 3 Orders counted, 3 spent
    assert "B3 → 2" in plain.render(reply)
    again = await say(app, "/inf ordini coordina miniature=Angus,Silva", user="alice", lang="it")
    assert not again.ok and again.error is not None and again.error.code == "inf.not_enough_orders"


async def test_unit_card_in_one_language(app: App) -> None:  # issue 24: not "Morto (Dead)"
    await setup(app)
    await say(app, "/unit damage Angus 1", user="alice")
    it = plain.render(await say(app, "/unita mostra Angus", lang="it"))
    en = plain.render(await say(app, "/unit show Angus", lang="en"))
    assert "Incosciente" in it and "Unconscious" not in it
    assert "Unconscious" in en and "Incosciente" not in en


async def test_odds_percentages_the_readers_way(app: App) -> None:  # issue 24: 12,5% in Italian
    for text in (
        "/inf prob attributo=12 danno=13 armatura=1",
        "/inf prob attributo=12 raffica=3 contro=11",
        "/inf sagoma danno=13 armatura=1 fis=10 schivano=tutti probabilita",
        "/inf cura medico vol=13 probabilita",
    ):
        reply = await say(app, text, lang="it")
        assert reply.ok, (text, reply.error)
        screen = plain.render(reply)
        assert re.search(r"\d,\d%", screen) and not re.search(r"\d\.\d%", screen), screen


async def test_L925_an_area_template_weapon_rolls_to_hit(app: App) -> None:  # L925-946, L1020
    await setup(app)
    added = await say(
        app,
        "/inf weapon add name=LGL bands=20:0,40:+3,60:-3,120:-6 dam=14 burst=1 template=area",
        user="alice",
    )
    assert added.ok, added.error
    # /inf attack rolls it against its target like any shot: BS 12 +3 at 30 cm, Face to Face
    # with Wen Liu's Dodge (PH 14, L1996-1998): 9 against his 12 (his is higher: dodged)
    shot = await say(
        app, "/inf attack attacker=Angus weapon=LGL distance=30 target=WenLiu vs=14 dice=9,12"
    )
    assert shot.ok, shot.error
    assert shot.data is not None
    assert [s["target"] for s in shot.data["steps"][:2]] == [15, 14]
    assert shot.data["outcome"]["active_hits"] == 0
    assert "/inf template" in plain.render(shot)  # the other models under it
    # /inf template rolls the attack too when given attr=: Silva dodges Face to Face, her 9 > 7
    both = await say(
        app,
        "/inf template weapon=LGL attr=12 distance=30 targets=WenLiu,Silva dodge=Silva dice=7,9,20",
    )
    assert both.ok, both.error
    assert both.data is not None
    assert [s["name"] for s in both.data["steps"]] == ["attack", "dodge", "arm_save"]
    wen, silva = both.data["outcome"]["targets"]
    assert (wen["hits"], silva["dodged"]) == (1, True)
    # a Dodge against an area template with no attack roll to face is refused in one sentence
    refused = await say(app, "/inf template weapon=LGL targets=Silva dodge=Silva")
    assert refused.error is not None and refused.error.code == "inf.area_dodge_needs_attr"


async def test_L966_a_thrown_grenade_rolls_on_ph(app: App) -> None:  # L966-968, L3338-3339
    await setup(app)
    added = await say(
        app,
        "/inf weapon add name=Granate bands=20:+3,40:0 dam=13 burst=1 template=thrown",
        user="alice",
    )
    assert added.ok, added.error
    assert "PH" in plain.render(added)
    # thrown weapons use PH instead of BS: Angus's PH 10 +3 at 15 cm, not his BS 12
    shot = await say(app, "/inf attack attacker=Angus weapon=Granate distance=15 dice=5,20")
    assert shot.ok, shot.error
    assert shot.data is not None
    assert (shot.data["steps"][0]["detail"]["attr"], shot.data["steps"][0]["target"]) == (10, 13)
    it = await say(
        app,
        "/inf arma aggiungi nome=Granate2 fasce=20:+3 danno=13 raffica=1 sagoma=lancio",
        user="alice",
        lang="it",
    )
    assert it.ok, it.error
