"""What walking each game as a new player found (#24), one test each: an error that lists the
valid values lists them as the reader types them (`mod=`: carica, not charge; `munizione=`:
FUOCO, not FIRE); an unknown power attack is said first, before any missing stat; a resource is
named as the board names it (Age of Sigmar's PC in Italian: `/risorse spendi pc 1`, the log's
`PC 0 → 1`)."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say


async def test_an_unknown_wm_modifier_lists_the_readers_words(app: App) -> None:
    it = await say(app, "/wm attacco abilita=7 potenza=12 dif=12 armatura=18 mod=pippo", lang="it")
    assert it.error is not None and it.error.code == "wm.bad_mod"
    assert "alle_spalle, mira, opportunita, carica" in it.error.message
    assert "charge" not in it.error.message and "free_strike" not in it.error.message
    en = await say(app, "/wm attack mat=7 pow=12 def=12 arm=18 mods=foo", lang="en")
    assert en.error is not None and "backstrike, aim, free_strike, charge" in en.error.message


async def test_an_unknown_ammunition_lists_the_readers_words(app: App) -> None:
    it = await say(app, "/inf attacco attributo=12 raffica=3 danno=13 munizione=XYZ", lang="it")
    assert it.error is not None and it.error.code == "inf.bad_ammo"
    assert "FUOCO" in it.error.message and "FIRE" not in it.error.message
    en = await say(app, "/inf attack attr=12 burst=3 dam=13 ammo=XYZ", lang="en")
    assert en.error is not None and "FIRE" in en.error.message


async def test_an_unknown_power_attack_is_said_before_a_missing_stat(app: App) -> None:
    it = await say(app, "/wm forza pippo mischia=7", lang="it")
    assert it.error is not None and it.error.code == "wm.bad_power", it.error
    assert "schianto" in it.error.message and "slam" not in it.error.message
    en = await say(app, "/wm power bogus mat=7", lang="en")
    assert en.error is not None and en.error.code == "wm.bad_power", en.error
    assert "slam" in en.error.message


async def test_a_resource_is_named_as_the_board_names_it(app: App) -> None:
    chat = "console:walk-res"
    ann = {"user": "ann", "name": "Ann", "chat": chat, "lang": "it"}
    for text in (
        "/partita nuova aos",
        "/unita aggiungi Vindictors modelli=5 ferite=2",
        "/aos eroi",
    ):
        assert (await say(app, text, **ann)).ok, text
    spent = await say(app, "/risorse spendi pc 1", **ann)
    assert spent.ok, spent.error
    assert plain.render(spent) == "PC: ora 0."
    wrong = await say(app, "/risorse spendi pippo 1", **ann)
    assert wrong.error is not None and wrong.error.code == "game.unknown_resource"
    assert "valide: PC." in wrong.error.message
    log = plain.render(await say(app, "/registro", **ann))
    assert "Ann: PC 0 → 1" in log and "cp 0" not in log
    english = plain.render(await say(app, "/log", **{**ann, "lang": "en"}))
    assert "Ann: CP 0 → 1" in english


async def test_an_unknown_weapon_lists_the_book_weapons_in_the_readers_words(app: App) -> None:
    chat = "console:walk-weapon"
    for lang, add, equip, shown, other in (
        ("it", "/unita aggiungi Angus f=1", "/inf equipaggia Angus armi=Niente", "Fucile", "Rifle"),
        ("en", "/unit add Angus w=1", "/inf loadout Angus weapons=Nothing", "Rifle", "Fucile"),
    ):
        here = {"chat": f"{chat}-{lang}", "lang": lang}
        assert (await say(app, "/game new inf", **here)).ok
        assert (await say(app, add, **here)).ok
        wrong = await say(app, equip, **here)
        assert wrong.error is not None and wrong.error.code == "inf.unknown_weapon"
        assert shown in wrong.error.message and other not in wrong.error.message


async def test_a_bad_stat_pair_gives_an_example_in_the_readers_words(app: App) -> None:
    assert (await say(app, "/partita nuova gen", lang="it")).ok
    wrong = await say(app, "/unita aggiungi Guardie modelli=x", lang="it")
    assert wrong.error is not None and "ferite=3" in wrong.error.message
    assert "wounds" not in wrong.error.message


async def test_wow_keeps_the_books_vp_on_every_italian_screen(app: App) -> None:
    """The Italian WoW book says VP (rule 102.1), as /wow classifica does; the board said PV."""
    here = {"chat": "console:walk-vp", "lang": "it"}
    assert (await say(app, "/partita nuova wow", **here)).ok
    for text in ("/partita stato", "/punti", "/wow classifica"):
        shown = plain.render(await say(app, text, **here))
        assert "0 VP" in shown and "PV" not in shown, (text, shown)
    aos = {"chat": "console:walk-pv", "lang": "it"}
    assert (await say(app, "/partita nuova aos", **aos)).ok
    assert "0 PV" in plain.render(await say(app, "/partita stato", **aos))


async def test_wm_gear_examples_use_the_italian_books_letters(app: App) -> None:
    """/aiuto wm scudi said "sistema d'arma (S, D, T)" and showed `scudo=L`; the Italian examples
    now use S, D (what the Italian book prints), and they record what the English L, R do."""
    shown = plain.render(await say(app, "/aiuto wm scudi", lang="it"))
    assert "/wm scudi Defender scudo=S" in shown and "scudo=L" not in shown
    assert "buckler=D" in shown and "mani_libere=S" in shown
    grid = "......|..L..M|...MC.|...MC.|..R..M|......"
    data = []
    for lang, new, add, gear in (
        ("it", "/partita nuova wm", "/unita aggiungi Jack griglia=", "/wm scudi Jack scudo=S"),
        ("en", "/game new wm", "/unit add Jack grid=", "/wm gear Jack shields=L"),
    ):
        here = {"chat": f"console:walk-gear-{lang}", "lang": lang}
        assert (await say(app, new, **here)).ok
        assert (await say(app, add + grid, **here)).ok
        done = await say(app, gear, **here)
        assert done.ok, done.error
        data.append(done.data)
    assert data[0] == data[1]


async def test_list_is_elenco_as_in_every_other_italian_list_command(app: App) -> None:
    """/unita elenco, /regole elenco, /armata elenco… but /wow carta and /inf arma refused
    `elenco` (they wanted `elenca`): a new Italian player typed it twice. Both are taken now,
    and the help shows elenco."""
    wow = {"chat": "console:walk-list-wow", "lang": "it"}
    for text in ("/partita nuova wow", "/unita aggiungi Jaina salute=6"):
        assert (await say(app, text, **wow)).ok
    for text in ("/wow carta elenco Jaina", "/wow carta elenca Jaina"):
        listed = await say(app, text, **wow)
        assert listed.ok, (text, listed.error)
    inf = {"chat": "console:walk-list-inf", "lang": "it"}
    assert (await say(app, "/partita nuova inf", **inf)).ok
    listed = await say(app, "/inf arma elenco", **inf)
    assert listed.ok and "Fucile" in plain.render(listed), listed.error
    assert "/inf arma elenco" in plain.render(await say(app, "/aiuto inf", lang="it"))


async def test_a_missing_positional_is_named_as_the_syntax_line_shows_it(app: App) -> None:
    # `/confronta "2d6"` said "Manca b." above "Sintassi: /confronta A B …": the placeholder the
    # reader sees is B (the registry names it so; the local name lost its case).
    cases = [
        ('/confronta "2d6"', "it", "Manca B."),
        ("/compare", "en", "A is missing."),
        ("/tira", "it", "Manca ESPRESSIONE."),
        ("/unita aggiungi", "it", "Manca NOME."),
        ("/wm compare", "en", "A is missing."),
    ]
    for text, lang, sentence in cases:
        reply = await say(app, text, lang=lang)
        assert reply.error is not None and reply.error.code == "cmd.missing_option", text
        assert reply.error.message.startswith(sentence), reply.error.message
    await say(app, "/partita nuova c5", lang="it", chat="console:c5-second")
    await say(app, "/unita aggiungi Guardie", lang="it", chat="console:c5-second")
    c5 = await say(app, "/c5 combattimento Guardie", lang="it", chat="console:c5-second")
    assert c5.error is not None and c5.error.message.startswith("Manca SECONDO."), c5.error
    # A positional option's other errors name it so too: the sentence began with a lower-case
    # word ("quantità deve essere…", "sistema deve essere uno tra…") above a syntax line that
    # shows QUANTITÀ. A `key=value` option keeps the name as it is typed.
    await say(app, "/partita nuova gen", lang="it")
    await say(app, "/unita aggiungi Guardie ferite=5", lang="it")
    cases = [
        ("/unita danno Guardie tre", "it", "QUANTITÀ deve essere un numero intero"),
        ("/partita nuova xyz", "it", "SISTEMA deve essere uno tra: gen, aos"),
        ("/tira storico 0", "it", "N deve essere tra 1 e 50."),
        ("/game new xyz", "en", "SYSTEM must be one of: gen, aos"),
        ("/unita danno Guardie 2 colonna=x", "it", "colonna deve essere un numero intero"),
    ]
    for text, lang, sentence in cases:
        reply = await say(app, text, lang=lang)
        assert reply.error is not None and reply.error.message.startswith(sentence), (
            text,
            reply.error,
        )


async def test_infinity_attributes_are_chosen_by_the_italian_books_codes(app: App) -> None:
    # `/inf tiro attributo_unità=cd` was refused, listing "cc, bs, ph, wip, arm, bts" on an
    # Italian screen, though the unit was added with `cd=12` and is drawn as "CD 12".
    chat = {"chat": "console:walk-inf-attr", "lang": "it"}
    assert (await say(app, "/partita nuova inf", **chat)).ok
    added = await say(app, "/unita aggiungi Fuciliere cc=13 cd=12 fis=10 vol=12 arm=1", **chat)
    assert added.ok, added.error
    shot = await say(app, "/inf tiro attributo_unità=cd bersaglio=Fuciliere dadi=5", **chat)
    assert shot.ok, shot.error
    assert "12" in plain.render(shot)
    help_text = plain.render(await say(app, "/aiuto inf tiro", lang="it"))
    assert "attributo_unità=cc|cd|fis|vol|arm|pb" in help_text, help_text
    assert "predefinito cd" in help_text and " bs" not in help_text
    english = plain.render(await say(app, "/help inf roll", lang="en"))
    assert "stat=cc|bs|ph|wip|arm|bts" in english and "default bs" in english


async def test_a_wm_modifier_refused_for_the_attack_is_named_in_the_readers_words(
    app: App,
) -> None:
    # The walk: "'cover' vale solo per gli attacchi a distanza e magici." on an Italian screen.
    base = "/wm attacco tipo=mischia abilita=7 potenza=12 dif=12 armatura=18"
    for typed, code in (("copertura", "cover"), ("celato", "concealment"), ("spruzzo", "spray")):
        it = await say(app, f"{base} mod={typed}", lang="it")
        assert it.error is not None and it.error.code == "wm.not_melee", it.error
        assert f"'{typed}'" in it.error.message and code not in it.error.message
    ranged = await say(
        app,
        "/wm attacco tipo=distanza abilita=7 potenza=12 dif=12 armatura=18 mod=carica",
        lang="it",
    )
    assert ranged.error is not None and ranged.error.code == "wm.melee_only", ranged.error
    assert "'carica'" in ranged.error.message
    en = await say(app, "/wm attack type=melee mat=7 pow=12 def=12 arm=18 mods=cover", lang="en")
    assert en.error is not None and "'cover'" in en.error.message


async def test_one_face_and_confrontations_for_read_as_the_book_writes_them(app: App) -> None:
    # The walk: "Un dado non può avere 1 facce" / "A die cannot have 1 sides"; and C5's STR
    # drawn "forza 6" beside ATT and DIF where the book writes FOR.
    it = await say(app, "/tira 2d1", lang="it")
    assert it.error is not None and "non può avere 1 faccia:" in it.error.message
    en = await say(app, "/roll 2d1", lang="en")
    assert en.error is not None and "cannot have 1 side:" in en.error.message
    many = await say(app, "/roll 2d1001", lang="en")
    assert many.error is not None and "cannot have 1001 sides:" in many.error.message
    chat = {"chat": "console:c5-for", "user": "ann"}
    assert (await say(app, "/partita nuova c5 Prova", lang="it", **chat)).ok
    added = await say(app, "/unita aggiungi Orco att=5 forza=6 dif=4 res=6", lang="it", **chat)
    assert "ATT 5 FOR 6 DIF 4 RES 6" in plain.render(added)


async def test_a_subcommand_typo_that_the_command_cannot_read_is_offered_the_subcommand(
    app: App,
) -> None:
    # The walk: /tira storia and /roll hist said "no dice expression": /roll reads free text
    # (a label), so the typo of /tira storico reached the roll and failed there.
    it = await say(app, "/tira storia", lang="it")
    assert it.error is not None and it.error.code == "cmd.unknown_sub_hint", it.error
    assert "/tira storico" in it.error.message
    en = await say(app, "/roll hist", lang="en")
    assert en.error is not None and "/roll history" in en.error.message
    labelled = await say(app, "/roll 2d6 storia", lang="en")
    assert labelled.ok, labelled.error  # a label after an expression is no typo
    wrong = await say(app, "/roll 2d6+", lang="en")
    assert wrong.error is not None and wrong.error.code.startswith("dice.")


async def test_the_infinity_weapon_help_writes_ph_damage_as_the_italian_book(app: App) -> None:
    # The walk: /aiuto inf arma showed the example danno=PH+1; the Italian book's PH is FIS.
    shown = plain.render(await say(app, "/aiuto inf arma", lang="it"))
    assert "danno=FIS+1" in shown and "PH+1" not in shown
    assert "dam=PH+1" in plain.render(await say(app, "/help inf weapon", lang="en"))


async def test_the_stat_list_leaves_out_what_the_game_derives(app: App) -> None:
    # The walk: /aiuto unita aggiungi listed Infinity's HP, which the bot derives from W (typed,
    # it is refused) and which is no word of the Italian book.
    shown = plain.render(await say(app, "/aiuto unita aggiungi", lang="it"))
    line = next(row for row in shown.splitlines() if row.startswith("inf:"))
    assert "F (W)" in line and "HP" not in line


async def test_a_bare_unit_name_is_told_which_options_name_units(app: App) -> None:
    """`/wow attacco Jaina Thrall` (the natural way to say who attacks whom) answered only
    "Qui non capisco 'Jaina'": now the sentence names the options that take a unit, in the
    reader's words, with the word typed."""
    it = await say(app, "/wow attacco Jaina Thrall", lang="it")
    assert it.error is not None and it.error.code == "cmd.unexpected_unit", it.error
    assert "'Jaina'" in it.error.message
    assert "attaccante=Jaina" in it.error.message and "bersaglio=Jaina" in it.error.message
    assert "attacker" not in it.error.message and "target" not in it.error.message
    en = await say(app, '/wm attack "Iron Giant" Sorscha', lang="en")
    assert en.error is not None and en.error.code == "cmd.unexpected_unit", en.error
    assert "attacker=Iron Giant" in en.error.message or 'attacker="Iron Giant"' in en.error.message
    assert "target=" in en.error.message
    # A command that takes no unit keeps the plain sentence.
    plain_word = await say(app, "/tira 2d6 pippo pluto", lang="it")
    assert plain_word.error is None or plain_word.error.code != "cmd.unexpected_unit"


