"""Issue 22, Age of Sigmar, through /aos on a real SQLite file: charge range, commands that
carry into later rolls, models slain counted by the game, and who chooses after priority.
Lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say

ANN = {"user": "ann", "name": "Ann"}
BOB = {"user": "bob", "name": "Bob"}


async def two_player_game(app: App) -> None:
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/game join", **BOB)).ok
    assert (await say(app, "/unit add Vindictors models=5 wounds=2 save=4 move=5", **ANN)).ok
    line = "/unit add Gutrippaz models=10 wounds=1 save=5 bravery=5"
    assert (await say(app, line, **BOB)).ok
    weapon = "/aos weapon Vindictors Stormspear range=2 attacks=2 hit=3 wound=3 rend=-1 damage=1"
    assert (await say(app, weapon, **ANN)).ok


async def to_phase(app: App, steps: int) -> None:
    for _ in range(steps):
        assert (await say(app, "/phase next", **ANN)).ok


async def test_L427_charge_beyond_12_inches_says_so_and_rolls_nothing(app: App) -> None:
    reply = await say(app, "/aos charge distance=13")
    assert reply.ok, reply.error
    assert reply.data is not None and reply.data["outcome"]["in_range"] is False
    assert 'only a unit within 12" of an enemy can attempt a charge' in plain.render(reply)
    italian = await say(app, "/aos carica distanza=12.5", lang="it")
    assert 'entro 12" da un nemico' in plain.render(italian)
    history = await say(app, "/roll history 1")
    assert history.data is not None and history.data["rolls"] == []


async def test_L405_a_charge_from_within_3_inches_is_refused_in_words(app: App) -> None:
    reply = await say(app, "/aos carica distanza=2", lang="it")
    assert reply.ok and reply.data is not None and reply.data["outcome"]["too_close"] is True
    assert "entro 3\" da un'unità nemica non può tentare una carica" in plain.render(reply)
    history = await say(app, "/roll history 1")
    assert history.data is not None and history.data["rolls"] == []


async def test_L327_L335_at_the_double_marks_the_unit_as_having_run(app: App) -> None:
    await two_player_game(app)
    await say(app, "/res add cp 2", **ANN)
    await to_phase(app, 1)  # movement
    used = await say(app, "/aos command at the double unit=Vindictors", **ANN)
    assert used.ok, used.error
    assert 'Vindictors\'s Move this phase: 11" (5" + 6"), with no run roll.' in plain.render(used)
    status = await say(app, "/game status")
    assert status.data is not None
    units = {u["name"]: u for u in status.data["state"]["units"]}
    assert [c["name"] for c in units["Vindictors"]["conditions"]] == ["ran"]
    await to_phase(app, 1)  # shooting: a unit that ran can't shoot
    shot = await say(app, "/aos attack attacker=Vindictors target=Gutrippaz", **ANN)
    assert shot.error is not None and shot.error.code == "aos.no_shoot_ran"
    await to_phase(app, 1)  # charge
    charge = await say(app, "/aos charge target=Vindictors distance=6", **ANN)
    assert charge.error is not None and charge.error.code == "aos.no_charge_ran"


async def test_L327_run_apply_marks_the_unit(app: App) -> None:
    await two_player_game(app)
    run = await say(app, "/aos run target=Vindictors apply dice=4", **ANN)  # R31
    assert run.ok, run.error
    assert run.data is not None and run.data["outcome"]["move"] == 9
    charge = await say(app, "/aos charge target=Vindictors", **ANN)
    assert charge.error is not None and charge.error.code == "aos.no_charge_ran"


async def test_L565_L569_all_out_attack_and_defence_apply_automatically(app: App) -> None:
    await two_player_game(app)
    await say(app, "/res add cp 1", **ANN)
    await say(app, "/res add cp 1", **BOB)
    await to_phase(app, 4)  # combat
    assert (await say(app, "/aos command all-out attack unit=Vindictors", **ANN)).ok
    # 10 attacks at 3+ with +1: the 2s hit too (1s never); 10 wounds on 3+.
    hits = "1,1,2,2,2,2,2,2,2,2"
    attack = await say(
        app,
        "/aos attack attacker=Vindictors target=Gutrippaz dice="
        + hits
        + ",3,3,3,3,3,3,3,3,1,1,1,1,1,1,1,1",
        **ANN,
    )
    assert attack.ok, attack.error
    assert attack.data is not None
    assert attack.data["outcome"]["hits"] == 8
    assert attack.data["steps"][0]["name"] == "command"
    assert "All-out Attack (Vindictors): +1 to hit" in plain.render(attack)
    assert (await say(app, "/aos command all-out defence unit=Gutrippaz", **BOB)).ok
    odds = await say(app, "/aos odds attacker=Vindictors target=Gutrippaz", **ANN)
    assert odds.ok and odds.data is not None
    # +1 to hit (5/6), 3+ to wound (2/3), save 5+ with rend -1 and +1: 5+ -> 1/3 saved.
    assert abs(odds.data["mean"] - 10 * 5 / 6 * 2 / 3 * 2 / 3) < 1e-9
    italian = await say(app, "/aos prob attaccante=Vindictors bersaglio=Gutrippaz", lang="it")
    text = plain.render(italian)
    assert "Attacco Totale (Vindictors): +1 ai tiri per colpire" in text
    assert "Difesa Totale (Gutrippaz): +1 ai tiri salvezza" in text
    # The next phase ends both effects.
    await to_phase(app, 1)
    later = await say(app, "/aos odds attacker=Vindictors target=Gutrippaz", **ANN)
    assert later.data is not None and abs(later.data["mean"] - 10 * 2 / 3 * 2 / 3 * 5 / 6) < 1e-9


async def test_L613_battleshock_takes_the_models_slain_this_turn_from_the_game(app: App) -> None:
    await two_player_game(app)
    assert (await say(app, "/unit damage Gutrippaz 3", **ANN)).ok
    # R21 (L613): Bravery 5, 3 slain this turn, a 4: 7 -> 2 flee.
    shock = await say(app, "/aos battleshock target=Gutrippaz apply dice=4", **BOB)
    assert shock.ok, shock.error
    assert shock.data is not None and shock.data["outcome"]["fled"] == 2
    assert shock.data["steps"][0]["total"] == 7
    # Next turn: a new count (nothing slain yet), so nobody flees on a 5.
    assert (await say(app, "/turn end", **ANN)).ok
    calm = await say(app, "/aos battleshock target=Gutrippaz dice=5", **BOB)
    assert calm.data is not None and calm.data["outcome"]["fled"] == 0
    missing = await say(app, "/aos battleshock bravery=6")
    assert missing.error is not None and missing.error.code == "aos.missing_value"


async def test_L627_rallied_models_still_count_for_battleshock(app: App) -> None:
    await two_player_game(app)
    assert (await say(app, "/unit damage Gutrippaz 3", **ANN)).ok
    assert (await say(app, "/aos command rally unit=Gutrippaz free", **BOB)).ok  # L309
    rally = await say(app, "/aos check rally target=Gutrippaz apply dice=6,1,1", **BOB)
    assert rally.data is not None and rally.data["outcome"]["returned"] == 1
    shock = await say(app, "/aos battleshock target=Gutrippaz dice=2", **BOB)
    assert shock.data is not None and shock.data["steps"][0]["total"] == 5  # 2 + 3 slain


async def test_L237_only_the_priority_winner_chooses(app: App) -> None:
    await two_player_game(app)
    # Ann applies the roll, Bob wins (2 against 5): the order waits for Bob's choice.
    rolled = await say(app, "/aos priority apply dice=2,5", **ANN)
    assert rolled.ok, rolled.error
    assert rolled.data is not None and rolled.data["chooser"] == "bob"
    assert "Bob won priority and chooses" in plain.render(rolled)
    refused = await say(app, "/aos priority apply goes=first", **ANN)
    assert refused.error is not None and refused.error.code == "aos.priority_not_yours"
    chosen = await say(app, "/aos priority apply goes=second", **BOB)
    assert chosen.ok, chosen.error
    assert chosen.data is not None and chosen.data["order"] == ["ann", "bob"]
    assert chosen.data["cp"] == {"ann": 1, "bob": 2}
    again = await say(app, "/aos priority apply dice=5,1", **ANN)
    assert again.error is not None and again.error.code == "aos.priority_done"


async def test_L625_inspiring_presence_spares_the_battleshock_test(app: App) -> None:
    await two_player_game(app)
    await say(app, "/res add cp 1", **BOB)
    assert (await say(app, "/unit damage Gutrippaz 6", **ANN)).ok
    await to_phase(app, 5)  # battleshock
    used = await say(app, "/aos command presenza ispiratrice unita=Gutrippaz", **BOB)
    assert used.ok, used.error
    shock = await say(app, "/aos battleshock target=Gutrippaz apply dice=6", **BOB)
    assert shock.ok, shock.error
    assert shock.data is not None and shock.data["exempt"] is True
    assert "received Inspiring Presence" in plain.render(shock)
    status = await say(app, "/game status")
    assert status.data is not None
    units = {u["name"]: u for u in status.data["state"]["units"]}
    assert units["Gutrippaz"]["damage"] == 6  # nobody fled


async def test_L567_a_commands_effect_does_not_come_back_in_a_later_phase(app: App) -> None:
    """A code audit: All-out Attack given in the shooting phase came back in the combat phase
    as soon as any other command was used there (the effects were never cleared): +1 to hit
    that nobody paid for. It lasts to the end of its phase (L567)."""
    await two_player_game(app)
    await say(app, "/res add cp 2", **ANN)
    await say(app, "/res add cp 2", **BOB)
    await to_phase(app, 2)  # shooting
    assert (await say(app, "/aos command all-out attack unit=Vindictors", **ANN)).ok
    await to_phase(app, 2)  # combat
    assert (await say(app, "/aos command all-out defence unit=Gutrippaz", **BOB)).ok
    odds = await say(app, "/aos odds attacker=Vindictors target=Gutrippaz", **ANN)
    assert odds.ok and odds.data is not None
    # no +1 to hit any more (2/3), All-out Defence's +1 save holds (5+ at rend -1: 2/3 unsaved)
    assert abs(odds.data["mean"] - 10 * 2 / 3 * 2 / 3 * 2 / 3) < 1e-9
    assert "All-out Attack" not in plain.render(odds)


async def test_L609_no_models_slain_means_no_battleshock_test(app: App) -> None:
    """A code audit: with 0 models slain this turn the test was rolled, and a 6 against
    Bravery 5 removed a model with apply. Only a unit that lost models takes it (L609)."""
    await two_player_game(app)
    reply = await say(app, "/aos battleshock target=Gutrippaz apply dice=6", **BOB)
    assert reply.ok and reply.data is not None, reply.error
    assert reply.data["outcome"]["fled"] == 0 and reply.data["steps"] == []
    assert "No models slain this turn" in plain.render(reply)
    typed = await say(app, "/aos battleshock bravery=5 slain=0 dice=6", lang="it")
    assert "Nessun modello ucciso" in plain.render(typed)
    status = await say(app, "/unit show Gutrippaz")
    assert "10/10" in plain.render(status)


async def test_L271_a_command_in_the_wrong_players_turn_is_refused_in_words(app: App) -> None:
    """A code audit: Bob used Forward to Victory in Ann's charge phase and the bot spent his CP;
    it follows your own charge roll, made in your own charge phase (L427, L439)."""
    await two_player_game(app)
    await say(app, "/res add cp 1", **BOB)
    await to_phase(app, 3)  # Ann's charge phase
    refused = await say(app, "/aos command forward to victory unit=Gutrippaz", **BOB)
    assert refused.error is not None and refused.error.code == "aos.own_turn_only"
    assert "only in your own charge phase" in plain.render(refused)
    italian = await say(app, "/aos comando verso la vittoria unita=Gutrippaz", lang="it", **BOB)
    assert "solo nella tua fase di carica" in plain.render(italian)
    await to_phase(app, 2)  # battleshock: Bob still has his CP
    assert (await say(app, "/aos command inspiring presence unit=Gutrippaz", **BOB)).ok


async def test_L401_attacking_models_limits_the_attack_to_the_models_that_attack(app: App) -> None:
    """A code audit: /aos attack attacker= made all 5 Vindictors attack, even with 2 in range."""
    await two_player_game(app)
    reply = await say(
        app,
        "/aos attack attacker=Vindictors target=Gutrippaz attacking_models=2 "
        "dice=6,6,6,6,6,6,6,6,1,1,1,1",
        **ANN,
    )
    assert reply.ok, reply.error
    assert reply.data is not None and reply.data["outcome"]["attacks"] == 4
    italian = await say(
        app, "/aos prob attaccante=Vindictors bersaglio=Gutrippaz modelli_attaccanti=9", lang="it"
    )
    assert italian.error is not None and italian.error.code == "aos.attacking_models_left"
    assert "Vindictors ha solo 5 modelli" in plain.render(italian)


async def test_L339_a_redeployed_unit_is_refused_a_shot_later_in_the_turn(app: App) -> None:
    await two_player_game(app)
    await say(app, "/res add cp 2", **BOB)
    await to_phase(app, 1)  # Ann's movement phase
    assert (await say(app, "/aos command redeploy unit=Gutrippaz", **BOB)).ok
    await to_phase(app, 2)  # Ann's charge phase: Unleash Hell's shots
    shot = await say(
        app,
        "/aos attacco attaccante=Gutrippaz bersaglio=Vindictors attacchi=1 colpire=4 ferire=4 "
        "impatto=0 danni=1",
        lang="it",
        **BOB,
    )
    assert shot.error is not None and shot.error.code == "aos.no_shoot_redeployed"
    assert "Gutrippaz si è rischierata in questo turno" in plain.render(shot)


async def test_L443_unleash_hell_carries_its_minus_1_to_hit(app: App) -> None:
    await two_player_game(app)
    await say(app, "/res add cp 1", **BOB)
    await to_phase(app, 3)  # Ann's charge phase
    assert (await say(app, "/aos command unleash hell unit=Gutrippaz", **BOB)).ok
    odds = await say(
        app,
        "/aos prob attaccante=Gutrippaz bersaglio=Vindictors attacchi=1 colpire=4 ferire=4 "
        "impatto=0 danni=1",
        lang="it",
        **BOB,
    )
    assert odds.ok and odds.data is not None, odds.error
    # 10 models, 4+ at -1 (1/3), 4+ to wound (1/2), Save 4+ (1/2 unsaved)
    assert abs(odds.data["mean"] - 10 * 1 / 3 * 1 / 2 * 1 / 2) < 1e-9
    assert "Scatenare l'Inferno (Gutrippaz): -1 ai tiri per colpire" in plain.render(odds)


async def test_L269_a_model_that_issued_a_command_this_phase_is_refused_in_words(app: App) -> None:
    await two_player_game(app)
    assert (await say(app, "/unit add Lord-Celestant models=1 wounds=6 save=3", **ANN)).ok
    await say(app, "/res add cp 2", **ANN)
    await to_phase(app, 4)  # Ann's shooting phase
    first = await say(app, "/aos command all-out attack unit=Vindictors by=Lord-Celestant", **ANN)
    assert first.ok, first.error
    assert "issued by Lord-Celestant" in plain.render(first)
    second = await say(
        app, "/aos comando difesa totale unita=Lord-Celestant da=Lord-Celestant", lang="it", **ANN
    )
    assert second.error is not None and second.error.code == "aos.issuer_used"
    assert "Lord-Celestant ha già impartito un comando in questa fase" in plain.render(second)
    stranger = await say(app, "/aos command all-out defence unit=Gutrippaz by=Vindictors", **BOB)
    assert stranger.error is not None and stranger.error.code == "aos.not_friendly"
    assert "Vindictors isn't yours: a command is issued by one of your models" in plain.render(
        stranger
    )


async def test_L262_the_organiser_gives_no_command_to_or_from_an_opponents_unit(app: App) -> None:
    """A new player's walk: Ann (the organiser) had Bob's Gutrippaz issue a command paid from
    her CP ("issued by Gutrippaz"); the bot lets the organiser act for anyone, the rule does
    not: a friendly model issues, a friendly unit receives (L262-263)."""
    await two_player_game(app)
    await say(app, "/res add cp 2", **ANN)
    await to_phase(app, 2)  # Ann's shooting phase
    issued = await say(app, "/aos command all-out defence unit=Vindictors by=Gutrippaz", **ANN)
    assert issued.error is not None and issued.error.code == "aos.not_friendly"
    assert "Gutrippaz isn't yours" in plain.render(issued)
    given = await say(app, "/aos comando difesa totale unità=Gutrippaz", lang="it", **ANN)
    assert given.error is not None and given.error.code == "aos.not_friendly"
    assert "Gutrippaz non è tua" in plain.render(given)
    status = await say(app, "/game status")
    assert status.data is not None and status.data["state"]["resources"]["player:ann"]["cp"] == 2
    assert (await say(app, "/aos command all-out defence unit=Vindictors", **ANN)).ok


async def test_L339_unleash_hell_is_refused_to_a_redeployed_unit_before_the_cp(app: App) -> None:
    """A new player's walk: Bob's redeployed unit received Unleash Hell in Ann's charge phase,
    his CP was spent, and only its shot was refused (it can't shoot later in the turn, L339)."""
    await two_player_game(app)
    await say(app, "/res add cp 2", **BOB)
    await to_phase(app, 1)  # Ann's movement phase
    assert (await say(app, "/aos comando Rischierarsi unità=Gutrippaz", lang="it", **BOB)).ok
    await to_phase(app, 2)  # Ann's charge phase
    hell = await say(app, "/aos comando Scatenare l'Inferno unità=Gutrippaz", lang="it", **BOB)
    assert hell.error is not None and hell.error.code == "aos.no_shoot_redeployed"
    assert "Gutrippaz si è rischierata in questo turno: non può tirare" in plain.render(hell)
    status = await say(app, "/game status")
    assert status.data is not None and status.data["state"]["resources"]["player:bob"]["cp"] == 1


async def test_L411_a_shot_out_of_turn_or_a_second_shot_is_refused(app: App) -> None:
    """A new player's walk: in Ann's shooting phase Bob's unit's attack was applied, and a unit
    could shoot twice. You shoot in your shooting phase with units that haven't shot (L411)."""
    await two_player_game(app)
    line = "/aos weapon Gutrippaz Bow range=18 attacks=1 hit=4 wound=4 rend=0 damage=1"
    assert (await say(app, line, **BOB)).ok
    # The Vindictors shoot here: a Range over 3" makes their weapon a missile one (L497).
    line = "/aos weapon Vindictors Stormspear range=12 attacks=2 hit=3 wound=3 rend=-1 damage=1"
    assert (await say(app, line, **ANN)).ok
    await to_phase(app, 2)  # Ann's shooting phase
    bobs = "/aos attack attacker=Gutrippaz weapon=Bow target=Vindictors apply"
    out = await say(app, bobs + " dice=" + ",".join(["6"] * 30), **BOB)
    assert out.error is not None and out.error.code == "aos.shoot_not_your_turn"
    assert "only Ann, whose turn it is, shoots" in plain.render(out)
    free = await say(app, "/aos attack attacker=Gutrippaz weapon=Bow target=Vindictors", **BOB)
    assert free.ok, free.error  # an unapplied roll stays free, and odds too
    assert (await say(app, "/aos odds attacker=Gutrippaz target=Vindictors", **BOB)).ok
    shot = "/aos attacco attaccante=Vindictors bersaglio=Gutrippaz applica dice=" + ",".join(
        ["1"] * 10
    )
    first = await say(app, shot, lang="it", **ANN)
    assert first.ok, first.error
    again = await say(app, shot, lang="it", **ANN)
    assert again.error is not None and again.error.code == "aos.already_shot"
    assert "Vindictors ha già tirato in questa fase di tiro" in plain.render(again)
    history = await say(app, "/roll history 5")
    assert history.data is not None and len(history.data["rolls"]) == 2  # no refused roll
    # Ann's charge phase: Bob's Unleash Hell shot is his to apply.
    await say(app, "/res add cp 1", **BOB)
    await to_phase(app, 1)
    assert (await say(app, "/aos command unleash hell unit=Gutrippaz", **BOB)).ok
    hell = await say(app, bobs + " dice=6,6,6,6,6,6,6,6,6,6,1,1,1,1,1,1,1,1,1,1", **BOB)
    assert hell.ok, hell.error


async def test_L443_only_unleash_hell_shoots_in_the_enemy_charge_phase_and_once(app: App) -> None:
    """Bob's unit shot in Ann's charge phase without Unleash Hell, and again after it (11.2,
    L443: the unit that received the command shoots in that phase, once)."""
    await two_player_game(app)
    line = "/aos weapon Gutrippaz Bow range=18 attacks=1 hit=4 wound=4 rend=0 damage=1"
    assert (await say(app, line, **BOB)).ok
    await say(app, "/res add cp 1", **BOB)
    await to_phase(app, 3)  # Ann's charge phase
    bobs = "/aos attacco attaccante=Gutrippaz arma=Bow bersaglio=Vindictors applica dice="
    volley = bobs + ",".join(["6"] * 10 + ["1"] * 10)
    out = await say(app, volley, lang="it", **BOB)
    assert out.error is not None and out.error.code == "aos.shoot_needs_unleash_hell"
    assert "nella fase di carica nemica tira solo l'unità che ha ricevuto Scatenare l'Inferno" in (
        plain.render(out)
    )
    hell = await say(app, "/aos comando Scatenare l'Inferno unità=Gutrippaz", lang="it", **BOB)
    assert hell.ok, hell.error
    first = await say(app, volley, lang="it", **BOB)
    assert first.ok, first.error
    again = await say(app, volley, lang="it", **BOB)
    assert again.error is not None and again.error.code == "aos.already_shot_charge"
    assert "Gutrippaz ha già tirato con quest'arma per Scatenare l'Inferno" in plain.render(again)
    history = await say(app, "/roll history 5")
    assert history.data is not None and len(history.data["rolls"]) == 1  # no refused roll


async def test_L506_a_unit_records_each_of_its_weapons_in_one_shooting(app: App) -> None:
    """A Hero with a crossbow and a pistol: its second weapon's attack was refused as a second
    shooting (13.1.1, L506: a unit shoots with any of its missile weapons)."""
    await two_player_game(app)
    for weapon in ("Crossbow range=24 attacks=1", "Pistol range=9 attacks=2"):
        line = f"/aos weapon Vindictors {weapon} hit=4 wound=4 rend=0 damage=1"
        assert (await say(app, line, **ANN)).ok
    await to_phase(app, 2)  # Ann's shooting phase
    base = "/aos attack attacker=Vindictors target=Gutrippaz apply weapon="
    crossbow = await say(app, base + "Crossbow dice=" + ",".join(["1"] * 5), **ANN)
    assert crossbow.ok, crossbow.error
    pistol = await say(app, base + "Pistol dice=" + ",".join(["1"] * 10), **ANN)
    assert pistol.ok, pistol.error
    again = await say(app, base + "Pistol dice=" + ",".join(["1"] * 10), **ANN)
    assert again.error is not None and again.error.code == "aos.already_shot"
    assert "already shot in this shooting phase with this weapon" in plain.render(again)


async def test_L263_an_accepted_command_states_the_distances_to_check_at_the_table(
    app: App,
) -> None:
    """6.1 (L263-267) and Unleash Hell's 9"/3" (L443): the bot has no positions; the reply
    that accepts a command says what the players measure, in the reader's words."""
    await two_player_game(app)
    assert (await say(app, "/unit add Boss models=1 wounds=6 general=1", **BOB)).ok
    await say(app, "/res add cp 2", **BOB)
    await to_phase(app, 3)  # Ann's charge phase
    hell = await say(
        app, "/aos comando Scatenare l'Inferno unità=Gutrippaz da=Boss", lang="it", **BOB
    )
    assert hell.ok and hell.data is not None, hell.error
    text = plain.render(hell)
    assert "Da verificare al tavolo" in text
    assert "Boss, il Generale, lo impartisce a un'unità interamente entro 18\"" in text
    assert "entro 9\" dall'unità nemica che ha appena terminato un movimento di carica" in text
    assert hell.data["table_checks"] == ["aos.table_general", "aos.table_check.unleash_hell"]
    await to_phase(app, 1)  # Ann's combat phase: a command with no distance of its own
    defence = await say(app, "/aos command all-out defence unit=Gutrippaz", **BOB)
    assert defence.ok and defence.data is not None, defence.error
    assert defence.data["table_checks"] == ["aos.table_issuer"]
    assert 'a friendly HERO with the unit wholly within 12"' in plain.render(defence)


async def test_L741_L745_aos_objective_counts_the_contesting_models_in_italian(app: App) -> None:
    """18.1.1-18.1.2 (L741-745): battlefield.py counted objectives, but no command did; /aos
    obiettivo counts the named units (a MONSTER 5, a model of Wounds 5+ 2) and names who gains
    control, in the reader's words."""
    await two_player_game(app)
    line = "/unità aggiungi Drago modelli=1 ferite=16 mostro=1"
    assert (await say(app, line, lang="it", **ANN)).ok
    reply = await say(
        app, '/aos obiettivo "Drago, Vindictors:3" nemici="Gutrippaz:7"', lang="it", **ANN
    )
    assert reply.ok and reply.data is not None, reply.error
    text = plain.render(reply)
    assert "Ann: Drago 1×5, Vindictors 3×1 = 8" in text
    assert "Bob: Gutrippaz 7×1 = 7" in text
    assert "Ann ottiene il controllo dell'obiettivo (8 contro 7)." in text
    assert reply.data["outcome"] == "friendly"
    tie = await say(app, "/aos objective Vindictors:2 enemy=Gutrippaz:2", **BOB)
    assert tie.ok and "A tie (2 to 2): the objective stays with whoever controlled it" in (
        plain.render(tie)
    )
    bad = await say(app, "/aos obiettivo Vindictors:9", lang="it", **ANN)
    assert bad.error is not None and bad.error.code == "aos.contenders_left"
    assert "Vindictors ha solo 5 modelli rimasti" in plain.render(bad)


async def test_L500_an_applied_attack_on_a_friendly_unit_is_refused_before_the_roll(
    app: App,
) -> None:
    """13.1 (L500): an attack targets enemy units only; Ann's Vindictors' applied attack on her
    own Prosecutors was written to them."""
    await two_player_game(app)
    assert (await say(app, "/unit add Prosecutors models=3 wounds=2 save=4", **ANN)).ok
    await to_phase(app, 4)  # Ann's combat phase
    line = "/aos attacco attaccante=Vindictors bersaglio=Prosecutors applica dice=" + ",".join(
        ["6"] * 10
    )
    out = await say(app, line, lang="it", **ANN)
    assert out.error is not None and out.error.code == "aos.target_friendly"
    assert "Prosecutors è un'unità amica di Vindictors" in plain.render(out)
    history = await say(app, "/roll history 1")
    assert history.data is not None and history.data["rolls"] == []


async def test_L567_all_out_attack_after_the_units_shots_is_refused_in_words(app: App) -> None:
    await two_player_game(app)
    line = "/aos weapon Vindictors Bow range=18 attacks=1 hit=4 wound=4 rend=0 damage=1"
    assert (await say(app, line, **ANN)).ok
    await say(app, "/res add cp 1", **ANN)
    await to_phase(app, 2)  # Ann's shooting phase
    shot = "/aos attack attacker=Vindictors weapon=Bow target=Gutrippaz apply dice=1,1,1,1,1"
    assert (await say(app, shot, **ANN)).ok
    late = await say(app, "/aos comando attacco totale unità=Vindictors", lang="it", **ANN)
    assert late.error is not None and late.error.code == "aos.command_after_shot"
    assert "Vindictors ha già tirato in questa fase: Attacco Totale si usa quando scegli" in (
        plain.render(late)
    )


async def test_L1227_a_free_unleash_hell_is_recorded_without_cp_and_its_shot_taken(
    app: App,
) -> None:
    """A Slayers battalion (L1227) gives a unit Unleash Hell free, once per battle: Bob with no
    CP must still be able to record it, or its shot would be refused (L443)."""
    await two_player_game(app)
    await to_phase(app, 3)  # Ann's charge phase; Bob has no CP
    paid = await say(app, "/aos command unleash hell unit=Gutrippaz", **BOB)
    assert paid.error is not None and paid.error.code == "game.not_enough"
    free = await say(
        app, "/aos comando Scatenare l'Inferno unità=Gutrippaz gratis", lang="it", **BOB
    )
    assert free.ok and free.data is not None, free.error
    assert free.data["cost"] == 0 and free.data["cp"] == 0
    text = plain.render(free)
    assert "gratis, senza PC né chi lo impartisca" in text
    assert "EROE" not in text  # nobody issues it: only Unleash Hell's own distances
    shot = "/aos attack attacker=Gutrippaz target=Vindictors attacks=1 hit=4 wound=4 apply"
    assert (await say(app, shot + " dice=" + ",".join(["1"] * 10), **BOB)).ok


async def test_L263_L267_the_rule_on_commands_names_who_issues_within_what_range(app: App) -> None:
    """/rule on issuing a command left out 6.1's ranges (L263-267: a champion to its own unit,
    a HERO wholly within 12", the General or a TOTEM 18") and the one command per model
    (L269), which /aos command now states at the table."""
    reply = await say(app, "/regola aos abilità di comando", lang="it")
    assert reply.ok and reply.data is not None, reply.error
    assert reply.data["id"] == "aos.command_ability"
    text = plain.render(reply)
    assert "un EROE a un'unità interamente entro 12 pollici" in text
    assert "Un modello impartisce un solo comando per fase" in text


async def test_L309_a_rally_applies_only_to_the_unit_that_received_it_once(app: App) -> None:
    """7.2 (L307-309): /aos check rally … apply returned slain models to a unit that never
    received the Rally command, and again on every apply in the same phase."""
    await two_player_game(app)
    assert (await say(app, "/unit damage Gutrippaz 3", **ANN)).ok
    applied = "/aos prova raccolta bersaglio=Gutrippaz applica dadi=6,6,1"
    refused = await say(app, applied, lang="it", **BOB)
    assert refused.error is not None and refused.error.code == "aos.rally_needs_command"
    text = plain.render(refused)
    assert "Gutrippaz non ha ricevuto la Chiamata a Raccolta in questa fase" in text
    assert "/aos comando Chiamata a Raccolta unità=Gutrippaz" in text
    odds = await say(app, "/aos check rally target=Gutrippaz dice=6,1,1", **BOB)
    assert odds.ok and odds.data is not None and odds.data["outcome"]["returned"] == 1
    history = await say(app, "/roll history 5")
    assert history.data is not None and len(history.data["rolls"]) == 1  # no refused roll
    await say(app, "/res add cp 1", **BOB)
    given = await say(app, "/aos comando Chiamata a Raccolta unità=Gutrippaz", lang="it", **BOB)
    assert given.ok, given.error
    first = await say(app, applied, lang="it", **BOB)
    assert first.ok, first.error
    assert first.data is not None and first.data["outcome"]["returned"] == 2
    again = await say(app, applied, lang="it", **BOB)
    assert again.error is not None and again.error.code == "aos.rally_done"
    assert "Gutrippaz ha già tirato la sua Chiamata a Raccolta in questa fase" in (
        plain.render(again)
    )
    status = await say(app, "/game status")
    assert status.data is not None
    units = {u["name"]: u for u in status.data["state"]["units"]}
    assert units["Gutrippaz"]["damage"] == 1  # 2 of the 3 back, once
    # A free Rally (a battalion's icon or an ability) is applied the same way, once.
    assert (await say(app, "/unit damage Vindictors 4", **ANN)).ok
    free = await say(app, "/aos command rally unit=Vindictors free", **ANN)
    assert free.ok, free.error
    rally = await say(app, "/aos check rally target=Vindictors apply dice=6,5", **ANN)
    assert rally.ok and rally.data is not None and rally.data["outcome"]["returned"] == 1
    twice = await say(app, "/aos check rally target=Vindictors apply dice=6,6", **ANN)
    assert twice.error is not None and twice.error.code == "aos.rally_done"
    assert "Vindictors has already rolled its Rally this phase" in plain.render(twice)
