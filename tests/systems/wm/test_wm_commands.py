"""/wm commands through the registry with a real SQLite file, and a scripted game."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say

CHAT = "console:wm"


async def two_players(app: App, chat: str) -> None:
    """A WARMACHINE game in `chat`: ann organises it, bob joins."""
    for text, user in (("/game new wm", "ann"), ("/game join", "bob")):
        assert (await say(app, text, user=user, chat=chat)).ok


async def test_melee_charge_with_the_players_dice(app: App) -> None:
    reply = await say(
        app, "/wm attack mat=7 def=12 pow=12 str=10 arm=18 mods=charge dice=3,5,4,6,2"
    )
    assert reply.ok, reply.error
    assert reply.data is not None and reply.data["system"] == "wm"
    out = reply.data["outcome"]
    assert out["hit"] and not out["critical"]
    assert out["attack_total"] == 15 and out["damage_total"] == 34 and out["damage"] == 16
    assert [s["name"] for s in reply.data["steps"]] == ["defense", "attack", "damage"]
    text = plain.render(reply)
    assert "[3, 5] +7 MAT = 15 vs DEF 12 → hit" in text
    assert "[4, 6, 2] +12 POW +10 STR = 34 vs ARM 18 → 16 damage" in text
    history = await say(app, "/roll history 1")
    assert history.data is not None and history.data["rolls"][0]["expression"].startswith("/wm")


async def test_italian_ranged_miss_shows_the_def_chain(app: App) -> None:
    reply = await say(
        app,
        "/wm attacco tipo=ranged dat=6 dif=13 pot=10 arm=15 mod=mira,copertura dadi=2,3",
        lang="it",
    )
    assert reply.ok, reply.error
    assert reply.data is not None and reply.data["outcome"]["hit"] is False
    assert reply.data["outcome"]["damage_total"] is None
    text = plain.render(reply)
    assert "13 +4 copertura = 17" in text and "Mancato." in text


async def test_odds_and_bad_input(app: App) -> None:
    reply = await say(app, "/wm odds mat=7 def=12 pow=12 str=10 arm=18 mods=charge")
    assert reply.ok and reply.data is not None
    probs = dict((v, p) for v, p in reply.data["distribution"])
    assert abs(sum(probs.values()) - 1) < 1e-12
    assert abs(reply.data["p_hit"] - 30 / 36) < 1e-12
    assert abs(reply.data["p_critical"] - 4 / 36) < 1e-12
    double = await say(app, "/wm attack mat=7 def=12 pow=12 arm=18 mods=charge boost=damage")
    assert double.error is not None and double.error.code == "wm.double_boost"
    assert "Syntax: /wm attack" in plain.render(double)
    few = await say(app, "/wm attack mat=7 def=12 pow=12 arm=18 dice=6,6")
    assert few.error is not None and few.error.code.startswith("dice.not_enough")
    huge = await say(app, "/wm attack mat=70 def=12 pow=12 arm=18")
    assert huge.error is not None and huge.error.code == "cmd.int_range"
    nodef = await say(app, "/wm attack mat=7 pow=12 arm=18")
    assert nodef.error is not None and nodef.error.code == "wm.missing_stat"
    badmod = await say(app, "/wm attack mat=7 def=12 pow=12 arm=18 mods=flying")
    assert badmod.error is not None and badmod.error.code == "wm.bad_mod"


async def test_check_fall_deviate(app: App) -> None:
    check = await say(app, "/wm check value=9 dice=4,5")
    assert check.data is not None and check.data["outcome"] == {
        "total": 9,
        "value": 9,
        "pass": True,
    }
    fall = await say(app, "/wm fall height=5 arm=14 dice=1,2,3")
    assert fall.data is not None
    assert fall.data["outcome"]["dice"] == 3 and fall.data["outcome"]["damage_total"] == 16
    assert fall.data["outcome"]["damage"] == 2
    # G17 (L2538-2553): a thrown model, 5.5" intended distance, d3 of a 6 = 3" -> 2.75"
    dev = await say(app, "/wm deviate distance=5,5 thrown dice=3,6")
    assert dev.data is not None
    assert dev.data["outcome"]["direction"] == 3 and dev.data["outcome"]["distance"] == 2.75
    assert "2.75" in plain.render(dev)


async def test_settings_need_an_admin(app: App) -> None:
    shown = await say(app, "/wm settings", chat=CHAT)
    assert shown.data is not None and shown.data["settings"]["deviation_layout"] == "clockwise"
    refused = await say(app, "/wm settings deviation_layout=counterclockwise", chat=CHAT)
    assert refused.error is not None and refused.error.code == "wm.settings_admin_only"
    changed = await say(
        app, "/wm settings deviation_layout=counterclockwise", chat=CHAT, admin=True
    )
    assert changed.data is not None
    assert changed.data["settings"]["deviation_layout"] == "counterclockwise"
    dev = await say(app, "/wm deviate distance=11 dice=2,4", chat=CHAT)
    assert dev.data is not None and dev.data["outcome"]["direction_name"] == "long_left"
    other = await say(app, "/wm deviate distance=11 dice=2,4", chat="console:other")
    assert other.data is not None and other.data["outcome"]["direction_name"] == "long_right"


async def test_scripted_game_grid_focus_maintenance_and_undo(app: App) -> None:
    async def run(text: str, user: str = "ann", **kw: object) -> dict[str, object]:
        reply = await say(app, text, user=user, name=user.title(), chat=CHAT, **kw)  # type: ignore[arg-type]
        assert reply.ok, (text, reply.error)
        return reply.data or {}

    await run("/game new wm Duel")
    await run("/game join", user="bob")
    await run("/unit add Stryker def=16 arm=15 focus=6 grid=...|...|...|...|...|...")
    await run("/unit add Ironclad def=12 arm=18 grid=......|..L..M|...MC.|...MC.|..R..M|......")
    await run(
        "/unit add Jugger def=12 arm=18 grid=......|..L..M|...MC.|...MC.|..R..M|......", user="bob"
    )
    res = await say(app, "/res", chat=CHAT)
    assert res.data is not None and res.data["resources"]["unit:stryker"]["focus"] == 6
    # Control Phase: allocate, at most 3 per 'jack per turn
    early = await say(app, "/wm allocate Ironclad 2", user="ann", chat=CHAT)
    assert early.error is not None and early.error.code == "wm.allocate_control_phase"
    await run("/phase next")
    data = await run("/wm allocate Ironclad 2")
    assert data["focus"] == 2 and data["left"] == 4
    over = await say(app, "/wm allocate Ironclad 2", user="ann", chat=CHAT)
    assert over.error is not None and over.error.code == "wm.allocation_cap"
    # Ann's Ironclad hits Bob's Juggernaut: 2d6 + MAT 7 vs 12, 3d6 (charge) + 12 + 10 vs 18,
    # then the grid column die 2: 10 damage from column 2 down, then column 3.
    data = await run(
        "/wm attack mat=7 pow=12 str=10 mods=charge target=Jugger apply dice=5,4,2,3,1,2"
    )
    assert data["outcome"]["damage"] == 10  # type: ignore[index]
    status = await say(app, "/game status", chat=CHAT)
    text = plain.render(status)
    assert "1 2 3 4 5 6" in text and "x x" in text
    state = status.data["state"]  # type: ignore[index]
    jugger = next(u for u in state["units"] if u["name"] == "Jugger")
    assert jugger["damage"] == 10
    assert jugger["extra"]["grid"]["marks"][:6] == [[1, r] for r in range(6)]
    # /undo reverts the whole attack
    await run("/undo")
    status = await say(app, "/game status", chat=CHAT)
    jugger = next(u for u in status.data["state"]["units"] if u["name"] == "Jugger")  # type: ignore[index]
    assert jugger["damage"] == 0
    # Bob's Juggernaut is on fire; Ann ends her turn: Bob's maintenance rolls for the fire
    await run("/unit cond Jugger add fire", user="bob")
    turn = await say(app, "/turn end", user="ann", name="Ann", chat=CHAT, seed=7)
    assert turn.ok, turn.error
    assert "Maintenance and Control:" in plain.render(turn)


async def test_unit_damage_column_check_target_and_permissions(app: App) -> None:
    chat = "console:wm2"
    assert (await say(app, "/game new wm", user="ann", chat=chat)).ok
    assert (await say(app, "/game join", user="bob", chat=chat)).ok
    added = await say(
        app, "/unit add Slayer def=11 arm=19 griglia=..|.S|.C|.C|.D|..", user="bob", chat=chat
    )
    assert added.ok, added.error
    assert "S" in plain.render(added)  # Italian letters kept as printed
    hit = await say(app, "/unit damage Slayer 4 column=3", user="bob", chat=chat)
    assert hit.ok, hit.error
    assert "Cortex crippled" in plain.render(hit)
    state = (await say(app, "/game status", chat=chat)).data["state"]  # type: ignore[index]
    assert state["units"][0]["extra"]["grid"]["marks"] == [[2, 0], [2, 1], [3, 0], [3, 1]]
    assert (await say(app, "/unit add Trenchers cmd=8 def=13 arm=13", user="ann", chat=chat)).ok
    check = await say(app, "/wm check target=Trenchers dice=5,4", chat=chat)
    assert check.data is not None and check.data["outcome"]["pass"] is False
    # Bob attacks Ann's unit out of his turn: refused; on Ann's turn, a miss records nothing.
    refused = await say(
        app, "/wm attack mat=6 pow=12 target=Trenchers apply dice=6,6,1,1", user="bob", chat=chat
    )
    assert refused.error is not None and refused.error.code == "perm.not_your_turn"
    miss = await say(
        app, "/wm attack mat=6 pow=12 target=Slayer apply dice=1,1", chat=chat, user="ann"
    )
    assert miss.ok and "No damage to mark" in plain.render(miss)
    log = await say(app, "/log", chat=chat)
    assert log.data is not None and not any("attack" in e["command"] for e in log.data["events"])
    bad = await say(app, "/unit add Odd grid=..|..", user="bob", chat=chat)
    assert bad.error is not None and bad.error.code == "wm.bad_grid"
    gen = await say(app, "/unit damage Slayer 1 column=9", user="bob", chat=chat)
    assert gen.error is not None and gen.error.code == "cmd.int_range"


async def test_g30_critical_fire_then_maintenance(app: App) -> None:
    """L3970-3985: an Inferno Mace critical sets Fire; a second critical adds nothing; the
    Defender's controller rolls for it in Maintenance: 5 burns (POW 12), 1 puts it out."""
    chat = "console:wm3"
    await two_players(app, chat)
    grid = "......|......|......|......|......|......"
    assert (
        await say(app, f"/unit add Defender def=12 arm=18 grid={grid}", user="bob", chat=chat)
    ).ok
    mace = "/wm attack mat=6 pow=7 str=11 target=Defender crit_effect=fire apply"
    first = await say(app, f"{mace} dice=4,4,1,1,1", user="ann", chat=chat)
    assert first.ok, first.error
    assert first.data is not None and first.data["applied"]["effects"] == ["fire"]
    assert "catches fire" in plain.render(first)
    again = await say(app, f"{mace} dice=5,5,1,1,1", user="ann", chat=chat)
    assert again.data is not None and again.data["applied"]["effects"] == []
    # Bob's Maintenance rolls for the fire: it either burns (and hurts) or goes out.
    turn = await say(app, "/turn end", user="ann", chat=chat, seed=1)
    assert turn.ok
    state = (await say(app, "/game status", chat=chat)).data["state"]  # type: ignore[index]
    defender = state["units"][0]
    burned = "fire keeps burning" in plain.render(turn)
    assert burned == any(c["name"] == "fire" for c in defender["conditions"])
    assert ("fire goes out" in plain.render(turn)) != burned