async def test_a_name_of_several_words_without_quotes_is_told_to_quote_it(app: App) -> None:
    """`/unita aggiungi Capitano Uno ferite=6` answered "Qui non capisco 'Uno'", though the
    help's example names a unit of three words: the sentence now says a name of several
    words goes in quotes, and shows it quoted."""
    await say(app, "/partita nuova aos", lang="it")
    it = await say(app, "/unita aggiungi Capitano Uno ferite=6", lang="it")
    assert it.error is not None and it.error.code == "cmd.unquoted_name", it.error
    assert '"Capitano Uno"' in it.error.message and "virgolette" in it.error.message
    en = await say(app, "/unit add Iron Giant wounds=12", lang="en")
    assert en.error is not None and en.error.code == "cmd.unquoted_name", en.error
    assert '"Iron Giant"' in en.error.message and "quotes" in en.error.message
    amount = await say(app, "/unita danno Capitano Uno 3", lang="it")  # 'Uno' is no amount
    assert amount.error is not None and amount.error.code == "cmd.unquoted_name", amount.error
    assert '"Capitano Uno"' in amount.error.message
    quoted = await say(app, '/unita aggiungi "Capitano Uno" ferite=6', lang="it")
    assert quoted.error is None, quoted.error


async def test_phase_or_round_alone_says_where_the_game_is(app: App) -> None:
    """`/fase` and `/round` alone answered with the group's help ("Comandi di /fase"): a
    player typing them mid-game wants the round and phase, and how to move on."""
    chat = "console:phase-alone"
    await say(app, "/partita nuova aos", lang="it", chat=chat)
    for text, lang, hint in (
        ("/fase", "it", "/fase prossima"),
        ("/round", "it", "/round prossimo"),
        ("/phase", "en", "/phase next"),
    ):
        reply = await say(app, text, lang=lang, chat=chat)
        assert reply.error is None, (text, reply.error)
        shown = plain.render(reply)
        assert shown.startswith("Round 1"), shown
        assert hint in shown, shown
        assert reply.data is not None and reply.data["round"] == 1
    # A word after a group's own command that no subcommand is like: named as a subcommand
    # ("Qui non capisco 'qwxz'" said nothing of the subcommands).
    stray = await say(app, "/turno qwxz", lang="it", chat=chat)
    assert stray.error is not None and stray.error.code == "cmd.no_such_sub", stray.error
    assert "/aiuto turno" in stray.error.message


