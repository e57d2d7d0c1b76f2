"""Per-chat choices where the WoW rulebook is silent or ambiguous (digest section 8), each
with a default. The chat's choices are copied into its WoW game (`extra["wow"]["settings"]`)
so the game-state hooks (a kill scored by `/unit damage`) see them too.

- `kill_scorer` (default `opponent`): 403.2c (L542) gives 4/8 VP for a kill but not to whom.
  A kill from `/wow attack attacker=NAME ... apply` scores for the attacker's player. Otherwise
  `opponent` gives it to the victim's only opponent, or with more players to the player whose
  character is taking (or took) the last turn; `last_active` always gives it to that player.
  Nobody scores when that player owns the victim: the group adds it with `/score add`.
- `battleground` (default `yes`): 403.1 (L522) has a destroyed character respawn right before
  its next turn unless the scenario says otherwise; 403.2b (L538) then moves its Personal
  Clock 2 ahead and resets its Health "in a classic Battleground game", never defined in the
  text. `yes`: that; `no`: the scenario without respawning that 403.1 allows (the dead stay
  dead and leave the clocks).
- `card_limit` (default `2`): how many Action Cards a character's bar holds. 100.2 (L15)
  says 3 per character in Constructed, 101.2a (L40) that each player chooses 2 per character
  in the standard scenario, 100.3 any number in a Booster Draft.
- `pet_limit` (default `player`): 304.1 (L408) removes the old Pet when "that player" already
  has one; the digest (8.2) suspects the English says the summoning character. `player`: one
  Pet per player, as the Italian text says; `master`: one Pet per summoning character.
- `forced_reroll` (default `keep_crits`): 105.3 (L132) has some effects force successes to be
  rerolled without saying which. `keep_crits`: plain successes go first (the roller keeps its
  crits); `crits_first`: crits go first (the forcing player takes the crits away).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from rules_core.errors import UserError


class WowSettings(BaseModel):
    kill_scorer: Literal["opponent", "last_active"] = "opponent"
    battleground: Literal["no", "yes"] = "yes"
    card_limit: Literal["2", "3", "any"] = "2"
    pet_limit: Literal["player", "master"] = "player"
    forced_reroll: Literal["keep_crits", "crits_first"] = "keep_crits"

    @property
    def max_cards(self) -> int | None:
        return None if self.card_limit == "any" else int(self.card_limit)


CHOICES: dict[str, tuple[str, ...]] = {
    "kill_scorer": ("opponent", "last_active"),
    "battleground": ("no", "yes"),
    "card_limit": ("2", "3", "any"),
    "pet_limit": ("player", "master"),
    "forced_reroll": ("keep_crits", "crits_first"),
}


def update(current: WowSettings, changes: dict[str, str]) -> WowSettings:
    data = current.model_dump()
    for name, raw in changes.items():
        key = name.lower()
        if key not in CHOICES:
            raise UserError("wow.unknown_setting", name=name[:30], valid=", ".join(CHOICES))
        value = raw.strip().lower()  # a code: the registry reads the words (`values.*`)
        if value not in CHOICES[key]:
            raise UserError("wow.bad_setting", name=key, choices=", ".join(CHOICES[key]))
        data[key] = value
    return WowSettings.model_validate(data)
