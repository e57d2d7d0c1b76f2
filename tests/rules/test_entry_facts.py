"""Rule entries that said something the book doesn't, found by reading every entry against its
passage (an audit of the five books' entries; the wrong words and the book's lines per row).
Each row: the entry, words its summary must carry in each language, and the wrong words it
must no longer carry. Book refs: transcript lines (Lnnn) or C5 offsets (@nnn)."""

from __future__ import annotations

import re
from functools import cache

import pytest

from bot.rules_data import load_entries
from rules_core.rules.models import RuleEntry
from tests.rulebooks import BOOKS, read_book


@cache
def entries() -> dict[str, RuleEntry]:
    return {e.id: e for e in load_entries()}


# (id, Italian must, English must, wrong words that must be gone from either, the book)
FACTS = [
    (
        "wm.blast_damage",
        ["si può potenziare"],
        ["may be boosted"],
        ["non si potenzia", "can't be boosted"],
        "L3001-3003",
    ),
    (
        "wm.combined_melee",
        ["attaccante primario compreso"],
        ["primary attacker included"],
        ["oltre il primo", "beyond the first"],
        "L3275-3277",
    ),
    (
        "wm.combined_ranged",
        ["attaccante primario compreso"],
        ["primary attacker included"],
        ["oltre il primo", "beyond the first"],
        "L3320-3322",
    ),
    (
        "wm.knocked_down",
        ["al movimento o all'azione"],
        ["its movement or its action"],
        ["perde l'attivazione", "gives up its activation"],
        "L3455-3461",
    ),
    (
        "wm.buckler",
        ["arco posteriore", "presa sull'arma"],
        ["back arc", "weapon lock"],
        ["atterrato", "knocked down"],
        "L843-846",
    ),
    (
        "wm.shield",
        ["arco posteriore"],
        ["back arc"],
        ["brocchiero", "buckler's exceptions"],
        "L880-883",
    ),
    (
        "wm.crippled",
        ["un dado in meno", "DIF base 7"],
        ["one die less", "base DEF 7"],
        ["perdono le loro capacità", "loses its functions"],
        "L3729-3752",
    ),
    (
        "wm.water",
        ["rimosso dal gioco"],
        ["removed from play"],
        ["possono affondare", "may sink"],
        "L5776-5788",
    ),
    ("wm.stationary", ["DIF base 5"], ["base DEF 5"], ["ha DIF 5 ", "has DEF 5 "], "L3522"),
    ("wm.throw", ["si libera"], ["breaks free"], [], "L2489-2493, L2577-2582"),
    (
        "wm.heal_repair",
        ["almeno un segno da una sua casella"],
        ["at least one of its own boxes"],
        ["incapacitato e compromesso", "disabled and crippled states"],
        "L3757-3758, L3862-3866",
    ),
    (
        "wm.formation",
        ["-2 al COM", "o fugge"],
        ["-2 CMD", "or flees"],
        ["non riceve le abilità garantite", "gets no granted abilities"],
        "L4126-4151, L4190-4195",
    ),
    (
        "wm.charge_attack",
        ["almeno 3 pollici", "da mischia"],
        ["at least 3 inches", "melee weapon"],
        [],
        "L1821-1840",
    ),
    (
        "wm.slam",
        ["-2 per colpire", "almeno 3 pollici"],
        ["-2 to hit", "at least 3 inches"],
        [],
        "L2340-2376",
    ),
    (
        "wm.collateral_damage",
        ["uguale o più piccola"],
        ["equal or smaller base"],
        [],
        "L2401-2409, L2556-2563",
    ),
    (
        "wm.trample",
        ["normale tiro d'attacco in mischia"],
        ["normal melee attack roll"],
        ["attacca ogni modello toccato con 2d6", "at 2d6 + STR"],
        "L2660-2665",
    ),
    (
        "wm.attack_roll",
        ["Se tutti i dadi sono 1 manca sempre"],
        ["All 1s always miss"],
        ["tutti 1 manca sempre e", "all 1s always miss and"],
        "L2174-2177",
    ),
    ("wm.deployment_zone", ["Completamente entro"], ["Completely within"], [], "L1304, L5976"),
    ("wm.unit", ["membro della truppa"], ["trooper"], ["è un soldato"], "L490, L6572"),
    ("wm.formation", ["membro della truppa"], ["trooper"], ["Un soldato è"], "L4126, L6572"),
    (
        "aos.control_objective",
        ["come 2", "un solo obiettivo"],
        ["as 2", "only one objective"],
        [],
        "L741-745",
    ),
    ("aos.heroic_leadership", ["solo in quel turno"], ["only that turn"], [], "L289"),
    (
        "aos.hero_keyword",
        ["interamente entro 12 pollici"],
        ["wholly within 12 inches"],
        [],
        "L265-267",
    ),
    (
        "aos.wyldwood",
        ["più di 3 pollici di bosco", "Ferite 10 o più"],
        ["more than 3 inches of wyldwood", "Wounds 10 or more"],
        [],
        "L697",
    ),
    ("aos.unit_size", ["Solo la Linea di Battaglia"], ["Only Battleline"], [], "L1127"),
    (
        "aos.control_terrain",
        ["nessuno se è vuoto"],
        ["no one when empty"],
        ["avendo un'unità entro 3 pollici", "having a unit within 3 inches"],
        "L749",
    ),
    ("aos.cast", ["nemmeno con un altro mago"], ["not even by another wizard"], [], "L775"),
    (
        "aos.deadly",
        ["finisce un movimento"],
        ["ends a move"],
        ["si schiera o muove", "set up or moving"],
        "L1420",
    ),
    (
        "inf.impetuous",
        ["a scelta", "spendendo un Ordine"],
        ["player's choice", "spending an Order"],
        ["deve avanzare verso il nemico e attaccarlo", "must advance towards the enemy and attack"],
        "L1822-1857",
    ),
    ("inf.troop_types", ["esploratori (ESP)"], ["(ESP)"], ["schermagliatori, bande"], "L113-115"),
    ("inf.frenzy", ["Occultamento TO"], ["TO Camouflage"], ["Mimetismo superiore"], "L1861-1864"),
    (
        "inf.ammo_fire",
        ["Occultamento TO"],
        ["TO Camouflage"],
        ["Mimetismo superiore", "It degrades Camouflage"],
        "L3045-3055",
    ),
    (
        "inf.flash_pulse",
        ["linea di tiro", "se il tiro"],
        ["line of fire", "if its roll"],
        [],
        "L3267-3275",
    ),
    (
        "inf.deployment",
        ["Iniziativa", "l'altro riceve l'altra scelta"],
        ["Initiative", "the opponent gets the other"],
        [],
        "L737-770",
    ),
    ("inf.antipode", ["un solo ORA"], ["a single ARO"], ["berserk"], "L2041-2059"),
    ("inf.electric_pulse", ["se fallisce"], ["if it fails"], [], "L3339-3343"),
    (
        "wow.wave",
        ["ogni giocatore ordina"],
        ["each player orders"],
        ["scelto dai controllori", "their controllers choose"],
        "704.2c, L1108-1123",
    ),
    (
        "wow.cost",
        ["non l'unico"],
        ["not the only one"],
        ["l'unico modo", "the only way"],
        "501.3b, L827",
    ),
    ("wow.aoe", ["non danneggia gli alleati"], ["doesn't damage allies"], [], "407.2a, L696-704"),
    (
        "wow.cost_changes",
        ["prima tutti gli aumenti"],
        ["every increase first"],
        ["nell'ordine che vuoi", "in any order"],
        "703.1c, L1063",
    ),
    (
        "c5.mutagenic",
        ["2 + X per caratteristica"],
        ["2 + X per characteristic"],
        [],
        "@90499-@93500",
    ),
    (
        "c5.counter_attack",
        ["stampata sulla carta"],
        ["card prints the ability"],
        [],
        "@64935, @50500",
    ),
    ("c5.wound_penalties", ["INI, ATT, DIF e TIR"], ["INI, ATT, DEF and AIM"], [], "@10354"),
    (
        "c5.hardened",
        ["non è il rilancio di un dado fallito"],
        ["isn't a reroll of a failed die"],
        ["dado fallito nei", "failed die on", "dadi falliti", "failed dice"],
        "@52941, @53239, @6254",
    ),
    (
        "c5.beloved_of_gods",
        ["non è il rilancio di un dado fallito"],
        ["isn't a reroll of a failed die"],
        ["dado fallito nei", "failed die on", "dadi falliti", "failed dice"],
        "@52941, @53239, @6254",
    ),
    (
        "c5.precision",
        ["non è il rilancio di un dado fallito"],
        ["isn't a reroll of a failed die"],
        ["dado fallito nei", "failed die on", "dadi falliti", "failed dice"],
        "@52941, @53239, @6254",
    ),
    (
        "c5.reflexes",
        ["non è il rilancio di un dado fallito"],
        ["isn't a reroll of a failed die"],
        ["dado fallito nei", "failed die on", "dadi falliti", "failed dice"],
        "@52941, @53239, @6254",
    ),
    (
        "c5.dodge",
        ["non è il rilancio di un dado fallito"],
        ["isn't a reroll of a failed die"],
        ["dado fallito nei", "failed die on", "dadi falliti", "failed dice"],
        "@52941, @53239, @6254",
    ),
    (
        "c5.strategist",
        ["non è il rilancio di un dado fallito"],
        ["isn't a reroll of a failed die"],
        ["dado fallito nei", "failed die on", "dadi falliti", "failed dice"],
        "@52941, @53239, @6254",
    ),
    (
        "c5.focus",
        ["non è il rilancio di un dado fallito"],
        ["isn't a reroll of a failed die"],
        ["dado fallito nei", "failed die on", "dadi falliti", "failed dice"],
        "@52941, @53239, @6254",
    ),
    (
        "c5.enlightened",
        ["non è il rilancio di un dado fallito"],
        ["isn't a reroll of a failed die"],
        ["dado fallito nei", "failed die on", "dadi falliti", "failed dice"],
        "@52941, @53239, @6254",
    ),
    ("c5.leap", ["oltre il suo MOV"], ["beyond its MOV"], [], "@58900-@59016"),
    (
        "c5.reaction_fire",
        ["non è ancora stata attivata"],
        ["hasn't been activated yet"],
        [],
        "@108535-@109500",
    ),
    (
        "c5.artificer",
        ["finisce il suo movimento"],
        ["finish their move"],
        ["interrompe il movimento", "stops their movement"],
        "@55348-@55425",
    ),
    ("c5.awareness", ["ignorando gli ostacoli"], ["ignoring obstacles"], [], "@64023-@64249"),
    (
        "c5.rout",
        ["COR o di DIS", "nemico che fa paura"],
        ["COU or DIS", "enemy that causes fear"],
        [],
        "@15362-@15624",
    ),
    ("c5.tactical_roll", ["di un suo personaggio"], ["one of their characters"], [], "@15159"),
    ("c5.ephemeral", ["mai una terza"], ["never a third"], [], "@69165"),
    ("c5.regeneration", ["una sola volta"], ["once more only"], [], "@99500"),
    (
        "c5.command_group",
        ["prima del tiro di tattica"],
        ["before the tactical roll"],
        [],
        "@124489, @125678",
    ),
    ("wm.trenches", ["interamente dentro"], ["completely inside"], [], "L5752-5758"),
    (
        "aos.controlled_wild",
        ["un solo predatore per fase"],
        ["only one predatory spell per hero phase"],
        [],
        "L843",
    ),
    (
        "aos.random_characteristic",
        ["per ogni attacco", "tutta la fase"],
        ["for each attack", "whole phase"],
        [],
        "L970, L999-1001",
    ),
    (
        "aos.charge_phase",
        ["ha corso o si è ritirata", "entro 3 pollici"],
        ["ran or retreated", "within 3 inches"],
        [],
        "L405",
    ),
    (
        "inf.positional_repeater",
        ["entro 20 cm da esso"],
        ["within 20 cm of it"],
        ["estende di 20 cm", "extends hackers' reach"],
        "L3643-3645",
    ),
    (
        "inf.victory_points",
        ["miniature nemiche eliminate"],
        ["enemy models eliminated"],
        ["dagli obiettivi dello scenario", "on the scenario's objectives"],
        "L3976-3981",
    ),
    (
        "wow.target",
        ["entro il raggio e in linea visiva"],
        ["within range and in clear line of sight"],
        [],
        "407.1, L680",
    ),
    (
        "aos.command_points",
        ["1 in più se il tuo Generale"],
        ["1 more if your General"],
        ["ne ricevi 1, più 1", "you get 1, plus 1"],
        "L258, L279",
    ),
    (
        "aos.cover",
        ["Ferite 10 o più"],
        ["Wounds characteristic of 10"],
        ["MOSTRI", "MONSTERS"],
        "L673",
    ),
    (
        "aos.unleash_hell",
        ["entro 9 pollici", "più di 3 pollici"],
        ["within 9 inches", "more than 3 inches"],
        ["l'unità caricata", "the charged unit"],
        "L443",
    ),
    (
        "aos.arcane_bolt",
        ["all'inizio di una fase"],
        ["at the start of a phase"],
        ["momento a scelta del turno", "moment of your choice"],
        "L791",
    ),
    (
        "aos.behind_terrain",
        ["dall'unità che attacca"],
        ["from the attacking unit"],
        ["da esso", "from it,"],
        "L657-661",
    ),
    ("aos.look_out_sir", ["una sua unità"], ["one of its own units"], ["a friendly unit"], "L423"),
    (
        "aos.pass",
        ["solo se nessuna tua unità può combattere"],
        ["only when none of your units can fight"],
        [],
        "L451, L459",
    ),
    (
        "inf.suppression_fire",
        ["amica o nemica", "non in ORA"],
        ["friend or foe", "not an ARO"],
        ["qualunque nemico", "any enemy moving"],
        "L1062-1078",
    ),
    (
        "inf.difficult_terrain",
        ["a metà MOV"],
        ["half MOV"],
        ["non si può attraversare", "can't be crossed"],
        "L3807-3810",
    ),
    ("inf.mnemonica", ["senza tiri"], ["with no roll"], ["tiro di VOL", "WIP roll"], "L2321-2334"),
    (
        "inf.direct_template",
        ["a -6", "sparando"],
        ["at -6", "shoot back"],
        ["possono solo schivare", "can only dodge"],
        "L952-957",
    ),
    (
        "inf.charge",
        ["sparare", "Schivata"],
        ["shoot", "Dodge"],
        ["schivare o fuggire", "dodge or flee"],
        "L1165-1184",
    ),
    ("inf.rifle", ["0 fino a 20 cm"], ["0 up to 20 cm"], [], "L2845-2865"),
    ("inf.range_modifiers", ["0 fino a 20 cm"], ["0 up to 20 cm"], [], "L2862-2865"),
    (
        "inf.dodge",
        ["sagoma diretta"],
        ["direct template"],
        ["contro una sagoma si schiva", "dodging a template is"],
        "L2008-2014",
    ),
    (
        "inf.order",
        ["due azioni brevi di movimento"],
        ["two short movement skills"],
        [],
        "L504-505, L606-612",
    ),
    (
        "inf.skill_types",
        ["due azioni brevi di movimento"],
        ["two short movement skills"],
        [],
        "L606-612",
    ),
    (
        "wow.line_of_sight",
        ["personaggi nemici che non sono Pet"],
        ["enemy characters that aren't Pets"],
        [],
        "405.3, L628",
    ),
    ("wow.stealth", ["senza nemici adiacenti"], ["no adjacent enemy"], [], "708.4, L1244-1258"),
    (
        "c5.charge_penalties",
        ["al combattente caricato"],
        ["on the fighter it charges"],
        ["infligge a chi carica"],
        "@60098, @83533",
    ),
    (
        "c5.affiliations",
        ["tranne il capo"],
        ["every model but the leader"],
        ["il capo è gratuito", "the leader is free"],
        "@127748, @129181",
    ),
    ("c5.temporary_faith", ["somma dei suoi Aspetti"], ["sum of its Aspects"], [], "@21515-@21973"),
    (
        "c5.boiler",
        ["il bonus non supera"],
        ["the bonus being at most"],
        ["senza superare il valore stampato"],
        "@44435",
    ),
]