async def test_a_bare_word_where_stats_are_typed_shows_the_pair_form(app: App) -> None:
    """`/unita aggiungi Capitano ferite=6 generale` answered "Qui non capisco 'generale'": where
    a command takes stats as pairs, a bare word is shown as the pair it should be."""
    chat = "console:bare-stat"
    await say(app, "/partita nuova aos", lang="it", chat=chat)
    it = await say(app, "/unita aggiungi Capitano ferite=6 salvezza", lang="it", chat=chat)
    assert it.error is not None and it.error.code == "cmd.bare_pair", it.error
    assert "salvezza=1" in it.error.message and "nome=valore" in it.error.message
    en = await say(app, "/unit add Captain wounds=6 save", lang="en", chat=chat)
    assert en.error is not None and en.error.code == "cmd.bare_pair", en.error
    assert "save=1" in en.error.message and "name=value" in en.error.message
    # After a unit's name a lower-case word may be either: both forms are shown.
    both = await say(app, "/unita imposta Capitano salvezza", lang="it", chat=chat)
    assert both.error is not None and both.error.code == "cmd.unquoted_name_or_pair", both.error
    assert '"Capitano salvezza"' in both.error.message and "salvezza=1" in both.error.message


async def test_a_small_word_is_not_offered_as_a_unit_or_a_far_option(app: App) -> None:
    """`/c5 tiro per ferire` answered "un'unità si nomina con attaccante=per o bersaglio=per"
    and `/c5 tiro ferire` "forse fuoco=?" (`ferire` is near `fire`, an alias of fuoco): a
    lower-case word is no unit name to suggest, and a bare word is offered an option only
    when it begins with it or is a letter's typo away (`parata` -> `para`, `difesa` -> `dif`)."""
    chat = "console:c5-words"
    await say(app, "/partita nuova c5", lang="it", chat=chat)
    per = await say(app, "/c5 tiro per ferire forza=7 resistenza=6", lang="it", chat=chat)
    assert per.error is not None and per.error.code == "cmd.unexpected", per.error
    ferire = await say(app, "/c5 tiro ferire forza=7 resistenza=6", lang="it", chat=chat)
    assert ferire.error is not None and "fuoco" not in ferire.error.message, ferire.error
    named = await say(app, "/wow attacco Jaina Thrall", lang="it", chat=chat)
    assert named.error is not None and named.error.code == "cmd.unexpected_unit", named.error