async def test_issue22_troopers_power_field_heal_feat_gear_first(app: App) -> None:
    """Issue 22 through the commands: per-model damage (L3633-3643, L3764-3765), Power Field
    (L4475-4478), repair by system (L3757-3758), feat once per game (L4452-4453), shields
    (L877-883), the first player's d6 (L1298-1301)."""
    chat = "console:wm22"

    async def run(text: str, user: str = "ann") -> dict[str, object]:
        reply = await say(app, text, user=user, name=user.title(), chat=chat)
        assert reply.ok, (text, reply.error)
        return reply.data or {}

    await run("/game new wm")
    await run("/game join", user="bob")
    first = await run("/wm first dice=2,5")
    assert first["order"] == ["bob", "ann"]
    again = await say(app, "/wm first dice=2,5", user="ann", chat=chat)
    assert again.ok  # still before the first turn: a new roll
    await run("/wm first dice=5,2")
    await run("/unit add Trenchers def=13 arm=13 models=10", user="bob")
    hit = await say(app, "/unit damage Trenchers 2", user="bob", chat=chat)
    assert hit.ok and hit.data is not None
    assert hit.data["unit"]["damage"] == 1  # one model disabled, 1 point lost
    assert "model 1 takes 1 damage (excess lost: 1;" in plain.render(hit)
    await run("/unit add Stryker def=16 arm=15 focus=3 grid=...|...|...|...|...|...")
    odds = await say(app, "/wm odds mat=7 pow=12 str=10 target=Stryker", chat=chat)
    assert odds.data is not None and "ARM 18" in plain.render(odds)
    shot = await run("/wm attack mat=7 pow=12 str=10 target=Stryker dice=4,5,3,3")
    assert shot["outcome"]["damage"] == 10  # type: ignore[index]
    assert "15 +3 Power Field = 18" in plain.render(
        await say(app, "/wm attack mat=7 pow=12 str=10 target=Stryker dice=4,5,3,3", chat=chat)
    )
    assert (await say(app, "/wm feat Stryker", user="ann", chat=chat)).ok
    twice = await say(app, "/wm feat Stryker", user="ann", chat=chat)
    assert twice.error is not None and twice.error.code == "wm.feat_used"
    grid = "......|..L..M|...MC.|...MC.|..R..M|......"
    await run(f"/unit add Lancer def=12 arm=18 grid={grid}")
    await run("/wm gear Lancer shields=S")
    front = await run("/wm attack mat=6 pow=12 target=Lancer dice=4,4,4,4")
    assert front["outcome"]["damage"] == 0  # type: ignore[index]  # 8 + 12 vs ARM 18 + 2
    back = await run("/wm attack mat=6 pow=12 target=Lancer mods=backstrike dice=4,4,4,4")
    assert back["outcome"]["damage"] == 2  # type: ignore[index]  # the shield is lost
    await run("/unit damage Lancer 36 column=1")
    healed = await say(app, "/wm heal Lancer 1 system=M", user="ann", chat=chat)
    assert healed.ok and "1 box repaired" in plain.render(healed)
    assert healed.data is not None and healed.data["unit"]["damage"] == 35
    assert plain.render(healed).endswith("✗ C L R")  # M no longer crippled
    slam = await say(app, "/wm slam", chat=chat)
    assert slam.error is not None and slam.error.code == "cmd.no_such_sub"


