"""Worked examples of the Age of Sigmar digest (section 6) that no test can compute, with the
reason. Every other id of that section is in the name of a golden test under
tests/systems/aos (test_examples_coverage.py checks both lists against the digest)."""

from __future__ import annotations

UNCOMPUTABLE: dict[str, str] = {
    "E7": "coherency is measured between models on the table: the bot knows no positions",
    "E10": "Falco dei Cieli's effect is ability text (no battleshock, wholly within 12\"): "
    "the bot keeps no faction abilities to apply it to",
    "E12": "Pitched Battle profiles (points, unit sizes, roles) are not data the bot holds",
    "E13": "Battleline-if roles of a faction's army are army-building data the bot lacks",
    "E14": "the battlepack's points limit needs unit points the bot does not hold",
    "E15": "battlepack role limits (Leader, Behemoth) need army-building roles the bot lacks",
    "E16": "subfaction keywords are army-building data, not a game computation",
    "E17": "qualitative: a flying model's path on a diagram, no numbers to compute",
    "E18": "a cross-reference format of the rulebook text ('vedi 2.0'), a rule-search concern, "
    "not a game computation",
    "R20": "no rule of the bot reads a random Attacks value outside an attack",
    "R39": "Smite's D3 mortal wounds to an enemy PRIEST: prayer warscrolls are not in the bot",
    "R41": 'Arcane Bolt is a delayed effect aimed at a unit 2" away: the bot keeps no pending '
    "spells and measures no distances",
    "R42": "Look Out, Sir! needs the distance from the HERO to its own units, which players "
    "measure; the bot only takes the resulting -1 as hit_mod",
    "R43": "cover depends on terrain and model positions the bot can't see (players give +1 "
    "as save_mod)",
    "R45": "monstrous rampages are not tracked by the bot",
    "R46": "terrain features and their sizes are not modelled",
    "R47": "unit points and reinforcements are army-building data the bot lacks",
    "R48": "allied units are army-building data the bot lacks",
    "R49": "reserves are not tracked by the bot",
}