async def test_a_yes_no_stat_written_alone_is_one_as_in_a_roster_line(app: App) -> None:
    """`/unita aggiungi Capitano ferite=6 generale` answered "una caratteristica si scrive
    nome=valore, per esempio generale=1", though `/armata aggiungi` reads the same line with
    General set: the option parser has no game. A bare word after the stats is now kept for
    the game, which reads it as 1 when it is one of its yes/no stats (AoS's General and
    Monster, C5's warrior, WoW's legendary), and refuses any other stat with the pair form."""
    aos = {"chat": "console:bare-yes-no", "lang": "it"}
    await say(app, "/partita nuova aos", **aos)
    added = await say(app, "/unita aggiungi Capitano ferite=6 generale", **aos)
    assert added.ok, added.error
    assert added.data is not None and added.data["unit"]["stats"]["general"] == 1
    changed = await say(app, "/unita imposta Capitano ferite=6 mostro", **aos)
    assert changed.ok, changed.error
    shown = await say(app, "/unita mostra Capitano", **aos)
    assert "mostro=1" in plain.render(shown)
    english = await say(app, "/unit add Lord wounds=5 general monster", chat=aos["chat"])
    assert english.ok, english.error
    assert english.data is not None and english.data["unit"]["stats"]["monster"] == 1
    save = await say(app, "/unita aggiungi Guardie ferite=1 salvezza", **aos)
    assert save.error is not None and save.error.code == "cmd.bare_pair", save.error
    assert "salvezza=1" in save.error.message
    unknown = await say(app, "/unita aggiungi Guardie ferite=1 guerriero", **aos)
    assert unknown.error is not None and unknown.error.code == "cmd.bare_pair", unknown.error
    c5 = {"chat": "console:bare-yes-no-c5", "lang": "it"}
    await say(app, "/partita nuova c5", **c5)
    kelen = await say(app, "/unita aggiungi Kelen att=5 guerriero", **c5)
    assert kelen.ok, kelen.error
    assert kelen.data is not None and kelen.data["unit"]["stats"]["warrior"] == 1
    assert "5/5" in plain.render(kelen)  # a warrior Character's fifth wound
    # nothing half-written: a refused line adds no unit
    listed = plain.render(await say(app, "/unita elenco", **aos))
    assert "Guardie" not in listed