async def test_attack_takes_the_stored_unit_and_weapon(app: App) -> None:
    """Issue 25 item 6: `attack attacker=… weapon=… target=…` reads MAT/RAT, STR and the
    weapon's POW (or P+S) from the units stored in the game; options override them."""
    chat = "console:wm25"
    await two_players(app, chat)
    army = (
        "/army add\n"
        "Ironclad spd=5 str=11 mat=7 rat=4 def=12 arm=18 | Quake Hammer: rng=1 pow=7 p+s=18\n"
        "Trencher spd=6 str=5 mat=5 rat=5 def=13 arm=13 | Rifle: rng=10 rof=1 pow=10"
    )
    added = await say(app, army, user="ann", chat=chat)
    assert added.ok, plain.render(added)
    assert (await say(app, "/unit add Defender def=12 arm=18", user="bob", chat=chat)).ok
    melee = await say(
        app,
        '/wm attack attacker=Ironclad weapon="quake" target=Defender dice=3,4,5,5',
        user="ann",
        chat=chat,
    )
    assert melee.ok, plain.render(melee)
    assert melee.data is not None
    assert melee.data["outcome"]["attack_total"] == 14  # 3 + 4 + MAT 7
    assert melee.data["outcome"]["damage_total"] == 28  # 5 + 5 + POW 7 + STR 11
    shot = await say(
        app,
        "/wm attacco unita=Trencher arma=rifle target=Defender dadi=6,2,1,1",
        lang="it",
        chat=chat,
    )
    assert shot.ok and shot.data is not None
    assert shot.data["outcome"]["attack_total"] == 13  # RAT 5
    assert shot.data["outcome"]["damage_total"] == 12  # POW 10, no STR at range
    over = await say(
        app,
        "/wm attack attacker=Ironclad weapon=quake pow=9 mat=5 target=Defender dice=3,4,5,5",
        chat=chat,
    )
    assert over.data is not None and over.data["outcome"]["attack_total"] == 12
    assert over.data["outcome"]["damage_total"] == 30  # options override: POW 9 + STR 11
    odds = await say(app, "/wm odds attacker=Ironclad weapon=quake target=Defender", chat=chat)
    assert odds.ok and "P+S 18 vs ARM 18" in plain.render(odds)
    missing = await say(app, "/wm attack attacker=Ironclad weapon=axe target=Defender", chat=chat)
    assert missing.error is not None and missing.error.code == "wm.no_weapon"
    assert "Quake Hammer" in plain.render(missing)


