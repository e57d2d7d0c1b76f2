"""The combat phase through /aos on a real SQLite file: fights recorded from applied attacks and
/aos fight (it /aos combatti), whose pick is next, a second fight refused, All-out Attack after
a fight, and the commands used at the start of a phase. Lines refer to
../shared/seeds/001_3302d92f440b0a0b.txt."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

ANN = {"user": "ann", "name": "Ann"}
BOB = {"user": "bob", "name": "Bob"}
ONES = " dice=" + ",".join(["1"] * 10)  # every hit roll fails: nothing else is rolled


async def combat_game(app: App) -> None:
    """Ann's Vindictors and Liberators, Bob's Gutrippaz; Ann's turn, at its combat phase."""
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/game join", **BOB)).ok
    for line in (
        "/unit add Vindictors models=5 wounds=2 save=4",
        "/unit add Liberators models=5 wounds=2 save=4",
        "/aos weapon Vindictors Stormspear range=2 attacks=2 hit=3 wound=3 rend=-1 damage=1",
        "/aos weapon Liberators Warhammer range=1 attacks=2 hit=3 wound=3 rend=0 damage=1",
    ):
        assert (await say(app, line, **ANN)).ok
    assert (await say(app, "/unit add Gutrippaz models=10 wounds=1 save=5", **BOB)).ok
    line = "/aos weapon Gutrippaz Spear range=2 attacks=1 hit=4 wound=4 rend=0 damage=1"
    assert (await say(app, line, **BOB)).ok
    for _ in range(4):
        assert (await say(app, "/phase next", **ANN)).ok


async def test_L447_L459_a_fight_is_recorded_and_the_reply_says_whose_pick_is_next(
    app: App,
) -> None:
    """12.0-12.1.2 (L447-459): fights weren't recorded, so the bot couldn't say who picks the
    next unit to fight, nor refuse a unit fighting twice (L451)."""
    await combat_game(app)
    vindictors = "/aos attacco attaccante=Vindictors bersaglio=Gutrippaz applica" + ONES
    first = await say(app, vindictors, lang="it", **ANN)
    assert first.ok, first.error
    text = plain.render(first)
    assert "Sceglie la prossima unità per combattere: Bob." in text
    assert "Unità di Bob che non hanno ancora combattuto: Gutrippaz." in text
    assert not foreign_words("it", text, allow=("Stormspear", "Spear"))  # the weapon's name
    back = await say(app, "/aos attack attacker=Gutrippaz target=Vindictors apply" + ONES, **BOB)
    assert back.ok, back.error
    assert "Next to pick a unit to fight: Ann." in plain.render(back)
    again = await say(app, vindictors, lang="it", **ANN)
    assert again.error is not None and again.error.code == "aos.already_fought"
    assert "Vindictors ha già combattuto in questa fase di combattimento" in plain.render(again)
    history = await say(app, "/roll history 5")
    assert history.data is not None and len(history.data["rolls"]) == 2  # no refused roll
    # Liberators fight without an attack to write; Bob's only unit has fought: he passes.
    last = await say(app, "/aos combatti Liberators", lang="it", **ANN)
    assert last.ok and last.data is not None, last.error
    assert last.data["fought"] == ["Vindictors", "Gutrippaz", "Liberators"]
    assert last.data["next"] is None
    assert "Tutte le unità hanno combattuto: entrambi i giocatori passano" in plain.render(last)
    status = await say(app, "/partita stato", lang="it")
    assert status.ok, status.error
    assert "Hanno combattuto in questa fase: Vindictors, Gutrippaz, Liberators." in (
        plain.render(status)
    )
    assert (await say(app, "/phase next", **ANN)).ok  # battleshock: the record is gone
    status = await say(app, "/game status")
    assert "Fought this phase" not in plain.render(status)


async def test_L459_a_side_with_no_unit_left_passes_and_the_state_shows_the_pick(
    app: App,
) -> None:
    await combat_game(app)
    status = await say(app, "/game status")
    assert "Next to pick a unit to fight: Ann." in plain.render(status)
    bob = await say(app, "/aos fight Gutrippaz", **BOB)
    assert bob.ok and bob.data is not None, bob.error
    assert bob.data["next"] == "ann"
    ann = await say(app, "/aos fight Vindictors", **ANN)
    assert ann.ok and ann.data is not None, ann.error
    assert ann.data["next"] == "ann"
    text = plain.render(ann)
    passes = "Bob has no unit left that has not fought: they pass, and the pick goes back to Ann."
    assert passes in text
    theirs = await say(app, "/aos fight Liberators", **BOB)  # a friendly unit only (L451)
    assert theirs.error is not None and theirs.error.code == "perm.not_your_unit"


