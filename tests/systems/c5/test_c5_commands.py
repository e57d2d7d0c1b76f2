"""/c5 through the registry with a real SQLite file: chains, odds, bad input, settings and a
scripted game (units by size, wounds and Stordito applied and undone, mana, faith, rally)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import App
from bot.render import plain
from tests.helpers import say


async def test_test_chain_with_natural_one(app: App) -> None:
    reply = await say(app, "/c5 test value=5 diff=2 dice=6,1,3")  # T02 @5455
    assert reply.ok, reply.error
    assert reply.data is not None and reply.data["system"] == "c5"
    assert reply.data["outcome"] == {
        "total": 2,
        "success": True,
        "natural_one": True,
        "failed": False,
        "reroll": 3,
    }
    assert reply.data["steps"][0]["dice"] == [6, 1, 3]
    assert "[6, 1, 3] +5 value (natural 1: reroll 3 subtracted) = 2 vs 2" in plain.render(reply)
    history = await say(app, "/roll history 1")
    assert history.data is not None and history.data["rolls"][0]["expression"].startswith("/c5")


async def test_wound_melee_shoot_chains(app: App) -> None:
    wound = await say(app, "/c5 wound str=7 res=8 scourge dice=5,6")  # R11
    assert wound.data is not None
    out = wound.data["outcome"]
    assert (out["location"], out["wounds"], out["stunned"], out["exceptional"]) == (
        5,
        4,
        False,
        False,
    )
    melee = await say(app, "/c5 melee att=5 def=4 str=7 res=6 dice=4,2,2,5")
    assert melee.data is not None
    assert [s["name"] for s in melee.data["steps"]] == ["attack", "defence", "wound"]
    assert melee.data["outcome"]["hit"] and melee.data["outcome"]["wounds"] == 1
    parried = await say(app, "/c5 mischia att=5 dif=4 for=7 res=6 dadi=4,5", lang="it")
    assert parried.data is not None and parried.data["outcome"]["parried"]
    assert "Parato" in plain.render(parried)
    shot = await say(app, "/c5 shoot aim=4 range=medium str=6 res=5 bullseye dice=6,2,3,4")
    assert shot.data is not None
    assert shot.data["steps"][0]["target"] == 10 and shot.data["outcome"]["wounds"] == 2
    assert "+3 Aim" in plain.render(shot)


async def test_odds_shapes(app: App) -> None:
    wound = await say(app, "/c5 odds wound str=7 res=6")
    assert wound.data is not None and wound.data["system"] == "c5"
    dist = dict(wound.data["distribution"])
    assert abs(sum(dist.values()) - 1) < 1e-12
    assert abs(wound.data["p_stunned"] - 3 / 36) < 1e-12
    test = await say(app, "/c5 odds test value=5 diff=9")
    assert test.data is not None and abs(test.data["p_success"] - 7 / 15) < 1e-12
    assert test.data["p_success_exact"] == "7/15"
    melee = await say(app, "/c5 odds melee att=5 def=4 str=7 res=6")
    assert melee.data is not None and 0 < melee.data["p_hit"] < 1


async def test_bad_input_is_one_sentence(app: App) -> None:
    huge = await say(app, "/c5 wound str=99 res=3")
    assert huge.error is not None and huge.error.code == "cmd.int_range"
    missing = await say(app, "/c5 melee att=5")
    assert missing.error is not None and missing.error.code == "c5.missing_stat"
    assert "Syntax: /c5 melee" in plain.render(missing)
    few = await say(app, "/c5 wound str=5 res=5 dice=3")
    assert few.error is not None and few.error.code.startswith("dice.not_enough")
    extra = await say(app, "/c5 wound str=5 res=5 dice=3,4,5")
    assert extra.error is not None and extra.error.code == "dice.unused_dice"
    mira = await say(app, "/c5 shoot aim=4 str=5 res=5 fire=assault bullseye")
    assert mira.error is not None and mira.error.code == "c5.mira_free_fire"
    apply = await say(app, "/c5 wound str=5 res=5 apply")
    assert apply.error is not None and apply.error.code == "c5.apply_needs_target"


async def test_settings_per_chat(app: App) -> None:
    refused = await say(app, "/c5 settings range_long=12", chat="console:s")
    assert refused.error is not None and refused.error.code == "c5.settings_admin_only"
    ok = await say(app, "/c5 settings range_long=12 open_ended=no", chat="console:s", admin=True)
    assert ok.data is not None and ok.data["settings"]["range_long"] == 12
    shot = await say(app, "/c5 shoot aim=4 range=long str=5 res=5 dice=6", chat="console:s")
    assert shot.data is not None
    assert shot.data["steps"][0]["target"] == 12 and shot.data["outcome"]["total"] == 10
    other = await say(app, "/c5 shoot aim=4 range=long str=5 res=5 dice=2", chat="console:t")
    assert other.data is not None and other.data["steps"][0]["target"] == 13


async def test_scripted_game(app: App) -> None:
    chat = "console:c5game"
    assert (await say(app, "/game new c5 Skirmish", user="ann", chat=chat)).ok
    assert (await say(app, "/game join", user="bob", chat=chat)).ok
    add = await say(
        app, "/unit add Abel att=5 str=7 def=4 res=6 ini=4 size=2 warrior=1", user="ann", chat=chat
    )
    assert add.ok, add.error
    add = await say(
        app, "/unit add Mage att=2 str=3 def=2 res=5 pow=4 rank=2 size=2", user="bob", chat=chat
    )
    assert add.ok, add.error
    add = await say(app, "/unit add Troll att=4 str=9 res=9 size=3", user="bob", chat=chat)
    assert add.ok, add.error
    status = plain.render(await say(app, "/game status", user="ann", chat=chat))
    assert "5/5" in status and "4/4" in status and "INI ATT" not in status  # H03 Abel: 4 + 1
    for _ in range(2):  # melee blows are recorded in the combat phase (issue 22)
        assert (await say(app, "/phase next", user="ann", chat=chat)).ok
    # Abel (ATT 5) hits the Mage: attack 5+5=10, defence 2+2=4, wound dice 4,3: row 3, R 6 -> 2
    hit = await say(
        app,
        "/c5 melee attacker=Abel target=Mage parry apply dice=5,2,4,3",
        user="ann",
        chat=chat,
        admin=True,
    )
    assert hit.ok, hit.error
    assert hit.data is not None and hit.data["outcome"]["wounds"] == 2
    assert hit.data["applied"] == {"unit": "Mage", "wounds": 2, "stunned": False}
    status = plain.render(await say(app, "/game status", user="ann", chat=chat))
    assert "-2 INI ATT DEF AIM" in status and "Serious Wound" in plain.render(hit)
    # the Mage's wound penalty now lowers its DIF test: 2 - 2 + die 4 = 4
    again = await say(
        app, "/c5 melee attacker=Abel target=Mage parry dice=3,4,1,1", user="ann", chat=chat
    )
    assert again.data is not None and again.data["steps"][1]["total"] == 4
    # a stunning blow: Stordito until the end of the round
    stun = await say(
        app, "/c5 wound str=5 res=6 target=Abel apply dice=1,3", user="bob", chat=chat, admin=True
    )
    assert stun.data is not None and stun.data["outcome"]["stunned"]
    status = plain.render(await say(app, "/game status", user="ann", chat=chat))
    assert "-1 INI ATT DEF AIM" in status
    assert (await say(app, "/undo", user="bob", chat=chat, admin=True)).ok
    status = plain.render(await say(app, "/game status", user="ann", chat=chat))
    assert "-1 INI ATT DEF AIM" not in status  # Abel's Stordito undone (the Mage keeps -2)
    # mana: Adepto POW 4, die 5 -> 5 gems into the Mage's pool (G19)
    mana = await say(app, "/c5 mana target=Mage apply dice=5", user="bob", chat=chat)
    assert mana.data is not None and mana.data["applied"] == {"unit": "Mage", "mana": 5}
    # the Troll is killed by two heavy hits (5 wounds, large)
    for dice in ("6,6", "6,6"):
        blow = await say(
            app,
            f"/c5 wound str=15 res=9 target=Troll apply dice={dice}",
            user="ann",
            chat=chat,
            admin=True,
        )
        assert blow.ok, blow.error
    status = plain.render(await say(app, "/game status", user="ann", chat=chat))
    assert "0/5" in status and "destroyed" in status  # the Troll: killed


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    s=st.integers(-20, 60),
    r=st.integers(-20, 60),
    faces=st.lists(st.integers(0, 8), max_size=4),
)
async def test_random_options_give_a_result_or_a_sentence(
    app: App, s: int, r: int, faces: list[int]
) -> None:
    dice = ",".join(str(f) for f in faces)
    text = f"/c5 melee att={s % 25} def={r % 25} str={s} res={r}" + (
        f" dice={dice}" if dice else ""
    )
    reply = await say(app, text)
    assert reply.ok or (
        reply.error is not None and reply.error.code.split(".")[0] in ("cmd", "dice", "c5")
    )


async def test_italian_setting_values_as_the_italian_help_names_them(app: App) -> None:
    """#24: /c5 impostazioni takes the values its Italian help lists (seconda, risultato…)."""
    reply = await say(
        app,
        "/c5 impostazioni meno_tre=seconda penalita_mischia=risultato parata_pari=attaccante"
        " tiri_aperti=no",
        lang="it",
        admin=True,
    )
    assert reply.ok, reply.error
    assert reply.data is not None
    settings = reply.data["settings"]
    assert (settings["minus_three"], settings["melee_penalty"]) == ("second", "result")
    assert (settings["parry_tie"], settings["open_ended"]) == ("attacker", "no")
    shot = await say(app, "/c5 tiro tir=4 gittata=corta fuoco=assalto forza=7 res=5 dadi=5,3,4")
    assert shot.data is not None and shot.data["steps"][0]["target"] == 7