async def test_italian_option_names(app: App) -> None:
    """Issue 25 item 3: the settings and the attack's stats take the book's Italian names."""
    chat = "console:wm-it"
    changed = await say(app, "/wm impostazioni deviazione=counterclockwise", chat=chat, admin=True)
    assert changed.data is not None
    assert changed.data["settings"]["deviation_layout"] == "counterclockwise"
    shot = await say(
        app,
        "/wm attacco abilita=6 difesa=12 potenza=10 armatura=14 scudo=2 dadi=3,3,4,4",
        chat=chat,
    )
    assert shot.data is not None and shot.data["outcome"]["damage"] == 2  # 18 vs ARM 14 + 2


async def test_power_attack_slam_spends_focus_and_knocks_down(app: App) -> None:
    """G16 (L2425-2455) through /wm power: the Juggernaut (1 focus) slams the Crusader into a
    wall: d6 slam distance, 3d6 + STR damage, knocked down; it can't slam without focus."""
    chat = "console:wm-power"
    await two_players(app, chat)
    grid = "......|......|......|......|......|......"
    jugg = f"/unit add Juggernaut mat=7 str=12 def=12 arm=20 grid={grid}"
    assert (await say(app, jugg, user="ann", chat=chat)).ok
    assert (
        await say(app, "/unit add Crusader def=12 arm=19 str=11 boxes=30", user="bob", chat=chat)
    ).ok
    broke = await say(
        app,
        "/wm power slam attacker=Juggernaut target=Crusader contact apply dice=5,4,6,2,3,4",
        user="ann",
        chat=chat,
    )
    assert broke.error is not None and broke.error.code == "wm.focus_short"
    assert (await say(app, "/res set focus 1 unit=Juggernaut", user="ann", chat=chat)).ok
    slam = await say(
        app,
        "/wm forza schianto attaccante=Juggernaut target=Crusader contatto apply dadi=5,4,6,2,3,4",
        user="ann",
        chat=chat,
        lang="it",
    )
    assert slam.ok, plain.render(slam)
    assert slam.data is not None and slam.data["outcome"]["distance"] == 6
    assert slam.data["outcome"]["damage_total"] == 2 + 3 + 4 + 12
    text = plain.render(slam)
    assert 'Schiantato di 6" in direzione opposta, poi atterrato.' in text
    assert "Il modello Crusader è atterrato." in text
    state = (await say(app, "/game status", chat=chat)).data["state"]  # type: ignore[index]
    assert state["resources"]["unit:juggernaut"]["focus"] == 0
    crusader = state["units"][1]
    assert crusader["damage"] == 2 and [c["name"] for c in crusader["conditions"]] == [
        "knocked_down"
    ]
    # knocked down, it is slammed where it lies: an automatic hit, its damage, no movement
    # (L3440-3441, L2391-2394, L3437); it can't be locked
    again = await say(app, "/wm power slam mat=7 str=12 target=Crusader dice=1,1", chat=chat)
    assert again.ok and again.data is not None, plain.render(again)
    assert again.data["outcome"]["moved"] is False and again.data["outcome"]["hit"] is True
    lock = await say(app, "/wm power headlock mat=7 str=12 target=Crusader", chat=chat)
    assert lock.error is not None and lock.error.code == "wm.power_knocked_down"
    odds = await say(app, "/wm power headbutt mat=7 def=12 str=12 arm=19 dice=1,1", chat=chat)
    assert (
        odds.ok and odds.data is not None and abs(odds.data["p_hit"] - 30 / 36) < 1e-12
    )  # 2d6 >= 5