def test_a_yes_no_stat_written_alone_in_discords_stats_option() -> None:
    """Discord's `stats` option is one string: the same bare word is kept for the game."""
    from bot.commands.registry import parse_pairs
    from bot.commands.spec import OptionSpec
    from rules_core.game.stat_names import canonical_stats

    pairs = parse_pairs(OptionSpec("stats", type="pairs"), "ferite=6 generale")
    assert canonical_stats("aos", pairs) == {"wounds": 6, "general": 1}


async def test_a_stat_is_shown_with_its_accent(app: App) -> None:
    """/unita mostra Jaina drew `velocita=5` and /aiuto unita aggiungi listed `velocita
    (speed)`, C5's `pieta`: the Italian word is velocità (typed, both forms are taken)."""
    chat = {"chat": "console:walk-accent", "lang": "it"}
    await say(app, "/partita nuova wow", **chat)
    await say(app, "/unita aggiungi Jaina salute=6 velocita=5", **chat)
    shown = plain.render(await say(app, "/unita mostra Jaina", **chat))
    assert "velocità=5" in shown and "velocita" not in shown, shown
    helped = plain.render(await say(app, "/aiuto unita aggiungi", lang="it"))
    assert "velocità (speed)" in helped and "pietà (piety)" in helped, helped


async def test_every_pool_is_named_as_the_italian_book_names_it(app: App) -> None:
    """/risorse in C5 listed "mana, ft, autorità" (the book's Fede Temporanea is FT), and
    /aiuto risorse imposta gave "per esempio focus o cp" (the Italian AoS book's PC)."""
    chat = {"chat": "console:walk-pools", "lang": "it"}
    await say(app, "/partita nuova c5", **chat)
    await say(app, "/unita aggiungi Sciamano pot=4 rango=2", **chat)
    wrong = await say(app, "/risorse spendi mna 1 unità=Sciamano", **chat)
    assert wrong.error is not None and "mana, FT, autorità" in wrong.error.message, wrong.error
    added = await say(app, "/risorse aggiungi ft 2 unità=Sciamano", **chat)
    assert plain.render(added) == "Sciamano: FT ora 2.", plain.render(added)
    helped = plain.render(await say(app, "/aiuto risorse imposta", lang="it"))
    assert "focus o PC" in helped and " cp" not in helped, helped
    # Infinity's irregular order was listed as "order"
    inf = {"chat": "console:walk-pools-inf", "lang": "it"}
    await say(app, "/partita nuova inf", **inf)
    listed = await say(app, "/risorse spendi pippo 1", **inf)
    assert listed.error is not None and "ordine irregolare" in listed.error.message, listed.error
    assert "order." not in listed.error.message


