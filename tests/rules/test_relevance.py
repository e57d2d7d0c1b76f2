"""The relevance set: for each game, queries players really type (Italian and English, typos,
abbreviations, rule numbers) and the entry each should find. Reports top-1 and top-3."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot.rules_data import rule_index
from rules_core.rules.models import SYSTEMS

RELEVANCE = Path(__file__).resolve().parent / "relevance"


def queries(system: str) -> list[tuple[str, str]]:
    with (RELEVANCE / f"{system}.toml").open("rb") as fh:
        data = tomllib.load(fh)
    return [(q["q"], q["expect"]) for q in data["query"]]


@pytest.mark.parametrize("system", SYSTEMS)
def test_relevance(system: str) -> None:
    cases = queries(system)
    assert len(cases) >= 25
    index = rule_index()
    unknown = [expect for _, expect in cases if expect not in index.entries]
    assert unknown == []
    top1 = top3 = 0
    misses = []
    for query, expect in cases:
        ids = [h.entry.id for h in index.search(query, system=system, limit=3)]
        top1 += ids[:1] == [expect]
        top3 += expect in ids
        if ids[:1] != [expect]:
            misses.append((query, expect, ids))
    n = len(cases)
    print(f"{system}: top-1 {top1}/{n} = {top1 / n:.0%}, top-3 {top3}/{n} = {top3 / n:.0%}")
    assert top1 / n >= 0.90, misses
    assert top3 / n >= 0.98, misses


@pytest.mark.parametrize(("query", "lang"), [("mantenimento", "it"), ("maintenance", "en")])
def test_the_maintenance_phase_is_found_by_its_one_word(query: str, lang: str) -> None:
    """`/regola mantenimento` answered the upkeep spells' entry ("Incantesimi mantenibili"): the
    phase's entry knew only "Fase di Mantenimento", and the upkeep one "mantenimento degli
    incantesimi". A player naming the phase types the one word."""
    hits = rule_index().search(query, system="wm", limit=1)
    assert [h.entry.id for h in hits] == ["wm.phases"], (lang, [h.entry.id for h in hits])
