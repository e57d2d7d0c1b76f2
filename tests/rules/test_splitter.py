"""The importer's splitter: on the project's own rulebook-like fixtures (tests/fixtures/rulebooks)
always, and on the five real transcripts ($WARGAME_RULEBOOKS, see tests/rulebooks.py) it finds
each book's own headings at the lines (or character offsets) that the digests' tables of
contents give (section 7 of each digest)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.rules.splitter import MAX_PASSAGE, split_text
from rules_core.rules.text import fold
from tests.rulebooks import read_book

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rulebooks"

# (seed file, [(line or offset, a fragment of the heading found there)]), from each digest's §7.
TOC = {
    "000_a386fedfef0f54d6.txt": [  # warmachine.md §7
        (10, "panoramica sul gioco"),
        (79, "sommario di gioco"),
        (95, "di cosa hai bisogno"),
        (118, "dadi e arrotondamento"),
        (137, "abbreviazioni dei dadi"),
        (148, "dadi aggiuntivi e tiri potenziati"),
        (176, "linee guida generali"),
        (181, "termini di gioco"),
        (252, "priorita delle regole"),
        (343, "misurare le distanze"),
        (390, "modelli"),
        (407, "modelli indipendenti"),
        (527, "profilo dei modelli"),
    ],
    "001_3302d92f440b0a0b.txt": [  # age-of-sigmar.md §7.1
        (67, "1.0 concetti base"),
        (71, "1.1 fazioni"),
        (75, "1.2 modelli"),
        (79, "1.2.1"),
        (83, "1.2.2 rimosso dal gioco"),
        (87, "1.3 unita"),
        (145, "1.5.2 dadi"),
        (229, "4.0 round di battaglia"),
        (235, "4.1"),
        (245, "5.0 sequenza del turno"),
        (256, "6.0 punti comando"),
        (409, "10.0 fase di tiro"),
        (495, "13.0 attaccare"),
    ],
    "002_1d2de6f2890ae553.txt": [  # wow-minis.md §7
        (7, "100 costruire il proprio party"),
        (28, "101 iniziare una partita"),
        (56, "102 vincere e perdere"),
        (83, "103 contraddizioni"),
        (100, "104 valori numerici"),
        (112, "105 dadi"),
        (154, "106 orientamento"),
        (166, "107 simultaneita"),
        (182, "200 generale"),
        (196, "201 carte personaggio"),
        (251, "202 carte azione"),
        (294, "300 generale"),
        (318, "301 buff e debuff"),
    ],
    "003_27b81155ce3a4b9f.txt": [  # infinity.md §7
        (6, "introduzione"),
        (70, "preparazione"),
        (87, "le tue truppe"),
        (103, "tipologie delle unita"),
        (128, "classificazione delle truppe"),
        (129, "come si organizza un esercito"),
        (239, "attributi"),
        (306, "linea di tiro e zona di controllo"),
        (357, "meccaniche di gioco"),
        (400, "lancio normale"),
        (410, "lanci a confronto"),
        (512, "ordini e riserva degli ordini"),
    ],
    "004_860f6fb4adb088a0.txt": [  # confrontation.md §7.1 (character offsets)
        (2104, "ferire un avversario"),
        (4060, "lanciare i dadi"),
        (5779, "livelli di ferite"),
        (10224, "penalita ferite"),
        (11190, "nozione di contatto"),
        (15138, "tiro di tattica"),
        (16499, "passare proprio turno"),
        (20741, "livelli di altitudine"),
        (22512, "guerrieri maghi e monaci guerrieri"),
        (23726, "lancio di incantesimi e miracoli"),
        (24209, "effetti di incantesimi e miracoli"),
        (31677, "macchine da guerra"),
        (38139, "artiglieria perforante"),
        (40508, "artificiere"),
        (40747, "artiglieria a zona"),
    ],
}


@pytest.mark.parametrize("seed", sorted(TOC))
def test_headings_match_the_table_of_contents(seed: str) -> None:
    result = split_text(read_book(seed))
    found = {h.location: fold(h.title) for h in result.headings}
    matched = [(where, frag) for where, frag in TOC[seed] if frag in found.get(where, "")]
    missing = [
        (where, frag, found.get(where)) for where, frag in TOC[seed] if (where, frag) not in matched
    ]
    assert len(matched) >= 10, missing
    assert missing == []
    assert all(len(p.text) <= MAX_PASSAGE for p in result.passages)
    assert result.unit == ("offset" if seed.startswith("004") else "line")


def test_numbered_subrules_become_numbered_passages_in_a_transcript() -> None:
    result = split_text(read_book("002_1d2de6f2890ae553.txt"))
    by_number = {p.number: p for p in result.passages if p.number}
    assert by_number["105.1a"].location == 120
    assert by_number["105.1a"].heading == ["105 Dadi"]
    assert "102.2" in by_number and by_number["102.2"].heading == ["102 Vincere e Perdere"]


def line_of(text: str, fragment: str) -> int:
    return next(i + 1 for i, line in enumerate(text.splitlines()) if fragment in line)


def test_numbered_rules_glued_to_their_text_become_numbered_passages() -> None:
    text = (FIXTURES / "numbered.txt").read_text(encoding="utf-8")
    result = split_text(text)
    assert result.unit == "line"
    assert [h.title for h in result.headings] == [
        "100 Preparare la banda",
        "101 Iniziare la sfida",
        "102 Vincere la sfida",
        "105 Dadi",
        "MOVIMENTO E TERRENO",
        "Terreno accidentato",
        "CORPO A CORPO",
    ]  # the running header "SCARAMUCCE - REGOLAMENTO" (3 pages) is not a heading
    by_number = {p.number: p for p in result.passages if p.number}
    assert by_number["105.1a"].location == line_of(text, "105.1aUn risultato")
    assert by_number["105.1a"].heading == ["105 Dadi"]
    assert by_number["102.2"].heading == ["102 Vincere la sfida"]
    assert "Una banda senza miniature" in by_number["102.2"].text
    terrain = next(p for p in result.passages if "fango" in p.text)
    assert terrain.heading == ["MOVIMENTO E TERRENO", "Terreno accidentato"]
    assert not any("REGOLAMENTO" in p.text for p in result.passages)


def test_a_book_on_one_line_is_split_at_its_inline_capital_headings() -> None:
    text = (FIXTURES / "one-line.txt").read_text(encoding="utf-8")
    assert "\n" not in text.strip()
    result = split_text(text)
    assert result.unit == "offset"
    titles = [
        "INTRODUZIONE AL GIOCO",
        "STATO DI SALUTE (4)",
        "LANCIARE I DADI",
        "TIRO DI CORAGGIO",
        "MACCHINE DA ASSEDIO",
    ]
    assert [(h.location, h.title) for h in result.headings] == [(text.index(t), t) for t in titles]
    assert all(len(p.text) <= MAX_PASSAGE for p in result.passages)
    dice = [p for p in result.passages if p.heading == ["LANCIARE I DADI"]]
    assert dice and all(p.location == text.index("LANCIARE I DADI") for p in dice)


def test_markdown_and_page_lines() -> None:
    text = "# Rules\n\nIntro text.\n\n## Shooting\n\nRoll to hit.\n\n12\n\nMore about shooting.\n"
    result = split_text(text)
    assert [h.title for h in result.headings] == ["Rules", "Shooting"]
    last = result.passages[-1]
    assert last.heading == ["Rules", "Shooting"] and last.page == 12
    assert "More about shooting." in last.text


def test_long_sections_are_cut_into_passages_of_bounded_size() -> None:
    text = "# Big\n\n" + "\n\n".join(f"Paragraph {i} " + "word " * 60 for i in range(40))
    result = split_text(text)
    assert len(result.passages) > 5
    assert all(len(p.text) <= MAX_PASSAGE for p in result.passages)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=3000))
def test_any_text_splits_without_error(text: str) -> None:
    result = split_text(text)
    assert all(len(p.text) <= MAX_PASSAGE for p in result.passages)