def test_every_games_pool_has_a_name_in_each_language() -> None:
    """The whole class of "order"/"ft" on a screen: a pool the catalogue does not name is
    shown by its code, which is a word of both books only for focus and mana."""
    from bot import i18n
    from rules_core.systems import get_system

    same_in_both = {"focus", "mana"}
    missing = [
        (lang, system, r.name)
        for system in ("gen", "aos", "wm", "wow", "inf", "c5")
        for r in get_system(system).resources
        for lang in i18n.LANGS
        if r.name not in same_in_both and not i18n.has(f"game.pool.{r.name}", lang)
    ]
    assert not missing, missing


async def test_a_deadline_is_typed_as_an_italian_says_it(app: App) -> None:
    """`/campagna scadenza 2 giorni` answered "Qui non capisco 'giorni'", `1,5g` the syntax
    "90m, 24h, 3d" (the Italian for days is g, as the bot's own "1 g" says). Whole words, a
    space and a decimal comma are taken; the example is Italian."""
    chat = {"chat": "console:walk-deadline", "lang": "it"}
    assert (await say(app, "/campagna nuova Lega", **chat)).ok
    for typed, shown in (
        ("2 giorni", "2 g"),
        ("1,5g", "1 g 12 h"),
        ("36 ore", "1 g 12 h"),
        ("90 minuti", "1 h 30 min"),
        ("1 giorno promemoria=50", "1 g"),
    ):
        done = await say(app, f"/campagna scadenza {typed}", **chat)
        assert done.ok, (typed, done.error)
        assert f"Ogni turno ha {shown};" in plain.render(done), plain.render(done)
    wrong = await say(app, "/campagna scadenza domani", **chat)
    assert wrong.error is not None and wrong.error.code == "campaign.bad_duration"
    assert "3g" in wrong.error.message and "3d" not in wrong.error.message
    english = await say(app, "/campaign deadline 2 days", chat=chat["chat"], lang="en")
    assert english.ok, english.error


async def test_the_log_writes_a_units_pool_under_the_units_name(app: App) -> None:
    """/registro wrote "sciamano: mana 0 → 3" (the pool's key folds the name) for the unit
    the board draws as Sciamano."""
    chat = {"chat": "console:walk-log-pool", "lang": "it"}
    await say(app, "/partita nuova c5", **chat)
    await say(app, "/unita aggiungi Sciamano pot=4 rango=2", **chat)
    assert (await say(app, "/risorse aggiungi mana 3 unità=Sciamano", **chat)).ok
    log = plain.render(await say(app, "/registro", **chat))
    assert "Sciamano: mana 0 → 3" in log and "sciamano" not in log, log


async def test_a_missing_choice_lists_what_to_type(app: App) -> None:
    """`/partita nuova` said only "Manca SISTEMA.": a new player does not know the codes. A
    missing option that takes one of a few words lists them, in the reader's words."""
    it = await say(app, "/partita nuova", lang="it", chat="console:walk-missing-choice")
    assert it.error is not None and it.error.code == "cmd.missing_choice", it.error
    assert it.error.message.startswith("Manca SISTEMA: uno tra gen, aos, wm, wow, c5, inf."), it
    en = await say(app, "/game new", lang="en", chat="console:walk-missing-choice")
    assert en.error is not None and en.error.message.startswith("SYSTEM is missing: one of gen")
    cond = await say(app, "/unita condizione Guardie", lang="it", chat="console:walk-missing-c")
    assert cond.error is not None and "aggiungi" in cond.error.message, cond.error
    assert "add" not in cond.error.message.split("Sintassi")[0]


async def test_wow_standings_say_how_many_vp_are_missing(app: App) -> None:
    """/wow classifica drew "u1 0 VP · Onore 75 (-75)": a new player can't read the (-75).
    The line now says how many VP are missing to the party's Honor (rule 102.1), or by how
    many it is reached."""
    chat = {"chat": "console:walk-standings", "lang": "it"}
    await say(app, "/partita nuova wow", **chat)
    await say(app, "/unita aggiungi Jaina salute=6 onore=30", **chat)
    shown = plain.render(await say(app, "/wow classifica", **chat))
    assert "0 VP su Onore 30: ne mancano 30" in shown and "(-30)" not in shown, shown
    await say(app, "/punti aggiungi 29", **chat)
    shown = plain.render(await say(app, "/wow classifica", **chat))
    assert "29 VP su Onore 30: ne manca 1" in shown, shown
    en = plain.render(await say(app, "/wow standings", chat=chat["chat"], lang="en"))
    assert "29 VP of Honor 30: short by 1" in en, en


