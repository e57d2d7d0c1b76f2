"""The worked examples of the Infinity digest's section 6 (../shared/rules-digests/infinity.md)
that no golden test reproduces, each with the reason it cannot be computed here. Every other id
is in the name of a golden test under tests/systems/inf (test_examples_coverage checks both)."""

from __future__ import annotations

UNCOMPUTABLE: dict[str, str] = {
    "G-12": "Army building (Special Weapon Cost per 300 points, L225-230) is not modelled: "
    "the bot keeps a unit's stats and points, not its SWC.",
    "G-13": "Mercenary companies and AVA limits (L198-209) are army-list validation, which the "
    "bot does not do.",
    "G-23": "Falling damage from the height of a jump (L2785-2787) is not modelled; only the "
    "resulting ARM roll against Damage 5 would be, and the book gives no roll.",
    "G-25": "Movement (a Prone Dodge halving 5 cm, L1907-1909) is not tracked by the bot.",
    "G-27": "Multispectral Visor, Camouflage and zero-visibility modifiers (L3857-3885) are not "
    "modelled, and the example gives no attributes or dice.",
}