async def test_italian_values_as_the_italian_help_names_them(app: App) -> None:
    """#24: the values the Italian option help lists (mischia, distanza, orario, sì) are typed."""
    shot = await say(
        app, "/wm attacco tipo=distanza dat=6 dif=13 potenza=10 arm=15 dadi=3,4,5,6", lang="it"
    )
    assert shot.ok, shot.error
    assert shot.data is not None and shot.data["outcome"]["damage"] == 6
    changed = await say(
        app, "/wm impostazioni deviazione=antiorario tira_sempre=sì", lang="it", admin=True
    )
    assert changed.data is not None
    assert changed.data["settings"] == {
        "deviation_layout": "counterclockwise",
        "roll_autohit": "yes",
    }


async def test_power_attacks_lock_trample_collateral_through_the_commands(app: App) -> None:
    """#22: the Juggernaut (heavy, 50 mm, Open Fist in L) headlocks the Slayer: the lock is kept
    until the Slayer breaks it with /wm break, and meanwhile its Tusks and power attacks are
    refused (G15); a trample damages three Trenchers one each (L2665-2669); a slam's
    collateral model is knocked down with its own roll (G16); a light warjack can't trample
    and a jack without its fist can't lock (L2201-2211). Italian and English screens."""
    chat = "console:wm-lock"

    async def run(text: str, user: str = "ann", lang: str = "en") -> dict[str, object]:
        reply = await say(app, text, user=user, name=user.title(), chat=chat, lang=lang)
        assert reply.ok, (text, reply.error)
        return reply.data or {}

    async def refused(text: str, user: str = "ann") -> str:
        reply = await say(app, text, user=user, name=user.title(), chat=chat)
        assert reply.error is not None, text
        return reply.error.code

    grid = "......|..L..M|...MC.|...MC.|..R..M|......"
    await run("/game new wm Locks")
    await run("/game join", user="bob")
    await run(f"/unit add Juggernaut mat=6 str=12 def=12 arm=19 base=50 grid={grid}")
    await run(f"/unit add Charger mat=6 str=10 def=13 arm=17 base=40 grid={grid}")
    await run(
        "/army add\nSlayer mat=7 str=12 def=12 arm=18 basetta=50 grid=" + grid.replace("|", ",")
        + " | Tusks: p+s=16 loc=H | Claw: p+s=14 posizione=S",
        user="bob",
    )  # fmt: skip
    await run("/unit add Trenchers def=13 arm=13 base=30 models=6", user="bob")
    await run("/unit add Flameguard def=13 arm=13 base=30", user="bob")
    await run("/res set focus 3 unit=Juggernaut")
    assert await refused("/wm power trample attacker=Charger target=Trenchers") == (
        "wm.power_trample_light"
    )
    await run("/wm gear Juggernaut fists=S", lang="it")  # the Italian letter for the left arm
    lock = await say(
        app,
        "/wm forza presa attaccante=Juggernaut bersaglio=Slayer applica dadi=5,4",
        user="ann",
        chat=chat,
        lang="it",
    )
    assert lock.ok, lock.error
    text = plain.render(lock)
    assert "Slayer subisce una presa alla testa di Juggernaut" in text
    assert await refused("/wm attack attacker=Slayer weapon=Tusks target=Juggernaut", "bob") == (
        "wm.weapon_locked"
    )
    assert await refused("/wm power headbutt attacker=Slayer target=Juggernaut", "bob") == (
        "wm.lock_no_power"
    )
    await run("/turn end")  # the Slayer tries to break free in its own activation (L2254)
    await run("/wm attack attacker=Slayer weapon=Claw target=Juggernaut dice=1,1", user="bob")
    held = await run("/wm break Slayer dice=4,4", user="bob")  # 16 vs 16: held
    assert held["broken"] is False
    # A second try this turn costs 1 focus (L2268-2271): refused without, then paid.
    assert await refused("/wm break Slayer dice=6,1", "bob") == "wm.break_focus"
    await run("/res set focus 1 unit=Slayer", user="bob")
    free = await run("/wm break Slayer dice=6,1", user="bob")  # 18 vs 13
    assert free["broken"] is True
    await run("/wm attack attacker=Slayer weapon=Tusks target=Juggernaut dice=1,1", user="bob")
    await run("/turn end", user="bob")
    await run("/res set focus 3 unit=Juggernaut")
    # Trample: three Trenchers contacted, each its own attack and damage roll.
    data = await run(
        "/wm power trample attacker=Juggernaut target=Trenchers models=3 apply"
        " dice=5,4,3,3,1,1,6,5,1,1"
    )
    assert [t["damage"] for t in data["outcome"]["trampled"]] == [0, 1]  # type: ignore[index]
    assert len(data["p_trampled"]) == 2  # type: ignore[arg-type]
    state = (await say(app, "/game status", chat=chat)).data["state"]  # type: ignore[index]
    trenchers = next(u for u in state["units"] if u["name"] == "Trenchers")
    assert trenchers["damage"] == 2  # two 1-box models disabled, one by each hit
    # Slam with collateral: the Flameguard is knocked down and takes its own roll.
    data = await run(
        "/wm power slam attacker=Juggernaut target=Slayer collateral=Flameguard apply"
        " dice=5,4,6,1,1,6,5"
    )
    assert data["outcome"]["collateral"] == [6 + 5 + 12 - 13]  # type: ignore[index]
    assert data["p_collateral"] == [data["p_moved"]]  # 2d6 + 12 always beats ARM 13
    state = (await say(app, "/game status", chat=chat)).data["state"]  # type: ignore[index]
    flameguard = next(u for u in state["units"] if u["name"] == "Flameguard")
    assert flameguard["damage"] == 1