async def test_L195_an_ability_lets_a_unit_fight_a_second_time_never_a_third(app: App) -> None:
    await combat_game(app)
    assert (await say(app, "/aos combatti Vindictors", lang="it", **ANN)).ok
    again = await say(app, "/aos combatti Vindictors ancora", lang="it", **ANN)
    assert again.ok, again.error
    assert "combatte una seconda volta in questa fase" in plain.render(again)
    third = await say(app, "/aos fight Vindictors again", **ANN)
    assert third.error is not None and third.error.code == "aos.fought_twice"
    assert "no ability lets a unit fight more than twice in the same phase" in (plain.render(third))


async def test_L455_a_fight_outside_the_combat_phase_is_refused_in_words(app: App) -> None:
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/unit add Vindictors models=5 wounds=2 save=4", **ANN)).ok
    out = await say(app, "/aos combatti Vindictors", lang="it", **ANN)
    assert out.error is not None and out.error.code == "aos.fight_not_combat"
    text = plain.render(out)
    assert "L'unità Vindictors combatte nella fase di combattimento; ora è la fase degli eroi." in (
        text
    )


async def test_L567_all_out_attack_after_the_units_fight_is_refused_in_words(app: App) -> None:
    """13.4 (L567): All-out Attack is used as the unit is picked to fight; it was accepted for
    a unit that had already fought (as it is refused after a unit's shots)."""
    await combat_game(app)
    await say(app, "/res add cp 2", **ANN)
    fought = "/aos attack attacker=Vindictors target=Gutrippaz apply" + ONES
    assert (await say(app, fought, **ANN)).ok
    late = await say(app, "/aos comando attacco totale unità=Vindictors", lang="it", **ANN)
    assert late.error is not None and late.error.code == "aos.command_after_fight"
    assert (
        "Vindictors ha già combattuto in questa fase: Attacco Totale si usa quando scegli "
        "l'unità per combattere, prima dei suoi attacchi."
    ) in plain.render(late)
    status = await say(app, "/game status")
    assert status.data is not None and status.data["state"]["resources"]["player:ann"]["cp"] == 2
    picked = await say(app, "/aos fight Liberators", **ANN)
    assert picked.ok, picked.error
    timely = await say(app, "/aos command all-out attack unit=Liberators", **ANN)
    assert timely.ok, timely.error


async def test_L309_rally_after_the_hero_phase_is_under_way_is_refused_in_words(
    app: App,
) -> None:
    """7.2 (L309) with 1.6.1 (L177): Rally is used at the start of the hero phase; after a
    spell's or an attack's wounds were written in it, the phase is past its start."""
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/game join", **BOB)).ok
    assert (await say(app, "/unit add Vindictors models=5 wounds=2 save=4", **ANN)).ok
    assert (await say(app, "/unit add Gutrippaz models=10 wounds=1 save=5", **BOB)).ok
    assert (await say(app, "/unit damage Gutrippaz 3", **ANN)).ok
    await say(app, "/res add cp 1", **BOB)
    miscast = "/aos cast value=7 target=Vindictors apply dice=1,1,3"
    assert (await say(app, miscast, **ANN)).ok
    late = await say(app, "/aos comando Chiamata a Raccolta unità=Gutrippaz", lang="it", **BOB)
    assert late.error is not None and late.error.code == "aos.command_not_at_start"
    text = plain.render(late)
    assert "Chiamata a Raccolta si usa all'inizio della fase degli eroi" in text
    assert not foreign_words("it", text)
    rule = await say(app, "/regola aos Chiamata a Raccolta", lang="it")
    assert rule.ok, rule.error
    assert "all'inizio di una fase degli eroi" in plain.render(rule)


async def test_L315_a_second_run_or_at_the_double_after_the_run_roll_is_refused_in_words(
    app: App,
) -> None:
    """8.0 (L315) and 8.4 (L335): /aos run … apply marked a unit that had already run, and
    At the Double was accepted for it (and spent its CP) after its run roll."""
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/unit add Vindictors models=5 wounds=2 save=4 move=5", **ANN)).ok
    await say(app, "/res add cp 1", **ANN)
    assert (await say(app, "/phase next", **ANN)).ok  # movement
    first = await say(app, "/aos corri bersaglio=Vindictors applica dadi=4", lang="it", **ANN)
    assert first.ok, first.error
    again = await say(app, "/aos corri bersaglio=Vindictors applica dadi=2", lang="it", **ANN)
    assert again.error is not None and again.error.code == "aos.already_ran"
    assert "Vindictors ha già corso in questo turno" in plain.render(again)
    history = await say(app, "/roll history 5")
    assert history.data is not None and len(history.data["rolls"]) == 1  # no refused roll
    double = await say(app, "/aos command at the double unit=Vindictors", **ANN)
    assert double.error is not None and double.error.code == "aos.already_ran"
    assert "At the Double is used as you declare the run" in plain.render(double)
    status = await say(app, "/game status")
    assert status.data is not None and status.data["state"]["resources"]["player:ann"]["cp"] == 1