# Names a player types (the book's words) that must find the entry the book means by them.
NAMED = [
    ("wm", "soldato", "wm.grunt", "L6562: Soldato is the Grunt"),
    ("wm", "occultamento", "wm.stealth", "L4680-4682, L6538: Occultamento is Stealth, not Celato"),
    ("inf", "esploratori", "inf.troop_types", "L113: Esploratori (ESP)"),
]


@pytest.mark.parametrize(("entry", "italian", "english", "wrong", "book"), FACTS)
def test_the_summary_says_what_the_book_says(
    entry: str, italian: list[str], english: list[str], wrong: list[str], book: str
) -> None:
    e = entries()[entry]
    assert all(w in e.summary.it for w in italian), (book, e.summary.it)
    assert all(w in e.summary.en for w in english), (book, e.summary.en)
    assert not [w for w in wrong if w in e.summary.it or w in e.summary.en], book


@pytest.mark.parametrize(("system", "word", "entry", "book"), NAMED)
def test_the_books_word_names_the_books_rule(system: str, word: str, entry: str, book: str) -> None:
    named = [
        e.id
        for e in entries().values()
        if e.id.startswith(system + ".") and any(n.lower() == word for n in e.names.it)
    ]
    assert named == [entry], book


# Entries whose source pointed elsewhere (so the reader's page was wrong): the heading of the
# rule must be on the first line the source names.
SOURCE_HEADINGS = [
    ("wm.attack_roll", "TIRI DI ATTACCO"),
    ("wm.cavalry_charge", "CARICA DELLA CAVALLERIA"),
    ("wm.critical_hit", "EFFETTI CRITICI"),
]


@pytest.mark.parametrize(("entry", "heading"), SOURCE_HEADINGS)
def test_the_source_line_holds_the_rule(entry: str, heading: str) -> None:
    book = read_book(BOOKS["wm"]).splitlines()
    first = int(re.findall(r"L(\d+)", entries()[entry].source)[0])
    assert heading in book[first - 1], (entry, book[first - 1])
