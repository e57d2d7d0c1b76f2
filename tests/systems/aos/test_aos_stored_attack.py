"""Issue 25 item 6, Age of Sigmar: `/aos attack unit=… weapon=… target=…` takes the weapon from
the attacking unit's stored profile (an army list here) and the save, ward and size from the
target; every option typed overrides the stored value."""

from __future__ import annotations

from bot.app import App
from tests.helpers import say

ARMY = (
    "/army add\n5x Liberators save=4 wounds=2 bravery=6"
    " | Warhammer: attacks=2 hit=3+ wound=3+ rend=-1 damage=1"
    " | Grandhammer: attacks=2 hit=4+ wound=3+ rend=-1 damage=2\n"
)


async def test_attack_takes_weapon_and_target_from_the_stored_units(app: App) -> None:
    assert (await say(app, "/game new aos T")).ok
    assert (await say(app, ARMY)).ok, "army"
    assert (await say(app, "/unit add Gutrippaz models=10 wounds=1 save=5 ward=6")).ok
    # 5 models x 2 attacks; all 6s hit and wound; saves 5+ at -1 fail on 1s; wards 6+ fail on 1s.
    faces = ["6"] * 20 + ["1"] * 10 + ["1"] * 10
    reply = await say(
        app,
        "/aos attack unit=Liberators weapon=Warhammer target=Gutrippaz dice=" + ",".join(faces),
    )
    assert reply.ok, reply.error
    assert reply.data is not None
    assert (reply.data["attacker"], reply.data["weapon"], reply.data["target"]) == (
        "Liberators",
        "Warhammer",
        "Gutrippaz",
    )
    out = reply.data["outcome"]
    assert (out["attacks"], out["hits"], out["damage"], out["models_slain"]) == (10, 10, 10, 10)
    hit, wound, save = reply.data["steps"][:3]
    assert (hit["target"], wound["target"], save["target"]) == (3, 3, 5)
    assert sum(m["value"] for m in save["modifiers"]) == -1  # Rend -1
    # Italian names, and typed options over the stored ones: hit=5, damage=2, save=3.
    override = await say(
        app,
        "/aos attacco unita=Liberators arma=grand bersaglio=Gutrippaz colpire=5 salvezza=3 "
        "dadi=" + ",".join(["5"] * 10 + ["3"] * 10 + ["1"] * 10 + ["1"] * 20),
        lang="it",
    )
    assert override.ok, override.error
    assert override.data is not None and override.data["weapon"] == "Grandhammer"
    steps = override.data["steps"]
    assert [s["target"] for s in steps[:3]] == [5, 3, 3]
    out = override.data["outcome"]
    assert (out["hits"], out["wounds"], out["unsaved"], out["damage"]) == (10, 10, 10, 20)
    assert out["models_slain"] == 10 and out["damage_lost"] == 10
