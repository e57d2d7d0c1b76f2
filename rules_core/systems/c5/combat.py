"""A melee exchange between two fighters, blow by blow (digest §3.1): the combat phase's passes
of arms alternate between the fighters, each blow spending one of the striker's attack dice,
the initiative test's winner striking first [BG, C3 skeleton, medium confidence]. A defence
that parries can win its fighter one more attack die: Contrattacco when it beats the attack by
2 or more (1 or more when printed on a Character's or warrior-mage's card, @64709), Ambidestro
on any parry (@53372); those dice last until the end of the combat. When an attack on a fighter
with either ability fails automatically (the natural-1 rule, @4060), its player may instead give
up the defence die for one more attack die (@64709, @53372): `forgo`.

The exchange is state (`GameState.extra["c5_combats"]`): who fights, each side's attack dice
left and whose blow comes next. A blow out of turn is refused with the name of the fighter
whose blow it is; when neither side has attack dice left, or a fighter dies, the combat ends.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rules_core.errors import UserError
from rules_core.game.models import GameState
from rules_core.rules.text import fold
from rules_core.systems.base import Note
from rules_core.systems.c5.system import C5

COMBATS_KEY = "c5_combats"
MAX_DICE = 10
Counter = Literal["none", "contrattacco", "contrattacco_printed", "ambidestro"]
COUNTERS: tuple[Counter, ...] = ("none", "contrattacco", "contrattacco_printed", "ambidestro")
# The margin a parry must beat the attack by to win an attack die (@64709, @53372).
MARGIN = {"contrattacco": 2, "contrattacco_printed": 1, "ambidestro": 0}


class Side(BaseModel):
    fighter: str
    attack: int = Field(ge=0, le=2 * MAX_DICE)  # attack dice left
    counter: Counter = "none"


class Combat(BaseModel):
    sides: list[Side] = Field(min_length=2, max_length=2)
    next: int = Field(ge=0, le=1)  # the side whose blow it is
    # The side that may forgo its defence die for an attack die: the last blow, on it, failed
    # automatically and it has Contrattacco or Ambidestro (@64709, @53372). Until its choice,
    # or the next blow, a combat with no attack dice left stays open.
    choice: int | None = Field(default=None, ge=0, le=1)

    def index(self, fighter: str) -> int | None:
        key = fold(fighter)
        return next((i for i, s in enumerate(self.sides) if fold(s.fighter) == key), None)


def combats(state: GameState) -> list[Combat]:
    return [Combat.model_validate(c) for c in state.extra.get(COMBATS_KEY, [])]


def _save(state: GameState, found: list[Combat]) -> None:
    if found:
        state.extra[COMBATS_KEY] = [c.model_dump() for c in found]
    else:
        state.extra.pop(COMBATS_KEY, None)


def combat_of(state: GameState, fighter: str) -> Combat | None:
    return next((c for c in combats(state) if c.index(fighter) is not None), None)


def start(
    state: GameState,
    first: str,
    second: str,
    dice: tuple[int, int],
    counters: tuple[Counter, Counter] = ("none", "none"),
) -> tuple[GameState, list[Note]]:
    """Open a combat in the combat phase: `first` won the initiative test and strikes first;
    `dice` are the attack dice each allocated (first's, second's)."""
    if C5.phases[state.phase] != "combat":
        raise UserError("c5.melee_not_combat")
    new = state.clone()
    names = []
    for name in (first, second):
        unit = next((u for u in new.units if fold(u.name) == fold(name)), None)
        if unit is None:
            raise UserError("game.no_unit", name=name[:40])
        if unit.destroyed:
            raise UserError("c5.attacker_dead", unit=unit.name)
        if combat_of(new, unit.name) is not None:
            raise UserError("c5.already_in_combat", unit=unit.name)
        names.append(unit.name)
    if fold(names[0]) == fold(names[1]):
        raise UserError("c5.combat_two_fighters")
    if not any(dice):
        raise UserError("c5.combat_no_dice")
    combat = Combat(
        sides=[
            Side(fighter=n, attack=d, counter=c)
            for n, d, c in zip(names, dice, counters, strict=True)
        ],
        next=0 if dice[0] else 1,
    )
    _save(new, [*combats(new), combat])
    who = combat.sides[combat.next].fighter
    return new, [("c5.note.combat_started", {"a": names[0], "b": names[1], "unit": who})]


def check_turn(state: GameState, striker: str | None, target: str) -> None:
    """A blow in a recorded combat must be the striker's whose blow it is, on its opponent."""
    found = combat_of(state, striker or target)
    if found is None:
        return
    due = found.sides[found.next]
    other = found.sides[1 - found.next]
    if not due.attack:  # nobody has attack dice: only the pending choice is left
        raise UserError("c5.counter_choice_pending", unit=due.fighter)
    if striker is None or fold(striker) != fold(due.fighter) or fold(target) != fold(other.fighter):
        raise UserError("c5.not_your_blow", unit=due.fighter, target=other.fighter)


