"""WARMACHINE worked examples (digest section 6) that no test can compute, with the reason:
what the bot would need to know that it does not model. Every other id is a golden test named
with it (test_examples_coverage.py checks that each id is in exactly one of the two places)."""

from __future__ import annotations

GEOMETRY = (
    "needs the table's geometry (positions, bases, distances, LOS), which the bot does not track"
)
ARMY = "army building (points, warjack points, Field Allowance) is not in the WARMACHINE game state"
NO_ABILITIES = (
    "model abilities and spells are not modelled: the player applies their effect as a modifier"
)

UNCOMPUTABLE: dict[str, str] = {
    "G3": NO_ABILITIES
    + " (which named effects stack is the player's call; the sum goes in hit_mod=)",
    "G4": NO_ABILITIES + " ('cannot be knocked down' is a model rule)",
    "G8": ARMY,
    "G9": ARMY,
    "G10": ARMY,
    "G12": "movement distances are not computed (" + GEOMETRY + ")",
    "G13": "weapon ROF and special attacks are not counted per activation",
    "G18": "choosing the random model hit in melee " + GEOMETRY,
    "G23": NO_ABILITIES + " (extra attacks from two spells)",
    "G27": "force-field boxes are not part of the damage grid notation",
    "G28": NO_ABILITIES + " (immunities)",
    "G33": "field promotion needs unit roles (Leader, Grunts, Officer), which units do not carry",
    "G34": GEOMETRY,
    "G35": "activation sequences (cast, move, attack) are not tracked",
    "G36": NO_ABILITIES + " (upkeep spells and their slots)",
    "G37": NO_ABILITIES + " (upkeep spells)",
    "G38": "control areas and channeling " + GEOMETRY,
    "G39": "impact attacks of a charge " + GEOMETRY,
    "G42": "the moment of a terror check " + GEOMETRY,
    "G43": "fleeing models and terror are not tracked",
    "G44": "structures (capacity, ARM per material) are not modelled",
    "G45": "structures (capacity, ARM per material) are not modelled",
    "G46": "structures collapsing (POW = ARM x storeys) are not modelled",
    "G47": GEOMETRY,
    "G48": GEOMETRY,
    "G49": GEOMETRY,
}