async def test_help_lists_commands_in_the_readers_alphabetical_order(app: App) -> None:
    """/aiuto listed /aos, /armata, /serie, /c5, /campagna, /confronta, /fatto, /partita…: the
    order of the English names. An Italian reader scans for /tira after /statistiche; the
    lists (/aiuto, /aiuto partita) are in the order of the names the reader sees."""
    from rules_core.rules.text import fold

    for lang, text in (("it", "/aiuto"), ("en", "/help")):
        lines = plain.render(await say(app, text, lang=lang)).splitlines()
        listed = [line.split(" — ")[0] for line in lines if " — " in line]
        assert listed == sorted(listed, key=fold), (lang, listed)
    group = plain.render(await say(app, "/aiuto partita", lang="it")).splitlines()
    subs = [line.split(" — ")[0] for line in group if line.startswith("/partita ")]
    assert subs == sorted(subs, key=fold), subs


async def test_a_missing_c5_stat_agrees_with_any_stat(app: App) -> None:
    """`/c5 ferire forza=7` answered "Indica resistenza=N, oppure un'unità … da cui leggerlo":
    the stat named may be feminine (resistenza, forza, difesa) or masculine (attacco); the
    sentence now reads the value, which agrees with all."""
    wound = await say(app, "/c5 ferire forza=7", lang="it", chat="console:walk-c5-missing")
    assert wound.error is not None and wound.error.code == "c5.missing_stat", wound.error
    assert "resistenza=N" in wound.error.message and "leggerne il valore" in wound.error.message
    assert "leggerlo" not in wound.error.message


async def test_a_roster_lines_refusal_names_stats_in_the_readers_words(app: App) -> None:
    """`/armata aggiungi Abel att=5 ferita=4` answered "valide: mov,ini,att,str,def,…,wounds"
    (the codes, English, no spaces) where `/unita aggiungi` says "valide: MOV, INI, ATT, FOR":
    the line's reason is now worded by the same helper as every other error."""
    chat = {"chat": "console:walk-army-stat", "lang": "it"}
    await say(app, "/partita nuova c5", **chat)
    wrong = await say(app, "/armata aggiungi Abel att=5 ferita=4", **chat)
    assert wrong.error is not None and wrong.error.code == "army.bad_line", wrong.error
    assert "valide: MOV, INI, ATT, FOR, DIF" in wrong.error.message, wrong.error.message
    assert "wounds" not in wrong.error.message and "str," not in wrong.error.message


async def test_a_renamed_roster_unit_agrees_with_no_name(app: App) -> None:
    """`/armata carica` a second time said "Abel è già nella partita: aggiunta come Abel 2":
    the participle agreed with a name the players gave (Abel). The unit is named by its noun."""
    chat = {"chat": "console:walk-renamed", "lang": "it"}
    await say(app, "/partita nuova c5", **chat)
    await say(app, "/armata aggiungi Abel att=5", **chat)
    again = plain.render(await say(app, "/armata aggiungi Abel att=5", **chat))
    assert "C'è già un'unità Abel nella partita: la nuova si chiama Abel 2." in again, again
    assert "aggiunta come" not in again


async def test_an_unnamed_game_is_listed_once_by_its_game(app: App) -> None:
    """/partita storico listed "#1 … Confrontation 5 · Confrontation 5 · finita": a game
    started without a name is named after its system, which the line then repeated."""
    chat = {"chat": "console:walk-history", "lang": "it"}
    await say(app, "/partita nuova c5", **chat)
    await say(app, "/partita fine", **chat)
    await say(app, "/partita nuova wow Lega", **chat)
    shown = plain.render(await say(app, "/partita storico", **chat))
    assert "Confrontation 5 · Confrontation 5" not in shown, shown
    assert "Confrontation 5 · finita" in shown and "Lega · WoW Miniatures" in shown, shown


async def test_a_pair_typed_with_spaces_around_the_equals_sign_is_one_pair(app: App) -> None:
    """A phone keyboard writes `salute = 6`: `/unita aggiungi Jaina salute = 6` answered
    "un nome di più parole va tra virgolette ("Jaina salute =")… (salute=1)", offering the
    wrong value. `key = value`, `key= value` and `key =value` are read as `key=value`."""
    chat = {"chat": "console:walk-spaced-pairs", "lang": "it"}
    await say(app, "/partita nuova wow", **chat)
    added = await say(app, "/unita aggiungi Jaina salute = 6 armatura= 2 velocità =5", **chat)
    assert added.ok, added.error
    assert added.data is not None
    assert added.data["unit"]["stats"] == {**added.data["unit"]["stats"], "health": 6, "armor": 2}
    assert added.data["unit"]["stats"]["speed"] == 5
    attack = await say(app, "/wow attacco potere = 4 difesa = 2", **chat, seed=1)
    assert attack.ok, attack.error
    empty = await say(app, "/wow carta aggiungi Jaina carta= costo=3", **chat)
    assert empty.error is not None  # `carta=` stays empty, `costo=3` is not its value
    labelled = await say(app, "/tira 2d6 = fuoco", lang="it", chat=chat["chat"], seed=1)
    assert labelled.ok, labelled.error


