"""Worked examples of the Confrontation digest's section 6 that no golden test computes, each
with the reason: the bot does not model that mechanic (it is played on the table, or it is army
building), so there is no rules_core function whose result the example could check."""

from __future__ import annotations

UNCOMPUTABLE: dict[str, str] = {
    "T12": "Mutageno/X dice and their points are not modelled (no mutagen pool or per-die rule)",
    "C10": "steam machines' pressure die and Surriscaldamento are not modelled",
    "C11": "steam machines' pressure die (MOV bonus to the end of the phase) is not modelled",
    "R18": "Tossico/X follow-up wound rolls and their cap by the first hit are not modelled",
    "R22": "Istinto di Sopravvivenza rolls and their reductions are not modelled",
    "R23": "Piercing (Perforante) artillery's STR per fighter hit is not modelled",
    "R24": "zone artillery's template and the STR of the fighters under it are not modelled",
    "G03": "Autorità tokens' generation and holding limit are not modelled (only a free pool)",
    "G04": "the Mutageno dice pool by AP of mutagen fighters is not modelled",
    "G05": "Mutageno/X points per die and per characteristic are not modelled",
    "G06": "Mutageno/X points per die and per characteristic are not modelled",
    "G07": "the Tossico dice pool by AP is not modelled",
    "G12": "zone artillery deviation (distance on the table) is not modelled",
    "G13": "war machines moved by servants (weight, Possanza, MOV) are not modelled",
    "G14": "war machines moved by servants (weight, Possanza, MOV) are not modelled",
    "G15": "mobile war machines' turns by distance are not modelled",
    "G16": "Impatto/X (STR from the distance run, shared between models) is not modelled",
    "G17": "Impatto/X (STR from the distance run, shared between models) is not modelled",
    "G18": "Falci/X (the INI test's difficulty by situation) is not modelled",
    "G23": "counter-magic ranges by rank are table distances: the bot measures nothing",
    "G24": "army building: spell budget by POW is not modelled",
    "G25": "army building: miracle budget by Aspects is not modelled",
    "G29": "army building: virtue costs are not modelled",
    "G30": "Comando/X (FEAR of the commanded fighters) is not modelled",
    "G31": "tournament army building (cards per profile by AP) is not modelled",
    "G32": "army building: models per card by AP is not modelled",
    "G33": "army building: percentage limits of fighters by AP are not modelled",
    "G34": "army building: consecrations and spell copies by AP are not modelled",
    "G35": "army building: blood brothers' AP rounding is not modelled",
}