def after_blow(
    state: GameState,
    striker: str,
    parried_by: int | None,
    killed: bool,
    auto_failed: bool = False,
) -> list[Note]:
    """Record a blow in the striker's combat (mutable `state`): one attack die spent; a parry
    beating the attack by `parried_by` may win the defender a die (Contrattacco, Ambidestro);
    an attack that `auto_failed` lets such a defender choose to forgo its defence die for an
    attack die (`forgo`); the next blow is the opponent's while it has dice, else the
    striker's; the combat ends when both are out of dice, and no choice is pending, or a
    fighter died."""
    found = combats(state)
    combat = next((c for c in found if c.index(striker) is not None), None)
    if combat is None:
        return []
    notes: list[Note] = []
    me = combat.index(striker)
    assert me is not None
    them = 1 - me
    mine, theirs = combat.sides[me], combat.sides[them]
    mine.attack = max(0, mine.attack - 1)
    margin = MARGIN.get(theirs.counter)
    if parried_by is not None and margin is not None and parried_by >= margin:
        theirs.attack += 1
        notes.append(("c5.note.counter_die", {"unit": theirs.fighter}))
    combat.choice = them if auto_failed and margin is not None and not killed else None
    if killed or not (mine.attack or theirs.attack or combat.choice is not None):
        found.remove(combat)
        notes.append(("c5.note.combat_over", {"a": mine.fighter, "b": theirs.fighter}))
    elif not (mine.attack or theirs.attack):  # only the choice is left
        combat.next = them
        notes.append(("c5.note.counter_choice_last", {"unit": theirs.fighter}))
    else:
        if combat.choice is not None:
            notes.append(("c5.note.counter_choice", {"unit": theirs.fighter}))
        combat.next = them if theirs.attack else me
        left = {"unit": combat.sides[combat.next].fighter}
        notes.append(("c5.note.next_blow", {**left, "n": combat.sides[combat.next].attack}))
    _save(state, found)
    return notes


def forgo(state: GameState, fighter: str) -> tuple[GameState, list[Note]]:
    """After an attack on `fighter` failed automatically, its player gives up the defence
    die for one more attack die (Contrattacco @64709, Ambidestro @53372); lost, like every
    die won so, at the end of the combat. Its blow comes next."""
    new = state.clone()
    found = combats(new)
    combat = next((c for c in found if c.index(fighter) is not None), None)
    if combat is None:
        raise UserError("c5.no_combat", unit=fighter[:40])
    me = combat.index(fighter)
    assert me is not None
    side = combat.sides[me]
    if combat.choice != me:
        raise UserError("c5.no_counter_choice", unit=side.fighter)
    side.attack += 1
    combat.choice = None
    combat.next = me
    _save(new, found)
    return new, [
        ("c5.note.counter_forgo", {"unit": side.fighter}),
        ("c5.note.next_blow", {"unit": side.fighter, "n": side.attack}),
    ]


def end(state: GameState, fighter: str) -> tuple[GameState, list[Note]]:
    """Close a fighter's combat before its dice run out (the players' call)."""
    new = state.clone()
    found = combats(new)
    combat = next((c for c in found if c.index(fighter) is not None), None)
    if combat is None:
        raise UserError("c5.no_combat", unit=fighter[:40])
    found.remove(combat)
    _save(new, found)
    a, b = (s.fighter for s in combat.sides)
    return new, [("c5.note.combat_over", {"a": a, "b": b})]