async def test_a_yes_no_stat_may_be_given_as_si(app: App) -> None:
    """`/unita aggiungi Capitano ferite=6 generale=sì` answered "'generale=sì' non è una coppia
    caratteristica=numero": an Italian says sì for a yes/no stat; it is 1, as the stat alone is
    (the game refuses it for a stat that is not yes/no, with the pair form)."""
    chat = {"chat": "console:walk-si", "lang": "it"}
    await say(app, "/partita nuova aos", **chat)
    added = await say(app, "/unita aggiungi Capitano ferite=6 generale=sì mostro=si", **chat)
    assert added.ok, added.error
    assert added.data is not None and added.data["unit"]["stats"]["general"] == 1
    assert added.data["unit"]["stats"]["monster"] == 1
    english = await say(app, "/unit add Lord wounds=6 general=yes", chat=chat["chat"])
    assert english.ok, english.error
    save = await say(app, "/unita aggiungi Guardie ferite=1 salvezza=sì", **chat)
    assert save.error is not None and save.error.code == "cmd.bare_pair", save.error


async def test_a_bare_number_is_offered_the_one_number_option(app: App) -> None:
    """`/wow salute Thrall -2` answered "un nome di più parole va tra virgolette, come
    "Thrall -2"": a signed number is no part of a name. Where the command has one number
    option not given, the number is shown as its value."""
    chat = {"chat": "console:walk-number", "lang": "it"}
    await say(app, "/partita nuova wow", **chat)
    await say(app, "/unita aggiungi Thrall salute=6", **chat)
    it = await say(app, "/wow salute Thrall -2", **chat)
    assert it.error is not None and it.error.code == "cmd.number_like", it.error
    assert "forse variazione=-2?" in it.error.message and "virgolette" not in it.error.message
    en = await say(app, "/wow health Thrall -2", chat=chat["chat"], lang="en")
    assert en.error is not None and "change=-2" in en.error.message, en.error


async def test_the_last_phase_sentence_starts_with_a_capital(app: App) -> None:
    """`/fase prossima` in WARMACHINE's last phase answered "fase di attivazione: è l'ultima
    fase; …", a sentence starting in lower case (the phase's name opened it)."""
    for lang, new, join, nxt in (
        ("it", "/partita nuova wm", "/partita entra", "/fase prossima"),
        ("en", "/game new wm", "/game join", "/phase next"),
    ):
        chat = f"console:walk-last-phase-{lang}"
        await say(app, new, user="u1", chat=chat, lang=lang)
        await say(app, join, user="u2", chat=chat, lang=lang)
        for _ in range(2):
            assert (await say(app, nxt, user="u1", chat=chat, lang=lang)).ok
        last = await say(app, nxt, user="u1", chat=chat, lang=lang)
        assert last.error is not None and last.error.code == "game.last_phase", last.error
        assert last.error.message[0].isupper(), last.error.message


async def test_a_roster_line_reads_a_pair_typed_with_spaces_around_the_equals_sign(
    app: App,
) -> None:
    """9ce26af read `salute = 6` as one pair in commands, but an army list's lines have their
    own reader: `/armata aggiungi Jaina salute = 10` answered "'=' non è una caratteristica"."""
    chat = {"chat": "console:walk-army-spaced", "lang": "it"}
    await say(app, "/partita nuova wow", **chat)
    added = await say(
        app, "/armata aggiungi Jaina salute = 10 velocità= 5; Thrall salute =12", **chat
    )
    assert added.ok, plain.render(added)
    shown = plain.render(await say(app, "/unita mostra Jaina", **chat))
    assert "salute=10" in shown.replace(" ", "") or "10/10" in shown, shown


async def test_a_units_stats_are_shown_in_the_cards_order(app: App) -> None:
    """`/unita mostra Ironclad` listed 'ARM=18  DAT=5  DIF=12  FOR=11  MAT=7  VEL=4  basetta=50
    caselle=32': sorted by the reader's names, capitals first, where the card prints SPD STR
    MAT RAT DEF ARM (the game's own order, as it declares its stats)."""
    chat = "console:walk-stat-order"
    await say(app, "/partita nuova wm", chat=chat, lang="it")
    add = "/unita aggiungi Ironclad vel=4 for=11 mat=7 dat=5 dif=12 arm=18 basetta=50 caselle=32"
    assert (await say(app, add, chat=chat, lang="it")).ok
    for lang, order in (
        ("it", ["VEL", "FOR", "MAT", "DAT", "DIF", "ARM", "caselle", "basetta"]),
        ("en", ["SPD", "STR", "MAT", "RAT", "DEF", "ARM", "boxes", "base"]),
    ):
        shown = plain.render(await say(app, "/unita mostra Ironclad", chat=chat, lang=lang))
        line = next(x for x in shown.splitlines() if "MAT=" in x)
        assert [pair.split("=")[0] for pair in line.split()] == order, line


async def test_the_chats_language_is_named_in_words(app: App) -> None:
    """`/lingua` answered "Questa chat parla: it." (a code, where the reader's word is
    "italiano"), then listed both commands, the one already in effect included."""
    it = plain.render(await say(app, "/lingua", chat="console:walk-lang", lang="it"))
    assert "italiano" in it and ": it" not in it and "/impostazioni lingua en" in it, it
    en = plain.render(await say(app, "/settings lang", chat="console:walk-lang", lang="en"))
    assert "English" in en and ": en" not in en and "/settings lang it" in en, en