async def test_unit_damage_names_the_trooper_hit(app: App) -> None:
    """#22: `/unit damage NAME N model=K` damages model K of a multi-model unit (L3633-3643): at
    most its boxes, the excess lost; a disabled model can't be picked; a grid has no models."""
    chat = "console:wm-model"
    await two_players(app, chat)
    assert (
        await say(app, "/unit add Trenchers def=13 arm=13 boxes=5 models=4", user="ann", chat=chat)
    ).ok
    hit = await say(app, "/unit damage Trenchers 7 model=3", user="ann", chat=chat)
    assert hit.ok, hit.error
    assert hit.data is not None and hit.data["unit"]["extra"]["model_damage"] == [0, 0, 5, 0]
    assert "model 3 takes 5 damage (excess lost: 2" in plain.render(hit)
    italian = await say(app, "/unita danno Trenchers 1 modello=2", user="ann", chat=chat, lang="it")
    assert italian.data is not None and italian.data["unit"]["extra"]["model_damage"][1] == 1
    again = await say(app, "/unit damage Trenchers 1 model=3", user="ann", chat=chat)
    assert again.error is not None and again.error.code == "wm.model_disabled_already"
    grid = "......|..L..M|...MC.|...MC.|..R..M|......"
    assert (await say(app, f"/unit add Lancer def=13 arm=17 grid={grid}", user="ann", chat=chat)).ok
    jack = await say(app, "/unit damage Lancer 2 model=1", user="ann", chat=chat)
    assert jack.error is not None and jack.error.code == "wm.model_needs_troopers"
    generic = "console:gen-model"
    assert (await say(app, "/game new gen", chat=generic)).ok
    assert (await say(app, "/unit add Guards wounds=2 models=3", chat=generic)).ok
    refused = await say(app, "/unit damage Guards 1 model=2", chat=generic)
    assert refused.error is not None and refused.error.code == "game.no_unit_options"


async def test_a_weapons_p_s_stands_in_for_a_str_the_card_left_out(app: App) -> None:
    """Found walking: Stryker added from a list with his Quicksilver (POW 7, P+S 13) and no STR;
    a melee attack read "P+F 7 contro ARM 20" and dealt 0 where the card says P+S 13: STR was
    taken as 0. The printed P+S is POW + STR (L785, L2114), so the STR it implies is used, and a
    STR typed or stored still wins."""
    chat = "console:wm-ps"
    await two_players(app, chat)
    army = "/army add\nStryker def=16 arm=15 mat=7 rat=6 | Quicksilver: rng=0.5 pow=7 p+s=13"
    assert (await say(app, army, user="ann", chat=chat)).ok
    assert (await say(app, "/unit add Juggernaut def=10 arm=20", user="bob", chat=chat)).ok
    hit = await say(
        app,
        "/wm attack attacker=Stryker weapon=quicksilver target=Juggernaut dice=4,5,5,6",
        user="ann",
        chat=chat,
    )
    assert hit.ok and hit.data is not None, plain.render(hit)
    assert hit.data["outcome"]["damage_total"] == 24  # 5 + 6 + P+S 13
    assert "P+S 13 vs ARM 20" in plain.render(hit)
    typed = await say(
        app,
        "/wm attack attacker=Stryker weapon=quicksilver target=Juggernaut str=8 dice=4,5,5,6",
        user="ann",
        chat=chat,
    )
    assert typed.data is not None and typed.data["outcome"]["damage_total"] == 26  # POW 7 + 8
    buffed = await say(
        app,
        "/wm attack attacker=Stryker weapon=quicksilver target=Juggernaut pow=9 dice=4,5,5,6",
        user="ann",
        chat=chat,
    )
    assert buffed.data is not None  # POW 9 typed, STR 6 still the card's (13 - 7)
    assert buffed.data["outcome"]["damage_total"] == 26


async def test_a_magic_attack_adds_the_casters_focus(app: App) -> None:
    """A code audit: `/wm attack type=magic attacker=Sorscha` added her RAT 5, not her FOCUS 8
    (a magic attack roll is 2d6 + FOCUS, L4702-4708): 27.8% to hit DEF 14 instead of 72.2%."""
    chat = "console:wm-magic"
    await two_players(app, chat)
    caster = "/unit add Sorscha def=16 arm=14 mat=6 rat=5 focus=8"
    assert (await say(app, caster, user="ann", chat=chat)).ok
    assert (await say(app, "/unit add Target def=14 arm=14", user="bob", chat=chat)).ok
    spell = await say(
        app,
        "/wm attack type=magic attacker=Sorscha pow=12 target=Target dice=3,3,4,4",
        user="ann",
        chat=chat,
    )
    assert spell.ok and spell.data is not None, plain.render(spell)
    assert spell.data["outcome"]["attack_total"] == 14  # 3 + 3 + FOCUS 8


