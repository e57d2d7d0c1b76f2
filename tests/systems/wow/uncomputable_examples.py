"""Digest section 6 examples (wow-minis.md) that can't be computed by the bot, with why. Every
other id of that section is a golden test whose name contains the id
(test_example_coverage.py checks that each id is in exactly one of the two)."""

from __future__ import annotations

NO_BOARD = "the bot keeps no map: positions, range, movement and line of sight are the players'"
NO_TEXT = "card texts and their effects aren't modelled; players apply them by hand"

UNCOMPUTABLE: dict[str, str] = {
    "E1": f"103.2 'cannot be attacked' beats 'attack it': {NO_TEXT}",
    "E4": f"302.3 Forms lock out other payment abilities: {NO_TEXT} (no Forms)",
    "E5": f"302.3 Shadowform allows Mind Blast: {NO_TEXT} (no Forms)",
    "E7": f"405.2 range-1 targets: {NO_BOARD}",
    "E8": f"405.2a minimum range: {NO_BOARD}",
    "E13": "704.2c trigger waves with Health below 0 kept mid-wave: triggered abilities "
    "(Rejuvenation, Corruption) are not modelled",
    "E13b": "704.2c trigger waves, the other order: triggered abilities are not modelled",
    "E14": "704.2b triggers read their condition right after the event: triggered abilities "
    "are not modelled",
    "E15": f"704.2c same-name triggers once per character: {NO_TEXT}",
    "E16": f"704.3b same-name ongoing effects don't stack (Devotion Aura): {NO_TEXT}",
    "E17": f"705.1b only the possible parts of a crit text resolve: {NO_TEXT}",
    "E18": f"708.5c Cleave must include the Taunt character: {NO_BOARD}; no Taunt or Cleave",
    "E19": f"708.4b Stealth ends after moving 2 spaces: {NO_BOARD}",
    "E20": f"302.1 a Form keeps race, class and faction: {NO_TEXT} (no Forms)",
    "D16": "703.1c cost additions and ordered reductions: players give the total tick cost "
    "(cost=N); cost-changing effects are not modelled",
    "D19": f"404.1a movement points and cover hexes: {NO_BOARD}",
    "D22": "602.4 the 'attacked but took no damage' React window: React windows are not "
    "modelled (a React card is played with /wow act NAME card=... react)",
    "D23": f"708.4a Stealth adds a die and stops enemy Reacts: {NO_TEXT} (no Stealth)",
}
