"""What a new player met walking the /inf commands in Italian and English (the tester's walk of
the Infinity commands): each test is one reply that read wrong. Book lines as L123 of
../shared/seeds/003_27b81155ce3a4b9f.txt."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say


async def setup(app: App) -> None:
    for user, text in [
        ("ann", "/game new inf"),
        ("bob", "/game join"),
        ("ann", "/unit add Angus bs=12 cc=13 ph=10 wip=12 arm=1 w=1 lt=1 pts=20"),
        ("ann", "/unit add JangQi bs=12 cc=13 ph=10 wip=12 arm=1 w=1 pts=20"),
        ("ann", "/unit add Doucher bs=12 cc=13 ph=10 wip=12 arm=1 w=1 pts=20"),
        ("bob", "/unit add WenLiu bs=11 cc=14 ph=14 wip=13 arm=1 bts=3 w=2 lt=1 pts=30"),
        ("ann", "/inf weapon add name=Grenades dam=13 burst=1 template=thrown bands=20:-3,40:-6"),
        ("ann", "/inf weapon add name=Lanciafiamme dam=13 burst=1 ammo=FIRE template=direct"),
    ]:
        reply = await say(app, text, user=user)
        assert reply.ok, (text, reply.error)


async def test_L904_an_area_templates_target_in_cover_is_minus_3_to_hit(app: App) -> None:
    await setup(app)
    reply = await say(
        app,
        "/inf sagoma arma=Grenades attributo=10 bersagli=JangQi,Doucher copertura=JangQi "
        "probabilità",
        user="ann",
        lang="it",
    )
    assert reply.ok, reply.error
    assert "tiro per colpire contro 7" in (reply.title or "")  # FIS 10, -3 for the cover
    assert reply.data is not None
    assert [t["p_hit"] for t in reply.data["targets"]] == [0.35, 0.35]


async def test_L943_a_direct_template_scores_no_critical(app: App) -> None:
    await setup(app)
    reply = await say(
        app, "/inf sagoma arma=Lanciafiamme bersagli=JangQi critico=JangQi", user="ann", lang="it"
    )
    assert not reply.ok and reply.error is not None
    assert reply.error.code == "inf.direct_template_no_critical"
    # an area template rolled with /inf attack names its critical here: still taken
    rolled = await say(app, "/inf sagoma danno=13 bersagli=JangQi critico=JangQi", user="ann")
    assert rolled.ok, rolled.error
    assert rolled.data is not None and rolled.data["outcome"]["targets"][0]["wounds"] == 1


async def test_L966_a_thrown_weapons_range_modifies_ph(app: App) -> None:
    await setup(app)
    it = await say(app, "/inf distanza arma=Grenades distanza=15", lang="it")
    assert it.ok, it.error
    assert "Grenades a 15 cm: −3 FIS" in plain.render(it) and "CD" not in plain.render(it)
    en = await say(app, "/inf range weapon=Grenades distance=15", lang="en")
    assert "Grenades at 15 cm: −3 PH" in plain.render(en) and "BS" not in plain.render(en)
    rifle = await say(app, "/inf range weapon=Rifle distance=45", lang="en")
    assert "Rifle at 45 cm: −3 BS" in plain.render(rifle)
    attack = await say(
        app,
        "/inf attacco attaccante=Angus arma=Grenades bersaglio=WenLiu distanza=15 dadi=3,20",
        lang="it",
    )
    assert attack.ok, attack.error
    assert "Distanza 15 cm: −3 FIS." in plain.render(attack)


async def test_a_won_dodge_reads_as_a_dodge_not_as_return_fire(app: App) -> None:
    await setup(app)
    reply = await say(
        app,
        "/inf attack attacker=Angus weapon=Grenades target=WenLiu distance=15 vs=11 dice=3,4",
        lang="en",
    )
    assert reply.ok, reply.error
    text = plain.render(reply)
    assert "WenLiu: dodged, no hit" in text
    assert "Dodge: target 11 (11) [4✓] → 1 success" in text  # not 'Reactive: ... 1 hit'
    assert "hit back" not in text and "cancelled" not in text
    it = await say(
        app,
        "/inf attacco attaccante=Angus arma=Grenades bersaglio=WenLiu distanza=15 contro=11 "
        "dadi=3,4",
        lang="it",
    )
    assert "WenLiu: ha schivato, nessun colpo" in plain.render(it)


async def test_template_errors_name_the_options_it_has(app: App) -> None:
    await setup(app)
    down = await say(app, "/unit damage WenLiu 2", user="bob")
    assert down.ok, down.error
    reply = await say(
        app, "/inf sagoma danno=13 bersagli=WenLiu schivano=WenLiu", user="ann", lang="it"
    )
    assert not reply.ok and reply.error is not None
    assert reply.error.code == "inf.cannot_dodge"
    assert "schivano=" in reply.error.message and "contro=" not in reply.error.message
    reply = await say(app, "/inf sagoma attributo=10 bersagli=JangQi", user="ann", lang="it")
    assert not reply.ok and reply.error is not None
    assert reply.error.code == "inf.template_missing_dam"
    assert "danno=" in reply.error.message and "attaccante=" not in reply.error.message


async def test_book_weapons_are_named_in_the_readers_language(app: App) -> None:
    await setup(app)
    it = await say(app, "/inf sagoma arma=Fucile bersagli=JangQi", user="ann", lang="it")
    assert not it.ok and it.error is not None and it.error.code == "inf.not_a_template"
    assert it.error.message.startswith("Fucile non è") and "Rifle" not in it.error.message
    en = await say(app, "/inf template weapon=Fucile targets=JangQi", user="ann", lang="en")
    assert en.error is not None and en.error.message.startswith("Rifle is not")
    far = await say(app, "/inf gittata arma=Rifle distanza=200", lang="it")
    assert far.error is not None and far.error.message.startswith("Fucile non arriva")


async def test_weapon_remove_as_the_help_says_and_book_weapons_stay(app: App) -> None:
    await setup(app)
    help_it = await say(app, "/aiuto inf arma", lang="it")
    assert "o rimuovi" in plain.render(help_it) and "togli" not in plain.render(help_it)
    book = await say(app, "/inf arma rimuovi nome=Fucile", user="ann", lang="it")
    assert not book.ok and book.error is not None
    assert book.error.code == "inf.builtin_not_removable"
    assert book.error.message.startswith("Fucile è un'arma del manuale")
    assert "Grenades, Lanciafiamme" in book.error.message  # as the players wrote them
    gone = await say(app, "/inf arma rimuovi nome=Bazooka", user="ann", lang="it")
    assert gone.error is not None and "Grenades, Lanciafiamme." in gone.error.message


async def test_turn_end_names_the_loss_of_lieutenant_reserve_as_inf_orders(app: App) -> None:
    await setup(app)
    for user, text in [
        ("bob", "/unit add Zhan bs=11 cc=14 ph=14 wip=13 arm=1 w=1 pts=30"),
        ("bob", "/unit damage WenLiu 2"),  # his only Lieutenant falls: Loss of Lieutenant
    ]:
        assert (await say(app, text, user=user)).ok, text
    ended = await say(app, "/turno fine", user="ann", lang="it")
    assert ended.ok, ended.error
    text = plain.render(ended)
    assert "Ordini di bob: 2 nella riserva della Perdita del Tenente." in text
    assert "per Gruppo di Combattimento" not in text
    shown = plain.render(await say(app, "/inf ordini", lang="it"))
    assert "riserva della Perdita del Tenente: 2" in shown


async def test_spending_an_order_says_whose_unit_and_whose_turn(app: App) -> None:
    await setup(app)  # ann's turn
    theirs = await say(app, "/inf ordini spendi WenLiu", user="ann", lang="it")
    assert not theirs.ok and theirs.error is not None
    assert theirs.error.code == "inf.orders_in_owners_turn"
    assert theirs.error.message.startswith("WenLiu è di bob")
    early = await say(app, "/inf ordini spendi WenLiu", user="bob", lang="it")
    assert early.error is not None and early.error.code == "perm.not_your_turn"
    other = await say(app, "/inf orders spend Angus", user="bob", lang="en")
    assert other.error is not None and other.error.code == "perm.not_your_unit"
    mine = await say(app, "/inf ordini spendi Angus", user="ann", lang="it")
    assert mine.ok, mine.error
    assert (await say(app, "/turno fine", user="ann")).ok
    his = await say(app, "/inf ordini spendi WenLiu", user="bob", lang="it")
    assert his.ok, his.error
