"""The one step model every game's resolution returns.

A resolution (an attack, a test, a heal...) is a chain of `Step`s so the reply can show the
whole chain: which dice were rolled, what modified them, the number to reach, what they came
to and what that means. The five games fill the same fields; what only one game knows (an
Infinity critical's side, a Confrontation wound column) goes in `detail`, under keys that
game's view reads.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

CAP = "cap"
"""Name of the modifier that brings the others back within a game's limit (Age of Sigmar's
+1/-1 cap on hit, wound and save rolls): what was asked for is every modifier but this one."""

DetailValue = int | str | bool | list[str] | None


class Modifier(BaseModel):
    """One named modifier of a roll; its name is a catalogue key of the game (`wm.mod.aim`,
    `inf.mod.cover`...), or `CAP`."""

    model_config = ConfigDict(frozen=True)

    name: str
    value: int


class Step(BaseModel):
    """One link of a resolution chain."""

    name: str
    """What the step is, a catalogue key of the game: attack | hit | wound | save | damage..."""
    dice: list[int] = Field(default_factory=list)
    """Every face rolled, in rolling order: the first rolls, then any re-rolls."""
    rerolled: list[int] = Field(default_factory=list)
    """Positions in the first rolls that were rolled again (their new faces end `dice`)."""
    final: list[int] = Field(default_factory=list)
    """The unmodified faces that count, after re-rolls (empty when no die was re-rolled and
    the game does not list them)."""
    modifiers: list[Modifier] = Field(default_factory=list)
    """Modifiers applied to the roll; their sum is the net modifier."""
    target: int | None = None
    """The number to reach: a DEF to reach, an ARM to beat, a value to roll under, a 4+."""
    total: int | None = None
    """What the step came to: the modified roll, the successes, the damage..."""
    outcome: str = ""
    """What the total means, a catalogue key: hit | miss | critical | pass | fail | ..."""
    detail: dict[str, DetailValue] = Field(default_factory=dict)
    """What only this game records about the step (keys documented where the game sets them)."""

    def detail_int(self, key: str) -> int:
        """An integer entry of `detail` (0 when it is missing or None)."""
        value = self.detail.get(key)
        return value if isinstance(value, int) else 0

    @property
    def first_rolls(self) -> list[int]:
        """The faces before any re-roll."""
        return self.dice[: len(self.dice) - len(self.rerolled)]

    @property
    def modifier(self) -> int:
        """The net modifier applied."""
        return sum(m.value for m in self.modifiers)

    @property
    def modifier_asked(self) -> int:
        """The modifier asked for, before any cap."""
        return sum(m.value for m in self.modifiers if m.name != CAP)


def net_modifiers(value: int, *, asked: int | None = None, name: str = "mod") -> list[Modifier]:
    """A single net modifier as a list (empty when 0); when a cap brought `asked` down to
    `value`, the modifier asked for followed by the cap that undid part of it."""
    if asked is None or asked == value:
        return [Modifier(name=name, value=value)] if value else []
    return [
        m
        for m in (Modifier(name=name, value=asked), Modifier(name=CAP, value=value - asked))
        if m.value
    ]