async def test_a_stationary_target_is_hit_automatically_by_a_power_attack(app: App) -> None:
    """A code audit: power attacks read the printed DEF and rolled against a stationary model
    (base DEF 5, hit automatically in melee, L3530-3532; a power attack is a melee attack)."""
    chat = "console:wm-stationary"
    await two_players(app, chat)
    assert (await say(app, "/unit add Slayer def=12 arm=18", user="bob", chat=chat)).ok
    assert (await say(app, "/unit cond Slayer add stationary", user="bob", chat=chat)).ok
    butt = await say(app, "/wm power headbutt mat=6 str=12 target=Slayer dice=1,1", chat=chat)
    assert butt.ok and butt.data is not None, plain.render(butt)
    assert butt.data["outcome"]["hit"] is True
    odds = await say(app, "/wm power headbutt mat=6 str=12 target=Slayer", chat=chat)
    assert odds.data is not None and odds.data["p_hit"] == 1


async def test_a_crippled_cortex_loses_its_focus_and_spends_none(app: App) -> None:
    """A code audit: a Juggernaut whose Cortex was crippled kept its 3 focus and paid for a
    head-butt with it. A crippled Cortex loses all its focus and spends none (L3722-3724)."""
    chat = "console:wm-cortex"
    await two_players(app, chat)
    grid = "......|..L..M|...MC.|...MC.|..R..M|......"
    jugger = f"/unit add Jugger def=10 arm=20 mat=6 str=12 grid={grid}"
    assert (await say(app, jugger, user="ann", chat=chat)).ok
    assert (await say(app, "/unit add Target def=12 arm=16", user="bob", chat=chat)).ok
    assert (await say(app, "/res add focus 3 unit=Jugger", user="ann", chat=chat)).ok
    hit = await say(app, "/unit damage Jugger 12 column=3", user="ann", chat=chat)
    assert "Cortex crippled" in plain.render(hit)
    assert "focus 3" not in plain.render(await say(app, "/unit show Jugger", chat=chat))
    butt = await say(
        app,
        "/wm power headbutt attacker=Jugger target=Target apply dice=6,6,6,6",
        user="ann",
        chat=chat,
    )
    assert butt.error is not None and butt.error.code == "wm.cortex_crippled"


async def test_a_power_attack_meets_the_power_field(app: App) -> None:
    """A code audit: a head-butt on a warcaster with 5 focus left used her bare ARM 14; her
    Power Field gives +1 ARM per focus on her against all damage (L4475-4478)."""
    chat = "console:wm-field"
    await two_players(app, chat)
    sorscha = "/unit add Sorscha def=16 arm=14 focus=7"
    assert (await say(app, sorscha, user="bob", chat=chat)).ok
    assert (await say(app, "/res set focus 5 unit=Sorscha", user="bob", chat=chat)).ok
    butt = await say(
        app, "/wm power headbutt mat=6 str=12 target=Sorscha dice=6,6,4,3", user="ann", chat=chat
    )
    assert butt.ok and butt.data is not None, plain.render(butt)
    assert butt.data["outcome"]["damage_total"] == 4 + 3 + 12
    assert butt.data["outcome"]["damage"] == 0  # 19 against ARM 14 + 5


async def test_a_fall_and_collateral_damage_meet_the_power_field_and_shields(app: App) -> None:
    """A code audit: /wm fall rolled against a warcaster's bare ARM 14 with 5 focus left on
    her; her Power Field counts against all damage (L4475-4478), and a shield's +2 against
    all damage not from the back arc, falls included (L843-846, L880-883). Slam collateral
    damage counts them too."""
    chat = "console:wm-fall-field"
    await two_players(app, chat)
    grid = "......|..L..M|...MC.|...MC.|..R..M|......"
    for unit in ("Sorscha def=16 arm=14 focus=7", f"Slayer def=12 arm=18 grid={grid}"):
        assert (await say(app, f"/unit add {unit}", user="bob", chat=chat)).ok
    assert (await say(app, "/res set focus 5 unit=Sorscha", user="bob", chat=chat)).ok
    assert (await say(app, "/wm gear Slayer shields=L", user="bob", chat=chat)).ok
    fall = await say(app, "/wm fall height=3 target=Sorscha dice=4,3", chat=chat)
    assert fall.ok and fall.data is not None, plain.render(fall)
    assert fall.data["outcome"]["damage_total"] == 4 + 3 + 10
    assert fall.data["outcome"]["damage"] == 0  # 17 against ARM 14 + 5
    fall = await say(app, "/wm fall height=3 target=Slayer dice=6,4", chat=chat)
    assert fall.data is not None and fall.data["outcome"]["damage"] == 0  # 20 against 18 + 2
    typed = await say(app, "/wm fall height=3 arm=14 target=Sorscha dice=4,3", chat=chat)
    assert typed.data is not None and typed.data["outcome"]["damage"] == 3  # a typed ARM is all
    slam = await say(
        app,
        "/wm power slam mat=6 str=12 target=Slayer collateral=Sorscha dice=6,5,4,1,1,4,3",
        chat=chat,
    )
    assert slam.ok and slam.data is not None, plain.render(slam)
    assert slam.data["outcome"]["collateral"] == [0]  # 4 + 3 + 12 = 19 against ARM 14 + 5


