"""Issue 25 item 6 for Infinity: `attack unit=… weapon=… target=…` takes the attribute, the
weapon (Damage, Burst, ammunition, range bands) and both profiles from the game's stored units
and weapons; options given on the line override them."""

from __future__ import annotations

from bot.app import App
from tests.helpers import say


async def test_attack_takes_everything_from_the_stored_units(app: App) -> None:
    for user, text in (
        ("alice", "/game new inf"),
        ("bob", "/game join"),
        ("alice", "/unit add Angus bs=12 cc=13 ph=10 arm=1 w=1 lt=1"),
        ("bob", "/unit add WenLiu bs=11 cc=14 ph=10 arm=2 bts=3 w=1 lt=1"),
        ("alice", "/inf weapon add name=HMG bands=20:0,40:+3,60:-3,120:-6 dam=15 burst=4 ammo=DA"),
        ("alice", "/inf loadout Angus weapons=Rifle,HMG"),
    ):
        reply = await say(app, text, user=user)
        assert reply.ok, (text, reply.error)
    shot = await say(
        app,
        "/inf attack unit=Angus weapon=HMG target=WenLiu distance=30 dice=5,20,20,20,20,20",
        user="alice",
    )
    assert shot.ok, shot.error
    assert shot.data is not None
    steps = shot.data["steps"]
    # BS 12 +3 (HMG at 30 cm), B4; DA: two ARM rolls at ARM 2 against Damage 15
    assert steps[0]["target"] == 15 and len(steps[0]["dice"]) == 4
    assert [s["name"] for s in steps[1:]] == ["arm_save"] * 2
    assert steps[1]["target"] == 15 and steps[1]["total"] == 20 + 2  # saved
    # Italian names, and options override the stored profile: Damage 13, Normal ammunition
    it = await say(
        app,
        "/inf attacco unita=Angus arma=Rifle bersaglio=WenLiu distanza=10 danno=10 munizione=N "
        "dice=4,20,20,8",
        user="alice",
        lang="it",
    )
    assert it.ok, it.error
    assert it.data is not None
    save = it.data["steps"][1]
    assert (save["target"], save["total"]) == (10, 8 + 2)
    assert it.data["outcome"]["target_wounds"] == 1
    # no weapon named: the first of the loadout (the Rifle: Damage 13, B3)
    first = await say(app, "/inf attack unit=Angus target=WenLiu dice=20,20,20", user="alice")
    assert first.ok and first.data is not None
    assert len(first.data["steps"][0]["dice"]) == 3