async def test_L479_a_unit_that_strikes_first_fights_first_in_italian(app: App) -> None:
    """12.4-12.5 (L469-483): the next pick followed plain alternation only; a unit under a
    strike-first effect (the condition, in the book's words) fights before the others."""
    await combat_game(app)
    cond = "/unita cond Gutrippaz aggiungi attacca_per_primo"
    added = await say(app, cond, lang="it", **BOB)
    assert added.ok, added.error
    status = await say(app, "/partita stato", lang="it")
    text = plain.render(status)
    assert "attacca per primo" in text
    assert "Sceglie la prossima unità per combattere: Bob." in text
    assert "Ora combattono le unità con l'effetto attacca per primo." in text
    assert "Ann non ha unità che combattano ora" in text
    assert not foreign_words("it", text, allow=("Stormspear", "Spear", "Warhammer"))
    fought = await say(app, "/aos combatti Gutrippaz", lang="it", **BOB)
    assert fought.ok and fought.data is not None, fought.error
    assert fought.data["next"] == "ann"


async def test_L283_heroic_recovery_applied_once_per_hero_phase_and_only_there(app: App) -> None:
    """7.0-7.1 (L281-283, L301): /aos check recovery … apply healed the HERO in any phase and
    on every apply; a heroic action is carried out at the start of the hero phase, one per
    player."""
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/game join", **BOB)).ok
    assert (await say(app, "/unit add Lord wounds=6 save=3 bravery=7 hero=1", **ANN)).ok
    assert (await say(app, "/unit damage Lord 5", **ANN)).ok
    line = "/aos prova recupero bersaglio=Lord applica dadi=3,3,5"
    first = await say(app, line, lang="it", **ANN)
    assert first.ok and first.data is not None, first.error
    assert first.data["outcome"]["healed"] == 3
    again = await say(app, line, lang="it", **ANN)
    assert again.error is not None and again.error.code == "aos.heroic_done"
    assert "Ann ha già svolto un'azione eroica in questa fase degli eroi" in plain.render(again)
    history = await say(app, "/roll history 5")
    assert history.data is not None and len(history.data["rolls"]) == 1  # no refused roll
    assert (await say(app, "/phase next", **ANN)).ok  # movement
    moved = await say(app, "/aos check recovery target=Lord apply dice=3,3,5", **ANN)
    assert moved.error is not None and moved.error.code == "aos.heroic_not_hero_phase"
    assert "at the start of the hero phase, not in the movement phase" in plain.render(moved)
    free = await say(app, "/aos check recovery target=Lord dice=3,3,5", **ANN)
    assert free.ok, free.error  # the roll alone stays free
    status = await say(app, "/game status")
    assert status.data is not None
    assert {u["name"]: u["damage"] for u in status.data["state"]["units"]} == {"Lord": 2}


async def test_L609_a_second_battleshock_test_of_a_unit_is_refused_in_words(app: App) -> None:
    """15.0 (L609): /aos battleshock … apply tested the same unit again in the phase when its
    first test was passed (nothing was written), rolling a new die."""
    assert (await say(app, "/game new aos T", **ANN)).ok
    assert (await say(app, "/game join", **BOB)).ok
    assert (await say(app, "/unit add Gutrippaz models=10 wounds=1 save=5 bravery=5", **BOB)).ok
    assert (await say(app, "/unit damage Gutrippaz 2", **ANN)).ok
    for _ in range(5):
        assert (await say(app, "/phase next", **ANN)).ok  # battleshock
    line = "/aos shock bersaglio=Gutrippaz applica dadi=1"
    first = await say(app, line, lang="it", **BOB)
    assert first.ok and first.data is not None, first.error
    assert first.data["outcome"]["fled"] == 0  # 1 + 2 slain is not above 5
    again = await say(app, line, lang="it", **BOB)
    assert again.error is not None and again.error.code == "aos.battleshock_done"
    assert "Gutrippaz ha già effettuato il test di shock in questa fase" in plain.render(again)
    await say(app, "/res add cp 1", **BOB)
    late = await say(app, "/aos command inspiring presence unit=Gutrippaz", **BOB)
    assert late.error is not None and late.error.code == "aos.command_not_at_start"
    status = await say(app, "/game status")
    assert status.data is not None
    assert {u["name"]: u["damage"] for u in status.data["state"]["units"]} == {"Gutrippaz": 2}