async def test_L3740_a_weapon_in_a_crippled_location_rolls_one_die_fewer(app: App) -> None:
    """A code audit: `attacker=` with a stored weapon in a crippled arm still rolled full dice.
    A crippled head or arm system rolls one die fewer on the attack and damage rolls of its
    weapons (L3740-3742); a weapon in a sound location keeps its dice."""
    chat = "console:wm-crippled-arm"
    await two_players(app, chat)
    grid = "......,..L..M,...MC.,...MC.,..R..M,......"
    army = f"/army add\nJugger mat=6 str=12 def=10 arm=20 base=50 grid={grid} | Axe: p+s=17 loc=R"
    army += " | Fist: p+s=12 posizione=S"  # the Italian letter of the left arm
    assert (await say(app, army, user="ann", chat=chat)).ok
    assert (await say(app, "/unit add Target def=12 arm=16", user="bob", chat=chat)).ok
    hit = await say(app, "/unit damage Jugger 3 column=5", user="ann", chat=chat)
    assert "Jugger: right arm crippled" in plain.render(hit)
    axe = await say(
        app, "/wm attack attacker=Jugger weapon=Axe target=Target dice=6,4", user="ann", chat=chat
    )
    assert axe.ok and axe.data is not None, plain.render(axe)
    steps = {s["name"]: s for s in axe.data["steps"]}
    assert steps["attack"]["dice"] == [6] and steps["attack"]["total"] == 12
    assert steps["damage"]["dice"] == [4] and axe.data["outcome"]["damage"] == 4 + 17 - 16
    odds = await say(app, "/wm odds attacker=Jugger weapon=Axe target=Target", chat=chat)
    assert odds.data is not None and abs(odds.data["p_hit"] - 1 / 6) < 1e-12  # 1d6 + 6 vs 12
    fist = await say(
        app, "/wm attack attacker=Jugger weapon=Fist target=Target dice=3,3,2,2", chat=chat
    )
    assert fist.data is not None
    assert [len(s["dice"]) for s in fist.data["steps"] if s["name"] != "defense"] == [2, 2]


async def test_L3736_crippled_movement_refuses_charge_slam_and_trample(app: App) -> None:
    """A code audit: a warjack whose Movement system is crippled could still charge, slam and
    trample with `attacker=`. It can't charge (L3736), and whatever prevents a charge prevents
    a slam (L2302-2305) and a trample (L2638-2641); a head-butt is still allowed."""
    chat = "console:wm-crippled-move"
    await two_players(app, chat)
    jugger = "/unit add Jugger mat=6 str=12 def=10 arm=20 base=50 grid=M.....|C.....|L|R|H|."
    assert (await say(app, jugger, user="ann", chat=chat)).ok
    assert (await say(app, "/unit add Target def=12 arm=16 base=30", user="bob", chat=chat)).ok
    assert (await say(app, "/res set focus 3 unit=Jugger", user="ann", chat=chat)).ok
    before = await say(app, "/wm attack attacker=Jugger mods=charge pow=5 target=Target", chat=chat)
    assert before.ok, plain.render(before)
    assert (await say(app, "/unit damage Jugger 1 column=1", user="ann", chat=chat)).ok
    for text, code in (
        ("/wm attack attacker=Jugger mods=charge pow=5 target=Target", "wm.movement_no_charge"),
        ("/wm odds attacker=Jugger mods=carica pow=5 target=Target", "wm.movement_no_charge"),
        ("/wm power slam attacker=Jugger target=Target", "wm.power_movement_crippled"),
        ("/wm power trample attacker=Jugger target=Target", "wm.power_movement_crippled"),
    ):
        reply = await say(app, text, user="ann", chat=chat)
        assert reply.error is not None and reply.error.code == code, text
        assert "Jugger" in plain.render(reply)
    italian = await say(
        app, "/wm forza schianto attaccante=Jugger bersaglio=Target", chat=chat, lang="it"
    )
    assert italian.error is not None
    assert "Movimento compromesso" in plain.render(italian) and "schianto" in plain.render(italian)
    butt = await say(app, "/wm power headbutt attacker=Jugger target=Target", chat=chat)
    assert butt.ok, plain.render(butt)


async def test_L3338_the_combined_help_counts_the_models_that_contribute(app: App) -> None:
    """A code audit: the help said combined=N counts every model in the attack, so G25's four
    Long Gunners with one out of range gave +4 where the book gives +3 (L3338-3360), and
    combined=1 (two declared, one out of range) was refused."""
    one = await say(
        app, "/wm attack type=ranged rat=6 def=13 pow=12 arm=20 combined=1 dice=3,4,2,5"
    )
    assert one.ok and one.data is not None, plain.render(one)
    assert one.data["outcome"]["attack_total"] == 7 + 6 + 1
    for lang, words in (
        ("en", "misses automatically"),
        ("it", "chi mancherebbe in automatico non conta"),
    ):
        help_ = plain.render(await say(app, "/help wm attack", lang=lang))
        assert words in help_, help_
